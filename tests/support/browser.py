"""Debian's Chromium driven by Playwright, for tests that look at pages as a person would.

Launch flags as FIELD-NOTES measured them: no sandbox (root in CI), software GL, and no
background networking (this machine's network is closed). Waits are in real time: the
viewer's chunks arrive over socket.io, after any virtual-time budget would have ended.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
]


@contextmanager
def chromium_page(width: int = 800, height: int = 600) -> Iterator[object]:
    """A fresh page in headless Chromium; the browser is closed on the way out."""
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright is installed by scripts/bootstrap.sh")
    if not shutil.which(CHROMIUM):
        pytest.skip("Debian's chromium is installed by scripts/bootstrap.sh")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()


def errors_of(page) -> list[str]:
    """The page's console errors and uncaught exceptions, filled in as they come."""
    problems: list[str] = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def non_sky_share(png: bytes, sky_rgb: tuple[int, int, int], tolerance: int = 40) -> float:
    """Share of pixels whose colour is further than `tolerance` (per channel) from the sky's."""
    from PIL import Image  # noqa: PLC0415 - a test-only dependency
    import numpy as np  # noqa: PLC0415

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    far = (np.abs(pixels - np.array(sky_rgb, dtype=np.int16)) > tolerance).any(axis=2)
    return float(far.mean())
