"""Benchmark: where the bytecodes of a random game go, for one content set `speed.py` knows.  Not
a test, and not a timing: like `bytecodes.py`, it counts Python bytecodes under `sys.settrace`
over seeded games played as `rulesdsl simulate` plays them (after a couple of games that warm the
per-content tables up), so the figures repeat exactly.  Five views:

    python benchmarks/where.py duel                     # functions, with what their callees execute
    python benchmarks/where.py classic-7 --lines run,relocate     # lines of these functions
    python benchmarks/where.py duel+both --blocks       # statements run, by definition
    python benchmarks/where.py classic-5 --expressions  # written card expressions, by shape
    python benchmarks/where.py duel --action discard    # one kind of turn: what each function executes
    python benchmarks/where.py classic-5 --agent greedy --games 2   # games of that agent at every seat

Figures are per game.  `bytecodes.py --top` lists what functions execute themselves; this adds
what they execute with their callees ("incl"), which shows where a turn's work comes from.
"""

from __future__ import annotations

import argparse
import collections
import linecache
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import SETS  # noqa: E402  (the same sets)


def _compiled(name: str):
    """The set's compiled content and its compiler (which knows the written expressions)."""
    from rulesdsl.pipeline import Ruleset, compile_layers
    from rulesdsl.loader import canonical_expansions

    expansions, base, players, _ = SETS[name]
    compiled = compile_layers(canonical_expansions(list(expansions)), base, players)
    return Ruleset(compiled.content), compiled.compiler


def _play(rules, games: int, seed: int, agent: str = "random") -> None:
    from random_play import play_simulated
    play_simulated(rules, games, seed, agent)


def _key(code) -> str:
    return f"{Path(code.co_filename).name}:{code.co_name}"


def by_function(rules, games: int, seed: int, top: int, agent: str = "random") -> None:
    own: collections.Counter = collections.Counter()
    incl: collections.Counter = collections.Counter()

    def trace(frame, event, arg):
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            own[_key(frame.f_code)] += 1
            seen = set()
            f = frame
            while f is not None and f.f_code.co_filename != __file__:   # (the harness left out)
                k = _key(f.f_code)   # every function on the stack executes it, counted once each
                if k not in seen:
                    seen.add(k)
                    incl[k] += 1
                f = f.f_back
        return trace

    _traced(trace, rules, games, seed, agent)
    total = sum(own.values())
    print(f"{total / games:,.0f} bytecodes per game\n   incl     own  function")
    for k, n in incl.most_common(top):
        print(f"{100 * n / total:6.1f}% {100 * own[k] / total:6.1f}%  {k}")


def by_line(rules, games: int, seed: int, names: set[str], agent: str = "random") -> None:
    counts: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()

    def trace(frame, event, arg):
        code = frame.f_code
        if code.co_name not in names:
            return None
        if event == "call":
            calls[(code.co_filename, code.co_name)] += 1
            frame.f_trace_opcodes = True
        elif event == "opcode":
            counts[(code.co_filename, code.co_name, frame.f_lineno or 0)] += 1
        return trace

    _traced(trace, rules, games, seed, agent)
    for (path, fn), n in sorted(calls.items()):
        rows = sorted((line, c) for (p, f, line), c in counts.items() if (p, f) == (path, fn))
        print(f"== {Path(path).name}:{fn}: {n / games:.1f} calls, {sum(c for _, c in rows) / games:,.0f} bytecodes per game")
        for line, c in rows:
            print(f"{c / games:9.1f} {line:5d}  {linecache.getline(path, line).rstrip()[:100]}")


def by_block(rules, games: int, seed: int, top: int, agent: str = "random") -> None:
    """Statements run per game, by the definition whose block holds them."""
    content = rules.content
    runs: collections.Counter = collections.Counter()
    wrapped = {}
    for index, block in enumerate(content.blocks):
        if id(block) in wrapped:   # (a procedure's block is listed under two numbers)
            continue
        origin = content.block_origins[index] if index < len(content.block_origins) else "?"
        wrapped[id(block)] = (block, list(block.steps))
        block.steps[:] = [_counting(step, runs, (origin, len(block.steps))) for step in block.steps]
    # (the starters write their actions' steps out from the steps' sources: written afresh,
    # they call the counting steps, which carry no source)
    from rulesdsl.interpreter import starters
    rules.new_game(seed=seed)
    plain = list(content._starts)
    content._starts[:] = starters.write(content)
    plain_rounds = list(content._round_starts or ())   # (and a round's runners)
    if content._round_starts is not None:
        content._round_starts[:] = starters.write(content, in_round=True)
    try:
        _play(rules, games, seed, agent)
    finally:
        for block, steps in wrapped.values():
            block.steps[:] = steps
        content._starts[:] = plain
        if content._round_starts is not None:
            content._round_starts[:] = plain_rounds
    print(f"{sum(runs.values()) / games:,.1f} statements run per game\n   runs  steps  definition")
    for (origin, length), n in runs.most_common(top):
        print(f"{n / games:7.1f}  {length:5d}  {origin}")


def _counting(step, runs, key):
    def counted(g, f):
        runs[key] += 1
        return step(g, f)
    # (what the starters read of a step: how many steps it runs, whether it only changes numbers)
    for attr in ("spans", "numbers_only"):
        if hasattr(step, attr):
            setattr(counted, attr, getattr(step, attr))
    return counted


def by_action(rules, games: int, seed: int, name: str, top: int, agent: str = "random") -> None:
    """What each function executes itself during the turns that start action `name`, from the
    start to the end of the turn or to the first decision it asks (what it sets off on the way
    included, the answers to its decisions not): the cost of one kind of turn.  Turn-based
    content only: a round resolves every seat's action together."""
    if rules.content.simultaneous:
        sys.exit("--action: this content's seats choose together; a round resolves their actions as one")
    own: collections.Counter = collections.Counter()
    started = [0]
    rules.new_game(seed=seed)   # (the content's starters, written by its first game)
    starts = rules.content._starts   # (each action's start: `play_out` and `start_action` call them)
    plain = list(starts)

    def trace(frame, event, arg):
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            own[_key(frame.f_code)] += 1
        return trace

    def traced(start):
        def start_traced(g, *binding):
            started[0] += 1
            sys.settrace(trace)
            try:
                return start(g, *binding)
            finally:
                sys.settrace(None)
        return start_traced

    for act in rules.content.actions:
        if act.name == name:
            starts[act.id] = traced(plain[act.id])
    try:
        _play(rules, games, seed, agent)
    finally:
        starts[:] = plain
    if not started[0]:
        sys.exit(f"--action: no turn started `{name}` in {games} games")
    n = started[0]
    print(f"`{name}`: {n / games:.1f} turns per game, {sum(own.values()) / n:,.0f} bytecodes each\n"
          f"   own  function")
    for k, c in own.most_common(top):
        print(f"{c / n:6.1f}  {k}")


def by_expression(rules, compiler, games: int, seed: int, top: int, agent: str = "random") -> None:
    """The written card expressions (one compiled shape each), by bytecodes."""
    shape_of = {}
    for shape, make in compiler.shapes.items():
        for const in make.__code__.co_consts:
            if hasattr(const, "co_code"):
                shape_of[const] = shape
    counts: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()

    def trace(frame, event, arg):
        code = frame.f_code
        if code not in shape_of:
            return None
        if event == "call":
            calls[code] += 1
            frame.f_trace_opcodes = True
        elif event == "opcode":
            counts[code] += 1
        return trace

    _traced(trace, rules, games, seed, agent)
    print(f"{sum(counts.values()) / games:,.0f} bytecodes per game in written expressions\n"
          "bytecodes  calls  shape")
    for code, n in counts.most_common(top):
        print(f"{n / games:9.0f} {calls[code] / games:6.0f}  {shape_of[code][:140]}")


def _traced(trace, rules, games: int, seed: int, agent: str = "random") -> None:
    sys.settrace(trace)
    try:
        _play(rules, games, seed, agent)
    finally:
        sys.settrace(None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=list(SETS))
    view = parser.add_mutually_exclusive_group()
    view.add_argument("--lines", metavar="F,G", help="bytecodes by line of these functions (by name)")
    view.add_argument("--blocks", action="store_true", help="statements run, by definition")
    view.add_argument("--expressions", action="store_true", help="written card expressions, by shape")
    view.add_argument("--action", metavar="NAME", help="the turns that start this action: bytecodes by function")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--agent", default="random", choices=["random", "greedy", "mcts"],
                        help="the agent at every seat (default random: simulate's games)")
    args = parser.parse_args()
    rules, compiler = _compiled(args.set)
    _play(rules, 2, 999, args.agent)   # first-call costs (a content's tables, written functions) are not counted
    if args.lines:
        by_line(rules, args.games, args.seed, set(args.lines.split(",")), args.agent)
    elif args.blocks:
        by_block(rules, args.games, args.seed, args.top, args.agent)
    elif args.expressions:
        by_expression(rules, compiler, args.games, args.seed, args.top, args.agent)
    elif args.action:
        by_action(rules, args.games, args.seed, args.action, args.top, args.agent)
    else:
        by_function(rules, args.games, args.seed, args.top, args.agent)


if __name__ == "__main__":
    main()
