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
  keeps nothing, after every action (`test_kept_caches.everything_kept_holds`), and on the copy
  in which what the seat to move cannot see is drawn again (`search.determinize`);
- the legal actions a bot lists, and the check `apply` makes, against the plain definitions,
  every near miss refused, at every decision (`test_listing.check_every_decision`).

A game that ends on the engine's bounds (`BudgetExceeded`: a runaway effect; a game longer
than `MAX_GAME_ACTIONS`) or is stuck where `check` warned it may be (W504) is a result of the
content, not of the speed machinery: the example ends there.  Anything else, or a comparison that differs, fails.
docs/speed.md ("Nothing changes but speed") says how to run many more examples."""

from __future__ import annotations

import os
import random
import shutil
import signal
from pathlib import Path

from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st
import pytest

from card_mutations import CARDS, card_replacements, fan_actions, fan_rules, mutation, texts
from scratch import scratch_dir
from rulesdsl.interpreter import MAX_GAME_ACTIONS, BudgetExceeded, Ruleset
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.interpreter.search import determinize
from rulesdsl.report import check_layers
from rulesdsl.simulate import game_seed
from test_fuzz import well_formed
from test_kept_caches import everything_kept_holds
from test_listing import check_every_decision as listing_holds
from test_open_spaces import check_every_decision
from test_playout import by_apply, by_play_out
from test_starters import played, played_rounds

FOLDERS = ("duel", "duel-pantheon", "duel-agora", "classic")
TEXT = texts(FOLDERS)
SETS = ((("duel",), None), (("duel",), None), (("duel", "duel-pantheon"), None), (("duel", "duel-agora"), None),
        (("duel", "duel-pantheon", "duel-agora"), None), (("classic",), 3), (("classic",), 4), (("classic",), 7))
# RULESDSL_FUZZ_SCALE=100 runs a hundred times the examples (docs/speed.md, "Nothing changes
# but speed"): the suite's own run is a sample, the same one every time.
SCALE = int(os.environ.get("RULESDSL_FUZZ_SCALE", "1"))
SECONDS = 60   # a differential takes well under a second: far more is a hang
LONG = 1000   # actions: a bundled game takes 60-200

_WORK = scratch_dir("rulesdsl-fuzz-speed-")
for _folder in FOLDERS:
    shutil.copytree(CARDS / _folder, _WORK / _folder)
_FAN = _WORK / "fan"   # (the expansion the tests of new content write)
_FAN.mkdir()


class _OutOfTime(Exception):
    pass


def _out_of_time(signum, frame):
    raise _OutOfTime()


def length(rules, seed: int) -> int | None:
    """How many actions the random game the comparisons below play for `seed` takes (None: it
    does not end within the engine's bound on a game's actions; their loops have none)."""
    game, rng = rules.new_game(seed=seed), random.Random(seed)
    for _ in range(MAX_GAME_ACTIONS):
        if game.over:
            return len(game.state.history)
        game._apply(game.random_action(rng))
    return len(game.state.history) if game.over else None


def same_through_both_paths(rules) -> None:
    """The five comparisons of the module's docstring, two seeded games each (the comparisons
    state by state, of games up to LONG actions: a fan action that takes no card can make an age
    last thousands of turns)."""
    for seed in range(2):
        actions = length(rules, seed)
        if actions is None:
            event("a game did not end within the engine's bound")
            return
        check_every_decision(rules.new_game(seed=seed), random.Random(seed))
        names = ["random"] * rules.content.players
        fast = by_play_out(rules, game_seed(5, seed), names)   # (first: it stops an endless game)
        plain = by_apply(rules, game_seed(5, seed), names)
        assert fast.state.history == plain.state.history and dumps(fast.state) == dumps(plain.state), ("play_out", seed)
        if actions > LONG:
            event("a game too long to compare state by state")
            continue
        if rules.content.simultaneous:
            assert played_rounds(rules, seed, True) == played_rounds(rules, seed, False), ("a round's runners", seed)
        else:
            assert played(rules, seed, True) == played(rules, seed, False), ("starters", seed)
        game, rng = rules.new_game(seed=seed), random.Random(seed)
        while not game.over:
            game._apply(game.random_action(rng))
            everything_kept_holds(game)
            if not game.over:   # (and on the copy the greedy agent and the search draw again)
                everything_kept_holds(determinize(game, game.to_move(), random.Random(game.state.turn)))
        # (its first 100 actions: the plain listing tries every binding, and a fan action of three
        # parameters from the discard pile makes tens of thousands late in a game of seven)
        listing_holds(rules.new_game(seed=seed), random.Random(seed), limit=100)


def accepted_plays_the_same(paths: list[Path], players: int | None, restore) -> None:
    """`check` of the content set `paths`; if it accepts it, the comparisons, within SECONDS.
    `restore()` puts the files the example changed back."""
    previous = signal.signal(signal.SIGALRM, _out_of_time)
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    try:
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
        raise AssertionError(f"no result within {SECONDS} s") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        restore()


def fuzz(examples: int):
    """The tests' settings: `examples` (times SCALE), the same every run, shrunk on failure
    (hypothesis's explain phase traces every line: minutes over a game)."""
    return settings(max_examples=examples * SCALE, deadline=None, derandomize=True, database=None,
                    phases=[Phase.generate, Phase.shrink],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def added_plays_the_same(base: str, text: str, players: int | None = None) -> None:
    """`accepted_plays_the_same` of the base game with `text` as an expansion on it."""
    (_FAN / "fan.rules").write_text(text, encoding="utf-8")
    accepted_plays_the_same([_WORK / base, _FAN], players, lambda: None)


@fuzz(50)
@given(mutation(TEXT, SETS))
def test_what_check_accepts_plays_the_same_through_the_speed_machinery(case):
    layers, players, name, text = case
    target = _WORK / name
    target.write_text(text, encoding="utf-8")
    accepted_plays_the_same([_WORK / layer for layer in layers], players,
                            lambda: target.write_text(TEXT[name], encoding="utf-8"))


# What a designer adds, as an expansion of the base game (card_mutations): new actions, where
# the functions written for the content (open actions, draws, starters) meet shapes no bundled
# action has; rebalanced cards (production, trade prices, discounts, chains, points, triggers),
# where the values the engine keeps meet combinations no bundled card has; new rules hearing
# events with filters, where the lists of triggers each kind of event sets off are kept by
# event, kind, colour and how an item came.  (generator, base game, examples)
ADDED = [(fan_actions, "duel", 60), (fan_actions, "classic", 15), (card_replacements, "duel", 20),
         (card_replacements, "classic", 10), (fan_rules, "duel", 20), (fan_rules, "classic", 10)]


@pytest.mark.parametrize("make, base, examples", ADDED, ids=[f"{m.__name__}-{b}" for m, b, _ in ADDED])
def test_added_content_plays_the_same_through_the_speed_machinery(make, base, examples):
    seats = st.sampled_from([3, 5, 7]) if base == "classic" else st.none()

    @fuzz(examples)
    @given(make(base), seats)
    def plays_the_same(text, players):
        added_plays_the_same(base, text, players)

    plays_the_same()
