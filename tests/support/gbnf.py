"""GBNF read as a Python regex, for checking grammar rules against every candidate string."""

from __future__ import annotations

import re

_TOKEN = re.compile(r'\s*("[^"]*"|\[[^\]]*\]|\{\d+(?:,\d+)?\}|[()|?])')


def gbnf_regex(expression: str) -> re.Pattern[str]:
    """The regex for a GBNF expression without rule references: literals, classes, groups,
    alternatives, ? and {m,n}, the subset agent.llm.gbnf_ranges writes."""
    out, position = [], 0
    while position < len(expression.rstrip()):
        token = _TOKEN.match(expression, position)
        assert token, f"not in the subset at {expression[position:]!r}"
        text, position = token[1], token.end()
        out.append(re.escape(text[1:-1]) if text.startswith('"') else "(?:" if text == "(" else text)
    return re.compile("".join(out))
