"""Python tool folders written by a test: a Skill.md and its tool.py, in a folder of tool folders."""

from __future__ import annotations

import textwrap
from pathlib import Path


def python_tool(root: Path, name: str, code: str, *, description: str = "a test tool", meta: str = "") -> Path:
    """root/name/ with a type: python Skill.md (`meta`: more frontmatter lines) and `code`
    (dedented) as its tool.py; returns the tool.py."""
    folder = root / name
    folder.mkdir(parents=True)
    frontmatter = f"name: {name}\ntype: python\ndescription: {description}\n{meta}".rstrip("\n")
    folder.joinpath("Skill.md").write_text(f"---\n{frontmatter}\n---\n")
    entry = folder / "tool.py"
    entry.write_text(textwrap.dedent(code))
    return entry
