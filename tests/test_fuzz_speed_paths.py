"""What the engine keeps and writes out for speed holds for content a designer writes, not only
for the bundled sets: the bundled card files are mutated the way an editor would
(card_mutations.py), the classic game's among them, and whatever `check` accepts must play the
same through the speed machinery as through the plain definitions, in two seeded games each:

- the open actions and random draws written for the content (interpreter/spaces.py) against
  the plain definitions, at every decision (`test_open_spaces.check_every_decision`);
- each action's written starter (or a round's runners) against its frame run by the frame
  loop, state for state (`test_starters.played`, `played_rounds`);
- a game played out as `simulate` plays it (`playout.play_out`) against one played action by
  action with `apply` (`test_playout`);
- every kept value (prices, stats, tallies, points, offers...) against a copy of the game that
  keeps nothing, after every action (`test_kept_caches.everything_kept_holds`).

A game that ends on the engine's bounds (`BudgetExceeded`: a runaway effect; a game longer
than `MAX_GAME_ACTIONS`) or is stuck where `check` warned it may be (W504) is a result of the
content, not of the speed machinery: the example ends there.  Anything else, or a comparison that differs, fails.
`benchmarks/`' notes (docs/speed.md) say how to run many more examples."""

from __future__ import annotations

import os
import random
import shutil
import signal
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings

from card_mutations import CARDS, mutation, texts
from rulesdsl.interpreter import MAX_GAME_ACTIONS, BudgetExceeded, Ruleset
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.report import check_layers
from rulesdsl.simulate import game_seed
from test_fuzz import well_formed
from test_kept_caches import after_every_action, everything_kept_holds
from test_open_spaces import check_every_decision
from test_playout import by_apply, by_play_out
from test_starters import played, played_rounds

FOLDERS = ("duel", "duel-pantheon", "duel-agora", "classic")
TEXT = texts(FOLDERS)
SETS = ((("duel",), None), (("duel",), None), (("duel", "duel-pantheon"), None), (("duel", "duel-agora"), None),
        (("duel", "duel-pantheon", "duel-agora"), None), (("classic",), 3), (("classic",), 4), (("classic",), 7))
# RULESDSL_FUZZ_EXAMPLES=5000 for a long run (docs/speed.md, "Nothing changes but speed")
EXAMPLES = int(os.environ.get("RULESDSL_FUZZ_EXAMPLES", "60"))
SECONDS = 60   # a differential takes well under a second: far more is a hang

_WORK = Path(tempfile.mkdtemp(prefix="rulesdsl-fuzz-speed-"))
for _folder in FOLDERS:
    shutil.copytree(CARDS / _folder, _WORK / _folder)


class _OutOfTime(Exception):
    pass


def _out_of_time(signum, frame):
    raise _OutOfTime()


def ends(rules, seed: int) -> bool:
    """Whether the random game the comparisons below play for `seed` ends within the engine's
    bound on a game's actions (their loops have none of their own)."""
    game, rng = rules.new_game(seed=seed), random.Random(seed)
    for _ in range(MAX_GAME_ACTIONS):
        if game.over:
            return True
        game._apply(game.random_action(rng))
    return game.over


def same_through_both_paths(rules) -> None:
    """The four comparisons of the module's docstring, two seeded games each."""
    for seed in range(2):
        if not ends(rules, seed):
            event("a game did not end within the engine's bound")
            return
        check_every_decision(rules.new_game(seed=seed), random.Random(seed))
        if rules.content.simultaneous:
            assert played_rounds(rules, seed, True) == played_rounds(rules, seed, False), ("a round's runners", seed)
        else:
            assert played(rules, seed, True) == played(rules, seed, False), ("starters", seed)
        names = ["random"] * rules.content.players
        fast = by_play_out(rules, game_seed(5, seed), names)   # (first: it stops an endless game)
        plain = by_apply(rules, game_seed(5, seed), names)
        assert fast.state.history == plain.state.history and dumps(fast.state) == dumps(plain.state), ("play_out", seed)
    assert after_every_action(rules, 2, everything_kept_holds) > 0


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutation(TEXT, SETS))
def test_what_check_accepts_plays_the_same_through_the_speed_machinery(case):
    layers, players, name, text = case
    target = _WORK / name
    target.write_text(text, encoding="utf-8")
    previous = signal.signal(signal.SIGALRM, _out_of_time)
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    try:
        paths = [_WORK / layer for layer in layers]
        report = well_formed(check_layers(paths))
        if report.errors:
            return
        rules = Ruleset.load([str(p) for p in paths[1:]], base=paths[0], players=players)
        event("accepted by check")   # (pytest --hypothesis-show-statistics counts them)
        try:
            same_through_both_paths(rules)
        except BudgetExceeded:
            event("a game ended on the engine's bounds")
        except RuntimeError as exc:
            event("a game stuck, as W504 warned")
            assert str(exc) == "no legal action" and "W504" in {d.code for d in report.diagnostics}, exc
    except _OutOfTime:
        raise AssertionError(f"{name} mutated: no result within {SECONDS} s") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        target.write_text(TEXT[name], encoding="utf-8")
