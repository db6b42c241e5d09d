"""What a person sees: the viewer renders the world, and the report opens without errors."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from agent.bridge import connect
from agent.server import LocalServer, Scenario, ServerSettings, load_scenario
from support.browser import chromium_page, errors_of, non_sky_share
from support.planning import EXPLORE_POLICY, FIXTURES, run_config
from support.procs import mcagent, new_token, transcript

# prismarine-viewer clears to 'lightblue' where no terrain is drawn.
VIEWER_SKY = (173, 216, 230)
# Terrain must fill at least this share of the picture: superflat ground alone fills ~45 %.
TERRAIN_SHARE = 0.25
# Chunks take ~10-15 s to arrive and render in software GL on 2 idle cores, several times that
# while other test processes share the cores; the wait ends as soon as the terrain settles.
RENDER_WAIT_S = 240
# Where screenshots also go when set (the README's pictures are made this way).
SCREENSHOTS = os.environ.get("MCAGENT_SCREENSHOTS")
ROOT = FIXTURES.parent.parent  # the repository


def _settled_render(page) -> tuple[bytes, float]:
    """Screenshots every 2 s until the terrain stops growing (chunks keep arriving) or time is up."""
    deadline, shot, share, previous = time.monotonic() + RENDER_WAIT_S, b"", 0.0, -1.0
    while time.monotonic() < deadline and not (share >= TERRAIN_SHARE and share - previous < 0.01):
        time.sleep(2)
        previous, shot = share, page.screenshot()
        share = non_sky_share(shot, VIEWER_SKY)
    return shot, share


# The natural world of seed 6 from its beach: the sea ahead and to the right, a birch forest
# to the left.
SHORE = Scenario.model_validate({
    "name": "shore", "description": "the natural world of seed 6 at its spawn, on a beach", "goal": "look around",
    "terrain": {"generator": "natural", "seed": 6}, "spawn": {"x": 0.5, "z": 0.5, "on_surface": True, "facing": "west"}})


@pytest.mark.parametrize(("scenario", "picture"), [(load_scenario("hazard"), "viewer.png"), (SHORE, "viewer-natural.png")],
                         ids=["hazard", "natural"])
def test_viewer_shows_terrain_in_a_real_browser(scenario: Scenario, picture: str, tmp_path: Path) -> None:
    with LocalServer(ServerSettings(), scenario=scenario) as info, \
         connect(port=info.port, username="filmed") as bot:
        viewer = bot.start_viewer(0)
        with chromium_page() as page:
            page.goto(viewer.url)
            shot, share = _settled_render(page)
    (tmp_path / picture).write_bytes(shot)
    if SCREENSHOTS:
        Path(SCREENSHOTS, picture).write_bytes(shot)
    assert share >= TERRAIN_SHARE, f"only {share:.0%} of the viewer is terrain after {RENDER_WAIT_S} s: {tmp_path / picture}"


def test_report_opens_without_console_errors(tmp_path: Path) -> None:
    config = run_config(tmp_path)
    trace, report = tmp_path / "trace.jsonl", tmp_path / "report.html"
    run = mcagent("run", "--goal", "get out of the room to open sky", "--config", str(config), "--scenario", "room",
                  "--port", "0", "--llm", f"scripted:{EXPLORE_POLICY.relative_to(ROOT)}", "--trace", str(trace),
                  token=new_token(), timeout_s=180, cwd=ROOT)  # a relative policy: the picture shows no machine's path
    assert run.returncode == 0, transcript(run)
    made = mcagent("report", str(trace), "-o", str(report), token=new_token())
    assert made.returncode == 0, transcript(made)
    with chromium_page(1100, 900) as page:
        problems = errors_of(page)
        page.goto(report.as_uri())
        page.wait_for_load_state("load")
        assert page.locator("svg").count() >= 1, "the report has no map"
        shot = page.screenshot(full_page=True)
    if SCREENSHOTS:
        Path(SCREENSHOTS, "report.png").write_bytes(shot)
    assert problems == []
