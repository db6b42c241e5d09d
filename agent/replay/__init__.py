"""Recorded runs, read back for people: as a terminal timeline (timeline.py), as one HTML
report (report.py), and replayed live against a server (live.py). They sit above agent.trace,
since they need the world, rich and the server's settings that the trace must not import."""
