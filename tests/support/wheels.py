"""A pure-Python wheel built by hand from a pyproject.toml, so that a test can install a package
with pip offline, with no build backend: a wheel is a zip of the package and its dist-info."""

from __future__ import annotations

import base64
import hashlib
import tomllib
import zipfile
from pathlib import Path


def build_wheel(project: Path, out: Path) -> Path:
    """The wheel of the [project] in project/pyproject.toml: its [tool.setuptools] packages and its
    entry points, written into `out`."""
    pyproject = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    meta = pyproject["project"]
    dist = f"{meta['name'].replace('-', '_')}-{meta['version']}"
    files = {str(path.relative_to(project)): path.read_bytes()
             for package in pyproject["tool"]["setuptools"]["packages"]
             for path in sorted((project / package).rglob("*.py"))}
    info = f"{dist}.dist-info"
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: mcagent-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/entry_points.txt"] = "".join(
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in points.items()) + "\n"
        for group, points in meta.get("entry-points", {}).items()).encode()
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files.items()]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,", ""]).encode()
    wheel = out / f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return wheel


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
