"""The lab's agents by name: `rulesdsl.agents`, which `simulate` and `play` resolve them with too
(kept here for code that imports them from the lab)."""

from __future__ import annotations

from ..agents import GROUP, AgentError, SearchOptions, UnknownAgent, check_all, known_names, resolve

__all__ = ["GROUP", "AgentError", "SearchOptions", "UnknownAgent", "check_all", "known_names", "resolve"]
