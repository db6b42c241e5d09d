"""A run's own folder: made exclusively, so two runs never write into the same one.

Two runs started in the same second with the same goal get the same name. `mkdir` without
`exist_ok` is atomic, so exactly one gets it; the other tries the name with `-2`, `-3`, ...
until a mkdir of its own succeeds. No check-then-create, so no race. A run that fails before
it writes anything (a bad --llm, a server that will not start) leaves no empty folder behind.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from agent.trace.reader import TraceError


def new_run_folder(parent: Path, name: str) -> Path:
    """Creates `parent/name`, or `name-2`, `name-3`, ... when taken, and returns the folder made."""
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TraceError(f"cannot create the trace folder {parent}: {e.strerror}") from None
    folder, n = parent / name, 1
    while True:
        try:
            folder.mkdir()
            return folder
        except FileExistsError:  # another run took it first
            n += 1
            folder = parent / f"{name}-{n}"
        except OSError as e:
            raise TraceError(f"cannot create the run folder {folder}: {e.strerror}") from None


@contextmanager
def new_folder_kept_if_used(parent: Path, name: str) -> Iterator[Path]:
    """A new run folder (new_run_folder), removed again at the end if nothing was written in it."""
    folder = new_run_folder(parent, name)
    try:
        yield folder
    finally:
        with suppress(OSError):  # rmdir takes only an empty folder: whatever was written stays
            folder.rmdir()
