"""Conditions and state updates of method protocols, parsed by hand: never eval, compile or ast.

    [when: data.sky_above and data.free.up >= 2]        parse_expression(text, roots)
    [set: tries = state.tries + 1]                      parse_assignment(text, roots, names)

    expression := or
    or         := and ("or" and)*
    and        := not ("and" not)*
    not        := "not" not | comparison
    comparison := sum (COMPARE sum)?          COMPARE: == != < <= > >= in, not in (never chained)
    sum        := unary (("+" | "-") unary)*
    unary      := "-" unary | primary
    primary    := NUMBER | STRING | true | false | null | "[" (expression ("," expression)*)? "]"
                | "(" expression ")" | "len" "(" expression ")" | path
    path       := ROOT ("." NAME | "[" "-"? INTEGER "]")*          e.g. data.legs[-1].reached

Values are plain JSON. Whatever cannot be answered (a missing root, key or index, a number
compared with text) is UNKNOWN, which propagates; and/or/not follow Kleene's three-valued logic,
so `false and X` is false without looking X's root up, which the caller may compute lazily.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

ACCEPTED = ("numbers, 'strings', true, false, null, [lists], paths like root.field[0], len(x), ( ), "
            "+ -, == != < <= > >= in, not in, not, and, or")
FUNCTIONS = ("len",)
# Deeper nesting is no real condition; the limit keeps parsing and evaluation off the recursion limit.
MAX_DEPTH = 32
_LITERALS = {"true": True, "false": False, "null": None}
_OPERATOR_WORDS = {"and", "or", "not", "in"}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}
_HINTS = {"&&": "use 'and', not '&&'", "&": "use 'and', not '&'", "||": "use 'or', not '||'",
          "|": "use 'or', not '|'", "!": "use 'not', not '!'", "=": "use '==' to compare, not '='",
          "None": "use 'null', not 'None'", "is": "use '==' or '!=', not 'is'"}
_TOKEN = re.compile(r"""
      (?P<space>\s+)
    | (?P<number>[0-9]+(?:\.[0-9]+)?)
    | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op>==|!=|<=|>=|&&|\|\||[-<>!=+()\[\],.&|])
    | (?P<unclosed>["'])
    | (?P<other>.)
""", re.X | re.S)


class _Unknown:
    def __repr__(self) -> str:
        return "unknown"

    def __bool__(self) -> bool:  # `if value:` on an unknown is a bug in the caller, not a truth
        raise TypeError("unknown has no truth value; use Expression.holds()")

    def __reduce__(self) -> str:  # copies and pickles stay the one sentinel
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()


class ExpressionError(ValueError):
    """One line naming what was wrong, where (column, 1-based in the stripped text), and what is accepted."""

    def __init__(self, message: str, column: int):
        super().__init__(message)
        self.message, self.column = message, column


def _printable(text: str, limit: int = 200) -> str:
    # Escaping every unprintable character keeps messages on one line whatever was typed.
    text = text if len(text) <= limit else text[:limit] + "..."
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _equal(a: Any, b: Any) -> bool:
    if _number(a) and _number(b):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(map(_equal, a, b))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b  # so true is not 1


def _ordered(compare: Callable[[Any, Any], bool]) -> Callable[[Any, Any], Any]:
    def ordered(a: Any, b: Any) -> Any:
        both = (_number(a) and _number(b)) or (isinstance(a, str) and isinstance(b, str))
        return compare(a, b) if both else UNKNOWN
    return ordered


def _contains(a: Any, b: Any) -> Any:
    if isinstance(b, (list, tuple)):
        return any(_equal(a, x) for x in b)
    if isinstance(b, str):
        return a in b if isinstance(a, str) else UNKNOWN
    return isinstance(a, str) and a in b if isinstance(b, Mapping) else UNKNOWN


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, str) and isinstance(b, str):
        return a + b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return [*a, *b]
    return a + b if _number(a) and _number(b) else UNKNOWN


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "==": _equal, "!=": lambda a, b: not _equal(a, b),
    "<": _ordered(operator.lt), "<=": _ordered(operator.le), ">": _ordered(operator.gt), ">=": _ordered(operator.ge),
    "in": _contains, "not in": lambda a, b: UNKNOWN if (v := _contains(a, b)) is UNKNOWN else not v,
    "+": _add, "-": lambda a, b: a - b if _number(a) and _number(b) else UNKNOWN,
}
_UNARY: dict[str, Callable[[Any], Any]] = {
    "-": lambda v: -v if _number(v) else UNKNOWN,
    "not": lambda v: not v,
    "len": lambda v: len(v) if isinstance(v, (list, tuple, str, Mapping)) else UNKNOWN,
}


def _binary(op: str, a: Any, b: Any) -> Any:
    try:
        return UNKNOWN if a is UNKNOWN or b is UNKNOWN else _BINARY[op](a, b)
    except OverflowError:  # a huge integer meeting a float
        return UNKNOWN


@dataclass(frozen=True)
class Literal:
    value: Any

    def evaluate(self, scope: Mapping[str, Any]) -> Any:
        return self.value


@dataclass(frozen=True)
class ListOf:
    items: tuple[Any, ...]

    def evaluate(self, scope: Mapping[str, Any]) -> Any:
        values = [item.evaluate(scope) for item in self.items]
        return UNKNOWN if any(v is UNKNOWN for v in values) else values


@dataclass(frozen=True)
class Path:
    root: str
    parts: tuple[str | int, ...]

    def evaluate(self, scope: Mapping[str, Any]) -> Any:
        try:
            value = scope[self.root]
        except KeyError:
            return UNKNOWN
        for part in self.parts:
            if isinstance(part, str) and not (isinstance(value, Mapping) and part in value):
                return UNKNOWN
            if isinstance(part, int) and not (isinstance(value, (list, tuple)) and -len(value) <= part < len(value)):
                return UNKNOWN
            value = value[part]
        return value


@dataclass(frozen=True)
class Unary:
    op: str  # -, not, len
    operand: Any

    def evaluate(self, scope: Mapping[str, Any]) -> Any:
        value = self.operand.evaluate(scope)
        return UNKNOWN if value is UNKNOWN else _UNARY[self.op](value)


@dataclass(frozen=True)
class Binary:
    """A comparison, or a run of + and - kept flat so a long sum cannot nest deep."""

    first: Any
    rest: tuple[tuple[str, Any], ...]

    def evaluate(self, scope: Mapping[str, Any]) -> Any:
        value = self.first.evaluate(scope)
        for op, term in self.rest:
            value = UNKNOWN if value is UNKNOWN else _binary(op, value, term.evaluate(scope))
        return value


@dataclass(frozen=True)
class Logic:
    op: str  # and, or
    operands: tuple[Any, ...]

    def evaluate(self, scope: Mapping[str, Any]) -> Any:
        decisive = self.op == "or"  # the truth value that settles it at once
        unknown = False
        for operand in self.operands:
            value = operand.evaluate(scope)
            if value is UNKNOWN:
                unknown = True
            elif bool(value) is decisive:
                return decisive
        return UNKNOWN if unknown else not decisive


@dataclass(frozen=True)
class Expression:
    source: str
    roots: frozenset[str]
    tree: Any = field(repr=False, compare=False)

    def evaluate(self, scope: Mapping[str, Any]) -> Any:
        """The value over `scope` (root name -> JSON value, each looked up only when needed), or UNKNOWN."""
        return self.tree.evaluate(scope)

    def holds(self, scope: Mapping[str, Any]) -> bool | None:
        """Whether the value is truthy; None when it is UNKNOWN."""
        value = self.evaluate(scope)
        return None if value is UNKNOWN else bool(value)

    def paths(self) -> list[tuple[str, tuple[str | int, ...]]]:
        """Every field path it reads, as (root, parts), in order: what a loader checks names against."""
        return [(node.root, node.parts) for node in _nodes(self.tree) if isinstance(node, Path)]

    def __str__(self) -> str:
        return self.source


def _nodes(node: Any) -> list[Any]:
    """`node` and every node under it: the tree's nodes are dataclasses holding nodes, tuples of
    nodes, or (operator, node) pairs."""
    found = [node]
    for item in (getattr(node, f.name) for f in fields(node)):
        for child in item if isinstance(item, tuple) else (item,):
            child = child[1] if isinstance(child, tuple) else child
            if is_dataclass(child):
                found += _nodes(child)
    return found


@dataclass(frozen=True)
class Assignment:
    name: str
    expression: Expression
    source: str


@dataclass(frozen=True)
class _Token:
    kind: str  # number, string, name, op or end
    text: str
    column: int
    value: Any = None


def _hint(token: _Token) -> str | None:
    """What to write instead of a token borrowed from another language, if it looks like one."""
    lower = token.text.lower()
    if token.kind == "name" and lower != token.text and (lower in _LITERALS or lower in _OPERATOR_WORDS):
        return f"use lower-case '{lower}', not '{token.text}'"
    return _HINTS.get(token.text) if token.kind in ("op", "name") else None


class _Parser:
    def __init__(self, text: str, roots: Collection[str]):
        self.text, self.roots, self.used = text, frozenset(roots), set[str]()
        self.tokens, self.pos, self.depth = self._tokenize(), 0, 0

    def fail(self, what: str, column: int, accepted: str = f"accepted: {ACCEPTED}") -> ExpressionError:
        return ExpressionError(f"{what} at column {column} of \"{_printable(self.text)}\"; {accepted}", column)

    def _tokenize(self) -> list[_Token]:
        tokens = []
        for match in _TOKEN.finditer(self.text):
            kind, text, column = match.lastgroup, match.group(), match.start() + 1
            if kind == "unclosed":
                raise self.fail(f"unclosed string (no closing {text})", column)
            if kind == "other":
                raise self.fail(f"unexpected character '{_printable(text)}'", column)
            if kind == "number":
                try:
                    tokens.append(_Token(kind, text, column, float(text) if "." in text else int(text)))
                except ValueError:  # past Python's limit on the digits of an int
                    raise self.fail("number too long", column) from None
            elif kind == "string":
                unescaped = re.sub(r"\\(.)", self._escape(column), text[1:-1], flags=re.S)
                tokens.append(_Token(kind, text, column, unescaped))
            elif kind != "space":
                tokens.append(_Token(kind or "", text, column))
        return [*tokens, _Token("end", "", len(self.text) + 1)]

    def _escape(self, column: int) -> Callable[[re.Match[str]], str]:
        def escape(match: re.Match[str]) -> str:
            if match[1] not in "\\\"'":
                raise self.fail(f"unknown escape '\\{_printable(match[1])}' in a string (accepted: \\\\ \\\" \\')",
                                column + 1 + match.start())
            return match[1]
        return escape

    def peek(self, ahead: int = 0) -> _Token:
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    def take(self) -> _Token:
        token = self.peek()
        self.pos += token.kind != "end"
        return token

    def at(self, text: str, ahead: int = 0) -> bool:
        token = self.peek(ahead)
        return token.kind in ("op", "name") and token.text == text

    def unexpected(self, what: str) -> ExpressionError:
        token = self.peek()
        found = "the end" if token.kind == "end" else f"'{_printable(token.text)}'"
        return self.fail(_hint(token) or f"{what}, found {found}", token.column)

    def nested(self, parse: Callable[[], Any]) -> Any:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(f"nested more than {MAX_DEPTH} levels deep", self.peek().column)
        node = parse()
        self.depth -= 1
        return node

    def finish(self) -> None:
        if self.peek().kind != "end":
            raise self.unexpected("expected the end after a complete expression")

    def expression(self) -> Any:
        return self.nested(lambda: self.logic("or", lambda: self.logic("and", self.not_)))

    def logic(self, op: str, operand: Callable[[], Any]) -> Any:
        operands = [operand()]
        while self.at(op):
            self.take()
            operands.append(operand())
        return operands[0] if len(operands) == 1 else Logic(op, tuple(operands))

    def not_(self) -> Any:
        if self.at("not"):
            self.take()
            return Unary("not", self.nested(self.not_))
        return self.comparison()

    def comparison_op(self) -> str | None:
        if self.peek().kind == "op" and self.peek().text in _COMPARISONS or self.at("in"):
            return self.peek().text
        return "not in" if self.at("not") and self.at("in", 1) else None

    def comparison(self) -> Any:
        left = self.sum()
        op = self.comparison_op()
        if op is None:
            return left
        self.pos += len(op.split())
        node = Binary(left, ((op, self.sum()),))
        if self.comparison_op() is not None:
            raise self.fail("comparisons cannot be chained; join them with 'and' (a < b and b < c)",
                            self.peek().column)
        return node

    def sum(self) -> Any:
        first, rest = self.unary(), []
        while self.at("+") or self.at("-"):
            rest.append((self.take().text, self.unary()))
        return Binary(first, tuple(rest)) if rest else first

    def unary(self) -> Any:
        if not self.at("-"):
            return self.primary()
        self.take()
        operand = self.nested(self.unary)
        if isinstance(operand, Literal) and _number(operand.value):
            return Literal(-operand.value)  # so a negative number reads back as a literal
        return Unary("-", operand)

    def primary(self) -> Any:
        token = self.peek()
        if token.kind in ("number", "string"):
            return Literal(self.take().value)
        if self.at("("):
            opener = self.take()
            return self.close(self.expression(), opener, "')'")
        if self.at("["):
            opener, items = self.take(), []
            if not self.at("]"):
                items.append(self.expression())
                while self.at(","):
                    self.take()
                    items.append(self.expression())
            return self.close(ListOf(tuple(items)), opener, "',' or ']'")
        if token.kind == "name" and token.text not in _OPERATOR_WORDS:
            return self.name()
        before = self.tokens[self.pos - 1].text if self.pos else ""
        raise self.unexpected(f"expected a value after '{before}'" if before else "expected a value")

    def close(self, node: Any, opener: _Token, expected: str) -> Any:
        if self.at({"(": ")", "[": "]"}[opener.text]):
            self.take()
            return node
        if self.peek().kind == "end":
            raise self.fail(f"unclosed '{opener.text}'", opener.column)
        raise self.unexpected(f"expected {expected} to close the '{opener.text}' at column {opener.column}")

    def name(self) -> Any:
        token = self.peek()
        if token.text in _LITERALS:
            return Literal(_LITERALS[self.take().text])
        if self.at("(", 1):
            if token.text not in FUNCTIONS:
                raise self.fail(f"unknown function '{token.text}'", token.column,
                                f"accepted functions: {', '.join(FUNCTIONS)}")
            self.take()
            opener = self.take()
            return self.close(Unary("len", self.expression()), opener, "')' (len takes one argument)")
        if token.text in self.roots:
            return self.path()
        if token.text in FUNCTIONS:
            raise self.fail(f"expected '(' after '{token.text}'", token.column + len(token.text))
        if hint := _hint(token):
            raise self.fail(hint, token.column)
        names = ", ".join(sorted(self.roots)) or "(none here)"
        raise self.fail(f"unknown name '{token.text}'", token.column, f"accepted names: {names}")

    def path(self) -> Path:
        root, parts = self.take().text, list[str | int]()
        self.used.add(root)
        while self.at(".") or self.at("["):
            opener = self.take()
            if opener.text == ".":
                if self.peek().kind != "name":
                    raise self.unexpected("expected a field name after '.'")
                parts.append(self.take().text)
                continue
            sign = -1 if self.at("-") else 1
            self.pos += sign < 0
            if self.peek().kind != "number" or not isinstance(self.peek().value, int):
                raise self.unexpected("expected an integer index inside '[ ]', like [0] or [-1]")
            parts.append(sign * self.take().value)
            self.close(None, opener, "']'")
        return Path(root, tuple(parts))


def parse_expression(text: str, roots: Collection[str]) -> Expression:
    """The expression in `text` over the root names `roots`; raises ExpressionError."""
    source = text.strip()
    if not source:
        raise ExpressionError(f"empty expression; accepted: {ACCEPTED}", 1)
    parser = _Parser(source, roots)
    tree = parser.expression()
    parser.finish()
    return Expression(source, frozenset(parser.used), tree)


def parse_assignment(text: str, roots: Collection[str], names: Collection[str]) -> Assignment:
    """`NAME = EXPRESSION`, NAME one of the declared state variables `names`; raises ExpressionError."""
    source = text.strip()
    accepted = f"accepted: NAME = EXPRESSION, NAME one of: {', '.join(sorted(names)) or '(none declared)'}"
    if not source:
        raise ExpressionError(f"empty assignment; {accepted}", 1)
    parser = _Parser(source, roots)
    target = parser.take()
    if target.kind != "name" or target.text not in names:
        what = f"unknown state variable '{target.text}'" if target.kind == "name" else "expected a state variable"
        raise parser.fail(what, target.column, accepted)
    if not parser.at("="):
        what = "use '=' to assign, not '=='" if parser.at("==") else f"expected '=' after '{target.text}'"
        raise parser.fail(what, parser.peek().column, accepted)
    equals = parser.take()
    tree = parser.expression()
    parser.finish()
    return Assignment(target.text, Expression(source[equals.column:].strip(), frozenset(parser.used), tree), source)
