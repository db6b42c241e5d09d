"""One eval from typed values: every (scenario, seed, backend) episode of a suite, on local worker
processes or as Ray tasks (ray_runner.py), then its summary files. `mcagent eval` turns its
flags into an EvalRequest and prints what comes back.

    evaluation = evaluate(EvalRequest(suite=path, out=folder), on_start=print, on_episode=progress)
    evaluation.rows, evaluation.faults()       # the summary rows; episodes that failed, false successes
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from agent.config import find_config_file, load_config
from agent.errors import ConfigError
from agent.eval.episode import EpisodeSpec, core_share, episode_specs, episode_tool_sources
from agent.eval.mindcraft import is_task_file, load_task_file
from agent.eval.ray_runner import CPUS_PER_EPISODE, ray_cluster, run_on_ray, slots
from agent.eval.records import EPISODES_FILE, EpisodeRecord, read_episodes
from agent.eval.runner import run_all
from agent.eval.stats import Row, summarize
from agent.eval.suite import NotRun, Suite, Task, load_suite
from agent.eval.tables import build_lines, html_page, markdown_table
from agent.eval.throughput import THROUGHPUT_FILE, Throughput, throughput
from agent.diagnostics.backend_probe import probe_backend
from agent.planner.offer import Catalog
from agent.tools import load_toolbox
from agent.trace import new_folder_kept_if_used

# An episode that runs this long is ended and recorded as an error.
EPISODE_TIMEOUT_S = 900.0

OnEpisode = Callable[[EpisodeRecord, int], None]  # each record as its episode ends, with how many have


class EvalRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    suite: Path = Field(description="a suite file, or a Mindcraft task file (.json)")
    llms: list[str] | None = Field(None, description="backends to evaluate; None: the suite's")
    seeds: int | None = Field(None, description="seeds per scenario and backend; None: the suite's")
    workers: int | None = Field(None, description="episodes at once; None: 1, or with `ray` what the cluster holds")
    ray: str | None = Field(None, description="run each episode as a Ray task on the cluster at this address")
    out: Path | None = Field(None, description="the results folder; None: runs/eval-<suite>-<time>")
    config: Path | None = Field(None, description="config file for every episode; None: ./mcagent.yaml")
    episode_timeout_s: float = EPISODE_TIMEOUT_S
    tools: list[str] | None = Field(None, description="the tools the outer loop may choose, instead of the suite's")
    catalog: Catalog | None = Field(None, description="the catalog instead of the suite's (an ablation)")
    resume: bool = Field(False, description="run only the episodes `out` holds no record of yet; summarize them all")


class EvalStart(BaseModel):
    """What is about to run, once everything was checked and the workers are ready."""

    suite: str
    episodes: int
    scenarios: int
    backends: int
    seeds: int
    workers: int
    ray: str | None
    out: Path
    not_run: list[NotRun]
    recorded: int = Field(0, description="episodes the results folder already held (--resume), not run again")


class Evaluation(BaseModel):
    """The episodes' records, their summary rows and the eval's throughput, written to `out`."""

    records: list[EpisodeRecord]
    rows: list[Row]
    rate: Throughput
    out: Path

    def faults(self) -> tuple[int, int, int]:
        """Episodes that could not run, false successes, and method outcomes the checks refuted."""
        return (sum(r.outcome == "error" for r in self.records),
                sum(r.success and r.final_check is False for r in self.records),
                sum(len(r.refuted_outcomes) for r in self.records))


def evaluate(request: EvalRequest, on_start: Callable[[EvalStart], None], on_episode: OnEpisode) -> Evaluation:
    """Checks the suite, its tools and backends (ConfigError before anything starts), runs every
    episode and writes OUT/summary.md, summary.html and the throughput."""
    # A Mindcraft task file (JSON) is read as it is written; anything else is a suite.
    suite, tasks = load_task_file(request.suite) if is_task_file(request.suite) else load_suite(request.suite)
    suite = narrowed(suite, request.tools, request.catalog)
    llms = request.llms or suite.llm
    if not llms:
        raise ConfigError(f"eval: {request.suite} names no backend (llm: [...]) and no --llm was given")
    check_tools(suite.planner.tools or [], request.config)
    for llm in llms:
        probe_backend(llm)
    if request.resume and request.out is None:
        raise ConfigError("eval: --resume goes on in a results folder: name it with --out DIR")
    if request.out is not None:
        held = request.out / EPISODES_FILE
        if held.exists() and not request.resume:
            raise ConfigError(f"eval: {request.out} already holds results; choose another --out, or --resume to "
                              "run the episodes it lacks")
        done = read_episodes(held) if held.exists() else []
        return _episodes(request, suite, tasks, llms, request.out, on_start, on_episode, done)
    # A folder of its own, as a run's (two evals started in the same second get -2), gone if unused.
    with new_folder_kept_if_used(Path("runs"), f"eval-{suite.name}-{time.strftime('%Y%m%d-%H%M%S')}") as out:
        return _episodes(request, suite, tasks, llms, out, on_start, on_episode)


def check_tools(names: list[str], config: Path | None) -> None:
    """Every tool the suite or --tools names exists where the episodes load their tools from."""
    toolbox = load_toolbox(episode_tool_sources(load_config(config)))
    unknown = [name for name in names if name not in toolbox.tools]
    if unknown:
        raise ConfigError(f"eval: no tool named {unknown[0]!r} (tools: {', '.join(sorted(toolbox.tools))})")


def narrowed(suite: Suite, tools: list[str] | None, catalog: str | None) -> Suite:
    """The suite with the catalog the flags give instead of its own (an ablation); as it is without them."""
    update = {key: value for key, value in (("tools", tools), ("catalog", catalog)) if value is not None}
    if not update:
        return suite
    if catalog is not None and tools is None:
        update["tools"] = None  # --catalog replaces a suite's named tools
    return suite.model_copy(update={"planner": suite.planner.model_copy(update=update)})


def _episodes(request: EvalRequest, suite: Suite, tasks: list[Task], llms: list[str], out: Path,
              on_start: Callable[[EvalStart], None], on_episode: OnEpisode,
              done: list[EpisodeRecord] | None = None) -> Evaluation:
    """On local worker processes, or as Ray tasks, each episode `done` holds no record of; then the
    summary files over them all."""
    done = done or []
    seeds = request.seeds or suite.seeds
    config = find_config_file(request.config)
    config = config.resolve() if config else None  # a Ray node reads it by this path

    def timed(specs: list[EpisodeSpec], workers: int, run_them: Callable[[], list[EpisodeRecord]]) -> Evaluation:
        on_start(EvalStart(suite=suite.name, episodes=len(specs), scenarios=len(tasks), backends=len(llms),
                           seeds=seeds, workers=workers, ray=request.ray, out=out, not_run=suite.not_run,
                           recorded=len(done)))
        started = time.monotonic()
        records = run_them()
        return _summarized(suite, done + records, out, throughput(records, time.monotonic() - started, workers))

    if request.ray is None:
        workers = request.workers or 1
        specs = _not_done(episode_specs(suite, tasks, llms, seeds, out, config, threads=core_share(workers)), done)
        return timed(specs, workers, lambda: run_all(specs, out, workers, request.episode_timeout_s, on_episode))
    with ray_cluster(request.ray) as ray:
        specs = _not_done(episode_specs(suite, tasks, llms, seeds, out, config, threads=CPUS_PER_EPISODE), done)
        workers = slots(ray, request.workers, len(specs))
        return timed(specs, workers, lambda: run_on_ray(ray, specs, out, workers, request.episode_timeout_s, on_episode))


def _not_done(specs: list[EpisodeSpec], done: list[EpisodeRecord]) -> list[EpisodeSpec]:
    """The episodes with no record in `done`. A record of an episode this eval does not hold means
    the folder is another eval's (another suite, backend or seed count)."""
    wanted = {(s.suite, s.task.name, s.seed, s.llm): s for s in specs}
    held = {(r.suite, r.scenario, r.seed, r.llm): r for r in done}
    stray = [r for k, r in held.items() if k not in wanted]
    if stray:
        raise ConfigError(f"eval: the results folder holds {stray[0].name()}, which this eval does not run: "
                          "resume with the suite, --llm and --seeds it was started with")
    lacking = [s for k, s in wanted.items() if k not in held]
    for spec in lacking:  # what an episode cut off left (its map is never overwritten): it runs anew
        shutil.rmtree(spec.folder, ignore_errors=True)
    return lacking


def _summarized(suite: Suite, records: list[EpisodeRecord], out: Path, rate: Throughput) -> Evaluation:
    rows = summarize(records)
    left_out = "".join(f"\n- not run: {t.name}: {t.reason}" for t in suite.not_run)
    built = "".join(f"\n{line}" for line in build_lines(records))
    (out / "summary.md").write_text(f"{markdown_table(rows)}\n{left_out}\n{built}\n\n{rate.text()}\n", encoding="utf-8")
    (out / "summary.html").write_text(html_page(rows, records, f"mcagent eval: {suite.name}"), encoding="utf-8")
    (out / THROUGHPUT_FILE).write_text(rate.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return Evaluation(records=records, rows=rows, rate=rate, out=out)
