# The two commands: `make demo` runs the main job, `make test` runs the tests.
# Both install what is missing first (scripts/bootstrap.sh; quick once done).
# `make unit` runs the tests that start no server (not marked `integration`), for quick turns.
.PHONY: bootstrap test unit demo bench clean

bootstrap:
	@scripts/bootstrap.sh

test: bootstrap
	.venv/bin/python -m pytest

unit: bootstrap
	.venv/bin/python -m pytest -m "not integration"

demo: bootstrap
	.venv/bin/mcagent demo

bench: bootstrap
	.venv/bin/mcagent bench bridge

clean:
	rm -rf .venv bridge/node_modules bridge/node-runtime/node_modules .pytest_cache .hypothesis
