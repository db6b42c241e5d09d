"""Errors a user can act on. The CLI prints them as one line, never a traceback."""


class McAgentError(Exception):
    """An expected failure with a message written for the person running mcagent."""

    exit_code = 1


class ConfigError(McAgentError):
    """Bad configuration: names the key, the source and what is accepted."""

    exit_code = 2


def first_line(error: BaseException) -> str:
    """The line a person needs of an error that may carry a whole stack (JSPyBridge, Ray)."""
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]
