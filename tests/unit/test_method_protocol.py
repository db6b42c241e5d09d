"""The method-protocol parser: the seed's examples verbatim, its formatting variants, its errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.tools.frontmatter import parse_skill
from agent.protocol.method_protocol import ProtocolError, parse_protocol
from agent.protocol.models import MethodProtocol
from tool_testing import FIXTURE_TOOLS, FIXTURES

SEED_EXPLORE_AREA = FIXTURE_TOOLS / "explore-area" / "Skill.md"


def steps_of(protocol: MethodProtocol) -> list[tuple[int, str]]:
    return [(s.number, s.title) for s in protocol.steps]


def outcomes_of(protocol: MethodProtocol) -> list[str]:
    return [o.name for o in protocol.outcomes]


def test_the_seed_explore_area_example_parses_into_its_steps_and_outcomes():
    spec = parse_skill(SEED_EXPLORE_AREA.read_text(), SEED_EXPLORE_AREA, "skills")
    protocol = spec.protocol
    assert (spec.name, spec.type) == ("explore-area", "method")
    assert steps_of(protocol) == [
        (1, "ALIGN TO CARDINAL"),
        (2, "OBSERVE FORWARD"),
        (3, "MOVE FORWARD"),
        (4, "CHECK COMPLETION"),
    ]
    assert outcomes_of(protocol) == ["SUCCESS", "FAILED"]
    assert [s.name for s in protocol.sections] == ["PURPOSE", "PRECONDITIONS", "LIMITATIONS"]
    assert protocol.section("PRECONDITIONS").qualifier == "WHEN THIS SKILL APPLIES"
    assert protocol.steps[0].text.startswith("- Call tool: mc-look")
    assert protocol.steps[3].goes_to == [1] and protocol.steps[3].outcomes == ["SUCCESS"]
    assert protocol.steps[0].line == 24 and protocol.outcomes[1].line == 74


@pytest.mark.parametrize(
    "path",
    [FIXTURE_TOOLS / "explore-terrain" / "Skill.md", FIXTURES / "method-bodies" / "exploration-protocol-as-in-seed.md"],
)
def test_the_seed_exploration_protocol_parses_into_six_steps_and_three_outcomes(path):
    text = path.read_text()
    protocol = parse_skill(text, path, "skills").protocol if text.startswith("---") else parse_protocol(text)
    assert steps_of(protocol) == [
        (1, "ALIGN"),
        (2, "OBSERVE FORWARD AFFORDANCES"),
        (3, "PROBE MOVE"),
        (4, "VERIFY SAFETY"),
        (5, "PERIODIC SCAN"),
        (6, "MARK PROGRESS"),
    ]
    assert outcomes_of(protocol) == ["DISCOVERY", "FAILED", "INAPPLICABLE"]
    assert [s.name for s in protocol.sections] == [
        "PURPOSE",
        "PRECONDITIONS",
        "DESIGN CONSTRAINTS",
        "LIMITATIONS",
        "RUNTIME STATE",
    ]
    assert protocol.preamble == "Repeat until a termination condition is met."
    assert protocol.steps[4].outcomes == ["DISCOVERY"]


def body(steps: str, termination: str = "SUCCESS:\n- done.\nFAILED:\n- stuck.") -> str:
    return f"#PURPOSE:\nDo it.\n\n#MAIN PROTOCOL LOOP\n\n{steps}\n\n#TERMINATION CONDITIONS\n\n{termination}\n"


@pytest.mark.parametrize(
    "steps",
    [
        "---\nSTEP 1 — LOOK\n---\n- look\n---\nSTEP 2 — MOVE\n---\n- move",
        "STEP 1 - LOOK\n- look\nSTEP 2 - MOVE\n- move",
        "STEP 1 – LOOK\n- look\nSTEP 2 -- MOVE\n- move",
        "STEP 1: LOOK\n- look\n\nSTEP 2: MOVE\n- move",
        "## STEP 1 — LOOK\n- look\n**STEP 2 — MOVE**\n- move",
        "STEP 1—LOOK\n- look\n-----\nSTEP 2 —   MOVE  \n- move",
    ],
)
def test_step_header_variants(steps):
    assert steps_of(parse_protocol(body(steps))) == [(1, "LOOK"), (2, "MOVE")]


@pytest.mark.parametrize(
    "header",
    ["#PURPOSE:", "#PURPOSE", "# PURPOSE :", "## PURPOSE", "#PURPOSE: Do it.", "#PURPOSE (WHY):"],
)
def test_section_header_variants(header):
    rest = "#MAIN PROTOCOL LOOP\nSTEP 1 — GO\n- go\n#TERMINATION CONDITIONS\nSUCCESS:\n- ok"
    protocol = parse_protocol(f"{header}\nDo it.\n{rest}")
    assert protocol.section("PURPOSE").text.startswith("Do it.")


def test_outcome_text_may_share_the_header_line():
    protocol = parse_protocol(body("STEP 1 — GO\n- go", "SUCCESS: arrived.\n- FAILED: blocked."))
    assert [(o.name, o.text) for o in protocol.outcomes] == [("SUCCESS", "arrived."), ("FAILED", "blocked.")]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("#PURPOSE:\nx\n", 1, "needs a #MAIN PROTOCOL LOOP section"),
        ("#MAIN PROTOCOL LOOP\nSTEP 1 — A\n- a\n", 1, "needs a #TERMINATION CONDITIONS section"),
        (body("just prose"), 4, "holds no steps; expected lines such as 'STEP 1 — ALIGN'"),
        (body("STEP 1 — A\n- a\nSTEP 3 — C\n- c"), 8, "STEP 3 where STEP 2 was expected"),
        (body("STEP 1 — A\n- a\nSTEP 1 — B\n- b"), 8, "STEP 1 where STEP 2 was expected"),
        (body("STEP 1 — A\n---\n"), 6, "STEP 1 has no text"),
        (body("STEP 1 — A\n- Loop back to STEP 4."), 6, "STEP 1 goes to STEP 4, which does not exist"),
        (body("STEP 1 — A\n- Proceed to TERMINATION (DONE)."), 6, "ends in DONE, which is not an outcome (FAILED,"),
        (body("STEP 1 — A\n- a", "Only prose."), 9, "names no outcomes"),
        (body("STEP 1 — A\n- a", "SUCCESS:\n- a\nSUCCESS:\n- b"), 13, "outcome SUCCESS is defined twice"),
        (body("STEP 1 — A\n- a") + "#MAIN PROTOCOL LOOP\nSTEP 1 — B\n- b\n", 15, "a second #MAIN PROTOCOL LOOP"),
    ],
)
def test_errors_name_the_line_and_what_was_expected(text, line, message):
    with pytest.raises(ProtocolError) as e:
        parse_protocol(text)
    assert e.value.line == line and message in e.value.message


def test_error_lines_count_from_the_body_start():
    with pytest.raises(ProtocolError) as e:
        parse_protocol("#PURPOSE:\nx\n", first_line=7)
    assert e.value.line == 7


PROTOCOL_WORDS = st.sampled_from(
    ["#PURPOSE:", "#MAIN PROTOCOL LOOP", "#TERMINATION CONDITIONS", "---", "STEP 1 — A", "STEP 2 - B", "STEP 3: C",
     "- Proceed to STEP 2.", "- Loop back to STEP 1", "Proceed to TERMINATION (SUCCESS).", "SUCCESS:", "FAILED:",
     "- text", "", "#LIMITATIONS:", "STEP 0", "STEP 99 —", "TERMINATION (FAILED)", "#RUNTIME STATE (LOCAL)"]
)


@settings(derandomize=True, deadline=None, max_examples=400)
@given(st.one_of(st.text(max_size=300), st.lists(PROTOCOL_WORDS, max_size=30).map("\n".join)))
def test_any_body_gives_a_protocol_or_a_clear_error(text):
    try:
        protocol = parse_protocol(text, first_line=5)
    except ProtocolError as e:
        assert e.message and 5 <= e.line <= 5 + max(len(text.splitlines()), 1)
        return
    assert [s.number for s in protocol.steps] == list(range(1, len(protocol.steps) + 1))
    assert protocol.outcomes


@settings(derandomize=True, deadline=None, max_examples=100)
@given(
    st.lists(st.from_regex(r"[A-Z][A-Z ]{0,15}[A-Z]", fullmatch=True), min_size=1, max_size=8),
    st.sampled_from(["—", "-", "–", ":"]),
    st.booleans(),
    st.sampled_from(["#TERMINATION CONDITIONS", "#TERMINATION CONDITIONS:", "# TERMINATION"]),
)
def test_generated_protocols_parse_back_to_their_steps(titles, dash, fenced, termination):
    fence = "---\n" if fenced else ""
    steps = "\n".join(f"{fence}STEP {i} {dash} {t}\n{fence}- do {t.lower()}" for i, t in enumerate(titles, 1))
    text = f"#MAIN PROTOCOL LOOP\n{steps}\n{termination}\nSUCCESS:\n- ok\nFAILED:\n- no"
    protocol = parse_protocol(text)
    assert steps_of(protocol) == list(enumerate(titles, 1))
    assert outcomes_of(protocol) == ["SUCCESS", "FAILED"]
