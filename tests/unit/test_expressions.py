"""Protocol expressions: hand-parsed, three-valued, lazy about roots, and clear when they fail."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.protocol import expressions
from agent.protocol.expressions import (
    ACCEPTED,
    UNKNOWN,
    Assignment,
    ExpressionError,
    parse_assignment,
    parse_expression,
)

ROOTS = ("data", "state", "goal")
DATA = {
    "sky_above": True,
    "free": {"up": 3, "down": 0},
    "legs": [{"reached": False}, {"reached": True}],
    "name": "oak_log",
    "tags": ["wood", "log"],
    "empty": [],
    "nothing": None,
    "ratio": 0.5,
}
SCOPE = {"data": DATA, "state": {"tries": 2, "seen": []}}


def value(text: str, scope: Mapping[str, Any] = SCOPE) -> Any:
    return parse_expression(text, ROOTS).evaluate(scope)


def holds(text: str, scope: Mapping[str, Any] = SCOPE) -> bool | None:
    return parse_expression(text, ROOTS).holds(scope)


def error(text: str, roots: tuple[str, ...] = ROOTS) -> ExpressionError:
    with pytest.raises(ExpressionError) as e:
        parse_expression(text, roots)
    assert "\n" not in e.value.message and str(e.value) == e.value.message
    return e.value


class Strict(Mapping[str, Any]):
    """A scope that fails the test if a root outside `allowed` is looked up."""

    def __init__(self, values: dict[str, Any], allowed: set[str]):
        self.values, self.allowed = values, allowed

    def __getitem__(self, name: str) -> Any:
        if name not in self.allowed:
            raise AssertionError(f"looked up {name}")
        return self.values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


@pytest.mark.parametrize("text, expected", [
    ("3", 3), ("-2", -2), ("0.5", 0.5), ("-0.25", -0.25),
    ('"oak"', "oak"), ("'oak'", "oak"), (r'"say \"hi\""', 'say "hi"'), (r"'it\'s'", "it's"), (r"'a\\b'", "a\\b"),
    ("true", True), ("false", False), ("null", None),
    ("[]", []), ("[1, 'a', [true], null]", [1, "a", [True], None]), ("[data.free.up, 1 + 1]", [3, 2]),
])
def test_literals(text, expected):
    assert value(text) == expected and type(value(text)) is type(expected)


@pytest.mark.parametrize("text, expected", [
    ("data.sky_above", True), ("data.free.up", 3), ("data.legs[0].reached", False),
    ("data.legs[-1].reached", True), ("data.legs[ - 2 ].reached", False), ("state.tries", 2),
    ("data", DATA), ("data.free", {"up": 3, "down": 0}),
])
def test_paths(text, expected):
    assert value(text) == expected


@pytest.mark.parametrize("text", [
    "goal", "data.missing", "data.free.up.more", "data.legs[2]", "data.legs[-3]", "data.name[0]",
    "data.tags.first", "data.nothing.x", "data.free[0]",
])
def test_what_the_scope_cannot_answer_is_unknown(text):
    assert value(text) is UNKNOWN
    assert holds(text) is None


def test_expression_records_source_and_the_roots_it_uses():
    expression = parse_expression("  data.x == 1 or state.tries > len(data.y)  ", ROOTS)
    assert expression.source == "data.x == 1 or state.tries > len(data.y)"
    assert expression.roots == {"data", "state"}
    assert parse_expression("1 + 2", ROOTS).roots == frozenset()
    assert expression == parse_expression("data.x == 1 or state.tries > len(data.y)", ROOTS)
    assert hash(expression) == hash(parse_expression(expression.source, ROOTS))
    assert str(expression) == expression.source


@pytest.mark.parametrize("text, expected", [
    ("1 + 2", 3), ("1.5 + 1", 2.5), ("5 - 2 - 1", 2), ("-data.free.up", -3), ("- -3", 3),
    ("'ab' + 'cd'", "abcd"), ("[1] + [2, 3]", [1, 2, 3]), ("data.tags + ['x']", ["wood", "log", "x"]),
    ("len(data.tags)", 2), ("len('abc')", 3), ("len(data.free)", 2), ("len([])", 0),
    ("(1 + 2)", 3), ("((data.free.up))", 3),
])
def test_arithmetic_and_len(text, expected):
    assert value(text) == expected


@pytest.mark.parametrize("text", [
    "true + 1", "1 + 'a'", "'a' - 'b'", "[1] - [1]", "-'a'", "-true", "len(3)", "len(true)", "len(null)",
    "null + null", "data.missing + 1", "1 + data.missing", "-data.missing", "len(data.missing)",
    "10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 + 0.5",
])
def test_arithmetic_on_the_wrong_kinds_is_unknown(text):
    assert value(text) is UNKNOWN


@pytest.mark.parametrize("text, expected", [
    ("1 == 1.0", True), ("true == 1", False), ("1 == true", False), ("false == 0", False), ("null == null", True),
    ("[1, [true]] == [1, [true]]", True), ("[true] == [1]", False), ("data.free == data.free", True),
    ("'a' != 'b'", True), ("null != false", True),
    ("1 < 2", True), ("2 <= 2", True), ("3 > 2.5", True), ("2 >= 3", False), ("'a' < 'b'", True),
    ("'log' in data.tags", True), ("'x' not in data.tags", True), ("1 in [true]", False), ("true in [1]", False),
    ("'oak' in data.name", True), ("'up' in data.free", True), ("'left' not in data.free", True),
    ("1 in data.free", False),
])
def test_comparisons(text, expected):
    assert value(text) is expected


@pytest.mark.parametrize("text", [
    "1 < 'a'", "true < 2", "null >= 0", "[1] < [2]", "1 in 'abc'", "1 in 5", "'a' in null", "1 not in 2",
    "data.missing == 1", "1 != data.missing", "data.missing in [1]", "1 in [data.missing, 1]",
])
def test_comparisons_that_cannot_be_answered_are_unknown(text):
    assert value(text) is UNKNOWN


@pytest.mark.parametrize("text, expected", [
    ("true and true", True), ("true and 0", False), ("1 and 'x'", True), ("[] or ''", False),
    ("data.missing and false", False), ("false and data.missing", False), ("data.missing and true", UNKNOWN),
    ("data.missing or true", True), ("true or data.missing", True), ("data.missing or false", UNKNOWN),
    ("not data.missing", UNKNOWN), ("not null", True), ("not data.tags", False), ("not not 3", True),
    ("data.missing and data.missing", UNKNOWN),
])
def test_and_or_not_are_three_valued_and_return_booleans(text, expected):
    assert value(text) is expected


@pytest.mark.parametrize("text, expected", [
    ("true or true and false", True),            # and binds tighter than or
    ("(true or true) and false", False),
    ("not true or true", True),                  # not binds looser than comparison, tighter than and/or
    ("not 1 == 2", True),
    ("1 + 2 == 3", True),                        # arithmetic binds tighter than comparison
    ("1 - 2 + 3", 2),                            # left to right
    ("-1 + 2", 1),
    ("not 'a' in ['b']", True),
    ("data.sky_above and data.free.up >= 2", True),
    ("state.tries + 1 > 2 and 'wood' in data.tags", True),
])
def test_precedence(text, expected):
    assert value(text) == expected


def test_false_and_does_not_look_up_the_root_on_its_right():
    scope = Strict({"data": DATA, "goal": True}, allowed={"data"})
    assert parse_expression("false and goal", ROOTS).evaluate(scope) is False
    assert parse_expression("data.sky_above or goal", ROOTS).holds(scope) is True
    assert parse_expression("data.free.down and goal.x == 1", ROOTS).holds(scope) is False
    with pytest.raises(AssertionError):
        parse_expression("true and goal", ROOTS).evaluate(scope)


def test_a_root_missing_from_the_scope_is_unknown_not_an_error():
    assert parse_expression("goal", ROOTS).holds({}) is None
    assert parse_expression("goal or true", ROOTS).holds({}) is True


def test_unknown_is_one_sentinel_with_a_readable_repr_and_no_truth_value():
    assert repr(UNKNOWN) == "unknown"
    assert copy.deepcopy(UNKNOWN) is UNKNOWN and pickle.loads(pickle.dumps(UNKNOWN)) is UNKNOWN
    with pytest.raises(TypeError):
        bool(UNKNOWN)


def test_holds_is_the_truthiness_of_the_value():
    assert holds("data.free.down") is False
    assert holds("data.name") is True
    assert holds("data.empty") is False
    assert holds("data.missing == 1") is None


def assert_names(e: ExpressionError, *parts: str) -> None:
    for part in parts:
        assert part in e.message, (part, e.message)


def test_unknown_root_lists_the_accepted_names():
    e = error("data.x and foo.y")
    assert e.column == 12
    assert_names(e, "unknown name 'foo'", "column 12", "accepted names: data, goal, state")
    assert "(none here)" in error("data", roots=()).message


def test_unknown_function_lists_the_accepted_functions():
    e = error("data.x or max(data.y)")
    assert e.column == 11
    assert_names(e, "unknown function 'max'", "accepted functions: len")


@pytest.mark.parametrize("text, says, column", [
    ("data.x && data.y", "use 'and', not '&&'", 8),
    ("data.x || data.y", "use 'or', not '||'", 8),
    ("!data.x", "use 'not', not '!'", 1),
    ("data.x = 3", "use '==' to compare, not '='", 8),
    ("data.x == True", "use lower-case 'true', not 'True'", 11),
    ("data.x AND data.y", "use lower-case 'and', not 'AND'", 8),
    ("data.x == None", "use 'null', not 'None'", 11),
    ("data.x is null", "use '==' or '!=', not 'is'", 8),
])
def test_other_languages_operators_say_what_to_write_instead(text, says, column):
    e = error(text)
    assert_names(e, says, f"column {column}", f"accepted: {ACCEPTED}")
    assert e.column == column


@pytest.mark.parametrize("text, says, column", [
    ("(data.x == 1", "unclosed '('", 1),
    ("len(data.x", "unclosed '('", 4),
    ("data.legs[0", "unclosed '['", 10),
    ("[1, 2", "unclosed '['", 1),
    ("data.x == 'oak", "unclosed string", 11),
    ('data.x == "oak\\"', "unclosed string", 11),
    ("data.x data.y", "found 'data'", 8),
    ("data.x == 1)", "found ')'", 12),
    ("data.x == ", "expected a value after '=='", 10),
    ("data.x and", "expected a value after 'and'", 11),
    ("1 < 2 < 3", "comparisons cannot be chained", 7),
    ("1 == 2 in [3]", "comparisons cannot be chained", 8),
    ("data.", "expected a field name after '.'", 6),
    ("data.legs[x]", "expected an integer index", 11),
    ("data.legs[0.5]", "expected an integer index", 11),
    ("[1 2]", "expected ',' or ']'", 4),
    ("[1,]", "expected a value after ','", 4),
    ("len(1, 2)", "len takes one argument", 6),
    ("len", "expected '(' after 'len'", 4),
    ("data.x # note", "unexpected character '#'", 8),
    ("'a\\n'", "unknown escape", 3),
    ("(" * 40 + "1" + ")" * 40, "nested more than", 33),
])
def test_syntax_errors_name_the_column_and_what_is_accepted(text, says, column):
    e = error(text)
    assert_names(e, says, f"at column {column} of \"{text.strip()}\"", "accepted")
    assert e.column == column


def test_empty_expression():
    for text in ("", "   ", "\n\t"):
        e = error(text)
        assert_names(e, "empty expression", ACCEPTED)
        assert e.column == 1


def test_messages_stay_on_one_line_whatever_was_typed():
    e = error("data.x ==\n\u2028 ?")
    assert len(e.message.splitlines()) == 1
    assert "\\n" in e.message


def test_nothing_is_executed():
    e = error("__import__('os').system('true')")
    assert_names(e, "unknown function '__import__'")
    for text in ("data.__class__", "data.free.__dict__"):  # fields are keys, never attributes
        assert value(text) is UNKNOWN
    assert "eval(" not in open(expressions.__file__).read()
    assert "compile(" not in open(expressions.__file__).read().replace("re.compile(", "")


def test_assignment():
    assignment = parse_assignment(" tries = state.tries + 1 ", ROOTS, ["tries", "seen"])
    assert isinstance(assignment, Assignment)
    assert assignment.name == "tries"
    assert assignment.source == "tries = state.tries + 1"
    assert assignment.expression.source == "state.tries + 1"
    assert assignment.expression.roots == {"state"}
    assert assignment.expression.evaluate(SCOPE) == 3
    seen = parse_assignment("seen=state.seen + [data.name]", ROOTS, ["seen"])
    assert seen.expression.evaluate(SCOPE) == ["oak_log"]


@pytest.mark.parametrize("text, says, column", [
    ("count = 1", "unknown state variable 'count'", 1),
    ("3 = 1", "expected a state variable", 1),
    ("tries == 1", "use '=' to assign, not '=='", 7),
    ("tries", "expected '=' after 'tries'", 6),
])
def test_assignment_errors_list_the_declared_names(text, says, column):
    with pytest.raises(ExpressionError) as e:
        parse_assignment(text, ROOTS, ["tries", "seen"])
    assert_names(e.value, says, f"column {column}", "accepted: NAME = EXPRESSION, NAME one of: seen, tries")
    assert e.value.column == column


def test_assignment_expression_errors_count_columns_in_the_whole_text():
    with pytest.raises(ExpressionError) as e:
        parse_assignment("tries = state.tries +", ROOTS, ["tries"])
    assert e.value.column == 22 and "expected a value after '+'" in e.value.message
    with pytest.raises(ExpressionError) as e:
        parse_assignment("", ROOTS, [])
    assert "empty assignment" in e.value.message and "(none declared)" in e.value.message


# Text close to the grammar finds more corners than arbitrary unicode alone.
PIECES = [*"dxt.[]()0123456789-+=!<>&|,'\"\\ \n", "and ", "or ", "not ", "in ", "len", "true", "null",
          "data.x", "state."]
NEAR = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
SAMPLE = {"data": {"x": [1, "a", {"b": None}], "y": 2.5}, "state": {"t": True}}


def check(text: str) -> None:
    try:
        expression = parse_expression(text, ROOTS)
    except ExpressionError as e:
        assert e.message and len(e.message.splitlines()) == 1 and "Traceback" not in e.message
        assert 1 <= e.column <= len(text.strip()) + 1
        return
    result = expression.evaluate(SAMPLE)
    assert result is UNKNOWN or isinstance(result, (bool, int, float, str, list, dict, type(None)))


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=60), NEAR))
def test_any_text_parses_or_raises_only_expression_error(text):
    check(text)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=60), NEAR))
def test_any_assignment_text_parses_or_raises_only_expression_error(text):
    try:
        parse_assignment(text, ROOTS, ["x", "t"])
    except ExpressionError as e:
        assert len(e.message.splitlines()) == 1


@pytest.mark.parametrize("text", ["(" * 5000, "not " * 5000 + "1", "-" * 5000 + "1", "[" * 5000, "9" * 5000,
                                  " + ".join(["1"] * 5000), " and ".join(["true"] * 5000)])
def test_huge_inputs_stay_inside_expression_error(text):
    check(text)
