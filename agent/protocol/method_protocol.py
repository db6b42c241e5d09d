"""The method-protocol parser: a `type: method` Skill.md body into sections, steps and outcomes.

It reads the format of the method-tools seed, including the variants the seed itself uses:
`---` fences around step headers, `#SECTION:` with or without the colon (and with an
optional `(QUALIFIER)`), and an em dash, en dash, hyphen or colon after `STEP N`.
"""

from __future__ import annotations

import re

from agent.protocol.models import MethodProtocol, Outcome, ProtocolStep, Section, StateVariable
from agent.protocol.protocol_rules import GOES_TO, TERMINATES, RuleError, outcome_checks, state_variables, step_rules

_SECTION = re.compile(
    r"#{1,6}\s*(?P<name>[A-Z][A-Z0-9_]*(?:[ /&-]+[A-Z0-9_]+)*)\s*(?:\((?P<qual>[^)]*)\))?\s*(?::\s*(?P<rest>.*))?"
)
_STEP = re.compile(
    r"(?:#{1,6}\s*)?(?:\*\*)?STEP\s+(?P<num>\d{1,4})\s*(?:(?:[—–:.]|-{1,2})\s*(?P<title>.*?))?\s*(?:\*\*)?"
)
_FENCE = re.compile(r"-{3,}")
_OUTCOME = re.compile(r"(?:[-*]\s*)?(?P<name>[A-Z][A-Z_]+)\s*:\s*(?P<rest>.*)")

LOOP_SECTION = "MAIN PROTOCOL LOOP"
TERMINATION_SECTION = "TERMINATION CONDITIONS"
STATE_SECTION = "RUNTIME STATE"

Line = tuple[int, str]


class ProtocolError(Exception):
    """A method body the parser cannot accept: the file line and what was expected there."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


class _Block:
    """A section, step or outcome header and the lines under it."""

    def __init__(self, line: int, name: str, qualifier: str = "", first: str = ""):
        self.line, self.name, self.qualifier = line, name, qualifier
        self.lines: list[Line] = [(line, first)] if first else []

    def text(self) -> str:
        return "\n".join(text for _, text in self.lines).strip("\n")


def parse_protocol(body: str, first_line: int = 1) -> MethodProtocol:
    """Parses `body`, whose first line is line `first_line` of its file; raises ProtocolError."""
    blocks = _sections(body, first_line)
    loop = _the_one(blocks, _is_loop, LOOP_SECTION, first_line)
    termination = _the_one(blocks, _is_termination, TERMINATION_SECTION, first_line)
    try:
        state = [v for b in blocks if b.name == STATE_SECTION for v in state_variables(b.lines)]
        preamble, steps = _steps(loop, state)
        outcomes = _outcomes(termination, state)
    except RuleError as e:
        raise ProtocolError(e.line, e.message) from None
    _check_references(steps, outcomes)
    sections = [
        Section(name=b.name, qualifier=b.qualifier, text=b.text(), line=b.line)
        for b in blocks
        if b not in (loop, termination)
    ]
    return MethodProtocol(sections=sections, preamble=preamble, steps=steps, outcomes=outcomes, state=state)


def _sections(body: str, first_line: int) -> list[_Block]:
    blocks: list[_Block] = []
    for number, raw in enumerate(body.splitlines(), start=first_line):
        match = _SECTION.fullmatch(raw.strip())
        if match:
            name = " ".join(match["name"].split())
            blocks.append(_Block(number, name, (match["qual"] or "").strip(), match["rest"] or ""))
        elif blocks:
            blocks[-1].lines.append((number, raw.rstrip()))
    return blocks


def _is_loop(name: str) -> bool:
    return name.endswith("LOOP") or name == "PROTOCOL"


def _is_termination(name: str) -> bool:
    return name.startswith("TERMINATION")


def _the_one(blocks: list[_Block], wanted, title: str, first_line: int) -> _Block:
    found = [b for b in blocks if wanted(b.name)]
    if not found:
        raise ProtocolError(first_line, f"a method needs a #{title} section; none found")
    if len(found) > 1:
        raise ProtocolError(found[1].line, f"a second #{found[1].name} section; a method has one")
    return found[0]


def _steps(loop: _Block, state: list[StateVariable]) -> tuple[str, list[ProtocolStep]]:
    preamble: list[Line] = []
    blocks: list[_Block] = []
    for number, text in loop.lines:
        match = _STEP.fullmatch(text.strip())
        if match:
            blocks.append(_Block(number, match["num"], (match["title"] or "").strip()))
        elif not _FENCE.fullmatch(text.strip()):
            (blocks[-1].lines if blocks else preamble).append((number, text))
    if not blocks:
        raise ProtocolError(loop.line, f"#{loop.name} holds no steps; expected lines such as 'STEP 1 — ALIGN'")
    steps = []
    for expected, block in enumerate(blocks, start=1):
        if int(block.name) != expected:
            message = f"STEP {block.name} where STEP {expected} was expected (steps count 1, 2, 3...)"
            raise ProtocolError(block.line, message)
        if not block.text().strip():
            raise ProtocolError(block.line, f"STEP {expected} has no text; expected what to do in this step")
        calls, branches, sets = step_rules(block.lines, state)
        steps.append(
            ProtocolStep(
                number=expected,
                title=block.qualifier,
                text=block.text(),
                line=block.line,
                goes_to=_unique(int(n) for _, t in block.lines for n in GOES_TO.findall(t)),
                outcomes=_unique(n for _, t in block.lines for n in TERMINATES.findall(t)),
                calls=calls,
                branches=branches,
                sets=sets,
            )
        )
    return "\n".join(t for _, t in preamble).strip(), steps


def _outcomes(termination: _Block, state: list[StateVariable]) -> list[Outcome]:
    blocks: list[_Block] = []
    for number, text in termination.lines:
        match = _OUTCOME.fullmatch(text.strip())
        if match:
            if any(b.name == match["name"] for b in blocks):
                raise ProtocolError(number, f"outcome {match['name']} is defined twice")
            blocks.append(_Block(number, match["name"], first=match["rest"]))
        elif blocks:
            blocks[-1].lines.append((number, text))
    if not blocks:
        raise ProtocolError(
            termination.line, f"#{termination.name} names no outcomes; expected lines such as 'SUCCESS:' or 'FAILED:'"
        )
    return [Outcome(name=b.name, text=b.text(), line=b.line, when=outcome_checks(b.lines, state)) for b in blocks]


def _check_references(steps: list[ProtocolStep], outcomes: list[Outcome]) -> None:
    names = {o.name for o in outcomes}
    for step in steps:
        for target in step.goes_to:
            if not 1 <= target <= len(steps):
                raise ProtocolError(step.line, f"STEP {step.number} goes to STEP {target}, which does not exist")
        for outcome in step.outcomes:
            if outcome not in names:
                known = ", ".join(sorted(names))
                message = f"STEP {step.number} ends in {outcome}, which is not an outcome ({known})"
                raise ProtocolError(step.line, message)


def _unique(items) -> list:
    return list(dict.fromkeys(items))
