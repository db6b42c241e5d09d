"""Support for world tools (world-tools/<world>/<tool>/tool.py): reaching the body, typed args and results."""
