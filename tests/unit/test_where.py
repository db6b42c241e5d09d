"""The `where` expression parser: what it accepts, how it evaluates, and that garbage never crashes it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.infospace import InfospaceError, Note, field_getter, parse_where

ORE = Note(id="Note_1", name="iron", content={"year": 2021, "kind": "ore", "pos": {"y": 12}, "tags": ["deep", "x"]})
TEXT = Note(id="Note_2", content="just text")


@pytest.mark.parametrize(
    ("expression", "ore", "text"),
    [
        ('data.year >= 2020 AND data.kind == "ore"', True, False),
        ("data.year < 2020 OR data.pos.y <= 12", True, False),
        ("NOT data.year > 3000", True, True),
        ("(data.kind == 'ore' OR data.kind == 'gem') and not data.pos.y > 50", True, False),
        ('data.tags contains "deep"', True, False),
        ("data.tags.0 == 'deep'", True, False),
        ('data contains "text"', False, True),
        ('name == "iron" AND id == "Note_1"', True, False),
        ("data.missing == null", True, True),
        ('data.year > "2000"', False, False),
        ("data.pos", True, False),
        ("data.year == 2021.0 and -1 < 0", True, False),
        ("true", True, True),
    ],
)
def test_expressions_evaluate_per_note(expression, ore, text):
    matches = parse_where(expression)
    assert (matches(ORE), matches(TEXT)) == (ore, text)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("", "empty expression"),
        ("data.year >=", "expected a field path .* at column 13, got the end"),
        ("(data.x == 1", r"expected '\)' at column 13"),
        ("year > 1", "column 1: field path 'year'"),
        ("data.x = 2", "unexpected '=' at column 8"),
        ("data.x == 1 data.y", "expected AND, OR or the end at column 13"),
        ("name.first == 'a'", "field path 'name.first'"),
        ("NOT " * 40 + "true", "at most 32 nested"),
        ("__import__('os')", "field path '__import__'"),
    ],
)
def test_bad_expressions_name_the_column_and_what_was_expected(expression, message):
    with pytest.raises(InfospaceError, match=message) as e:
        parse_where(expression)
    assert e.value.code == "bad_value"


def test_field_paths():
    assert field_getter("data.pos.y")(ORE) == 12
    assert field_getter("data")(TEXT) == "just text"
    assert field_getter("data.nothing.deeper")(ORE) is None
    with pytest.raises(InfospaceError):
        field_getter("data..x")


WHERE_ALPHABET = st.sampled_from(
    ["data.x", "data.y.z", "name", "id", " AND ", " OR ", "NOT ", "(", ")", "==", "!=", "<", ">=", " contains ",
     "1", "-2.5", '"s"', "'t'", "true", "null", " ", "=", "!", "\\", '"', "x"]
)


@settings(derandomize=True, deadline=None, max_examples=300)
@given(st.one_of(st.text(max_size=60), st.lists(WHERE_ALPHABET, max_size=25).map("".join)))
def test_any_input_gives_a_predicate_or_a_clear_error(text):
    try:
        matches = parse_where(text)
    except InfospaceError as e:
        assert e.code == "bad_value" and str(e)
        return
    assert matches(ORE) in (True, False) and matches(TEXT) in (True, False)
