"""Every place in a JSON value, and one edit at a place: for tests that corrupt saves and traces
one field at a time."""

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


def edit_json(data, path, how: str, value, delta: int) -> None:
    """Change `data` in place at `path`: "delete" the key, "int" add `delta` to an integer (other
    values are left alone), "swap" a list item with another, anything else set it to `value`.
    A path that no longer leads anywhere (an earlier edit removed it) is skipped."""
    parent = data
    try:
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if how == "delete":
            del parent[key]
        elif how == "int":
            if type(parent[key]) is int:
                parent[key] += delta
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = (key + delta) % len(parent)
            parent[key], parent[other] = parent[other], parent[key]
        else:
            parent[key] = value
    except (KeyError, IndexError, TypeError):
        pass
