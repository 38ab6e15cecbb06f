"""The one exception type of the package."""


class Error(RuntimeError):
    """A tpuprof call failed; the message says what and where."""
