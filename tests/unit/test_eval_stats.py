"""The figures of mcagent eval: Wilson intervals, grouping, medians, claims, tables, comparing."""

from __future__ import annotations

import pytest

from agent.blueprint.score import BuildScore
from agent.errors import ConfigError
from agent.eval import (
    EPISODES_FILE, EpisodeRecord, append_episode, compare, html_page, load_rows, markdown_table, read_episodes,
    summarize, terminal_table, wilson,
)
from agent.eval.tables import build_lines


def episode(scenario: str = "wood", llm: str = "random:0", success: bool = False, **fields) -> EpisodeRecord:
    values = dict(
        suite="smoke", scenario=scenario, seed=0, llm=llm, goal="get wood", check="inventory has 1 log",
        outcome="success" if success else "max_steps", success=success, final_check=success, claims=0,
        claims_refused=0, steps=4, inner_steps=0, llm_calls=20, tokens_in=1000, tokens_out=100, wall_s=2.0,
        trace="runs/x/trace.jsonl", reason="ended",
    )
    return EpisodeRecord(**{**values, **fields})


@pytest.mark.parametrize(("successes", "n", "low", "high"), [
    (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (2, 3, 0.2077, 0.9385),
])
def test_wilson_matches_known_values(successes, n, low, high):
    assert wilson(successes, n) == pytest.approx((low, high), abs=1e-4)


def test_wilson_without_episodes_says_nothing():
    assert wilson(0, 0) == (0.0, 1.0)


def test_rows_group_by_scenario_then_llm_in_first_seen_order_with_all_rows_last():
    records = [episode("wood", "b"), episode("stone", "a"), episode("wood", "a", success=True), episode("wood", "b")]
    rows = summarize(records)
    assert [(r.scenario, r.llm, r.episodes) for r in rows] == [
        ("wood", "b", 2), ("wood", "a", 1), ("stone", "a", 1), ("ALL", "b", 2), ("ALL", "a", 2)]
    assert (rows[1].rate, rows[4].successes, rows[4].rate) == (1.0, 1, 0.5)


def test_medians_count_inner_steps_and_errors_are_counted():
    rows = summarize([
        episode(steps=2, inner_steps=1, llm_calls=10, wall_s=1.0),
        episode(steps=4, inner_steps=6, llm_calls=30, wall_s=5.0, outcome="error"),
        episode(steps=5, inner_steps=0, llm_calls=20, wall_s=3.5),
        episode(steps=1, inner_steps=0, llm_calls=11, wall_s=2.0),
    ])
    row = rows[0]
    assert (row.median_steps, row.median_llm_calls, row.median_wall_s, row.errors) == (4.0, 15.5, 2.75, 1)


def test_false_claims_and_false_successes():
    rows = summarize([
        episode(claims=2, claims_refused=1),
        episode(success=True, claims=1, final_check=False),
        episode(success=True, claims=1, final_check=None),
        episode("stone"),
    ])
    wood, stone = rows[0], rows[1]
    assert (wood.claims, wood.claims_refused, wood.false_claim_rate, wood.false_successes) == (4, 1, 0.25, 1)
    assert stone.false_claim_rate is None and stone.false_successes == 0


def two_of_three() -> list[EpisodeRecord]:
    return [episode(success=True, claims=1), episode(success=True, claims=1), episode(claims=1, claims_refused=1)]


def test_the_terminal_table_shows_rates_with_their_interval():
    text = terminal_table(summarize(two_of_three()))
    header, wood, total = text.splitlines()
    assert header.startswith("scenario  backend") and "success [95% CI]" in header
    assert "67% [21-94]" in wood and "1/3 (33%)" in wood and total.startswith("ALL")


def test_the_markdown_table_has_the_readme_columns_and_figures():
    lines = markdown_table(summarize([*two_of_three(), episode("a|b")])).splitlines()
    assert lines[0] == ("| scenario | backend | success | 95% CI | false claims | median steps | median LLM calls "
                        "| median wall s |")
    assert lines[2] == "| wood | `random:0` | 67% (2/3) | 21-94% | 1/3 (33%) | 4 | 20 | 2.0 |"
    assert lines[3].startswith("| a\\|b |") and lines[4].startswith("| **ALL** | `random:0` | 50% (2/4) |")


def test_the_html_page_holds_the_figures_escapes_every_value_and_links_traces():
    records = [*two_of_three(), episode("<b>", reason="a <script> & more", trace="runs/a b/trace.jsonl")]
    page = html_page(summarize(records), records, title="smoke <suite>")
    assert page.startswith("<!DOCTYPE html>") and "<title>smoke &lt;suite&gt;</title>" in page
    assert "67% (2/3)" in page and "21-94%" in page and "1/3 (33%)" in page
    assert "<b>" not in page and "&lt;b&gt;" in page and "a &lt;script&gt; &amp; more" in page
    assert '<a href="runs/a%20b/trace.jsonl"><code>runs/a b/trace.jsonl</code></a>' in page
    assert "http" not in page and "<script" not in page and "<link" not in page


def test_compare_shows_both_rates_the_difference_and_one_sided_rows():
    a = summarize([*two_of_three(), episode("stone")])
    b = summarize([episode(success=True)] * 3 + [episode("sand")])
    lines = compare(a, b).splitlines()
    assert lines[0].split() == ["scenario", "backend", "A", "B", "B", "-", "A", "95%", "CIs"]
    wood = next(line for line in lines if line.startswith("wood"))
    assert "67% [21-94]" in wood and "100% [44-100]" in wood and "+33 pp" in wood and "overlap" in wood
    assert "only in A" in next(line for line in lines if line.startswith("stone"))
    assert "only in B" in next(line for line in lines if line.startswith("sand"))
    assert lines[-1].startswith("ALL")


def test_compare_says_when_the_intervals_are_disjoint():
    a = summarize([episode()] * 20)
    b = summarize([episode(success=True)] * 20)
    assert "+100 pp" in compare(a, b, labels=("before", "after")) and "disjoint" in compare(a, b)


def test_episodes_round_trip_and_a_truncated_last_line_is_skipped(tmp_path):
    path = tmp_path / "out" / EPISODES_FILE
    first, second = episode(seed=1), episode(seed=2, success=True)
    append_episode(path, first)
    append_episode(path, second)
    assert read_episodes(path) == [first, second]
    with path.open("a") as file:
        file.write(episode(seed=3).model_dump_json()[:40])  # killed mid-write
    assert read_episodes(path) == [first, second]
    append_episode(path, episode(seed=4))  # the partial line is cut off, not glued to
    assert [r.seed for r in read_episodes(path)] == [1, 2, 4]


def test_a_bad_line_before_the_last_is_a_config_error(tmp_path):
    path = tmp_path / EPISODES_FILE
    path.write_text('{"suite": "x"}\n' + episode().model_dump_json() + "\n")
    with pytest.raises(ConfigError, match=f"{EPISODES_FILE}:1: not an episode record"):
        read_episodes(path)


def test_load_rows_reads_a_result_folder_and_names_what_is_missing(tmp_path):
    append_episode(tmp_path / EPISODES_FILE, episode(success=True))
    assert load_rows(tmp_path)[0].successes == 1
    with pytest.raises(ConfigError, match="is not a folder"):
        load_rows(tmp_path / "none")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match=f"has no {EPISODES_FILE}"):
        load_rows(tmp_path / "empty")


def test_throughput_counts_episodes_and_tokens_over_the_whole_run():
    from agent.eval.throughput import throughput
    records = [episode(wall_s=10.0), episode(wall_s=30.0, tokens_in=3000, tokens_out=300), episode(wall_s=20.0)]
    rate = throughput(records, elapsed_s=36.0, workers=2)
    assert (rate.episodes, rate.workers, rate.episodes_per_hour) == (3, 2, 300.0)
    assert (rate.tokens_in, rate.tokens_out, rate.tokens_per_s, rate.tokens_out_per_s) == (5000, 500, 152.8, 13.89)
    assert rate.median_episode_s == 20.0
    assert rate.text() == ("throughput: 3 episodes in 36 s with 2 workers: 300 episodes/hour, 153 LLM tokens/s "
                           "(13.9 generated/s); median episode 20.0 s")


def test_construction_scores_are_listed_with_their_distribution_and_kept_in_the_record(tmp_path):
    scores = [BuildScore(matches=337, mismatches=0), BuildScore(matches=312, mismatches=25),
              BuildScore(matches=0, mismatches=48)]
    records = [episode(scenario="church", seed=n, build=s) for n, s in enumerate(scores)] + [episode(scenario="wood")]
    lines = build_lines(records)
    assert lines[1:] == ["  church seed 0 random:0: 337 of 337 cells right (100 %)",
                         "  church seed 1 random:0: 312 of 337 cells right (93 %)",
                         "  church seed 2 random:0: 0 of 48 cells right (0 %)",
                         "  3 scored: min 0%, median 93%, max 100%; 1 at 100 %"]
    assert build_lines([episode()]) == []
    append_episode(tmp_path / EPISODES_FILE, records[1])
    assert read_episodes(tmp_path / EPISODES_FILE)[0].build == scores[1]
