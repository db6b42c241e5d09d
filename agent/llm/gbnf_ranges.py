"""GBNF expressions that can only spell a JSON number inside [low, high] (either bound optional).

Integers are written canonically (no leading zeros, no "-0"); each sign's half of the range is
a union of pieces of one digit length, built digit by digit ("1" [0-6] | [2-9] for 2..16).

Numbers have an integer part and at most FRACTION_DIGITS fraction digits, never an exponent.
An integer part strictly inside the range takes any fraction; the integer parts of the bounds
take only the fractions that keep the value inside; a bound with more fraction digits is added
as a literal. So the grammar spells a subset of the valid values and never an invalid one.

Bounds are read as decimals (Decimal(str(0.05)) is exactly 0.05): float arithmetic would put
0.05 * 100 at 5.000000000000001 and wrongly exclude 0.05 itself.
"""

from __future__ import annotations

import math
from decimal import Decimal

# An unbounded side stops at 15 digits: every such integer is exact in a double (JS numbers too).
MAX_DIGITS = 15
FRACTION_DIGITS = 3
_ANY_FRACTION = f'("." [0-9]{{1,{FRACTION_DIGITS}}})?'


def integer_range(low: float | None, high: float | None) -> str:
    """Canonical decimal integers n with low <= n <= high."""
    lo = None if low is None else math.ceil(_decimal(low))
    hi = None if high is None else math.floor(_decimal(high))
    if lo is not None and hi is not None and lo > hi:
        raise ValueError(f"no integer from {low} to {high}")
    parts = []
    if hi is None or hi >= 0:
        parts += _naturals(max(lo or 0, 0), hi)
    if lo is None or lo < 0:
        parts.append('"-" ' + _group(_naturals(1 if hi is None else max(-hi, 1), None if lo is None else -lo)))
    return _group(parts)


def number_range(low: float | None, high: float | None) -> str:
    """Decimals x with low <= x <= high (and "-0" forms of 0 where 0 is inside)."""
    lo = None if low is None else _decimal(low)
    hi = None if high is None else _decimal(high)
    parts = []
    if hi is None or hi >= 0:
        parts += _decimals(max(lo, 0) if lo is not None else Decimal(0), hi)
    if lo is None or lo < 0:
        magnitudes = _decimals(max(-hi, 0) if hi is not None else Decimal(0), None if lo is None else -lo)
        parts.append('"-" ' + _group(magnitudes))
    parts += [_literal(format(b, "f")) for b in (lo, hi) if b is not None and -b.as_tuple().exponent > FRACTION_DIGITS]
    return _group(parts)


def _decimal(bound: float) -> Decimal:
    return Decimal(str(bound))


def _naturals(low: int, high: int | None) -> list[str]:
    """Alternatives spelling the integers low..high (low >= 0; high None: up to MAX_DIGITS digits)."""
    if high is None:
        width = len(str(low))
        parts = _span(str(low), "9" * width)
        if width < MAX_DIGITS:
            parts.append(f"[1-9] [0-9]{{{width},{MAX_DIGITS - 1}}}")
        return parts
    parts = []
    for width in range(len(str(low)), len(str(high)) + 1):
        first = max(low, 10 ** (width - 1) if width > 1 else 0)
        parts += _span(str(first), str(min(high, 10**width - 1)))
    return parts


def _span(low: str, high: str) -> list[str]:
    """Alternatives spelling every digit string from low to high, both of the same length."""
    if low == high:
        return [_literal(low)]
    if low[0] == high[0]:
        return [f"{_literal(low[0])} {_group(_span(low[1:], high[1:]))}"]
    rest = len(low) - 1
    # A head whose tails run the whole way (0..0 to 9..9) joins the middle heads.
    low_whole, high_whole = low[1:] == "0" * rest, high[1:] == "9" * rest
    first, last = int(low[0]) + (not low_whole), int(high[0]) - (not high_whole)
    parts = [] if low_whole else [f"{_literal(low[0])} {_group(_span(low[1:], '9' * rest))}"]
    if first <= last:
        heads = _literal(str(first)) if first == last else f"[{first}-{last}]"
        parts.append(heads + _digits(rest))
    if not high_whole:
        parts.append(f"{_literal(high[0])} {_group(_span('0' * rest, high[1:]))}")
    return parts


def _decimals(low: Decimal, high: Decimal | None) -> list[str]:
    """Alternatives spelling decimals from low to high, 0 <= low (high None: unbounded)."""
    whole_low = math.ceil(low)
    whole_high = None if high is None else math.floor(high)
    parts = []
    # Integer parts below floor(high) stay inside with any fraction: I.999 < I + 1 <= high.
    free_high = None if whole_high is None else whole_high - 1
    if free_high is None or whole_low <= free_high:
        parts.append(f"{_group(_naturals(whole_low, free_high))} {_ANY_FRACTION}")
    if low != whole_low:  # the lower bound's integer part, with fractions from its own up
        top = high - math.floor(low) if whole_high == math.floor(low) else None
        fractions = _fractions(low - math.floor(low), top)
        if fractions:
            parts.append(f'{_literal(str(math.floor(low)))} "." {_group(fractions)}')
    if whole_high is not None and whole_high >= whole_low:  # the upper bound's integer part
        fractions = _fractions(Decimal(0), high - whole_high)
        parts.append(f'{_literal(str(whole_high))} ("." {_group(fractions)})?')
    return parts


def _fractions(low: Decimal, high: Decimal | None) -> list[str]:
    """Alternatives spelling 1..FRACTION_DIGITS fraction digits worth low..high (high None: < 1)."""
    parts = []
    for width in range(1, FRACTION_DIGITS + 1):
        scale = 10**width
        first, last = math.ceil(low * scale), scale - 1 if high is None else math.floor(high * scale)
        if first <= last:
            parts += _span(str(first).zfill(width), str(last).zfill(width))
    return parts


def _digits(count: int) -> str:
    return "" if count == 0 else " [0-9]" if count == 1 else f" [0-9]{{{count}}}"


def _literal(text: str) -> str:
    return f'"{text}"'


def _group(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else "(" + " | ".join(parts) + ")"
