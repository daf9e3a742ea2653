"""rulesdsl.testing.invariants: the library holds over random games, and each invariant catches
the breakage it is about (positions tampered with by hand)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesdsl.interpreter import Action, IllegalAction, load_ruleset, new_game
from rulesdsl.interpreter.game import Game
from rulesdsl.testing import invariants as I
from rulesdsl.testing.invariants import INVARIANTS, InvariantViolation, check_game, run_checked
from rulesdsl.testing.verify import verify

DATA = Path(__file__).resolve().parent / "data"


def played(seed: int = 3, moves: int = 25, expansions=()) -> Game:
    game = new_game(list(expansions), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game.apply(game.random_action(rng))
    return game


def broken(game: Game) -> str:
    with pytest.raises(InvariantViolation) as info:
        check_game(game)
    return info.value.invariant


# -- the library holds ----------------------------------------------------------------------------

@pytest.mark.parametrize("expansions,games", [((), 200), (("pantheon",), 100)], ids=["base", "pantheon"])
def test_invariants_hold_over_random_games(expansions, games):
    rules = load_ruleset(expansions)
    report = verify(rules.content, games, seed=11, jobs=1)
    assert report.ok, report.failure.describe()
    assert report.games == games and report.actions > games * 50


def test_every_invariant_has_a_name_and_a_message():
    names = [i.name for i in INVARIANTS + I.DRIVER_INVARIANTS]
    assert len(set(names)) == len(names) == 13
    assert all(i.message and i.when in ("step", "end", "driver") for i in INVARIANTS + I.DRIVER_INVARIANTS)


def test_run_checked_plays_to_the_end_or_the_given_actions():
    game = new_game(seed=5)
    run = run_checked(game, rng=5)
    assert run.ok and game.over and len(run.actions) == len(game.state.history)
    again = new_game(seed=5)
    run2 = run_checked(again, run.actions[:10])
    assert run2.ok and len(again.state.history) == 10


def test_run_checked_refuses_an_illegal_given_action():
    with pytest.raises(IllegalAction):
        run_checked(new_game(seed=5), [Action("build", ("Nothing",))])
    run = run_checked(new_game(seed=5), [Action("build", ("Nothing",))], skip_illegal=True)
    assert run.ok and run.actions == []


# -- each invariant catches its breakage -----------------------------------------------------------

def test_negative_coins():
    game = played()
    game.state.coins[1] = -3
    assert broken(game) == "coins-not-negative"


def test_item_in_two_places():
    game = played()
    st = game.state
    card = st.zones[game.slot(game.content.zone_index["box"], 0)][0]
    st.zones[game.slot(game.content.zone_index["discard"], 0)].append(card)
    with pytest.raises(InvariantViolation) as info:
        check_game(game)
    assert info.value.invariant == "one-place"
    assert "is both in discard and in box" in info.value.detail


def test_item_lost():
    game = played()
    st = game.state
    box = game.slot(game.content.zone_index["box"], 0)
    card = st.zones[box].pop()
    st.loc[card] = -1
    assert broken(game) == "one-place"


def test_pawn_off_the_track():
    game = played()
    game.state.pawn = 11
    assert broken(game) == "pawn-on-track"


def test_eight_wonders_built():
    game = played()
    c = game.content
    built = game.slot(c.zone_index["built_wonders"], 0)
    for it in c.items:
        if it.kind == "wonder" and len([i for p in (0, 1) for i in game.state.zones[game.slot(c.zone_index["built_wonders"], p)]]) < 8:
            if game.state.loc[it.id] != game.slot(c.zone_index["built_wonders"], 1):
                game.relocate(it.id, built)
    assert broken(game) == "wonders-at-most-7"


def test_no_legal_action():
    game = played(seed=4)  # the accessible cards of this position cover all the others
    game.state.coins[game.to_move()] = 0
    # No accessible card any more but the age not over: nothing to do.
    for i in list(game.accessible()):
        game.relocate(i, game.slot(game.content.zone_index["box"], 0))
    game.__init__(game.content, game.state)
    assert broken(game) in ("legal-action-exists", "one-place")
    v = I._legal_action_exists(game, I.Context())
    assert v and "no legal action" in v


def test_refused_action_that_changes_the_state(monkeypatch):
    game = played()
    original = Game.apply

    def leaky(self, action):
        self.state.coins[0] += 1   # changes the state, then refuses
        original(self, action)
    monkeypatch.setattr(Game, "apply", leaky)
    with pytest.raises(InvariantViolation) as info:
        check_game(game, [i for i in INVARIANTS if i.name == "refused-action-changes-nothing"])
    assert "changed the state" in info.value.detail and info.value.action is not None


def test_save_load_that_does_not_give_the_state_back():
    game = played()
    game.state.players = 3           # the saved file no longer describes a valid state
    assert broken(game) in ("save-load", "one-place")
    detail = I._save_load(game, I.Context())
    assert detail and "does not load" in detail


def test_observation_that_shows_a_hidden_card(monkeypatch):
    game = played()
    real = I.observe

    def leaky(g, p):
        obs = real(g, p)
        box = g.state.zones[g.slot(g.content.zone_index["box"], 0)]
        obs["zones"]["discard"] = obs["zones"]["discard"] + [g.name(box[0])]
        return obs
    monkeypatch.setattr(I, "observe", leaky)
    with pytest.raises(InvariantViolation) as info:
        check_game(game)
    assert info.value.invariant == "observation-hides" and "cannot see" in info.value.detail


def test_determinism_catches_a_tampered_state():
    game = played(moves=10)
    game.state.coins[0] += 5
    with pytest.raises(InvariantViolation) as info:
        check_game(game, end=True)
    assert info.value.invariant == "deterministic"


def test_game_ends_within_the_bound():
    run = run_checked(new_game(seed=2), rng=2, max_actions=20, raise_on_failure=False)
    assert run.violation.invariant == "game-ends" and len(run.actions) == 20


def test_engine_error_is_a_violation(monkeypatch):
    original = Game._apply

    def crash(self, action):
        if action.name == "discard":
            raise ZeroDivisionError("boom")
        original(self, action)
    monkeypatch.setattr(Game, "_apply", crash)
    run = run_checked(new_game(seed=2), rng=2, raise_on_failure=False)
    v = run.violation
    assert v.invariant == "engine-error" and "ZeroDivisionError: boom" in v.detail
    assert v.action.name == "discard" and all(a.name != "discard" for a in v.actions[6:])


def test_an_exception_while_checking_is_that_invariants_violation(monkeypatch):
    game = played()
    monkeypatch.setattr(I, "observe", lambda g, p: 1 / 0)
    with pytest.raises(InvariantViolation) as info:
        check_game(game)
    assert info.value.invariant == "observation-hides" and "ZeroDivisionError" in info.value.detail


# -- designer invariants ---------------------------------------------------------------------------

def test_designer_invariants_are_compiled_and_checked():
    rules = load_ruleset((str(DATA / "broken_coins"),))
    (name, fn, span, parts), = rules.content.invariants
    assert name == "Nobody gets rich in Age I" and span.file.endswith("invariants.rules") and span.line == 4
    assert [text for text, _ in parts] == ["age", "coins"]   # (the sides its comparisons compare)
    invs = I.all_invariants(rules.content)
    assert invs[-1].name == "designer: Nobody gets rich in Age I"
    game = rules.new_game(seed=1)
    check_game(game)
    game.state.coins[1] = 41
    with pytest.raises(InvariantViolation) as info:
        check_game(game)
    assert info.value.invariant == "designer: Nobody gets rich in Age I"
    assert "false for player 1" in info.value.detail and "invariants.rules:4" in info.value.detail
    assert "age is 0, coins is 41" in info.value.detail   # (the draft: before Age I)


def test_bundled_content_has_no_designer_invariants():
    assert load_ruleset(()).content.invariants == []


def test_violation_text_names_the_invariant_and_the_actions():
    run = run_checked(new_game(seed=2), rng=2, max_actions=3, raise_on_failure=False)
    text = str(run.violation)
    assert text.startswith("invariant `game-ends` broken") and "after 3 action(s)" in text
    assert "1. choose" in text


@pytest.mark.parametrize("base, expansions, players", [("duel", (), 2), ("duel", ("pantheon", "agora"), 2),
                                                       ("classic", (), 4)])
def test_the_texts_gathered_at_once_hold_every_name_the_walk_finds(base, expansions, players):
    """`observation-hides` gathers an observation's texts into a set and walks them in order only
    when one is unseen: the set must hold every text the walk would look at."""
    from rulesdsl.interpreter.observation import observe
    from rulesdsl.pipeline import load_ruleset
    rules = load_ruleset(expansions, base, players)
    rng = random.Random(5)
    for seed in range(2):
        game = rules.new_game(seed=seed)
        while not game.over:
            for p in range(players):
                obs = observe(game, p)
                walked = {name for _, name in I._names_in_observation(obs)}
                assert walked <= I._texts_in_observation(obs)
            game.apply(game.random_action(rng))


def test_the_end_checks_come_after_the_step_checks_not_instead_of_them():
    # `check_game(game, end=True)` on a finished game: a broken step invariant (a negative coin
    # count) is still found; before, only the end-of-game invariants ran there.
    game = new_game(seed=2)
    run_checked(game, rng=2)
    assert game.over
    check_game(game, end=True)
    game.state.coins[0] = -3
    with pytest.raises(InvariantViolation) as info:
        check_game(game, end=True)
    assert info.value.invariant == "coins-not-negative"


def test_run_checked_and_check_game_refuse_what_is_no_game_and_bounds_below_one():
    # A Ruleset given as the game failed on `.state`; a string of actions was applied letter by
    # letter ("illegal action b"); `max_actions=-3` reported the game "not over after -3 actions".
    import pytest

    from rulesdsl.interpreter import load_ruleset
    from rulesdsl.testing import check_game, run_checked

    rules = load_ruleset()
    for call in (lambda: run_checked(rules), lambda: check_game(rules)):
        with pytest.raises(TypeError, match=r"^the invariants are checked on a Game \(`rules.new_game\(...\)`\), not Ruleset$"):
            call()
    game = rules.new_game(seed=1)
    with pytest.raises(TypeError, match="^actions must be a list of Actions, not a string$"):
        run_checked(game, "build")
    with pytest.raises(TypeError, match="^actions must be a list of Actions, not one Action$"):
        run_checked(game, game.legal_actions()[0])
    with pytest.raises(ValueError, match=r"^max_actions must be an integer of at least 1, not -3$"):
        run_checked(game, max_actions=-3)
    assert game.state.history == []   # (nothing was played)
    first = game.legal_actions()[0]
    assert run_checked(game, [first]).actions == [first] and len(game.state.history) == 1
