"""What can reach where: sets of things carried along the edges of a graph (items of some kinds
moving between zones), to a fixed point.  Shared by the playability checks and explain's nouns."""

from __future__ import annotations

from typing import Hashable, Iterable


def propagate(edges: Iterable[tuple[Hashable, Hashable]], holds: dict) -> None:
    """Add to `holds[b]` everything in `holds[a]` for each edge a -> b, until nothing changes
    (so whatever can reach a zone through any chain of moves is in its set)."""
    edges = list(edges)
    changed = True
    while changed:
        changed = False
        for src, dst in edges:
            extra = holds.get(src, set()) - holds.get(dst, set())
            if extra:
                holds.setdefault(dst, set()).update(extra)
                changed = True
