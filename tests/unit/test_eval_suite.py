"""Suites load with one-line errors, and an episode's spec survives the trip to its process."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.cli.demo_cmd import DEMO_LLM, DEMO_OPTIONS
from agent.errors import ConfigError
from agent.eval.episode import EpisodeSpec
from agent.eval.suite import load_suite
from agent.paths import SERVER_CONFIG_DIR
from agent.planner.presets import EXPLORE_SCENARIO

EXPLORE = SERVER_CONFIG_DIR / "eval" / "explore.yaml"


def test_the_explore_suite_names_twelve_scenarios_each_with_a_goal_and_a_check():
    suite, tasks = load_suite(EXPLORE)
    assert suite.name == "explore" and len(tasks) == 12 and suite.seeds == 3
    assert {"deep-pit", "sealed", "maze", "long-tunnel", "lava-path"} <= {t.name for t in tasks}
    assert all(t.goal and t.check for t in tasks)


def test_an_episode_spec_round_trips_through_json_with_every_check_intact(tmp_path):
    suite, tasks = load_suite(EXPLORE)
    for task in tasks:  # deep-pit and sealed use `outside: {from, to}`: the alias must survive
        spec = EpisodeSpec(suite=suite.name, task=task, seed=2, llm="random", options=suite.planner, folder=tmp_path)
        again = EpisodeSpec.model_validate_json(spec.model_dump_json())
        assert again == spec and again.task.scenario(2) == task.scenario(2)
        assert again.backend() == "random:2"


def test_a_suite_entry_may_override_the_goal_and_check(tmp_path):
    file = tmp_path / "suite.yaml"
    file.write_text("name: mine\nscenarios:\n  - {scenario: cave, goal: stand tall, success: {feet_y_at_least: 9}}\n")
    _, [task] = load_suite(file)
    assert (task.goal, task.check.describe()) == ("stand tall", "feet_y_at_least 9")
    assert task.scenario(1).success == task.check.transformed(_transform_of(task))


def _transform_of(task):
    from agent.mc.transform import Transform

    spawn = task.scenario(0).spawn
    return Transform.for_seed(1, spawn.x, spawn.z)


@pytest.mark.parametrize(("text", "says"), [
    ("name: x\nscenarios: []\n", "scenarios"),
    ("name: x\nscenarios: [flat]\nseeds: 0\n", "seeds"),
    ("name: x\nscenarios: [{scenario: cave, success: {within: {x: 1}}}]\n", "success.within: missing key 'y'"),
    ("name: x\nscenarios: [cave]\nplanner: {max_step: 3}\n", "max_step"),
])
def test_a_bad_suite_is_one_line_naming_the_key(tmp_path: Path, text, says):
    file = tmp_path / "suite.yaml"
    file.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_suite(file)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_episodes_running_at_once_share_the_cores_for_an_in_process_model(tmp_path):
    import os

    from agent.eval.episode import core_share, episode_specs
    from agent.eval.episode import request

    suite, tasks = load_suite(EXPLORE)
    specs = episode_specs(suite, tasks[:1], ["llamacpp"], 1, tmp_path, None, threads=core_share(2))
    assert [s.llm_threads for s in specs] == [max(1, (os.cpu_count() or 1) // 2)]
    config = request(specs[0]).config
    assert config.llm_threads == specs[0].llm_threads and config.server.port == 0
    assert config.infospace == specs[0].folder / "notes.db"


def test_the_demo_suite_scores_exactly_what_make_demo_runs():
    suite, _ = load_suite(SERVER_CONFIG_DIR / "eval" / "demo.yaml")
    assert suite.planner == DEMO_OPTIONS and suite.llm == [DEMO_LLM]
    assert [e.scenario for e in suite.scenarios] == [EXPLORE_SCENARIO]
