"""Exit codes of the CLI and the CI entrypoint (DESIGN.md)."""

OK = 0
FAILED = 1  # the operation failed: an API error, a failed job
USAGE = 2  # bad usage or bad input (click's own code for usage errors)
AUTH = 4  # authentication or permission
TIMEOUT = 8  # a job was still running when --timeout ran out
