"""The README and the docs keep their promises: every link points at a file that exists (and
at a heading that file has), and every `mcagent ...` command they show is one `mcagent --help`
lists, subcommand by subcommand."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from agent.cli import build_parser
from agent.paths import REPO_ROOT

PAGES = [REPO_ROOT / "README.md", REPO_ROOT / "CHANGELOG.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
# A command shown in code (a line of a fenced block, or `inline`): mcagent and its words.
COMMAND = re.compile(r"^(?:\$ )?(?:\.venv/bin/)?mcagent((?: [a-z][a-z-]*)+)")
INLINE = re.compile(r"`([^`\n]+)`")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _headings(page: Path) -> set[str]:
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        if not fenced and (heading := re.match(r"#{1,6} (.*)", line)):
            found.add(_slug(heading[1]))
    return found


def _links(page: Path) -> list[str]:
    return [t for t in LINK.findall(page.read_text(encoding="utf-8")) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_link_points_at_a_file_and_heading_that_exist(page: Path) -> None:
    broken = []
    for target in _links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in _headings(file)):
            broken.append(target)
    assert broken == []


def _subcommands(parser) -> dict:
    """The command tree: each subcommand's name, mapped to its own tree."""
    actions = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return {name: _subcommands(sub) for a in actions for name, sub in a.choices.items()}


def _shown(page: Path) -> list[str]:
    """The code a page shows: each line of its fenced blocks, and each inline span elsewhere."""
    code, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif fenced:
            code.append(line.strip())
        else:
            code += INLINE.findall(line)
    return code


def test_every_command_the_pages_show_is_in_mcagent_help() -> None:
    tree, unknown = _subcommands(build_parser()), []
    for page in PAGES:
        for words in (m[1] for m in map(COMMAND.match, _shown(page)) if m):
            level, said = tree, []
            for word in words.split():
                if not level:
                    break  # past the last subcommand: arguments
                said.append(word)
                if word not in level:
                    unknown.append(f"{page.name}: mcagent {' '.join(said)}")
                    break
                level = level[word]
    assert sorted(set(unknown)) == []


def test_the_readme_is_short_enough_to_read() -> None:
    # One screen says what it is, the command and what a run prints; the rest is in docs/.
    assert len((REPO_ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150


def test_the_repository_holds_no_run_output() -> None:
    # Logs and runs are what a command wrote, not source: .gitignore keeps them out.
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    assert [f for f in tracked.stdout.splitlines() if f.endswith(".log") or f.startswith("runs/")] == []
