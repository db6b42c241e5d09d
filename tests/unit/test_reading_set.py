"""The reading set (server-config/eval/reading/model-reading.yaml) and the harness that scores a
backend on it (agent/planner/reading_set.py, agent/diagnostics/measured.py): a backend that reads
every answer qualifies, one that reads wrong does not; wrong weighs more than none; a set file
that is malformed, or asks for an answer its world cannot give, is one line naming the file."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from agent.diagnostics.measured import READING, CaseScore, SetScore, figures, meets_mark, outcome, score_of
from agent.errors import ConfigError
from agent.llm.scripted import ScriptedBackend, ScriptedCall
from agent.planner.classify import KINDS
from agent.planner.reading_set import READING_SET, ReadingCase, load_reading_set, measure_reading, set_digest

CASES = load_reading_set().cases


def answer_of(case: ReadingCase) -> tuple[str, str | None]:
    """The kind and the name a select must choose to read the case's answer."""
    answer = case.answer
    if answer is None:
        return "none", None
    if answer.kind == "has_item":
        return "has_item", answer.has_item.name
    if answer.kind == "near_block":
        return "near_block", answer.near_block.block
    return answer.kind, None


def reader(wrong_for: set[str] = frozenset(), nothing_for: set[str] = frozenset()) -> ScriptedBackend:
    """A scripted backend that reads each ask as its answer says, built from the set itself, but
    reads the asks in `wrong_for` as another kind and those in `nothing_for` as none."""
    answers = {case.ask: answer_of(case) for case in CASES}

    def reply(call: ScriptedCall) -> str:
        ask = re.search(r"GOAL: (.*)\n", call.prompt)[1]
        kind, name = answers[ask]
        if call.choices == KINDS:
            if ask in nothing_for:
                return "none"
            return next(k for k in KINDS if k != kind) if ask in wrong_for else kind
        return name if name in call.choices else call.choices[0]

    return ScriptedBackend(reply, name="scripted:reader")


def test_the_set_is_50_asks_of_every_kind_and_none_each_answer_one_its_world_offers():
    assert len(CASES) == 50 and len({case.ask for case in CASES}) == 50
    kinds = Counter(answer_of(case)[0] for case in CASES)
    assert set(kinds) == {"has_item", "near_block", "sky_visible", "none"}
    assert kinds["none"] >= 5
    asks = {case.ask for case in CASES}
    assert {"walk over to the pond", "build me a castle", "tell me a joke"} <= asks


def test_a_backend_that_reads_every_answer_is_right_on_all_50_and_qualifies():
    score = measure_reading(reader())
    assert (score.right, score.wrong, score.none) == (50, 0, 0)
    assert score.qualifies and score.set == READING and score.set_sha256 == set_digest()
    assert figures(score) == "50/50 right (100 %), 0 wrong (0 %), 0 none"


def test_a_backend_that_reads_wrong_does_not_qualify():
    has_items = [case.ask for case in CASES if case.answer is not None][:12]
    score = measure_reading(reader(wrong_for=set(has_items)))
    assert score.wrong == 12 and not score.qualifies
    missed = next(c for c in score.cases if c.ask == has_items[0])
    assert missed.outcome == "wrong" and missed.expected == "has_item oak_log 3"


def test_a_backend_that_always_takes_the_first_choice_is_below_the_mark():
    score = measure_reading(ScriptedBackend(lambda call: call.choices[0] if call.choices else ""))
    assert not score.qualifies and score.wrong > score.right


def test_reading_anything_where_the_answer_is_none_is_wrong():
    nones = [case for case in CASES if case.answer is None]
    score = measure_reading(reader(wrong_for={nones[0].ask}))
    assert next(c for c in score.cases if c.ask == nones[0].ask).outcome == "wrong"
    assert score.wrong == 1 and score.qualifies  # 1 of 50 is 2 %: at the mark


def test_at_the_mark_is_90_percent_right_and_at_most_2_percent_wrong():
    assert meets_mark(45, 1, 50) and meets_mark(45, 0, 50)
    assert not meets_mark(44, 0, 50)  # 88 % right
    assert not meets_mark(47, 2, 50)  # 4 % wrong, however many right
    assert not meets_mark(0, 0, 0)
    nothing = [case.ask for case in CASES if case.answer is not None][:5]
    assert measure_reading(reader(nothing_for=set(nothing))).qualifies  # 5 none: 90 % right, 0 wrong
    assert not measure_reading(reader(nothing_for=set(nothing[:3]), wrong_for=set(nothing[3:]))).qualifies


def test_has_item_is_right_only_with_its_name_and_count():
    asked = {"has_item": {"name": "oak_log", "count": 3}}
    assert outcome(asked, asked) == "right"
    assert outcome({"has_item": {"name": "oak_log", "count": 1}}, asked) == "wrong"
    assert outcome({"has_item": {"name": "birch_log", "count": 3}}, asked) == "wrong"
    assert outcome(None, asked) == "none" and outcome(None, None) == "right" and outcome(asked, None) == "wrong"


def test_a_score_whose_counts_disagree_with_its_cases_is_refused():
    score = score_of(READING, "d", [CaseScore(ask="a", expected="none", read="none", outcome="right")], 1.0)
    data = score.model_dump()
    with pytest.raises(ValueError, match="do not match its cases"):
        SetScore.model_validate({**data, "right": 0, "wrong": 1})
    with pytest.raises(ValueError, match="does not follow from its counts"):
        SetScore.model_validate({**data, "right": 1, "qualifies": not score.qualifies})


@pytest.mark.parametrize("answer, says", [
    ("{has_item: {name: oak_log}}", "cases[0] ('go'): has_item oak_log: the world offers no such name (cobblestone)"),
    ("{near_block: {block: stone, distance: 4}}", "near_block is read at distance 2, not 4"),
    ("{within: {x: 1, y: 2, z: 3, distance: 2}}", "within is not a kind the classifier reads"),
    ("nothing", "cases.0.answer: expected a check (has_item, near_block, sky_visible) or `none`"),
])
def test_a_malformed_set_is_one_line_naming_the_file_and_the_ask(tmp_path: Path, answer: str, says: str):
    path = tmp_path / "set.yaml"
    path.write_text(f'cases:\n  - ask: "go"\n    world: {{blocks: [stone]}}\n    answer: {answer}\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_reading_set(path)
    assert str(error.value).startswith(f"{path}: ") and says in str(error.value)
    assert "\n" not in str(error.value)


def test_an_ask_written_twice_is_refused(tmp_path: Path):
    path = tmp_path / "set.yaml"
    case = '  - ask: "go"\n    world: {blocks: [stone]}\n    answer: none\n'
    path.write_text(f"cases:\n{case}{case}", encoding="utf-8")
    with pytest.raises(ConfigError, match="the ask 'go' is there twice"):
        load_reading_set(path)


def test_the_digest_is_of_the_set_s_content_so_an_edited_ask_is_another_set_and_a_comment_is_not(tmp_path: Path):
    copy = tmp_path / "set.yaml"
    text = READING_SET.read_text(encoding="utf-8")
    copy.write_text(text + "\n# a comment\n", encoding="utf-8")
    assert set_digest(copy) == set_digest()
    copy.write_text(text.replace("chop three oak logs", "chop four oak logs"), encoding="utf-8")
    assert set_digest(copy) != set_digest()
