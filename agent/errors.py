"""Errors a user can act on. The CLI prints them as one line, never a traceback."""


class McAgentError(Exception):
    """An expected failure with a message written for the person running mcagent."""

    exit_code = 1


class ConfigError(McAgentError):
    """Bad configuration: names the key, the source and what is accepted."""

    exit_code = 2
