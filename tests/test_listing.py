"""`legal_actions` and `explain_illegal`, which a bot's loop calls at every decision, against
definitions written plainly here from the rules: the actions in order whose `before_turn` and
guards allow them, every binding of their parameters' candidates (never one item for two
parameters), those whose requirements hold and whose price the seat can pay, each
way to pay neighbours where the game trades, copies of one item named once.  Checked at every
decision of seeded random games of every bundled content set and of a fan expansion of other
action shapes; and every action the plain listing leaves out is refused with a reason."""

from __future__ import annotations

import random
from itertools import islice, product
from pathlib import Path

import pytest

from golden_games import SETS
from rulesdsl.interpreter import Action, Game, GameStuck, economy, legality, new_game, selection
from rulesdsl.interpreter.state import Frame
from rulesdsl.pipeline import load_ruleset
from test_open_spaces import SHAPES as OPEN_SHAPES


def plain_bindings(g: Game, me: int):
    """(action, binding) of every legal binding, in order."""
    st = g.state
    for act in g.content.actions:
        if act.before_turn and st.before_used:
            continue
        if not all(guard(g, Frame(0, 0, 0, me, {})) for guard in act.guards):
            continue
        pools = [selection.candidates(g, p.selector, me) for p in act.params]
        for binding in product(*pools):
            if len(set(binding)) != len(binding):   # (never one item for two parameters)
                continue
            frame = Frame(act.block, 0, 0, me, dict(zip(act.param_names, binding)))
            if not all(req(g, frame) for req in act.requires):
                continue
            total = sum(economy.price(g, me, binding[i])[0] for i in act.paid)
            total += sum(max(0, fn(g, frame)) for fn in act.pays)
            if total >= economy.IMPOSSIBLE or total > economy.available_coins(g, me):
                continue
            yield act, list(binding)


def plain_listing(g: Game, me: int) -> list[Action]:
    names = g.item_names
    out = []
    for act, binding in plain_bindings(g, me):
        args = tuple(names[i] for i in binding)
        if act.paid and g.content.trade_base:
            for pay in legality.payments_for(g, act, binding, me, g.state.coins[me]):
                out.append(Action(act.name, args + ((legality.trade.pay_label(pay),) if pay else ())))
        else:
            out.append(Action(act.name, args))
    return list(dict.fromkeys(out))


def near_misses(g: Game, me: int, listed: list[Action], limit: int = 60) -> list[Action]:
    """Actions a bot might try that are mostly not legal: each action's name with items from
    every action's candidates; and each listed one that pays neighbours with its payment
    dropped or changed, and each listed one with a payment added."""
    names = g.item_names
    everything = sorted({i for act in g.content.actions for p in act.params
                         for i in selection.candidates(g, p.selector, me)})
    tried: list[Action] = []
    for act in g.content.actions:
        pools = [everything[:12]] * len(act.params)
        for binding in islice(product(*pools), limit):
            tried.append(Action(act.name, tuple(names[i] for i in binding)))
    for action in listed[:limit]:
        if action.args and action.args[-1].startswith("pay="):
            tried += [Action(action.name, action.args[:-1]), Action(action.name, action.args[:-1] + ("pay=p1:99",))]
        else:
            tried.append(Action(action.name, action.args + ("pay=p1:1",)))
    return tried


def check_every_decision(game: Game, rng: random.Random, limit: int = 400) -> int:
    """Play `game` out at random, comparing the listings and explanations at every turn
    decision of every seat to act; how many actions were explained."""
    explained = 0
    for _ in range(limit):
        if game.over:
            break
        st = game.state
        if st.pending is None:
            for me in game.to_act():
                listed = game.legal_actions(me)
                assert listed == plain_listing(game, me), (st.turn, me)
                # (the bindings the learning environment's mask reads, unnamed, and those the
                # first legal action is looked for among, one by one)
                plain = [(act.name, binding) for act, binding in plain_bindings(game, me)]
                assert [(act.name, list(b)) for act, b in legality.listed_bindings(game, me)] == plain
                assert [(act.name, list(b)) for act, b in legality.bindings(game, me)] == plain
                legal = set(listed)
                assert len(legal) == len(listed)
                assert game.first_legal_action(me) == (listed[0] if listed else None), (st.turn, me)
                for action in listed:
                    assert game.explain_illegal(action, me) is None, (st.turn, me, action)
                for action in near_misses(game, me, listed):
                    reason = game.explain_illegal(action, me)
                    assert (reason is None) == (action in legal), (st.turn, me, action, reason)
                    explained += 1
        else:   # (a decision: its answers, each accepted)
            for action in game.legal_actions():
                assert game.explain_illegal(action) is None, (st.turn, action)
        action = game.random_action(rng)
        assert action in game.legal_actions(), (st.turn, action)   # (the draw, which lists nothing)
        game._apply(action)
    return explained


@pytest.mark.parametrize("name", list(SETS))
def test_every_decision_of_seeded_games_of_every_set(name):
    expansions, base, players = SETS[name]
    rules = load_ruleset(expansions, base, players)
    explained = 0
    for seed in range(2):
        explained += check_every_decision(rules.new_game(seed=seed), random.Random(seed))
    assert explained > 1000


# The action shapes of tests/test_open_spaces.py, and two more.
SHAPES = OPEN_SHAPES + """
token "Third spare" { deck spares; value 3 }
action duo { param first from spares; param second from spares; gain 1 coins }
# Lists that overlap (an accessible card is also a card of the structure): no card for both.
action overlap { param card from structure; param other from structure_all; gain 1 coins }
"""


def shapes_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "shapes"
    folder.mkdir()
    (folder / "cards.rules").write_text(SHAPES, encoding="utf-8")
    return folder


def test_every_decision_of_an_expansion_of_other_action_shapes(tmp_path: Path):
    folder = shapes_folder(tmp_path)
    explained = 0
    for seed in range(3):
        explained += check_every_decision(new_game(expansions=[str(folder)], seed=seed), random.Random(seed), limit=80)
    assert explained > 1000


def test_the_reasons_a_bot_reads_for_a_misnamed_item(tmp_path: Path):
    folder = shapes_folder(tmp_path)
    game, rng = new_game(expansions=[str(folder)], seed=1), random.Random(1)
    while game.state.pending is not None:   # (the wonders are drafted first)
        game._apply(game.random_action(rng))
    me = game.to_move()
    covered = next(game.name(i) for i in game.state.structure if i >= 0 and game.name(i) not in
                   {game.name(j) for j in game.accessible()})
    assert game.explain_illegal(Action("discard", (covered,)), me) == f"{covered} is not accessible in the structure"
    assert game.explain_illegal(Action("duo", ("Spare", "Spare")), me) == "the same item twice"
    assert game.explain_illegal(Action("duo", ("Spare", "Other spare")), me) is None
    assert game.explain_illegal(Action("duo", ("Spare", "Nowhere")), me) == "there is no item named 'Nowhere'"
    game.state.coins[me] = 1
    assert game.explain_illegal(Action("count_up", ("Spare",)), me) == "a requirement of this action does not hold now"


def test_copies_of_one_card_are_one_action_and_either_copy_is_accepted():
    rules = load_ruleset((), "classic", 7)   # (seven seats: most cards of an age come twice)
    game, rng = rules.new_game(seed=2), random.Random(2)
    seen_copies = 0
    while not game.over and seen_copies < 20:
        if game.state.pending is None:
            for me in game.to_act():
                hand = game.items_in("hand", me)
                doubled = {name for name in hand if hand.count(name) > 1}
                listed = game.legal_actions(me)
                assert len(set(listed)) == len(listed)
                for action in listed:
                    if action.args and action.args[0] in doubled:
                        seen_copies += 1
                        assert game.explain_illegal(action, me) is None
        game._apply(game.random_action(rng))
    assert seen_copies


def test_what_cannot_be_had_is_not_listed_however_rich_the_seat(monkeypatch):
    # (a price of IMPOSSIBLE: neighbours lack the resource and nobody sells it; a seat with more
    # coins than that number still cannot build it)
    game, rng = new_game(seed=3), random.Random(3)
    while game.state.pending is not None:
        game._apply(game.random_action(rng))
    me = game.to_move()
    unobtainable = game.accessible()[0]
    priced = economy.price

    def price(g, p, item):
        found = priced(g, p, item)
        return (economy.IMPOSSIBLE,) + tuple(found[1:]) if item == unobtainable else found
    monkeypatch.setattr(economy, "price", price)
    monkeypatch.setattr(legality, "price", price)
    game.state.coins[me] = 3 * economy.IMPOSSIBLE
    build = Action("build", (game.name(unobtainable),))
    assert build not in game.legal_actions(me)
    assert Action("discard", (game.name(unobtainable),)) in game.legal_actions(me)
    assert game.explain_illegal(build, me) == "what it needs cannot be produced or bought now"


def test_a_seat_is_stuck_exactly_when_it_has_no_legal_action(tmp_path: Path):
    # (the discard open only below 3 coins: seats get stuck; `not_stuck`, asked before every
    # decision of a seat that is not random, answers without listing)
    from test_stuck_games import duel_with_discard
    rules = load_ruleset((), str(duel_with_discard(tmp_path, lambda d: d + "    require coins < 3\n")))
    stuck = free = 0
    for seed in range(6):
        game, rng = rules.new_game(seed=seed), random.Random(seed)
        while not game.over:
            me = game.to_move()
            listed = game.legal_actions(me)
            try:
                legality.not_stuck(game, me)
            except GameStuck:
                assert listed == []
                stuck += 1
                break
            assert listed
            free += 1
            game._apply(listed[rng.randrange(len(listed))])
    assert stuck >= 2 and free > 100
