"""The slowest test files' seconds, so that `make test` starts them first.

pytest-xdist hands a worker a whole file at a time (--dist loadfile), in collection order; a
file of minutes started late keeps one worker busy after the others have run out of work. The
conftest orders the files in tests/durations.json longest first (the rest after, as collected).

Refresh it from a whole run's JUnit report:

    .venv/bin/python -m pytest -n 4 --dist loadfile --no-loadscope-reorder --junitxml=/tmp/junit.xml
    .venv/bin/python tests/support/durations.py /tmp/junit.xml
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

DURATIONS = Path(__file__).resolve().parent.parent / "durations.json"
LISTED_FROM_S = 10.0  # shorter files fill the end in any order


def file_seconds() -> dict[str, float]:
    """Test file (as pytest names it, e.g. tests/integration/test_x.py) -> seconds; {} when absent."""
    return json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.is_file() else {}


def from_junit(report: Path) -> dict[str, float]:
    seconds: Counter[str] = Counter()
    for case in ET.parse(report).iter("testcase"):
        parts = case.get("classname", "").split(".")  # tests.integration.test_x[.TestClass]
        module = next(i for i, part in enumerate(parts) if part.startswith("test_"))
        seconds["/".join(parts[: module + 1]) + ".py"] += float(case.get("time") or 0)
    return {path: round(s) for path, s in seconds.most_common() if s >= LISTED_FROM_S}


if __name__ == "__main__":
    DURATIONS.write_text(json.dumps(from_junit(Path(sys.argv[1])), indent=1) + "\n", encoding="utf-8")
