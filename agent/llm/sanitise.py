"""Text from a model, made safe for a prompt, a trace and a terminal.

A model (or a server speaking for one) can send anything a JSON string holds: a lone UTF-16
surrogate ("\\ud800") that no UTF-8 encoder accepts, NUL, terminal escapes, carriage returns
that rewrite a progress line. Every backend's reply passes through `clean_text` once, in
Metered, before the planner sees it.
"""

from __future__ import annotations

import re

# C0 and C1 controls except tab and newline, DEL, and the Unicode line and paragraph separators.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def clean_text(text: str) -> str:
    """`text` without control characters (tab and newline stay) and with each lone surrogate
    replaced by U+FFFD, so it encodes as UTF-8 and prints as what it is."""
    return _CONTROLS.sub("", _SURROGATES.sub(REPLACEMENT, text))
