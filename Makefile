# The two commands: `make demo` runs the main job, `make test` runs the tests.
# Both install what is missing first (scripts/bootstrap.sh; quick once done).
# `make unit` runs the tests that start no server (not marked `integration`), for quick turns.
# `make test` and `make unit` run in four worker processes (pytest-xdist), twice the 2 cores: much of a
# test's time is real-time waiting on servers and walks. Each worker starts its own servers on free
# ports; --dist loadfile keeps a file on one worker, so a file's module fixtures start once; the
# slowest files go first (tests/durations.json, in the conftest's order, not xdist's by test count).
.PHONY: bootstrap test unit demo bench clean

bootstrap:
	@scripts/bootstrap.sh

# Four workers: six load the 2 cores past what the tests' game waits allow (2026-11-29, a clean clone in
# six: 13m04s and three failed: a bot kicked for a late keep-alive, a walker not yet in view, a team's give).
test: bootstrap
	.venv/bin/python -m pytest -n 4 --dist loadfile --no-loadscope-reorder

unit: bootstrap
	.venv/bin/python -m pytest -n 4 --dist loadfile --no-loadscope-reorder -m "not integration"

demo: bootstrap
	.venv/bin/mcagent demo

bench: bootstrap
	.venv/bin/mcagent bench bridge

clean:
	rm -rf .venv bridge/node_modules bridge/node-runtime/node_modules bridge/.compile-cache .pytest_cache .hypothesis
