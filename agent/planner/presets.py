"""The setting `mcagent demo` and `mcagent bench planner` share: explore-area in the cave."""

# The outer loop is offered only the method, so the run is about it.
EXPLORE_TOOLS = ["explore-area"]
EXPLORE_SCENARIO = "cave"
