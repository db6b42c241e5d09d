"""What the runtime reads in a protocol: calls with literal arguments, branches with checked
conditions, typed state and assignments; checked when the Skill.md loads, with one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.tools import ToolSource, load_toolbox, standard_sources
from agent.tools.frontmatter import ToolFileError, parse_skill
from agent.protocol.method_protocol import parse_protocol
from tool_testing import FIXTURE_TOOLS

HEAD = "---\nname: probe\ntype: method\ndescription: d\n---\n"


def protocol_of(loop: str, outcomes: str = "DONE:\n- it is done\nFAILED:\n- it is not", state: str = ""):
    text = f"#PURPOSE:\nx\n{state}#MAIN PROTOCOL LOOP\n{loop}\n#TERMINATION CONDITIONS\n{outcomes}\n"
    return parse_protocol(text)


def load_error(body: str) -> str:
    with pytest.raises(ToolFileError) as caught:
        parse_skill(HEAD + body, Path("skills/probe/Skill.md"), "skills")
    return str(caught.value)


def test_a_call_with_literal_json_keeps_its_arguments_and_a_placeholder_leaves_them_to_the_model():
    protocol = protocol_of('STEP 1 — GO\n- Call mc-map with {"radius": 8}.\n- Call mc-look with {"facing": D}.\n')
    calls = protocol.steps[0].calls
    assert [(c.tool, c.args) for c in calls] == [("mc-map", {"radius": 8}), ("mc-look", None)]


def test_branches_carry_their_checks_targets_and_otherwise():
    protocol = protocol_of(
        "STEP 1 — LOOK\n- Call mc-map.\n"
        "- If the sky is visible [when: data.sky_above and data.free.up >= 2]: proceed to TERMINATION (DONE).\n"
        "- If it failed [when: status == \"failed\"]: go back to STEP 1. Otherwise: proceed to STEP 2.\n"
        "STEP 2 — THINK\n- Call think.\n- If it is clear: proceed to TERMINATION (DONE).\n"
    )
    one, two = protocol.steps
    assert [(b.when, b.otherwise, b.step, b.outcome) for b in one.branches] == [
        ("data.sky_above and data.free.up >= 2", False, None, "DONE"),
        ('status == "failed"', False, 1, None),
        (None, True, 2, None),
    ]
    assert [(b.condition, b.when) for b in two.branches] == [("it is clear", None)]


def test_typed_state_and_assignments():
    protocol = protocol_of(
        "STEP 1 — COUNT\n- Call think.\n- [set: tries = state.tries + 1]\n"
        "- If tried enough [when: state.tries >= 3]: proceed to TERMINATION (FAILED).\n"
        "- Otherwise: go back to STEP 1.\n",
        state="#RUNTIME STATE\n- tries: how often [state: int = 0]\n- seen: prose only, the model's\n",
    )
    assert [(v.name, v.type, v.initial, v.text) for v in protocol.state] == [("tries", "int", 0, "how often")]
    assert [(a.name, a.expression) for a in protocol.steps[0].sets] == [("tries", "state.tries + 1")]


def test_outcome_checks():
    protocol = protocol_of("STEP 1 — GO\n- Call think.\n",
                           outcomes="DONE:\n- The goal holds [when: goal]\n- and it says so\nFAILED:\n- no")
    assert [(o.name, o.when) for o in protocol.outcomes] == [("DONE", ["goal"]), ("FAILED", [])]


def test_the_seeds_explore_area_still_loads_with_prose_branches_for_the_model():
    path = FIXTURE_TOOLS / "explore-area" / "Skill.md"
    protocol = parse_skill(path.read_text(), path, "skills").protocol
    align = protocol.steps[0]
    assert [(b.condition, b.when, b.step) for b in align.branches] == [
        ("this direction already explored", None, 4), ("", None, 2)]
    assert [c.tool for c in protocol.steps[2].calls] == ["mc-move", "mc-status"]
    assert all(o.when == [] for o in protocol.outcomes) and protocol.state == []


@pytest.mark.parametrize(("line", "expected"), [
    ("- If clear [when: data.free.up >=]: proceed to STEP 1.", "[when: data.free.up >=]: expected a value"),
    ("- If clear [when: sky]: proceed to STEP 1.",
     "unknown name 'sky' at column 1 of \"sky\"; accepted names: args, code, data, goal, state, status, tool"),
    ("- If clear [when: data.x && data.y]: proceed to STEP 1.", "use 'and'"),
    ("- If clear [when: state.tries > 1]: proceed to STEP 1.", "state.tries is not declared in #RUNTIME STATE"),
    ("- If open [when: world.sky]: proceed to STEP 1.",
     "world.sky is not a fact the runtime reads (accepted: world.sky_visible, world.standing_on_ground)"),
    ("- Check it [when: data.x].", "a [when: ...] belongs in a branch"),
    ("- Otherwise [when: data.x]: proceed to STEP 1.", "an Otherwise branch (or a bare 'proceed to') holds"),
    ("- If clear [wen: data.x]: proceed to STEP 1.", "[wen: ...] is not a protocol annotation; did you mean [when: ...]?"),
    ("- If clear [when: state . tries > 1]: proceed to STEP 1.", "state.tries is not declared"),
    ("- If clear [when: data.x: proceed to STEP 1.", "is never closed with ']'"),
    ("- [set: tries = 1]", "tries"),
])
def test_a_malformed_annotation_fails_to_load_naming_file_line_and_what_is_accepted(line, expected):
    message = load_error(f"#PURPOSE:\nx\n#MAIN PROTOCOL LOOP\nSTEP 1 — GO\n- Call think.\n{line}\n"
                         "#TERMINATION CONDITIONS\nDONE:\n- done\n")
    assert message.startswith("skills/probe/Skill.md:11: ") and expected in message
    assert "\n" not in message


def test_a_bad_state_declaration_fails_to_load():
    message = load_error("#PURPOSE:\nx\n#RUNTIME STATE\n- tries: how often [state: integer = 0]\n#MAIN PROTOCOL LOOP\n"
                         "STEP 1 — GO\n- Call think.\n#TERMINATION CONDITIONS\nDONE:\n- done\n")
    assert message.startswith("skills/probe/Skill.md:9: ") and "TYPE one of int, float, bool, str, list" in message


def test_other_bracketed_words_stay_prose():
    protocol = protocol_of("STEP 1 — GO\n- Call think [note: see https://example.org/x].\n"
                           "- If it rained [source: the log]: proceed to TERMINATION (DONE).\n")
    assert [(b.condition, b.when) for b in protocol.steps[0].branches] == [("it rained [source: the log]", None)]


def test_a_checked_step_has_one_fallback_and_assignments_read_declared_state():
    state = "#RUNTIME STATE\n- tries: how often [state: int = 0]\n"
    two = load_error(f"#PURPOSE:\nx\n{state}#MAIN PROTOCOL LOOP\nSTEP 1 — GO\n- Call think.\n"
                     "- If clear [when: data.x]: proceed to STEP 1.\n- Otherwise: go back to STEP 1.\n"
                     "- Proceed to STEP 1.\n#TERMINATION CONDITIONS\nDONE:\n- done\n")
    assert two.startswith("skills/probe/Skill.md:15: a second Otherwise")
    nope = load_error(f"#PURPOSE:\nx\n{state}#MAIN PROTOCOL LOOP\nSTEP 1 — GO\n- Call think.\n"
                      "- [set: tries = state.nope + 1]\n#TERMINATION CONDITIONS\nDONE:\n- done\n")
    assert nope.startswith("skills/probe/Skill.md:13: [set: tries = state.nope + 1]: state.nope is not declared")


def test_literal_arguments_the_called_tool_would_refuse_fail_to_load(tmp_path):
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "Skill.md").write_text(HEAD + "#PURPOSE:\nx\n#MAIN PROTOCOL LOOP\nSTEP 1 — LOOK\n"
                                     '- Call mc-map with {"radius": 1000}.\n#TERMINATION CONDITIONS\nDONE:\n- done\n')
    box = load_toolbox([*standard_sources("minecraft", []), ToolSource(label="more", folder=tmp_path)])
    assert "probe" not in box.tools and "mc-map" in box.tools
    [error] = [str(e) for e in box.errors]
    assert error.startswith(f"{folder / 'Skill.md'}:10: STEP 1 calls mc-map with argument 'radius': expected one of")
