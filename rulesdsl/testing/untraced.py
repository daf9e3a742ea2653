"""Run the engine out of sight of hypothesis's line tracer.

Once a property test has failed, hypothesis traces every line of every example it runs while
shrinking (for its `explain` phase: "these lines were always and only run by failing test
cases").  It skips its own files, not the engine's: a whole game drawn by a strategy ran 7 to
10 times slower under that tracer (Python 3.11, `sys.settrace`), and a failing invariant over
finished games took half a minute or more to report.  The lines it would find there are the
engine's, not the test's, so the strategies play their games with the tracer suspended.

Only hypothesis's tracer is suspended: a coverage tool or a debugger keeps seeing everything.
From Python 3.12 hypothesis's tracer is a `sys.monitoring` tool, whose events are the whole
process's, not one thread's: while one thread runs the engine, hypothesis traces no thread, and
a test of another thread may end meanwhile and give its tool back.
"""

from __future__ import annotations

import sys

_SCRUTINEER = "hypothesis.internal.scrutineer"   # the module of hypothesis's tracer
_TOOL = "scrutineer"                               # the name of its sys.monitoring tool


def _hypothesis_trace():
    """The trace function of this thread when it is hypothesis's own (Python < 3.12), else None."""
    trace = sys.gettrace()
    owner = getattr(trace, "__self__", None)
    return trace if owner is not None and type(owner).__module__ == _SCRUTINEER else None


def _hypothesis_monitoring() -> tuple[int, int] | None:
    """(tool id, events) of hypothesis's `sys.monitoring` tool when it is on (Python >= 3.12)."""
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        return None
    for tool in range(6):   # (sys.monitoring has six tool ids; hypothesis takes one by name)
        if monitoring.get_tool(tool) == _TOOL:
            events = monitoring.get_events(tool)
            return (tool, events) if events else None
    return None


class untraced:  # noqa: N801 (used as `with untraced():`, like a function of contextlib)
    """The block runs without hypothesis's line tracer (everything else as it was).  (A class,
    not a generator: an exception leaving the block keeps a traceback without its frames.)"""

    def __enter__(self) -> None:
        self._trace = _hypothesis_trace()
        self._monitored = _hypothesis_monitoring()
        if self._trace is not None:
            sys.settrace(None)
        if self._monitored is not None:
            sys.monitoring.set_events(self._monitored[0], 0)

    def __exit__(self, *exc) -> bool:
        if self._trace is not None:
            sys.settrace(self._trace)
        if self._monitored is not None:
            tool, events = self._monitored
            # (a test of another thread that ended inside the block freed the tool, or took it
            # anew with its own events: setting a freed tool's events raises ValueError)
            if sys.monitoring.get_tool(tool) == _TOOL and not sys.monitoring.get_events(tool):
                sys.monitoring.set_events(tool, events)
        return False
