"""Every place in a JSON value, for tests that corrupt saves and traces one field at a time."""

from __future__ import annotations


def json_paths(value, path=(), first: int = 8):
    """Every path (a tuple of keys and indexes) into `value`, itself first; only the first
    `first` items of each list, so long lists do not swamp the sample."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from json_paths(v, path + (k,), first)
    elif isinstance(value, list):
        for i, v in enumerate(value[:first]):
            yield from json_paths(v, path + (i,), first)
