"""Plain-English renderings of statements and expressions, for `rulesdsl explain` and docs.

The templates live in the registry; this module fills them in."""

from __future__ import annotations

from typing import Callable

from . import ast
from . import registry as R

OWNER_TEXT = {"me": "your", "opponent": "the opponent's", "all": "every player's",
              "most": "the city with the most", "any": "any"}


def unparse(e: ast.Expr) -> str:
    """Source-like text of an expression."""
    if isinstance(e, ast.Int):
        return str(e.value)
    if isinstance(e, ast.Str):
        return f'"{e.value}"'
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.Attribute):
        return f"{unparse(e.obj)}.{e.name}"
    if isinstance(e, ast.Alternatives):
        return "|".join(e.names)
    if isinstance(e, ast.ListExpr):
        return "[" + ", ".join(unparse(i) for i in e.items) + "]"
    if isinstance(e, ast.Not):
        return f"not {unparse(e.operand)}"
    if isinstance(e, ast.BinOp):
        return f"{unparse(e.left)} {e.op} {unparse(e.right)}"
    if isinstance(e, ast.Call):
        parts = [unparse(a) for a in e.args] + [f"{k.name}={unparse(k.value)}" for k in e.kwargs]
        return f"{e.func}({', '.join(parts)})"
    return "?"


def phrase(e: ast.Expr) -> str:
    """English for an expression, where a plain phrase reads better than source."""
    if isinstance(e, ast.Call) and e.func == "count" and e.args:
        kw = {k.name: unparse(k.value).strip("[]").replace(", ", "/") for k in e.kwargs}
        owner = kw.pop("owner", "me")
        where = OWNER_TEXT.get(owner, owner + "'s")
        what = " ".join(v for k, v in kw.items() if k in ("color", "kind")) or "item"
        zone = unparse(e.args[0]).replace("_", " ")
        if owner == "most":
            return f"the number of {what}s in {zone} of the player with the most"
        return f"the number of {what}s in {where} {zone}"
    if isinstance(e, ast.BinOp) and e.op in ("*", "+", "-", "//"):
        word = {"*": "times", "+": "plus", "-": "minus", "//": "divided by (rounded down)"}[e.op]
        return f"{phrase(e.left)} {word} {phrase(e.right)}"
    if isinstance(e, ast.Name):
        return {"me": "you", "opponent": "the opponent", "chosen": "the chosen one"}.get(e.name, e.name.replace("_", " "))
    return unparse(e)


def english(s: ast.Statement, block_text: Callable[[ast.Block | None], str]) -> str:
    verb = R.VERBS.get(s.verb)
    if verb is None or not verb.explain:
        return s.verb + " " + " ".join(unparse(a) for a in s.args)
    values: dict[str, str] = {}
    args = list(s.args)
    i = 0
    for p in verb.params:
        if p.type in (R.AMOUNTS, R.WORDS, R.INTS, R.PRODUCTS):
            values[p.name] = " ".join(unparse(a) for a in args[i:]) or "nothing"
            i = len(args)
            break
        if p.literal:
            if i < len(args) and isinstance(args[i], ast.Name) and args[i].name in p.literal:
                values[p.name] = " " + args[i].name if p.optional else args[i].name
                i += 1
            else:
                values[p.name] = ""
            continue
        values[p.name] = phrase(args[i]) if i < len(args) else ""
        i += 1
    kw = {k.name: k.value for k in s.kwargs}
    values["who"] = phrase(kw["who"]) if "who" in kw else "you"
    values["by"] = phrase(kw["by"]) if "by" in kw else "you"
    values["me"] = "you"
    values["free"] = " for free" if values.get("free") else ""
    filters = [f"{k}={unparse(v)}" for k, v in kw.items() if k not in ("who", "by")]
    values["filter"] = (" (" + ", ".join(filters) + ")") if filters else ""
    values["block"] = block_text(s.block)
    try:
        text = verb.explain.format(**values)
    except (KeyError, IndexError):
        text = s.verb
    return text[0].upper() + text[1:] if text else text
