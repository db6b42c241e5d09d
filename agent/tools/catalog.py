"""The tool catalog the planner reads: world tools first, then the infospace core, then skills; or,
ranked for a goal (agent/planner/offer.py), the best fitting tool first."""

from __future__ import annotations

from typing import Any

from agent.tools.frontmatter import CORE_SOURCE
from agent.tools.loader import SKILLS_SOURCE, Toolbox
from agent.tools.schema import compact
from agent.tools.spec import ToolSpec

CORE_HEADER = "#INFOSPACE CORE"
SKILLS_HEADER = "#SKILLS"
RANKED_HEADER = "#FOR THIS GOAL (best fit first)"
# Printed above the entries so the planner knows the call shape and the reserved keys.
USAGE = 'Call a tool as {"type": NAME, ...arguments}; add "as": NAME to call its note or collection $NAME later.'


def grouped(toolbox: Toolbox, *, include_hidden: bool = False) -> list[tuple[str, list[ToolSpec]]]:
    """(header, tools sorted by name) per source, in catalog order: worlds, core, skills."""
    groups: dict[str, list[ToolSpec]] = {}
    ranks: dict[str, int] = {}
    for spec in sorted(toolbox.tools.values(), key=lambda s: s.name):
        if include_hidden or not spec.hidden:
            groups.setdefault(spec.source, []).append(spec)
            ranks[spec.source] = _rank(spec)
    order = sorted(groups, key=lambda source: (ranks[source], source))
    return [(header(source), groups[source]) for source in order]


def _rank(spec: ToolSpec) -> int:
    """Worlds, the core, skills, then decorated tools (by package or module)."""
    return 3 if spec.entry else {CORE_SOURCE: 1, SKILLS_SOURCE: 2}.get(spec.source, 0)


def header(source: str) -> str:
    if source == CORE_SOURCE:
        return CORE_HEADER
    return SKILLS_HEADER if source == SKILLS_SOURCE else f"#{source.upper()}"


def catalog_text(toolbox: Toolbox) -> str:
    """The planner's view: one line per tool with its description and compact argument schema."""
    lines = [USAGE]
    for title, specs in grouped(toolbox):
        lines += ["", title]
        lines += [f"- {_entry_line(spec)}" for spec in specs]
    return "\n".join(lines)


def ranked_catalog_text(specs: list[ToolSpec]) -> str:
    """The planner's view of a catalog ranked for a goal: one list, the best fitting tool first."""
    return "\n".join([USAGE, "", RANKED_HEADER, *(f"- {_entry_line(spec)}" for spec in specs)])


def _entry_line(spec: ToolSpec) -> str:
    marker = " [method]" if spec.type == "method" else ""
    return f"{spec.name}{marker}: {spec.description} (args: {compact(spec.schema_hint)})"


def catalog_entries(toolbox: Toolbox) -> dict[str, dict[str, Any]]:
    """The seed's catalog entries: description, source, schema_hint, and type only for methods."""
    entries = {}
    for _, specs in grouped(toolbox):
        for spec in specs:
            entry: dict[str, Any] = {
                "description": spec.description,
                "source": spec.source,
                "schema_hint": spec.schema_hint.dump() if spec.schema_hint else None,
            }
            if spec.type == "method":
                entry["type"] = "method"
            entries[spec.name] = entry
    return entries
