"""Every text the planner shows the model, by phase. Control flow lives elsewhere.

The prompt is append-only: each phase adds to the end of one growing conversation, so a
backend with a prefix cache computes only what is new at each step.
"""

from __future__ import annotations

import json
from typing import Any

SYSTEM = """You are the planner of a Minecraft bot. You reach the GOAL by calling tools, one tool per step.
At each step write exactly:
{thoughts}TOOL_NAME: one tool name from the TOOL CATALOG
TOOL_ARGS_JSON: the tool's arguments as one JSON object on one line
Then read the ACTUAL RESULT. It is ground truth: what really happened, whatever you expected.
Then write DONE: yes when the GOAL is reached, otherwise no{next_task}.
A [method] tool runs a protocol: while it runs, follow its steps and choose tools only for it."""
# SYSTEM's parts for a model whose free text is asked for (Capabilities.thoughts).
SYSTEM_THOUGHTS = "THOUGHTS: one short sentence on what to do next and why\n"
SYSTEM_NEXT_TASK = ", and NEXT_TASK: what to do next"

# Added to SYSTEM for a chat API (Capabilities.whole_turns): a turn is asked whole, as one object.
WHOLE_TURNS = """Write each of your turns as one JSON object whose keys are those labels, e.g.
{example}"""
WHOLE_EXAMPLE = """{"THOUGHTS": "...", "TOOL_NAME": "...", "TOOL_ARGS_JSON": {...}} and {"DONE": "no", "NEXT_TASK": "..."}."""
WHOLE_EXAMPLE_CHOICES = """{"TOOL_NAME": "...", "TOOL_ARGS_JSON": {...}} and {"DONE": "no"}."""


def system(thoughts: bool, whole_turns: bool) -> str:
    """The system prompt for a backend: the labels the model writes, free text only where asked."""
    text = SYSTEM.format(thoughts=SYSTEM_THOUGHTS if thoughts else "", next_task=SYSTEM_NEXT_TASK if thoughts else "")
    if whole_turns:
        text += "\n" + WHOLE_TURNS.format(example=WHOLE_EXAMPLE if thoughts else WHOLE_EXAMPLE_CHOICES)
    return text

START = """GOAL: {goal}

WORLD STATE: {world}
{offer}"""

# What the model may choose, after the how-to text of the instruction tools that fit the goal.
OFFER = """{guidance}
TOOL CATALOG:
{catalog}"""
GUIDANCE = "\nGUIDANCE ({name}):\n{text}\n"

# After the catalog, in a prompt started afresh to stay short: the outer steps so far, a line each.
RECAP = """
EARLIER STEPS (the prompt starts afresh here, to stay short; the WORLD STATE above is from the start):
{steps}"""
RECAP_STEP = "STEP {step}: {tool} {args} -> {result}"

FIRST_TASK = "choose the first tool that moves toward the GOAL"
# The task of every later step where the model writes no NEXT_TASK (Capabilities.thoughts off).
NEXT_TOOL_TASK = "choose the next tool that moves toward the GOAL"
NO_WORLD = "unknown (no world state given)"

OUTER_STEP = "STEP {step}/{max_steps}. NEXT_TASK: {task}"
# Added to OUTER_STEP when a tool of the catalog is not offered at this step (loops.py).
WITHHELD = " Not offered at this step: {tool}."

RESULT = """Tool executed: `{tool}` {args}
>> ACTUAL RESULT (ground truth) <<
{result}
>> END RESULT <<"""

# A goal a player gave in chat (!goal) while the run went on: appended, as the prompt only grows.
NEW_GOAL = "NEW GOAL (given by a player; it replaces the GOAL above): {goal}"
# After NEW_GOAL, when the catalog is chosen by goal: the one that fits the new goal.
NEW_OFFER = "For the new goal:\n{offer}"
# The goal's next part, once the parts before it hold in the world (agent/planner/focus.py).
FOCUS = "NOW: part {index} of {of} of the GOAL: {says}"
MESSAGES = "MESSAGES (what players said to you since the last step):\n{lines}"
FOCUS_LEFT = "NOW: still to do: {left}"
FOCUS_OFFER = "For this part:\n{offer}"

OUTER_REFLECT = "Is the GOAL reached? Write DONE: yes or no, then NEXT_TASK."
DONE_ONLY = "Is the GOAL reached? Write DONE: yes or no."
# With a goal check, the world says whether the GOAL is reached: the model is not asked.
NEXT_ONLY = "The goal check says the GOAL is not reached yet. Write NEXT_TASK."

# Shown once when a name is not one of the valid choices, before the one retry.
CORRECTION = "{got!r} is not a valid {what}. Write exactly one of: {choices}"
# The same, for a turn asked whole (WHOLE_TURNS).
WHOLE_CORRECTION = "That reply cannot be used: {problem}. Reply with one JSON object with the keys {keys}."

METHOD_START = """#METHOD START: {method} {args} (at most {max_steps} internal steps)
Follow this protocol. Each internal step calls one tool, the one the CURRENT METHOD STEP requires.
After its ACTUAL RESULT, write NEXT_TASK: the step the result leads to, as [METHOD: STEP X] TITLE,
or TERMINATION (OUTCOME) when the protocol ends. Do not invent steps.
Tools for this method: {tools}
{protocol}
#DECLARED STEPS: {steps}
#TERMINATION OUTCOMES: {outcomes}"""

# Each internal step repeats only what changes: where the loop is, and the result.
METHOD_STEP = "#METHOD EXECUTION MODE: {method} (internal step {inner}/{max_steps}). CURRENT METHOD STEP: {task}"

# The method's declared runtime state, kept by the runtime, as it is before this step.
METHOD_STATE = "#METHOD STATE: {state}"

METHOD_RESULT = """Tool executed: `{tool}`
>> ACTUAL RESULT (ground truth) <<
{result}
>> END RESULT <<
NEXT_TASK?"""

STANDALONE_GOAL = "Run the method {method} to its end."

# What a one-line answer is held to where the backend constrains: it starts with a character that
# is not blank, and ends at the line's end.
LINE = r"[^ \t\n][^\n]*"

# The assistant's side of a turn: the labels the model writes after.
THOUGHTS, TOOL_NAME, TOOL_ARGS = "THOUGHTS: ", "TOOL_NAME: ", "TOOL_ARGS_JSON: "
DONE, NEXT_TASK = "DONE: ", "NEXT_TASK: "


# A list in arguments is shown with this many items and a count of the rest: a blueprint's 337
# cells written whole (twice: the call, then its RESULT) passed SmolLM2's 8,192-token context.
SHOWN_ITEMS = 6


def shown(value: Any) -> str:
    """`value` (arguments, a method's state) as the prompt shows it: JSON on one line, each list
    longer than SHOWN_ITEMS cut to its first items and "... N more". The trace keeps it whole."""
    return json.dumps(_abridged(value), ensure_ascii=False, default=str)


def _abridged(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _abridged(item) for key, item in value.items()}
    if isinstance(value, list):
        more = len(value) - SHOWN_ITEMS
        head = [_abridged(item) for item in value[:SHOWN_ITEMS]]
        return head + [f"... {more} more"] if more > 0 else head
    return value
