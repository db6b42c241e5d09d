"""Bounded numbers in llama.cpp grammars: each rule, read as a regex, matches a number iff it is in
bounds, checked exhaustively over every integer in a wide window and every decimal with 0 to 3
fraction digits near the bounds."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal

import pytest

from agent.llm.gbnf_ranges import MAX_DIGITS, integer_range, number_range
from support.gbnf import gbnf_regex


def test_the_translator_reads_the_subset():
    assert gbnf_regex('("1" [0-6] | "-" [1-9]{1,2})?').pattern == "(?:1[0-6]|\\-[1-9]{1,2})?"


def in_bounds(text: str, low, high) -> bool:
    value = Decimal(text)
    return (low is None or value >= Decimal(str(low))) and (high is None or value <= Decimal(str(high)))


INTEGER_RANGES = [(1, 16), (-90, 90), (0, 60), (5, 1000), (1, None), (None, 16), (-1000, -5), (-7, None), (0, 0)]


@pytest.mark.parametrize(("low", "high"), INTEGER_RANGES)
def test_an_integer_rule_matches_exactly_the_integers_in_bounds(low, high):
    rule = gbnf_regex(integer_range(low, high))
    powers = [sign * (10**k + d) for k in range(1, MAX_DIGITS) for d in (-1, 0, 1) for sign in (1, -1)]
    for n in itertools.chain(range(-1500, 1501), powers):
        assert bool(rule.fullmatch(str(n))) == in_bounds(str(n), low, high), (n, low, high)


@pytest.mark.parametrize(("low", "high"), INTEGER_RANGES)
def test_an_integer_rule_never_matches_a_non_canonical_or_too_long_integer(low, high):
    rule = gbnf_regex(integer_range(low, high))
    for text in ["", "-", "00", "01", "010", "-0", "-01", "+1", "1.0", "1e1", " 1", "1 ", str(10**MAX_DIGITS)]:
        assert not rule.fullmatch(text), (text, low, high)


def test_bounds_that_are_not_whole_are_rounded_inwards():
    rule = gbnf_regex(integer_range(0.5, 3.7))
    assert [n for n in range(-5, 6) if rule.fullmatch(str(n))] == [1, 2, 3]
    with pytest.raises(ValueError, match="no integer"):
        integer_range(1.2, 1.5)


NUMBER_RANGES = [(0.05, 10), (-90, 90), (0, 60), (0.5, 0.6), (1.5, None), (None, 16), (-10, -0.5), (-0.25, 0.3),
                 (0.0625, 0.5)]
FRACTIONS = ["", *("." + "".join(d) for width in (1, 2, 3) for d in itertools.product("0123456789", repeat=width))]


def decimals(low, high):
    """Every decimal with 0 to 3 fraction digits whose integer part is within 3 of a bound, or of
    0 on an unbounded side; without "-0" forms, which the rules spell only where 0 is inside."""
    span = max(abs(b) for b in (low, high, 0) if b is not None)
    for whole, fraction in itertools.product(range(int(span) + 4), FRACTIONS):
        yield f"{whole}{fraction}"
        if whole or fraction.strip(".0"):
            yield f"-{whole}{fraction}"


@pytest.mark.parametrize(("low", "high"), NUMBER_RANGES)
def test_a_number_rule_matches_exactly_the_decimals_in_bounds(low, high):
    rule = gbnf_regex(number_range(low, high))
    for text in decimals(low, high):
        assert bool(rule.fullmatch(text)) == in_bounds(text, low, high), (text, low, high)


@pytest.mark.parametrize(("low", "high"), NUMBER_RANGES)
def test_a_number_rule_never_matches_a_value_out_of_bounds_in_any_form(low, high):
    rule = gbnf_regex(number_range(low, high))
    forms = ["-0", "-0.0", "-0.000", "1e1", "1E-1", "00.5", ".5", "5.", "+5", "1.0001", "0.0624", "0.0626"]
    for text in forms:
        if rule.fullmatch(text):
            assert re.fullmatch(r"-?\d+(\.\d+)?", text) and in_bounds(text, low, high), (text, low, high)


def test_a_bound_with_more_fraction_digits_is_spelled_as_it_is():
    assert gbnf_regex(number_range(0.0625, 0.5)).fullmatch("0.0625")
    assert gbnf_regex(number_range(-0.0625, 0)).fullmatch("-0.0625")
