"""What an episode cost, read from its trace: LLM calls per inner step, where the planner's time
went (a method's outer step not counted on top of its inner steps), who decided, and refuted
method outcomes; the eval's costs table and lines; the planner bench's costs text."""

from __future__ import annotations

import json

import pytest

from agent.bench import planner_bench
from agent.eval import (
    EPISODES_FILE, DecisionCounts, EpisodeRecord, append_episode, costs_table, costs_text, html_page, read_episodes,
    summarize, trace_costs,
)
from agent.eval.episode import EpisodeSpec
from agent.eval.records import EpisodeTimes
from agent.eval.suite import load_suite
from agent.eval.tables import DECISIONS_NOTE
from agent.llm import Capabilities, Usage
from agent.llm.scripted import ScriptedBackend
from agent.paths import SERVER_CONFIG_DIR
from agent.planner import RunResult
from agent.trace.schema import (
    Decisions, InnerLoop, LlmCall, MethodEnd, MethodStart, MethodStep, OuterStep, RunEnd, RunStart, ToolCall,
    ToolResult,
)

OK = {"status": "success", "data": None, "value": "ok"}


def call(call_id: int, tool: str, tool_type: str, depth: int, outer: int, inner: int | None = None) -> ToolCall:
    return ToolCall(call_id=call_id, tool=tool, tool_type=tool_type, args={}, depth=depth, outer_step=outer,
                    inner_step=inner, pose=None)


def result(call_id: int, tool: str, depth: int, duration_s: float, outer: int, inner: int | None = None) -> ToolResult:
    return ToolResult(call_id=call_id, tool=tool, depth=depth, outer_step=outer, inner_step=inner, result=OK,
                      duration_s=duration_s, pose_before=None, pose_after=None)


def llm(latency_s: float) -> LlmCall:
    return LlmCall(backend="x", kind="gen", prompt_sha256="0", prompt_chars=1, prompt_added="", completion="ok",
                   tokens_in=1, tokens_prefilled=1, tokens_out=1, latency_s=latency_s)


def decisions(who: str) -> Decisions:
    """e.g. "model forced model": who decided the tool, the args and what next."""
    return Decisions(**dict(zip(("tool", "args", "next"), who.split(), strict=True)))


def outer(step: int, tool: str, wall_s: float, tool_s: float, calls: int, seconds: float, who: str) -> OuterStep:
    return OuterStep(outer_step=step, tool=tool, action={"type": tool}, result=OK, wall_s=wall_s, tool_s=tool_s,
                     llm=Usage(calls=calls, seconds=seconds), decided=decisions(who), done=False)


def inner(step: int, tool: str, wall_s: float, tool_s: float, calls: int, seconds: float, who: str) -> MethodStep:
    loop = InnerLoop(method_name="explore-area", inner_step=step, max_steps=10, outer_step=2)
    return MethodStep(outer_step=2, tool=tool, action={"type": tool}, result=OK, wall_s=wall_s, tool_s=tool_s,
                      llm=Usage(calls=calls, seconds=seconds), decided=decisions(who), inner_loop=loop)


def run_events(*, ended: bool = True) -> list:
    """Step 1 looks (a primitive); step 2 runs explore-area for two inner steps, the second of which
    calls an llm tool (0.4 s of LLM inside its 0.6 s), and ends in an outcome whose check is false."""
    events = [
        RunStart(goal="find sky", max_steps=5, tools=["mc-look", "explore-area"], llm="x",
                 capabilities=Capabilities(select=True, json_schema=True)),
        llm(1.0), llm(0.5), call(1, "mc-look", "primitive", 0, 1), result(1, "mc-look", 0, 0.5, 1), llm(0.5),
        outer(1, "mc-look", 3.0, 0.5, 3, 2.0, "model forced model"),
        llm(0.5), call(2, "explore-area", "method", 0, 2), MethodStart(method="explore-area", args={}, outer_step=2,
                                                                        max_steps=10),
        llm(0.4), llm(0.4), call(3, "mc-explore", "python", 1, 2, 1), result(3, "mc-explore", 1, 1.0, 2, 1),
        inner(1, "mc-explore", 2.0, 1.0, 2, 0.8, "model protocol checked"),
        llm(0.5), call(4, "summarize", "llm", 1, 2, 2), llm(0.4), result(4, "summarize", 1, 0.6, 2, 2),
        inner(2, "summarize", 1.5, 0.6, 2, 0.9, "protocol model runtime"),
        MethodEnd(method="explore-area", outer_step=2, outcome="FOUND_SKY", inner_steps=2, summary="", wall_s=3.6,
                  outcome_holds=False),
        result(2, "explore-area", 0, 3.6, 2),
        outer(2, "explore-area", 5.0, 3.6, 6, 2.2, "model model model"),
    ]
    if ended:
        events.append(RunEnd(goal="find sky", outcome="max_steps", reason="", steps=2, inner_steps=2, wall_s=8.5,
                             usage=Usage(calls=9, seconds=4.2)))
    return events


def test_a_methods_outer_step_is_not_counted_on_top_of_its_inner_steps():
    costs = trace_costs(run_events())
    # LLM: both outer steps (the second holds its inner steps'); tools: the look, then the inner
    # steps' tools less the 0.4 s of LLM inside the llm tool; other: the rest of the run.
    assert (costs.run_s, costs.llm_s, costs.tool_s, costs.other_s) == pytest.approx((8.5, 4.2, 1.7, 2.6))
    assert (costs.inner_steps, costs.inner_llm_calls, costs.llm_calls_per_inner_step) == (2, 4, 2.0)


def test_who_decided_is_counted_over_every_step_and_a_false_outcome_is_refuted():
    events = run_events()
    events.insert(-1, MethodEnd(method="explore-area", outer_step=3, outcome="SUCCESS", inner_steps=1, summary="",
                                wall_s=1.0, outcome_holds=None))
    events.insert(-1, MethodEnd(plan=1, method="dig-out", outer_step=1, outcome="FREE", inner_steps=1, summary="",
                                wall_s=1.0, outcome_holds=False))
    costs = trace_costs(events)
    assert costs.decisions == DecisionCounts(model=7, forced=1, protocol=2, checked=1, runtime=1)
    assert costs.decisions.total == 12
    assert costs.refuted_outcomes == ["explore-area FOUND_SKY at step 2", "dig-out FREE at step 1 of plan 1"]


def test_a_cut_off_run_takes_its_steps_wall_time_and_a_lone_method_its_inner_steps():
    cut = trace_costs(run_events(ended=False))
    assert (cut.run_s, cut.llm_s, cut.other_s) == pytest.approx((8.0, 4.2, 2.1))
    lone = trace_costs([e for e in run_events() if not isinstance(e, OuterStep)])  # as `mcagent bench planner` runs it
    assert (lone.llm_s, lone.tool_s, lone.run_s) == pytest.approx((1.7, 1.2, 8.5))
    assert trace_costs([]).llm_calls_per_inner_step is None


def test_an_episode_record_takes_its_costs_from_the_trace(tmp_path):
    suite, tasks = load_suite(SERVER_CONFIG_DIR / "eval" / "explore.yaml")
    spec = EpisodeSpec(suite=suite.name, task=tasks[0], seed=0, llm="random", options=suite.planner, folder=tmp_path)
    spec.trace_path.write_text("".join(e.model_dump_json() + "\n" for e in run_events()))
    done = RunResult(outcome="max_steps", reason="out of steps", steps=2, inner_steps=2, wall_s=8.5,
                     usage=Usage(calls=9, seconds=4.2))
    record = spec.record(done, done.reason, EpisodeTimes(wall_s=11.0))
    assert (record.inner_llm_calls, record.llm_calls_per_inner_step, record.run_s) == (4, 2.0, 8.5)
    assert (record.llm_s, record.tool_s, record.other_s) == pytest.approx((4.2, 1.7, 2.6))
    assert record.decisions.model == 7 and record.refuted_outcomes == ["explore-area FOUND_SKY at step 2"]
    failed = spec.record(None, "timed out", EpisodeTimes(wall_s=900.0))  # no figures, but the refuted outcome still counts
    assert failed.run_s is None and failed.refuted_outcomes == record.refuted_outcomes
    assert EpisodeSpec(**{**spec.model_dump(), "folder": tmp_path / "none"}).record(done, "", EpisodeTimes(wall_s=1.0)).run_s is None


def episode(scenario: str = "cave", llm: str = "llamacpp", seed: int = 0, **fields) -> EpisodeRecord:
    values = dict(
        suite="demo", scenario=scenario, seed=seed, llm=llm, goal="find sky", check="sky_visible", outcome="success",
        success=True, final_check=True, claims=0, claims_refused=0, steps=2, inner_steps=4, llm_calls=20,
        tokens_in=1000, tokens_out=100, wall_s=12.0, trace=f"runs/{scenario}-{seed}/trace.jsonl", reason="verified",
    )
    return EpisodeRecord(**{**values, **fields})


def timed(seed: int = 0, **fields) -> EpisodeRecord:
    return episode(seed=seed, **{**dict(inner_llm_calls=6, llm_calls_per_inner_step=1.5, run_s=10.0, llm_s=6.0,
                                        tool_s=3.0, other_s=1.0, decisions=DecisionCounts(model=4, checked=2)),
                                 **fields})


def test_an_old_record_still_loads_with_no_figures(tmp_path):
    path = tmp_path / EPISODES_FILE
    old = episode().model_dump(exclude={"inner_llm_calls", "llm_calls_per_inner_step", "run_s", "llm_s", "tool_s",
                                        "other_s", "decisions", "refuted_outcomes"})
    path.write_text(json.dumps(old) + "\n")
    [record] = read_episodes(path)
    assert record.run_s is None and record.refuted_outcomes == [] and record.decisions.total == 0
    row = summarize([record])[0]
    assert (row.llm_calls_per_inner_step, row.llm_share, row.refuted_outcomes) == (None, None, 0)
    append_episode(path, timed(seed=1))
    assert read_episodes(path)[1] == timed(seed=1)


def test_rows_take_ratios_of_sums_over_the_episodes_that_keep_them():
    rows = summarize([
        timed(),
        timed(seed=1, inner_steps=2, inner_llm_calls=6, llm_calls_per_inner_step=3.0, run_s=30.0, llm_s=27.0,
              tool_s=2.0, other_s=1.0, refuted_outcomes=["explore-area SUCCESS at step 1"]),
        episode(seed=2),  # an old record: in neither ratio
    ])
    row = rows[0]
    assert row.llm_calls_per_inner_step == pytest.approx(12 / 6)
    assert (row.llm_share, row.tool_share, row.other_share) == pytest.approx((33 / 40, 5 / 40, 2 / 40))
    assert row.decisions == DecisionCounts(model=8, checked=4) and row.refuted_outcomes == 1


def test_the_costs_table_fits_100_columns_and_the_refuted_line_says_0_or_names_the_episodes():
    long = "scripted:tests/fixtures/planner/explore_policy.py"
    records = [timed(), timed(seed=1, llm=long), episode("maze", seed=3)]
    rows = summarize(records)
    table = costs_table(rows).splitlines()
    assert [cell.strip() for cell in table[0].split("  ") if cell][:4] == ["scenario", "backend",
                                                                          "calls/inner step", "LLM s/outer"]
    assert max(len(line) for line in table) <= 100 and table[2].split()[1] == "scripted:.../explore_policy.py"
    cave = table[1].split()
    assert cave == ["cave", "llamacpp", "1.50", "-", "60%", "30%", "10%", "0"]
    assert table[3].split()[2:] == ["-", "-", "-", "-", "-", "0"]  # maze: an old record
    text = costs_text(rows, records)
    assert "refuted method outcomes: 0 in 3 episodes" in text
    decided = text.splitlines()[text.splitlines().index(DECISIONS_NOTE) + 1:][:3]
    assert [line.split() for line in decided] == [
        ["backend", "decisions", "model", "forced", "protocol", "checked", "runtime"],
        ["llamacpp", "6", "4", "(67%)", "0", "0", "2", "(33%)", "0"],
        ["scripted:.../explore_policy.py", "6", "4", "(67%)", "0", "0", "2", "(33%)", "0"]]
    refuted = [*records, timed(seed=5, refuted_outcomes=["explore-area SUCCESS at step 1", "dig-out FREE at step 2"])]
    lines = costs_text(summarize(refuted), refuted).splitlines()
    at = lines.index("refuted method outcomes: 2 in 1 of 4 episodes:")
    assert lines[at + 1] == ("  cave seed 5 llamacpp: explore-area SUCCESS at step 1; dig-out FREE at step 2 "
                             "(runs/cave-5/trace.jsonl)")
    assert all(len(line) <= 100 for line in lines[:at])


def test_the_html_page_has_the_costs():
    records = [timed(refuted_outcomes=["explore-area <SUCCESS> at step 1"])]
    page = html_page(summarize(records), records, "demo")
    assert '<table id="costs">' in page and "<td>1.50</td>" in page and "6.0 / 3.0 / 1.0" in page
    assert '<table id="decisions">' in page and "<td>4 (67%)</td>" in page
    assert "explore-area &lt;SUCCESS&gt; at step 1" in page


def test_the_planner_bench_says_calls_per_inner_step_and_where_the_time_went():
    text = planner_bench.costs_text(trace_costs(run_events()))
    assert "LLM calls per inner step: 2.00: 4 calls in 2 inner steps (target <= 1.5: MISSES it)" in text
    assert "wall time of the run, 8.50 s: LLM 4.20 s (49%), tools 1.70 s (20%), other 2.60 s (31%)" in text
    assert "per inner step: LLM 2.10 s, tools 0.85 s, other 1.30 s" in text
    assert "refuted method outcomes: explore-area FOUND_SKY at step 2" in text
    assert "no inner step ran" in planner_bench.costs_text(trace_costs([]))


def test_the_planner_bench_reads_its_costs_from_the_trace_of_its_run(tmp_path):
    toolbox = planner_bench.loop_toolbox(tmp_path)
    run = planner_bench.explore(ScriptedBackend(planner_bench.instant), toolbox, None, inner_steps=5,
                                method=planner_bench.LOOP_METHOD)
    costs = run.costs
    steps = costs.inner_steps
    assert steps == 5 and costs.llm_calls_per_inner_step == costs.inner_llm_calls / steps
    assert costs.inner_llm_calls == 3 * steps  # THOUGHTS, the arguments and NEXT_TASK: bench-loop leaves them open
    assert costs.llm_s + costs.tool_s + costs.other_s == pytest.approx(costs.run_s, abs=0.01)
    assert costs.refuted_outcomes == []
