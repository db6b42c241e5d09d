"""Replaying recorded runs against a server."""
