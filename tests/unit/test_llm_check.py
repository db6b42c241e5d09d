"""`mcagent llm check SPEC`: the probes against scripted backends (constrained, unconstrained,
broken) and the real in-process llama.cpp model; the CLI's exit codes and one-line errors; the
reading set's score line and the record it keeps (the set itself: test_reading_set.py)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from sglang.lang.choices import ChoicesDecision

from agent.cli import main
from agent.llm.random_policy import RandomBackend
from agent.llm.scripted import load_script
from agent.planner import choice_set
from agent.planner.prior import Weight
from agent.session.model_choosing import choosing_weight
from tests.support.planning import FIXTURES

CHOICES_FIXTURE = FIXTURES / "planner" / "choices.jsonl"
from agent.llm.base import ModelInfo
from agent.diagnostics.backend_check import CheckReport, PLANNER_CONTEXT_TOKENS, SELECT_CHOICES, check_backend
from agent.llm.scripted import ScriptedBackend, ScriptedCall


def polite(call: ScriptedCall) -> str:
    """A backend that answers every probe well."""
    if call.kind == "select":
        return "Paris"
    if call.json_schema:
        return '{"color": "green", "count": 4}'
    if "count from 1" in call.prompt:
        return " ".join(str(n) for n in range(1, 41))
    if "which tool first" in call.prompt:
        return "Use explore-area first: it walks out of the cave towards the sky."
    return "Hello there, builder!"


def states(report: CheckReport) -> dict[str, str]:
    return {row.check: row.state for row in report.rows}


def row(report: CheckReport, name: str):
    return next(r for r in report.rows if r.check == name)


def test_a_constrained_scripted_backend_serves_and_says_what_it_offers():
    report = check_backend(ScriptedBackend(polite))
    assert states(report) == {
        "opened": "ok", "model": "ok", "context": "not said", "generation": "ok", "select": "ok",
        "regex": "not offered", "json schema": "ok", "thoughts": "ok", "prefix cache": "ok", "tokens/s in": "ok",
        "tokens/s out": "ok",
    }
    assert report.can_serve and report.verdict == "can serve the planner"
    assert row(report, "thoughts").detail.endswith("reads as a plan; the planner asks for it (config llm_thoughts)")
    assert row(report, "select").value == "Paris"
    assert json.loads(str(row(report, "json schema").value)) == {"color": "green", "count": 4}
    assert row(report, "generation").detail == "'Hello there, builder!'"
    cache = row(report, "prefix cache")
    assert cache.prompt_tokens and cache.prefilled_tokens is not None
    assert cache.prefilled_tokens < 0.25 * cache.prompt_tokens
    assert cache.prompt_tokens > 400  # 4 characters a token: the digits make it about 1,000 real tokens


def test_an_unconstrained_backend_is_not_offered_select_or_schema_and_still_serves():
    backend = ScriptedBackend(polite, constrained=False)
    report = check_backend(backend)
    assert states(report)["select"] == states(report)["json schema"] == states(report)["regex"] == "not offered"
    assert "validates and retries" in row(report, "select").detail
    assert report.can_serve
    assert all(call.kind == "gen" and call.json_schema is None for call in backend.calls)


def test_every_probe_puts_its_gen_or_select_right_after_the_assistant_turn_opens():
    backend = ScriptedBackend(polite)
    check_backend(backend)
    opening = backend.chat_template.get_prefix_and_suffix("assistant", [])[0]
    assert backend.calls and all(call.prompt.endswith(opening) for call in backend.calls)


def test_a_select_that_raises_is_broken_and_the_backend_cannot_serve():
    def no_select(call: ScriptedCall) -> str:
        if call.kind == "select":
            raise RuntimeError("select is not wired up")
        return polite(call)

    report = check_backend(ScriptedBackend(no_select))
    assert row(report, "select").state == "failed"
    assert not report.can_serve
    assert report.reason.startswith("select: broken:") and "select is not wired up" in report.reason
    assert row(report, "json schema").state == "ok"  # the other probes still ran


def test_a_select_that_lands_outside_the_choices_is_broken():
    class Wayward(ScriptedBackend):
        def select(self, s, choices, temperature, choices_method=None):
            return ChoicesDecision(decision="Rome", meta_info={})

    report = check_backend(Wayward(polite))
    assert row(report, "select").state == "failed" and "'Rome'" in report.reason
    assert row(report, "select").detail.endswith(f"not one of {SELECT_CHOICES}")


def test_json_that_breaks_the_schema_is_broken():
    for reply, why in [("not json", "does not parse"), ('{"color": "pink", "count": 4}', "color 'pink'"),
                       ('{"color": "red", "count": 12}', "count 12"), ('{"color": "red"}', "exactly")]:
        report = check_backend(ScriptedBackend(lambda call, reply=reply: reply if call.json_schema else polite(call)))
        assert row(report, "json schema").state == "failed", reply
        assert why in report.reason, (reply, report.reason)


def test_a_generation_that_returns_nothing_cannot_serve_and_skips_the_rest():
    report = check_backend(ScriptedBackend(lambda call: "   "))
    assert report.reason == "generation: returned nothing"
    assert [r.state for r in report.rows[report.rows.index(row(report, "generation")) + 1:]] == ["skipped"] * 7


def test_a_context_below_what_the_planner_needs_cannot_serve():
    class Small(ScriptedBackend):
        def model_info(self) -> ModelInfo:
            return ModelInfo(model="tiny", context_tokens=2048)

    report = check_backend(Small(polite))
    assert row(report, "model").value == "tiny"
    assert row(report, "context").state == "failed"
    assert report.reason == f"context: 2048 tokens, too small: the planner needs {PLANNER_CONTEXT_TOKENS}"


# ---- the command ----

@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """The sets' records go to a cache of the test's own, never the user's; the choice set is a
    small one of the tests' own."""
    monkeypatch.setenv("MCAGENT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(choice_set, "CHOICE_SET", CHOICES_FIXTURE)
    return tmp_path / "cache"


@pytest.fixture
def script(tmp_path):
    """A .py script for `scripted:PATH` from the body of reply(call)."""
    def write(body: str, constrained: bool = True):
        path = tmp_path / "script.py"
        path.write_text(f"CONSTRAINED = {constrained}\n\ndef reply(call):\n" + body)
        return f"scripted:{path}"
    return write


GOOD = """    if call.kind == "select":
        return "Paris"
    if call.json_schema:
        return '{"color": "blue", "count": 9}'
    return "Hello!"
"""


def test_the_command_prints_one_table_and_exits_0_when_the_backend_serves(script, capsys):
    assert main(["llm", "check", script(GOOD)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["check", "result"]
    assert [line.split()[0] for line in lines[1:12]] == [
        "opened", "model", "context", "generation", "select", "regex", "json", "thoughts", "prefix", "tokens/s", "tokens/s"]
    assert "verdict: can serve the planner" in lines


def test_the_command_prints_the_rows_as_json(script, capsys):
    assert main(["llm", "check", script(GOOD, constrained=False), "--json"]) == 0
    report = CheckReport.model_validate_json(capsys.readouterr().out)
    assert report.can_serve and states(report)["select"] == "not offered"


def test_a_broken_select_exits_1_with_the_failing_line_on_stderr(script, capsys):
    assert main(["llm", "check", script("    if call.kind == 'select':\n        raise ValueError('no choice')\n"
                                        "    return 'Hello!'\n")]) == 1
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("mcagent llm check: cannot: select: broken:")
    assert "ValueError: no choice" in err
    assert "verdict: cannot: select: broken:" in out


# A script that answers the probes well and reads every ask of the reading set as its answer says.
READS_RIGHT = """
import re
from agent.planner.classify import KINDS
from agent.planner.reading_set import load_reading_set

ANSWERS = {}
for case in load_reading_set().cases:
    a = case.answer
    ANSWERS[case.ask] = (("none", None) if a is None else (a.kind, a.has_item.name) if a.kind == "has_item"
                         else (a.kind, a.near_block.block) if a.kind == "near_block" else (a.kind, None))


def reply(call):
    goal = re.search(r"this GOAL: (.*)\\n", call.prompt)
    if goal is None:
        return "Paris" if call.kind == "select" else '{"color": "blue", "count": 9}' if call.json_schema else "Hello!"
    kind, name = ANSWERS[goal[1]]
    return kind if call.choices == KINDS else name
"""


def test_the_reading_set_s_score_is_one_line_after_the_rows_and_kept_where_a_run_finds_it(tmp_path, cache, capsys):
    path = tmp_path / "reads_right.py"
    path.write_text(READS_RIGHT)
    assert main(["llm", "check", f"scripted:{path}"]) == 0
    out = capsys.readouterr().out
    reading = [line for line in out.splitlines() if line.startswith("reading: ")]
    assert len(reading) == 1 and out.index("verdict: can serve the planner") < out.index(reading[0])
    assert reading[0].startswith("reading: 50/50 right (100 %), 0 wrong (0 %), 0 none in ")
    assert reading[0].endswith("; at the mark (90 % right, at most 2 % wrong): the model reads the goals no rule reads")
    kept = next(line for line in out.splitlines() if line.startswith("  kept in "))
    record = Path(kept.removeprefix("  kept in "))
    assert record.parent == cache / "llm-check" and record.is_file()
    assert json.loads(record.read_text())["sets"]["reading"]["qualifies"] is True


def test_a_backend_below_the_mark_says_the_model_reads_no_goals_and_still_exits_0(script, capsys):
    assert main(["llm", "check", script(GOOD)]) == 0  # "Paris" is no kind: it reads none of the asks
    out = capsys.readouterr().out
    assert ("reading: 10/50 right (20 %), 0 wrong (0 %), 40 none in " in out
            and "; below the mark (90 % right, at most 2 % wrong): the model reads no goals\n" in out)


def test_the_json_holds_each_set_s_score_and_its_record(script, capsys):
    assert main(["llm", "check", script(GOOD), "--json"]) == 0
    report = CheckReport.model_validate_json(capsys.readouterr().out)
    reading, choices = report.measured
    assert reading.set == "reading" and reading.score is not None and reading.score.right == 10
    assert not reading.score.qualifies
    assert choices.set == "choices" and choices.score is not None and choices.score.chance == 0.3125
    assert choices.score.none == 4  # "Paris" is no tool
    assert reading.record == choices.record and Path(reading.record).is_file()


def test_a_script_that_picks_right_earns_a_weight_and_it_is_said(script, capsys):
    right = GOOD.replace("        return \"Paris\"\n", """        for words, tool in (("in the chest", "mc-chest"), ("a chest", "craft"), ("logs", "mc-collect"),
                            ("gold", "mc-approach")):
            if words in call.prompt:
                return tool
        return "Paris"
""")
    assert main(["llm", "check", script(right), "--no-reading"]) == 0
    out = capsys.readouterr().out
    assert "choices: 4/4 right (100 %), 0 wrong (0 %), 0 none" in out
    assert "chance 31 %, the first offer 25 %; the model's weight in every choice: 0.29" in out
    weight = choosing_weight(load_script(Path(script(right).split(":", 1)[1])))
    assert weight == Weight(0.2874, "4/4 right on the choice set, chance 31 %")


def test_a_backend_never_measured_weighs_nothing_and_a_script_is_vouched_for(script):
    assert choosing_weight(RandomBackend(0)).weight == 0.0
    assert choosing_weight(RandomBackend(0)).why.startswith("not measured")
    assert choosing_weight(load_script(Path(script(GOOD).split(":", 1)[1]))).weight == 1.0
    assert choosing_weight(RandomBackend(0), configured=0.5) == Weight(0.5, "set by the config's llm_weight")


def test_no_sets_checks_the_capabilities_alone_and_keeps_no_record(script, cache, capsys):
    assert main(["llm", "check", script(GOOD), "--no-reading", "--no-choices"]) == 0
    out = capsys.readouterr().out
    assert "reading:" not in out and "choices:" not in out and not cache.exists()


def test_a_backend_that_cannot_serve_is_not_read_and_the_exit_is_the_rows(script, cache, capsys):
    assert main(["llm", "check", script("    if call.kind == 'select':\n        raise ValueError('no choice')\n"
                                        "    return 'Hello!'\n")]) == 1
    out, err = capsys.readouterr()
    assert "reading: not run: the backend cannot serve the planner" in out and not cache.exists()
    assert err.count("\n") == 1 and err.startswith("mcagent llm check: cannot: select: broken:")


def test_a_backend_that_fails_mid_set_keeps_no_score(tmp_path, cache, capsys):
    path = tmp_path / "tires.py"
    path.write_text(GOOD_SCRIPT_THAT_TIRES)
    assert main(["llm", "check", f"scripted:{path}", "--no-choices"]) == 0
    out = capsys.readouterr().out
    assert "reading: not run: scripted:" in out and "RuntimeError: out of answers" in out and not cache.exists()


# Answers the probes, then fails on the reading set's first ask.
GOOD_SCRIPT_THAT_TIRES = """
def reply(call):
    if "this GOAL: " in call.prompt:
        raise RuntimeError("out of answers")
    return "Paris" if call.kind == "select" else '{"color": "blue", "count": 9}' if call.json_schema else "Hello!"
"""


@pytest.mark.parametrize("spec", ["bogus:x", "scripted:/no/such/script.yaml"])
def test_a_bad_spec_exits_1_with_one_line(spec, capsys):
    assert main(["llm", "check", spec]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mcagent llm check: cannot: opened: ")


def test_an_unreachable_server_exits_1_with_one_line_and_fast(capsys):
    started = time.perf_counter()
    assert main(["llm", "check", "openai:http://127.0.0.1:9/v1#m"]) == 1
    assert time.perf_counter() - started < 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "127.0.0.1:9" in err and err.startswith("mcagent llm check: cannot: opened: ")


def test_the_llm_group_without_a_subcommand_is_a_one_line_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["llm"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


# ---- the real in-process model ----

@pytest.fixture(scope="module")
def llamacpp_report():
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is built by scripts/bootstrap.sh")
    from agent.llm import open_backend

    backend = open_backend("llamacpp", threads=1)  # one thread: the tests share the cores
    return backend, check_backend(backend)


def test_llamacpp_says_its_model_and_context(llamacpp_report):
    backend, report = llamacpp_report
    info = backend.model_info()
    assert info.context_tokens == backend.llama.n_ctx() == 8192
    assert "smollm2" in info.model.lower()
    assert row(report, "model").value == info.model and row(report, "context").value == 8192


def test_llamacpp_can_serve_with_every_constraint_and_a_prefix_cache(llamacpp_report):
    _, report = llamacpp_report
    assert report.can_serve, report.reason
    assert states(report) == {
        "opened": "ok", "model": "ok", "context": "ok", "generation": "ok", "select": "ok",
        "regex": "ok", "json schema": "ok", "thoughts": "worthless", "prefix cache": "ok", "tokens/s in": "ok",
        "tokens/s out": "ok",
    }
    # SmolLM2-135M's free text is no plan, and the planner does not ask for it (under 1 B parameters)
    assert "worthless as a plan; the planner does not ask for it" in row(report, "thoughts").detail
    assert row(report, "select").value in SELECT_CHOICES
    cache = row(report, "prefix cache")
    assert cache.prompt_tokens is not None and 800 < cache.prompt_tokens < 1300
    assert isinstance(cache.value, float) and cache.value < 0.25
    assert row(report, "tokens/s out").completion_tokens == 32  # the count runs past the bound
