"""Field paths and `where` expressions over notes, parsed by hand: never `eval`.

    where   := or
    or      := and ("OR" and)*
    and     := not ("AND" not)*
    not     := "NOT" not | "(" or ")" | compare
    compare := operand (OP operand)?        OP: == != < <= > >= contains
    operand := path | number | "string" | 'string' | true | false | null
    path    := data(.field)* | name | id     e.g. data.year, data.pos.x, data.items.0

A comparison whose sides do not compare (a missing field, a number against text) is false,
so one odd note never aborts a filter. A bare operand is true when its value is truthy.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agent.infospace.errors import InfospaceError
from agent.infospace.models import Note

Getter = Callable[[Note], Any]
Predicate = Callable[[Note], bool]

# Deeper nesting than this is not a real filter; the limit keeps recursion bounded.
MAX_DEPTH = 32
_ROOTS = ("data", "name", "id")
_KEYWORDS = {"and", "or", "not", "contains", "true", "false", "null"}
_TOKEN = re.compile(
    r"""\s*(?:
      (?P<num>-?\d+(?:\.\d+)?(?![\w.]))
    | (?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
    | (?P<op>==|!=|<=|>=|<|>)
    | (?P<paren>[()])
    | (?P<word>[A-Za-z_]\w*(?:\.\w+)*)
    )""",
    re.X,
)
_LITERALS = {"true": True, "false": False, "null": None}


def field_getter(path: str) -> Getter:
    """A getter for a path such as data.year; raises a bad_value error naming what is accepted."""
    root, *fields = path.split(".")
    if root not in _ROOTS or (root != "data" and fields) or not all(fields):
        raise InfospaceError("bad_value", f"field path {path!r}: expected data, data.FIELD[.FIELD...], name or id")
    if root != "data":
        return lambda note: getattr(note, root)
    return lambda note: _dig(note.content, fields)


def _dig(value: Any, fields: list[str]) -> Any:
    for field in fields:
        if isinstance(value, dict):
            value = value.get(field)
        elif isinstance(value, list) and field.isdigit() and int(field) < len(value):
            value = value[int(field)]
        else:
            return None
    return value


def _ordered(a: Any, b: Any) -> bool:
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
    return numbers or (isinstance(a, str) and isinstance(b, str))


def _contains(a: Any, b: Any) -> bool:
    if isinstance(a, str):
        return isinstance(b, str) and b in a
    return isinstance(a, (list, dict)) and b in a


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: _ordered(a, b) and a < b,
    "<=": lambda a, b: _ordered(a, b) and a <= b,
    ">": lambda a, b: _ordered(a, b) and a > b,
    ">=": lambda a, b: _ordered(a, b) and a >= b,
    "contains": _contains,
}


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, column) triples; kind is num, str, op, paren, word or end."""
    tokens, pos = [], 0
    while text[pos:].strip():
        match = _TOKEN.match(text, pos)
        if match is None or match.lastgroup is None:
            column = len(text) - len(text[pos:].lstrip()) + 1
            raise InfospaceError("bad_value", f"where: unexpected {text[column - 1]!r} at column {column}")
        kind = match.lastgroup
        word, column = match[kind], match.start(kind) + 1
        if kind == "word" and word.lower() in _KEYWORDS:
            kind, word = "op" if word.lower() == "contains" else "kw", word.lower()
        tokens.append((kind, word, column))
        pos = match.end()
    tokens.append(("end", "", len(text) + 1))
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.tokens = _tokenize(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def take(self) -> tuple[str, str, int]:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def fail(self, expected: str) -> InfospaceError:
        kind, text, column = self.peek()
        got = "the end" if kind == "end" else repr(text)
        return InfospaceError("bad_value", f"where: expected {expected} at column {column}, got {got}")

    def keyword(self, word: str) -> bool:
        if self.peek()[:2] == ("kw", word):
            self.i += 1
            return True
        return False

    def parse(self) -> Predicate:
        predicate = self.any_of()
        if self.peek()[0] != "end":
            raise self.fail("AND, OR or the end")
        return predicate

    def any_of(self) -> Predicate:
        parts = [self.all_of()]
        while self.keyword("or"):
            parts.append(self.all_of())
        return parts[0] if len(parts) == 1 else lambda note: any(p(note) for p in parts)

    def all_of(self) -> Predicate:
        parts = [self.negation()]
        while self.keyword("and"):
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else lambda note: all(p(note) for p in parts)

    def negation(self) -> Predicate:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(f"at most {MAX_DEPTH} nested NOTs and parentheses, not more")
        try:
            if self.keyword("not"):
                inner = self.negation()
                return lambda note: not inner(note)
            if self.peek()[:2] == ("paren", "("):
                self.take()
                inner = self.any_of()
                if self.take()[:2] != ("paren", ")"):
                    self.i -= 1
                    raise self.fail("')'")
                return inner
            return self.comparison()
        finally:
            self.depth -= 1

    def comparison(self) -> Predicate:
        left = self.operand()
        if self.peek()[0] != "op":
            return lambda note: bool(left(note))
        compare = _COMPARE[self.take()[1]]
        right = self.operand()
        return lambda note: compare(left(note), right(note))

    def operand(self) -> Getter:
        kind, text, column = self.peek()
        if kind == "num":
            self.take()
            number = float(text) if "." in text else int(text)
            return lambda note: number
        if kind == "str":
            self.take()
            literal = re.sub(r"\\(.)", r"\1", text[1:-1])
            return lambda note: literal
        if kind == "kw" and text in _LITERALS:
            self.take()
            constant = _LITERALS[text]
            return lambda note: constant
        if kind == "word":
            try:
                getter = field_getter(text)
            except InfospaceError as e:
                raise InfospaceError("bad_value", f"where: column {column}: {e}") from None
            self.take()
            return getter
        raise self.fail("a field path (data.x, name, id) or a value")


def parse_where(text: str) -> Predicate:
    """A predicate over notes for `text`, or an InfospaceError (code bad_value) naming the column."""
    if not text.strip():
        raise InfospaceError("bad_value", "where: empty expression; expected e.g. data.year >= 2020")
    return _Parser(text).parse()
