"""`python -m agent.cli` runs the mcagent command."""

import sys

from agent.cli import main

sys.exit(main())
