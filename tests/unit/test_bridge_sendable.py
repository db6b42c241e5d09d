"""What BotConnection.call refuses before anything is sent: numbers JavaScript cannot hold
(NaN and infinities are no JSON; JSON.parse reads an integer past 2**53 inexactly, 1e400 as
Infinity), wherever they are in the arguments. Everything else is the helpers' to take as checked."""

from __future__ import annotations

import pytest

from agent.bridge.connection import _sendable


@pytest.mark.parametrize(("args", "sendable"), [
    ({"yaw_deg": 90.5, "controls": ["forward"], "ok": True, "name": "x"}, True),
    ({"cells": [{"x": 2**53, "y": -(2**53), "z": 0}]}, True),
    ({"cells": [{"x": 2**53 + 1, "y": 0, "z": 0}]}, False),
    ({"at": [[0, 10**400, 0]]}, False),
    ({"yaw_deg": float("nan")}, False),
    ({"nested": {"deeper": (1.0, float("-inf"))}}, False),
])
def test_only_numbers_javascript_holds_exactly_are_sent(args: dict, sendable: bool) -> None:
    assert _sendable(args) is sendable
