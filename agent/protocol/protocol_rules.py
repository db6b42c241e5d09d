"""What the runtime can read in a method protocol, beside the prose the model reads.

In a step's lines:
- `Call NAME` (also Execute, Use, `Call tool: NAME`, or `NAME` in backticks), optionally
  `with {...}`: literal JSON arguments, used as written;
- `If CONDITION: proceed to STEP N` / `... TERMINATION (OUTCOME)`, `Otherwise: ...` and a bare
  `Proceed to STEP N` (an Otherwise too), a branch; the condition may carry a check,
  `If the sky is visible [when: data.sky_above]: ...`;
- `[set: NAME = EXPRESSION]`: updates a state variable after the step's tool ran.
In an outcome's lines, `[when: ...]` checks what must hold for the method to end in it. In
#RUNTIME STATE, `- NAME: what it is [state: TYPE = INITIAL]` declares a typed variable.

Everything in brackets is an expression of agent/protocol/expressions.py over the names in ROOTS,
checked here when the Skill.md loads. A protocol without brackets (the seed's) loads as before:
its conditions are prose, for the model to judge.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator

from agent.protocol.expressions import Expression, ExpressionError, parse_assignment, parse_expression
from agent.protocol.models import Assignment, Branch, Call, StateVariable

Line = tuple[int, str]

# The names a condition may read. `goal` is read in the world, and only when a condition needs it.
ROOTS = {
    "status": "the step's result: success or failed",
    "code": "its failure code (null on success)",
    "data": "its data",
    "args": "the arguments the tool ran with",
    "tool": "the tool's name",
    "state": "the method's runtime state",
    "goal": "the run's goal check holds in the world now (without one: sky visible)",
    "world": "facts read in the world now: world.sky_visible, world.standing_on_ground",
}
# The goal check predicates (agent/checks) a condition may read as `world.NAME`: those written `NAME: true`.
FACTS = ("sky_visible", "standing_on_ground")
KEYWORDS = ("when", "set", "state")
STATE_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,), "float": (int, float), "bool": (bool,), "str": (str,), "list": (list,),
}

_ANNOTATION = re.compile(r"\[([a-z]+):")
_BULLET = re.compile(r"[-*]\s+")
_CALL = re.compile(r"\b(?:call|execute|use)(?:\s+tool)?:?\s+`?(?P<name>[a-z0-9][a-z0-9_.-]*)`?", re.IGNORECASE)
_TICKED = re.compile(r"`(?P<name>[a-z0-9][a-z0-9_.-]*)`")
_WITH = re.compile(r"\s*with\s+(?=\{)", re.IGNORECASE)
# The condition ends at the first colon outside brackets: `If it rained [source: the log]: ...`.
_IF = re.compile(r"if\s+(?P<condition>(?:\[[^\]]*\]|[^:\[])*?)\s*:\s*(?P<target>.*)", re.IGNORECASE | re.DOTALL)
_OTHERWISE = re.compile(r"otherwise\b\s*[:,]?\s*(?P<target>.*)", re.IGNORECASE | re.DOTALL)
# A target with no condition (`Proceed to STEP 2.`): where the step goes when nothing else does.
_ALWAYS = re.compile(r"(?P<target>(?:then\s+)?(?:proceed|go|go\s+back|loop\s+back|return|continue)\s+to\b.*)",
                     re.IGNORECASE | re.DOTALL)
_SPLIT_OTHERWISE = re.compile(r"(?<=[.;])\s+(?=otherwise\b)", re.IGNORECASE)
# Where a protocol's text sends the method: a step, or a termination outcome.
GOES_TO = re.compile(r"\bSTEP\s+(?P<step>\d{1,4})\b")
TERMINATES = re.compile(r"\bTERMINATION\s*\(\s*(?P<outcome>[A-Z_]+)\s*\)")
_TARGET = re.compile(f"{TERMINATES.pattern}|{GOES_TO.pattern}")
_STATE_LINE = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*:\s*(?P<text>.*)")


class RuleError(Exception):
    """A bracket or branch the runtime cannot use: the file line and what is accepted there."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line, self.message = line, message


def state_variables(lines: list[Line]) -> list[StateVariable]:
    """The typed variables of a #RUNTIME STATE section; its other lines stay prose."""
    found = []
    for line, text in _items(lines):
        rest, notes = _annotations(text, line)
        declared = [body for keyword, body in notes if _only(keyword, ("state",), line, "a #RUNTIME STATE line")]
        if not declared:
            continue
        match = _STATE_LINE.fullmatch(_BULLET.sub("", rest, count=1).strip())
        if match is None:
            raise RuleError(line, "a [state: ...] line starts with the variable's name: '- NAME: what it is [state: "
                                  "int = 0]'")
        found.append(_variable(match["name"], declared[0], match["text"].strip(), line))
    return found


def _variable(name: str, declared: str, text: str, line: int) -> StateVariable:
    kind, equals, initial = declared.partition("=")
    kind = kind.strip()
    if kind not in STATE_TYPES or not equals:
        raise RuleError(line, f"[state: {declared}]: expected TYPE = INITIAL, TYPE one of {', '.join(STATE_TYPES)}")
    value = _expression(initial, line, "state", ()).evaluate({})
    if not fits(kind, value):
        raise RuleError(line, f"[state: {declared}]: the initial value is not a {kind}")
    return StateVariable(name=name, type=kind, initial=value, text=text, line=line)


def fits(kind: str, value: object) -> bool:
    """Whether `value` is of the declared state type (a bool is not a number here)."""
    return isinstance(value, STATE_TYPES[kind]) and not (kind in ("int", "float") and isinstance(value, bool))


def step_rules(lines: list[Line], state: list[StateVariable]) -> tuple[list[Call], list[Branch], list[Assignment]]:
    """The calls, branches and assignments of one step's lines."""
    names = [v.name for v in state]
    calls: list[Call] = []
    branches: list[Branch] = []
    sets: list[Assignment] = []
    for line, text in _items(lines):
        for clause in _SPLIT_OTHERWISE.split(text):
            rest, notes = _annotations(clause, line)
            branch = _branch(rest, notes, line, names)
            if branch is not None:
                branches.append(branch)
                continue
            for keyword, body in notes:
                _only(keyword, ("set",), line, "a step line that is not a branch")
                sets.append(_assignment(body, line, names))
            calls.extend(_calls(rest, line))
    _one_fallback(branches)
    return calls, branches, sets


def _one_fallback(branches: list[Branch]) -> None:
    """A step whose branches are checked goes to one place when none holds; prose steps are the
    model's to read, as the seed's are."""
    fallbacks = [b for b in branches if b.otherwise]
    if len(fallbacks) > 1 and any(b.when for b in branches):
        raise RuleError(fallbacks[1].line, "a second Otherwise (or bare 'proceed to') in a step with [when: ...] "
                                           "branches; a step has one place to go when none holds")


def outcome_checks(lines: list[Line], state: list[StateVariable]) -> list[str]:
    """The [when: ...] expressions among an outcome's conditions."""
    checks = []
    for line, text in _items(lines):
        for keyword, body in _annotations(text, line)[1]:
            _only(keyword, ("when",), line, "an outcome's condition")
            checks.append(_condition(body, line, [v.name for v in state]))
    return checks


def _branch(text: str, notes: list[tuple[str, str]], line: int, names: list[str]) -> Branch | None:
    plain = _BULLET.sub("", text.strip(), count=1)
    match = _IF.fullmatch(plain) or _OTHERWISE.fullmatch(plain) or _ALWAYS.fullmatch(plain)
    target = _TARGET.search(match["target"]) if match else None
    checks = [body for keyword, body in notes if keyword == "when"]
    if target is None:
        if checks:
            raise RuleError(line, "a [when: ...] belongs in a branch, 'If CONDITION [when: ...]: proceed to STEP N' "
                                  "(or TERMINATION (OUTCOME)), or in an outcome's condition")
        return None
    for keyword, _ in notes:
        _only(keyword, ("when",), line, "a branch")
    otherwise = "condition" not in match.groupdict()
    if otherwise and checks:
        raise RuleError(line, "an Otherwise branch (or a bare 'proceed to') holds when the others do not; it "
                              "takes no [when: ...]")
    if len(checks) > 1:
        raise RuleError(line, "one [when: ...] per branch; join conditions with 'and' or 'or'")
    return Branch(
        line=line, condition="" if otherwise else " ".join(match["condition"].split()),
        when=_condition(checks[0], line, names) if checks else None, otherwise=otherwise,
        step=int(target["step"]) if target["step"] else None, outcome=target["outcome"],
    )


def _calls(text: str, line: int) -> Iterator[Call]:
    for match in _CALL.finditer(text):
        yield Call(tool=match["name"].rstrip("."), args=_literal_args(text, match.end()), line=line)
    for match in _TICKED.finditer(text):
        yield Call(tool=match["name"].rstrip("."), line=line)


def _literal_args(text: str, after: int) -> dict | None:
    """The JSON object after `with`, when it is literal JSON; None when there is none or it has
    placeholders (`{"facing": D}`): then the model fills the arguments in."""
    joint = _WITH.match(text, after)
    if joint is None:
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(text, joint.end())
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _condition(body: str, line: int, names: list[str]) -> str:
    expression = _expression(body, line, "when", ROOTS)
    _check_names(expression, f"[when: {expression.source}]", line, names)
    return expression.source


def _assignment(body: str, line: int, names: list[str]) -> Assignment:
    try:
        parsed = parse_assignment(body, ROOTS, names)
    except ExpressionError as e:
        raise RuleError(line, f"[set: {body.strip()}]: {e.message}") from None
    _check_names(parsed.expression, f"[set: {body.strip()}]", line, names)
    return Assignment(name=parsed.name, expression=parsed.expression.source, line=line)


def _check_names(expression: Expression, shown: str, line: int, names: list[str]) -> None:
    """`state.NAME` must be declared, and `world.NAME` one of FACTS: a typo is a load error,
    not a condition that is silently never known."""
    for root, parts in expression.paths():
        name = parts[0] if parts else None
        if root == "state" and name not in names:
            raise RuleError(line, f"{shown}: state.{name} is not declared in #RUNTIME STATE "
                                  f"(declared: {', '.join(names) or 'none'})")
        if root == "world" and name not in FACTS:
            raise RuleError(line, f"{shown}: world.{name} is not a fact the runtime reads "
                                  f"(accepted: {', '.join(f'world.{fact}' for fact in FACTS)})")


def _expression(body: str, line: int, keyword: str, roots) -> Expression:
    try:
        return parse_expression(body, roots)
    except ExpressionError as e:
        raise RuleError(line, f"[{keyword}: {body.strip()}]: {e.message}") from None


def _only(keyword: str, allowed: tuple[str, ...], line: int, where: str) -> bool:
    if keyword not in allowed:
        accepted = " or ".join(f"[{k}: ...]" for k in allowed)
        raise RuleError(line, f"[{keyword}: ...] is not accepted in {where}; accepted there: {accepted}")
    return True


def _annotations(text: str, line: int) -> tuple[str, list[tuple[str, str]]]:
    """The text without its [keyword: ...] brackets, and the brackets' (keyword, body) in order.
    Brackets nest (list literals) and quotes hide brackets; upper-case ones ([METHOD: STEP 2])
    are prose."""
    notes, kept, position = [], [], 0
    for match in _ANNOTATION.finditer(text):
        if match.start() < position or not _annotation(match[1], line):
            continue
        end = _closing(text, match.end(), line)
        kept.append(text[position:match.start()])
        notes.append((match[1], text[match.end():end].strip()))
        position = end + 1
    kept.append(text[position:])
    return " ".join("".join(kept).split()), notes


def _annotation(word: str, line: int) -> bool:
    """Whether `[word:` opens an annotation. Other words are prose (`[note: ...]`, a link), but
    one a letter or two from a keyword is a typo worth a load error."""
    if word in KEYWORDS:
        return True
    close = difflib.get_close_matches(word, KEYWORDS, n=1, cutoff=0.75)
    if close:
        raise RuleError(line, f"[{word}: ...] is not a protocol annotation; did you mean [{close[0]}: ...]? "
                              "accepted: " + ", ".join(f"[{k}: ...]" for k in KEYWORDS))
    return False


def _closing(text: str, start: int, line: int) -> int:
    depth, quote = 0, ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            if depth == 0:
                return i
            depth -= 1
    raise RuleError(line, f"a bracket opened with {text[start - 6:start].strip()!r} is never closed with ']'")


def _items(lines: list[Line]) -> Iterator[Line]:
    """Bullets with their indented continuation lines joined: the seed writes a branch's target
    on the line under its condition."""
    item: list[str] = []
    first = 0
    for number, text in lines:
        continues = item and text[:1].isspace() and not _BULLET.match(text.strip())
        if continues:
            item.append(text.strip())
            continue
        if item:
            yield first, " ".join(item)
        item, first = ([text.strip()] if text.strip() else []), number
    if item:
        yield first, " ".join(item)
