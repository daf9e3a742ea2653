"""The syntax tree: every node carries the span of source it came from."""

from __future__ import annotations

import attrs

from .diagnostics import Span


@attrs.frozen
class Int:
    value: int
    span: Span


@attrs.frozen
class Str:
    value: str
    span: Span


@attrs.frozen
class Name:
    name: str
    span: Span


@attrs.frozen
class Attribute:
    obj: "Expr"
    name: str
    span: Span


@attrs.frozen
class Alternatives:
    """`wood|clay|stone`: one of several words."""

    names: tuple[str, ...]
    span: Span


@attrs.frozen
class ListExpr:
    items: tuple["Expr", ...]
    span: Span


@attrs.frozen
class NamedArg:
    name: str
    value: "Expr"
    span: Span


@attrs.frozen
class Call:
    func: str
    args: tuple["Expr", ...]
    kwargs: tuple[NamedArg, ...]
    span: Span


@attrs.frozen
class BinOp:
    op: str  # + - * // % == != < <= > >= and or
    left: "Expr"
    right: "Expr"
    span: Span


def is_negation(e: "Expr") -> bool:
    """`-x`, which the parser keeps as `0 - x`, its 0 standing where the sign does.  (A written
    `0 - x` answers True too: it means the same.)"""
    return (isinstance(e, BinOp) and e.op == "-" and isinstance(e.left, Int) and e.left.value == 0
            and e.left.span.line == e.span.line and e.left.span.column == e.span.column)


def constant_value(e: "Expr") -> int | None:
    """The number an arithmetic of written numbers makes (`2 * 3 + 1`: 7), as a game works it out
    (a division or remainder by zero is 0); None where it reads anything else."""
    if isinstance(e, Int):
        return e.value
    if not isinstance(e, BinOp) or e.op not in ("+", "-", "*", "//", "%"):
        return None
    left, right = constant_value(e.left), constant_value(e.right)
    if left is None or right is None:
        return None
    if e.op == "+":
        return left + right
    if e.op == "-":
        return left - right
    if e.op == "*":
        return left * right
    if not right:
        return 0
    return left // right if e.op == "//" else left % right


def folded(e: "Expr") -> "Expr":
    """`e`, an arithmetic of written numbers worked out to the one number it makes; a written
    negative number (`-3`) and anything that reads the game are left as written."""
    if isinstance(e, BinOp) and not (is_negation(e) and isinstance(e.right, Int)):
        value = constant_value(e)
        if value is not None:
            return Int(value, e.span)
    return e


@attrs.frozen
class Not:
    operand: "Expr"
    span: Span


Expr = Int | Str | Name | Attribute | Alternatives | ListExpr | Call | BinOp | Not


@attrs.frozen
class Statement:
    verb: str
    verb_span: Span
    args: tuple[Expr, ...]
    kwargs: tuple[NamedArg, ...]
    block: "Block | None"
    span: Span


@attrs.frozen
class Block:
    statements: tuple[Statement, ...]
    span: Span


@attrs.frozen
class Definition:
    """`[modifier] kind name { ... }`; modifier is None, "replace", "extend" or "remove"."""

    modifier: str | None
    kind: str
    kind_span: Span
    name: str
    name_span: Span
    block: Block | None
    span: Span


@attrs.frozen
class SourceFile:
    path: str
    text: str
    definitions: tuple[Definition, ...]


def walk(e: "Expr"):
    """An expression and every expression inside it, at any depth."""
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, Call):
            stack.extend(x.args)
            stack.extend(k.value for k in x.kwargs)
        elif isinstance(x, BinOp):
            stack.extend((x.left, x.right))
        elif isinstance(x, Not):
            stack.append(x.operand)
        elif isinstance(x, Attribute):
            stack.append(x.obj)
        elif isinstance(x, ListExpr):
            stack.extend(x.items)
