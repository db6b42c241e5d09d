# The two commands: `make demo` runs the main job, `make test` runs the tests.
# Both install what is missing first (scripts/bootstrap.sh; quick once done).
.PHONY: bootstrap test demo bench clean

bootstrap:
	@scripts/bootstrap.sh

test: bootstrap
	.venv/bin/python -m pytest

demo: bootstrap
	.venv/bin/mcagent demo

bench: bootstrap
	.venv/bin/mcagent bench bridge

clean:
	rm -rf .venv bridge/node_modules bridge/node-runtime/node_modules .pytest_cache .hypothesis
