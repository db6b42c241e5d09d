"""Example tools for mcagent, found through the `mcagent.tools` entry point."""
