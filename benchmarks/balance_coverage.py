"""Coverage of a single `rulesdsl balance` run's intervals (not a test: a study of many runs).

One long run of identical agents at every seat, cut into runs of `--games` games (whole deals:
runs of other deals are independent), each summarised as the command does; the truth: every
agent's win rate is (1 - the draws' share) / seats and its mean score the seats' overall mean
(by symmetry: each agent plays every seat of every deal), a seat's win rate and mean score those
of the whole long run (its `--runs` times more games), and so are a definition's win rate when
built and its difference from the rate when not built (with 60 runs or more, the long run's own
error takes a few tenths of a point off the coverage).  Prints how often each 95% interval held
the truth (about 0.95 expected); the definitions' rows also as they were taken before, seat-game
by seat-game.

    python benchmarks/balance_coverage.py                                     # Duel, random
    python benchmarks/balance_coverage.py --game classic --players 4 --runs 100 --games 400
"""

from __future__ import annotations

import argparse
from collections import Counter

from rulesdsl.balance.analysis import Holdings, definitions_of, summarise
from rulesdsl.balance.outcomes import Outcomes
from rulesdsl.balance.runner import Plan, load, run
from rulesdsl.balance.stats import mean_interval, newcombe, wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="duel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    seats = args.players or load(Plan(args.game, (), None, (args.agent,), 1)).content.players
    games = -(-args.games // seats) * seats
    plan = Plan(args.game, (), seats, (args.agent,) * seats, games * args.runs, args.seed)
    # (each run's holdings: the batches end at every run's end)
    parts = [Holdings() for _ in range(args.runs)]
    whole = run(plan, args.jobs, joining=lambda got, h: parts[got.first // games].merge(h), marks=games).outcomes
    records = list(whole)
    definitions = definitions_of(load(plan).content)
    everything = Holdings()
    for h in parts:
        everything.merge(h)
    total = summarise(whole, {}, definitions, holdings=everything, rows=False)
    truth = {e["name"]: e for es in total["definitions"].values() for e in es}
    played = len(whole)
    shared = whole.winners.count(-1)
    agent_rate = (played - shared) / played / seats
    mean_score = sum(whole.totals) / len(whole.totals)
    seat_rate = [e["rate"] for e in total["seats"]]
    seat_score = [e["score"]["mean"] for e in total["seats"]]
    held, rows = Counter(), Counter()

    def count(row: str, low: float, high: float, truth: float) -> None:
        rows[row] += 1
        held[row] += low <= truth <= high

    for r in range(args.runs):
        some = Outcomes.of(records[r * games:(r + 1) * games])
        report = summarise(some, {}, definitions, holdings=parts[r], rows=False)
        for e in (e for es in report["definitions"].values() for e in es):
            true = truth[e["name"]]
            if e["delta_low"] is not None and true["delta"] is not None:
                count("definitions' differences", e["delta_low"], e["delta_high"], true["delta"])
                count("definitions' differences, seat-game by seat-game",
                      *newcombe(e["won_built"], e["built"], e["won_not_built"], e["not_built"]), true["delta"])
            if e["built_low"] is not None:
                count("definitions' win rates when built", e["built_low"], e["built_high"], true["win_rate_built"])
                count("definitions' win rates when built, seat-game by seat-game",
                      *wilson(e["won_built"], e["built"]), true["win_rate_built"])
        for p, e in enumerate(report["agents"]):
            count("agents' win rates", e["low"], e["high"], agent_rate)
            count("agents' mean scores", e["score"]["low"], e["score"]["high"], mean_score)
            # (the intervals the lab gave before, game by game, on the same games)
            count("agents' win rates, game by game", *wilson(e["wins"], e["games"]), agent_rate)
            count("agents' mean scores, game by game", *mean_interval(some.by_position(some.totals, p))[1:], mean_score)
        for s, e in enumerate(report["seats"]):
            count("seats' win rates", e["low"], e["high"], seat_rate[s])
            count("seats' mean scores", e["score"]["low"], e["score"]["high"], seat_score[s])
            count("seats' win rates, game by game", *wilson(e["wins"], e["games"]), seat_rate[s])
            count("seats' mean scores, game by game", *mean_interval(some.totals[s::seats])[1:], seat_score[s])
    print(f"{args.runs} runs of {games} games ({args.game}, {seats} seats, {args.agent} everywhere, "
          f"seed {args.seed}): the 95% intervals held the truth")
    for row, n in sorted(rows.items()):
        print(f"  {row}: {held[row]} of {n} ({held[row] / n:.1%})")


if __name__ == "__main__":
    main()
