"""Checking an LLM backend before relying on it: `mcagent llm check` runs tiny programs on it and
reports what works and how fast (backend_check.py); `mcagent eval` first asks each backend
whether it answers at all (backend_probe.py). A named set of asks with written answers scores
what the model reads (measured.py), kept per backend where a run finds it (measurements.py)."""
