"""The trace schema: one JSON object per line, each a typed event, discriminated by `event`.

Every event carries `schema_version` (bump it when a field changes meaning or goes away;
adding an optional field does not), `event`, `t` (Unix time in seconds when it was made) and
`plan` (0 for the main plan, 1, 2, ... for sub-plans). docs/trace.md documents each field.
The planner's step records are these events: what it remembers of a run is what it writes.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from agent.trace.records import Capabilities, ChatCommand, GoalExchange, LlmExchange, Usage

SCHEMA_VERSION = "1"
# success: the goal check held in the world (verified); done: the model said DONE and there was
# no check to hold it to (unverified). The rest are ways a run ends without either.
# llm_error: the model server failed (down, timing out, refusing) and the run could not go on;
# disconnected: the bot lost its server and could not join again (agent/session/keeper.py).
Outcome = Literal["success", "done", "max_steps", "failed", "llm_error", "disconnected", "interrupted", "stopped"]


# How a plan's tools were chosen: named by the user or a suite, ranked for the goal, or every tool.
CatalogKind = Literal["named", "ranked", "full"]


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    schema_version: Literal["1"] = SCHEMA_VERSION
    t: float = Field(default_factory=time.time, description="Unix time, seconds")
    plan: int = Field(0, description="0 for the main plan; 1, 2, ... for sub-plans, in the order they started")


class Pose(BaseModel):
    """Where the bot stood and looked: world blocks, degrees (yaw 0 = south, 90 = west)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    x: float
    y: float
    z: float
    yaw_deg: float
    pitch_deg: float


class RunSetup(BaseModel):
    """What the command knew about the run before it started; None when the planner runs as a library."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    config: dict[str, Any] = Field(description="the effective AgentConfig, as JSON")
    package_version: str
    mc_version: str | None
    llm_backend: str = Field(description="sglang, openai, llamacpp, scripted or replay")
    llm_model: str = Field(description="the URL, model or file after the backend's kind")
    server: str = Field(description="host:port the bot joined")
    local_server: bool
    scenario: str | None
    seed: int | None = Field(description="the local world's seed; None on a remote server")


class InnerLoop(BaseModel):
    """The `_inner_loop` metadata every action inside a method carries, as the seed defines it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    method_name: str
    inner_step: int
    max_steps: int
    outer_step: int


class RunStart(_Event):
    event: Literal["run_start"] = "run_start"
    goal: str
    max_steps: int
    tools: list[str] = Field(description="what the outer loop may choose")
    catalog: CatalogKind | None = Field(
        None, description="how `tools` were chosen: named by the user or suite, ranked by the goal, or every tool; "
                          "None in traces from before catalogs were chosen")
    guidance: list[str] = Field([], description="instruction tools whose text the prompt opens with (never offered)")
    world: str = Field("", description="the world-state summary the prompt opens with")
    llm: str = Field(description="the backend's name: its spec")
    capabilities: Capabilities
    setup: RunSetup | None = None
    check: dict[str, Any] | None = Field(None, description="the goal check, as written (agent/checks); None: unverified")
    weight: float | None = Field(None, ge=0, le=1, description="the model's weight in tool choices "
                                 "(agent/planner/prior.py); None in older traces")
    weight_why: str = Field("", description="'not measured', or its figures on the choice set")


class LlmCall(_Event, LlmExchange):
    event: Literal["llm_call"] = "llm_call"


class ToolCall(_Event):
    event: Literal["tool_call"] = "tool_call"
    call_id: int = Field(description="pairs the call with its tool_result; counts from 1 per trace")
    tool: str | None = Field(description="None when the action named no tool")
    tool_type: str | None = Field(description="primitive, python, llm, instruction or method; None if unknown")
    args: dict[str, Any]
    depth: int = Field(description="0 for the planner's own call; nested calls count up")
    outer_step: int
    inner_step: int | None = Field(description="the method's internal step, when inside one")
    pose: Pose | None = Field(description="before the call; None without a world")


class ToolResult(_Event):
    event: Literal["tool_result"] = "tool_result"
    call_id: int
    tool: str | None
    depth: int
    outer_step: int
    inner_step: int | None
    result: dict[str, Any] = Field(description="the uniform return: status, data, value, reason?, code?, resource_id?")
    duration_s: float
    pose_before: Pose | None
    pose_after: Pose | None


# Who made a decision: the model; forced (one option was left); protocol (the method's text
# gave it literally); checked (a [when: ...] condition read from the result or the world);
# runtime (the goal check held, a loop bound was hit: the model was not asked).
Decider = Literal["model", "forced", "protocol", "checked", "runtime"]


class Decisions(BaseModel):
    """Who decided each part of a step; None: that part was not decided in this step."""

    model_config = ConfigDict(extra="forbid")
    tool: Decider | None = None
    args: Decider | None = None
    next: Decider | None = Field(None, description="NEXT_TASK inside a method; DONE and NEXT_TASK in the outer loop")


class OptionScore(BaseModel):
    """One tool offered at a step, as its choice weighed it (agent/planner/prior.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tool: str
    prior: float = Field(description="the runtime's probability for it")
    why: str = Field(description="what the runtime saw: 'achieves has_item, given the check's arguments, "
                                 "failed 1 time on this sub-goal, place 2 in the offer'")
    model: float | None = Field(None, description="the model's probability (its select scores, normalised); "
                                                  "None: the model was not asked, or gave no scores")
    combined: float | None = Field(None, description="prior x model^weight, normalised; None: not asked")


class Choice(BaseModel):
    """How a step's tool was chosen among several offered: by the runtime without a model call (a
    decisive prior, or a model that weighs nothing), by the rule over the runtime's and the
    model's scores, or by a baseline policy alone."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    by: Literal["runtime", "model", "baseline"]
    picked: str | None
    weight: float = Field(ge=0, le=1, description="the model's weight in the rule: its measured skill above "
                                                  "chance and the runtime's order")
    why: str = Field(description="'only craft achieves has_item chest with the check's arguments', 'the model "
                                 "weighs nothing (not measured)', 'prior x model^0.4'")
    options: list[OptionScore]


class _Step(_Event):
    """One planner step: what the model chose, what happened, and what it cost."""

    outer_step: int
    thoughts: str = ""
    tool: str | None = Field(description="None when no valid tool name came even after the retry")
    action: dict[str, Any] = Field(description='{"type": TOOL, ...args}, plus "_inner_loop" inside a method')
    result: dict[str, Any] = Field(description="the uniform return, ground truth")
    note: str | None = Field(None, description="what the planner corrected or refused on the way")
    next_task: str = ""
    wall_s: float
    tool_s: float
    llm: Usage = Field(description="this step's LLM calls (a method's outer step includes its inner steps)")
    context_tokens: int = Field(0, description="the prompt's size at the step's last LLM call")
    decided: Decisions = Field(default_factory=Decisions, description="who made each decision of this step")

    @property
    def status(self) -> str:
        return str(self.result.get("status"))


class OuterStep(_Step):
    event: Literal["outer_step"] = "outer_step"
    done: bool | None = Field(None, description="did the model report the goal reached")
    offered: list[str] = Field([], description="the tools the model could choose at this step: the run's, less "
                                               "any withheld after a stale step; empty in older traces")
    loop: str = Field("", description="what the runtime said of a stale step (changed nothing, or the same "
                                      "result again); its tool is not offered at the next step")
    choice: Choice | None = Field(None, description="how the tool was chosen among several; None: one was offered")


class MethodStep(_Step):
    event: Literal["method_step"] = "method_step"
    inner_loop: InnerLoop
    state: dict[str, Any] | None = Field(None, description="the method's declared state, as the step showed it")
    loop: str = Field("", description="what the runtime said of a loop after this step (shown with the next step)")


class MethodStart(_Event):
    event: Literal["method_start"] = "method_start"
    method: str
    args: dict[str, Any]
    outer_step: int
    max_steps: int


class MethodEnd(_Event):
    event: Literal["method_end"] = "method_end"
    method: str
    outer_step: int
    outcome: str = Field(description="a termination outcome of the protocol, FAILED, STOPPED, or GOAL_REACHED "
                         "(the goal check held after an internal step)")
    inner_steps: int
    summary: str
    wall_s: float
    outcome_holds: bool | None = Field(
        None, description="the outcome's [when: ...] conditions read at the end: true or false; None: it has none "
        "that could be read (prose conditions only, or a runtime outcome)")


class DoneClaim(_Event):
    """A claim that the goal is reached, and the world's verdict on it."""

    event: Literal["done_claim"] = "done_claim"
    outer_step: int
    by: Literal["model", "method", "world"] = Field(
        description="model: it answered DONE: yes; method: a method ended in a non-failing outcome; "
        "world: the check held after a step, and the run ended without asking the model"
    )
    method: str | None = Field(None, description="the method, when `by` is method")
    holds: bool | None = Field(description="the check's verdict; None when the run has no check")
    detail: str = Field(description="what the world says, e.g. 'sky_visible is false: stone at y=8, ...'")
    accepted: bool = Field(description="the run ended on it: verified, or unverified for want of a check")


class GoalAdded(_Event):
    event: Literal["goal_added"] = "goal_added"
    goal: str = Field(description="appended to the prompt before this outer step")
    outer_step: int


class SubGoalRead(BaseModel):
    """One sub-goal as the run understood it (agent/goals)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    says: str = Field(description="the words it was read from")
    check: dict[str, Any] = Field(description="its check, in YAML form, grounded in the world at the start")
    described: str = Field(description="the check in a line: has_item oak_log 3")
    by: Literal["rules", "given", "model"]
    lasting: bool = Field(description="whether it must still hold at the end")


class ModelReading(BaseModel):
    """Whether the model was let read words no rule read into a check: only when `mcagent llm
    check` measured this backend's reading at the mark (agent/session/model_reading.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    reads: bool
    why: str = Field(description="'not measured', 'below the mark: 62 % right, 24 % wrong', or the figures "
                                 "that reached it: '47/50 right (94 %), 1 wrong (2 %), 2 none'")


class Understood(_Event):
    """What the run understood of its goal, before the first step: its sub-goals in order (none:
    no rule read the words, and the run has no check)."""

    event: Literal["understood"] = "understood"
    goal: str
    subgoals: list[SubGoalRead]
    not_understood: list[str] = Field(default_factory=list, description="the goal's words no rule read, each with "
                                                                         "why when more can be said: "
                                                                         "'\"the shed\" (no such thing in the game: shed)'")
    model_reading: ModelReading | None = Field(None, description="asked only when no rule read the words: "
                                                                 "whether the model read them, and why not")


class Focused(_Event):
    """The outer loop turned to a sub-goal: the first that does not hold, read before a step; or,
    within one whose check is an `all`, to the parts that do not hold yet."""

    event: Literal["focused"] = "focused"
    index: int = Field(ge=1, description="1 for the first sub-goal")
    of: int = Field(ge=1, description="how many there are")
    check: str = Field(description="its check, or the parts of it left to do, described")
    outer_step: int


class Needed(_Event):
    """A step of the main plan failed for want of an item: carrying it became a sub-goal, worked on
    before the one the step served (agent/goals/needs.py)."""

    event: Literal["needed"] = "needed"
    tool: str = Field(description="the tool whose failure named the need")
    check: str = Field(description="the need's check, described: has_item wooden_pickaxe 1")
    index: int = Field(ge=1, description="its place among the sub-goals, 1 for the first")
    depth: int = Field(ge=1, description="1 for what a step lacked, 2 for a need of that need, ...")
    outer_step: int


class MessageRead(_Event):
    """A line a player said to the bot, read from its inbox before an outer step of the main plan
    and shown in the prompt (agent/chat/team.py); `became`: the sub-goal it was taken as, an ask
    for an item the bot carries (agent/goals/asking.py)."""

    event: Literal["message_read"] = "message_read"
    player: str
    text: str
    whispered: bool
    became: str | None = Field(None, description="the sub-goal it became: give alex 1 iron_ingot")
    outer_step: int


class Judged(_Event):
    """The judge's verdict after the run: a check the world decides, never shown to the planner."""

    event: Literal["judged"] = "judged"
    check: str = Field(description="the judge's check, described")
    holds: bool
    detail: str


# What a blueprint's cell holds when nothing is built in it yet.
EMPTY_BLOCKS = frozenset({"air", "cave_air", "void_air"})


class CellSeen(BaseModel):
    """One cell of a blueprint after the run: the block asked there and what the world holds."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    at: tuple[int, int, int] = Field(description="the world cell: x east, y up, z south")
    wanted: str = Field(description="the block asked, with the state asked: oak_stairs[facing=east,half=bottom]")
    held: str | None = Field(description="what the world holds, with the properties a placer chooses; None: not loaded")
    right: bool = Field(description="it holds the block wanted in the state asked, as the blueprint check compares")

    @property
    def missing(self) -> bool:
        """Nothing stands where a block is wanted (or nothing could be read there)."""
        return not self.right and (self.held is None or self.held in EMPTY_BLOCKS)

    @property
    def wrong(self) -> bool:
        """Another block, or the block in another state, stands where one is wanted."""
        return not self.right and not self.missing


class BuildSeen(_Event):
    """A blueprint of the goal check read in the world after the run, cell by cell (the report
    draws it beside what the world holds); one per blueprint the check has."""

    event: Literal["build_seen"] = "build_seen"
    anchor: tuple[int, int, int] = Field(description="the blueprint's anchor, a world cell")
    cells: list[CellSeen] = Field(min_length=1, description="every cell of the blueprint, in its order (at most 8192)")

    def said(self) -> str:
        """`4 of 6 cells right (67 %): 1 wrong, 1 missing`."""
        right, wrong = sum(c.right for c in self.cells), sum(c.wrong for c in self.cells)
        share = f"{right} of {len(self.cells)} cells right ({round(100 * right / len(self.cells))} %)"
        return share if right == len(self.cells) else f"{share}: {wrong} wrong, {len(self.cells) - right - wrong} missing"


class Milestone(_Event):
    """A check on the way to the goal (a scenario's `milestones`) held for the first time, read
    in the world after a tool call."""

    event: Literal["milestone"] = "milestone"
    check: str = Field(description="the check, described")
    detail: str = Field(description="what the world says")
    after_s: float = Field(description="seconds since the run started")
    llm_calls: int = Field(description="LLM calls made by then")
    tool: str | None = Field(description="the tool call after which it was read")


class Chat(_Event):
    event: Literal["chat"] = "chat"
    username: str | None
    message: str
    whisper: bool = False


class Command(_Event, ChatCommand):
    event: Literal["command"] = "command"


class ChatGoal(_Event, GoalExchange):
    """A goal said to the bot in chat, and what became of it (agent/chat/commander.py): one event
    per turn, so that a question and its answer are two."""

    event: Literal["chat_goal"] = "chat_goal"


class Death(_Event):
    event: Literal["death"] = "death"


class Respawn(_Event):
    event: Literal["respawn"] = "respawn"


class Disconnect(_Event):
    event: Literal["disconnect"] = "disconnect"
    kind: Literal["kicked", "end"]
    reason: str


class Rejoin(_Event):
    """The bot lost its server and joined again; the local server started again first when it had died."""

    event: Literal["rejoin"] = "rejoin"
    lost: str = Field(description="why the connection ended: the kick message, the socket's end")
    attempts: int = Field(description="joins tried, the one that worked included")
    seconds: float = Field(description="from noticing the loss to the bot back in the world")
    server_restarted: bool = Field(description="the local server had died and was started again")
    blocks_restored: int = Field(0, description="block changes the restarted server put back from its journal")


class Error(_Event):
    event: Literal["error"] = "error"
    source: Literal["planner", "llm", "bot"]
    message: str
    traceback: str | None = None


class RunTotals(BaseModel):
    """How a plan ended, and what it took: in run_end, and the planner's RunResult."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    outcome: Outcome
    reason: str
    steps: int
    inner_steps: int
    wall_s: float
    usage: Usage
    claims: int = Field(0, description="success claims: a DONE from the model (asked only without a check) or a "
                        "method ending in a non-failing outcome")
    claims_refused: int = Field(0, description="of those, the ones the goal check refused")
    rejoins: int = Field(0, description="times the bot lost its server and joined again")
    deaths: int = Field(0, description="times the bot died and the runtime respawned it")


class RunEnd(_Event, RunTotals):
    event: Literal["run_end"] = "run_end"
    goal: str


Event = Annotated[
    RunStart | LlmCall | ToolCall | ToolResult | OuterStep | MethodStep | MethodStart | MethodEnd | DoneClaim | GoalAdded
    | Understood | Focused | Needed | MessageRead | Judged | BuildSeen | Milestone | Chat | Command | ChatGoal | Death
    | Respawn | Disconnect | Rejoin | Error | RunEnd,
    Field(discriminator="event"),
]
EVENT: TypeAdapter[Event] = TypeAdapter(Event)
Step = OuterStep | MethodStep
