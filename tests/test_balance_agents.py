"""The search agent (interpreter/search.py): it sees only its own seat's observation, it plays
simultaneous rounds for its own seat, and it beats the greedy agent."""

import random
from pathlib import Path

import pytest

from rulesdsl.balance.runner import Plan, run
from rulesdsl.balance.agents import SearchOptions
from rulesdsl.balance.stats import newcombe
from rulesdsl.interpreter.actions import Action
from rulesdsl.interpreter.agents import GreedyAgent, RandomAgent
from rulesdsl.interpreter.search import MCTSAgent, determinize, unknown_items
from rulesdsl.pipeline import load_ruleset

HANDS = str(Path(__file__).parent / "data" / "hands")


def _hands(players=3, seed=5):
    return load_ruleset((), HANDS, players).new_game(seed=seed)


def _consistent(game):
    st = game.state
    for slot, items in enumerate(st.zones):
        for i in items:
            assert st.loc[i] == slot


def _swap_zones(game, zone, a, b):
    """Exchange the contents of two seats' slots of a per-seat zone (hands)."""
    st = game.state
    sa, sb = game.slot(game.content.zone_index[zone], a), game.slot(game.content.zone_index[zone], b)
    st.zones[sa], st.zones[sb] = st.zones[sb], st.zones[sa]
    for i in st.zones[sa]:
        st.loc[i] = sa
    for i in st.zones[sb]:
        st.loc[i] = sb
    from rulesdsl.interpreter import core
    core.clear_caches(game)


def _agents():
    return [lambda: MCTSAgent(3, iterations=40), lambda: RandomAgent(3), lambda: GreedyAgent(3)]


def test_hidden_hands_swapped_same_decision():
    game = _hands()
    assert game.to_move() == 0
    other = game.clone()
    _swap_zones(other, "hand", 1, 2)          # seat 0 cannot see the other hands
    deck = other.state.zones[other.slot(other.content.zone_index["age2"], 0)]
    deck.reverse()                             # nor the order of the deck
    assert other.state.zones != game.state.zones
    for make in _agents():
        assert str(make().act(game)) == str(make().act(other))


def test_choices_of_other_seats_in_a_round_are_not_seen():
    game = _hands()
    first = game.legal_actions(0)
    a, b = game.clone(), game.clone()
    a.apply(first[0], seat=0)
    b.apply(first[-1], seat=0)
    assert a.to_move() == b.to_move() == 1 and a.state.choices != b.state.choices
    for make in _agents():
        assert str(make().act(a)) == str(make().act(b))


def test_duel_face_down_cards_swapped_same_decision():
    game = load_ruleset((), "duel").new_game(seed=11)
    while game.state.pending is not None or game.state.flow != "turn":   # past the wonder draft
        game._apply(RandomAgent(1).act(game))
    st = game.state
    down = [pos for pos, i in enumerate(st.structure) if i >= 0 and not st.face_up[pos]]
    by_deck = {}
    for pos in down:
        by_deck.setdefault(game.content.items[st.structure[pos]].deck, []).append(pos)
    p, q = next(v for v in by_deck.values() if len(v) >= 2)[:2]
    other = game.clone()
    ost = other.state
    ost.structure[p], ost.structure[q] = ost.structure[q], ost.structure[p]
    from rulesdsl.interpreter import core
    core.clear_caches(other)
    assert ost.structure != st.structure
    for make in (lambda: MCTSAgent(4, iterations=25), lambda: GreedyAgent(4), lambda: RandomAgent(4)):
        assert str(make().act(game)) == str(make().act(other))


def test_determinize_redraws_only_what_the_seat_cannot_see():
    game = _hands()
    import random
    me = 0
    hand = game.content.zone_index["hand"]
    mine = list(game.state.zones[game.slot(hand, me)])
    seen_other = set()
    for k in range(10):
        g = determinize(game, me, random.Random(k))
        # (the search hands it the places it worked out once for the position: the same draw)
        assert determinize(game, me, random.Random(k), unknown_items(game, me)).state == g.state
        _consistent(g)
        assert g.state.zones[g.slot(hand, me)] == mine                 # its own hand stays
        assert g.state.zones[g.slot(game.content.zone_index["city"], 1)] == \
            game.state.zones[game.slot(game.content.zone_index["city"], 1)]   # public zones stay
        seen_other.add(tuple(g.state.zones[g.slot(hand, 1)]))
        assert sorted(len(g.state.zones[g.slot(hand, p)]) for p in range(3)) == [3, 3, 3]
    assert len(seen_other) > 1          # the other hands are drawn again
    assert sum(len(v) for v in unknown_items(game, me).values()) > 6


def test_determinize_refuses_a_seat_the_game_lacks_and_what_is_not_a_game_or_generator():
    """A bot author's `determinize(game, game.to_move(), rng)` once the game is over passed
    None, and seat 5 of a 2-seat game was taken too: each drew every hand again, a view of no
    seat, without a word."""
    from rulesdsl.interpreter import new_game
    from rulesdsl.interpreter.persistence import dumps
    from rulesdsl.names import UnknownName
    game = new_game(seed=1)
    before = dumps(game.state)
    for seat in (None, 2, -1, True, "0"):
        with pytest.raises(UnknownName, match="seat"):
            determinize(game, seat, random.Random(0))
    with pytest.raises(TypeError, match="random.Random"):
        determinize(game, 0, None)
    with pytest.raises(TypeError, match="Game"):
        determinize(game.state, 0, random.Random(0))
    assert dumps(game.state) == before
    assert determinize(game, 1, random.Random(0)).state.players == 2


@pytest.mark.parametrize("players", [3, 7])
def test_classic_hands_redrawn_hold_only_cards_of_the_age_played(players):
    """Classic: the others' hands are drawn again from the unseen cards of the age being played;
    the guilds waiting for Age III (A5) are Age III cards and never come into an Age I hand (the
    greedy agent and the search imagined them there when the guilds named no age)."""
    game = load_ruleset((), "classic", players).new_game(seed=3)
    c = game.content
    hand = c.zone_index["hand"]
    for k in range(20):
        g = determinize(game, 0, random.Random(k))
        for p in range(1, players):
            for i in g.state.zones[g.slot(hand, p)]:
                assert c.items[i].age in (1, None) and c.items[i].color != "purple", (k, p, g.name(i))


def _relabelled(game, x, y):
    """A copy of `game` in which items `x` and `y` trade places, what lay on, under or at each
    place staying there: the same observation for a seat that sees neither."""
    from rulesdsl.interpreter import core
    h = game.clone()
    st = h.state
    sx, sy = st.loc[x], st.loc[y]
    zx, zy = st.zones[sx], st.zones[sy]
    ix, iy = zx.index(x), zy.index(y)
    zx[ix], zy[iy] = y, x
    st.loc[x], st.loc[y] = sy, sx
    swap = {x: y, y: x}
    st.attached = {swap.get(k, k): swap.get(v, v) for k, v in st.attached.items()}
    st.positions = {swap.get(k, k): v for k, v in st.positions.items()}
    st.hidden = [swap.get(i, i) for i in st.hidden]
    core.clear_caches(h)
    return h


def test_unseen_items_tied_to_a_place_are_drawn_again_and_what_lies_there_stays():
    """Agora: seat 0's prepared conspiracy (a card slid under it) and a decree face down in the
    Senate are hidden from seat 1.  The search draws them again like any unseen card (it kept
    them, and its decision changed when they were exchanged for unseen others), and the card
    under the conspiracy, the decree's chamber stay with the place."""
    from agora_positions import agora_game, give_conspiracy, item, set_decree
    from positions import slot_of
    game = agora_game(starter=1)
    give_conspiracy(game, 0, "Coup", prepared=True)
    set_decree(game, 2, "Decree: blue coins", face_down=True)
    plots, laws = set(), set()
    for k in range(20):
        g = determinize(game, 1, random.Random(k))
        st = g.state
        _consistent(g)
        [plot] = st.zones[slot_of(g, "conspiracies", 0)]
        assert [st.attached[i] for i in st.zones[slot_of(g, "prepared", 0)]] == [plot]
        [law] = st.zones[slot_of(g, "decrees")]
        assert st.positions[law] == 2 and law in st.hidden
        plots.add(g.name(plot))
        laws.add(g.name(law))
    assert len(plots) > 3 and len(laws) > 3
    deck = game.state.zones[slot_of(game, "conspiracy_deck")]
    box = [i for i in game.state.zones[slot_of(game, "box")] if game.content.items[i].kind == "decree"]
    for other in (_relabelled(game, item(game, "Coup"), deck[0]),
                  _relabelled(game, item(game, "Decree: blue coins"), box[0])):
        assert str(MCTSAgent(5, iterations=40).act(game)) == str(MCTSAgent(5, iterations=40).act(other))


def test_mcts_plays_every_seat_count():
    for players in (3, 4):
        game = _hands(players, seed=2)
        agents = [MCTSAgent(p, iterations=10) for p in range(players)]
        while not game.over:
            game.apply(agents[game.to_move()].act(game))
        assert game.state.victory == "civilian"


def test_mcts_greedy_rollouts_and_cut_playouts():
    game = _hands(3, seed=8)
    agents = [MCTSAgent(0, iterations=8, rollout="greedy"), MCTSAgent(1, iterations=8, depth=2), RandomAgent(2)]
    while not game.over:
        game.apply(agents[game.to_move()].act(game))
    assert game.state.victory == "civilian"


def test_mcts_beats_greedy():
    """One mcts against two greedy agents, seats rotated, 30 games: the 95% interval of its win
    rate minus the better greedy agent's lies above 0 (many games of this small game are shared
    victories, so the rates themselves are low), and it scores more on average."""
    plan = Plan(HANDS, (), 3, ("mcts", "greedy", "greedy"), 30, seed=1, search=SearchOptions(iterations=100))
    records = run(plan, jobs=1).records
    assert len(records) == 30
    wins = {a: sum(r["winner"] == r["agents"].index(a) for r in records) for a in ("mcts", "greedy#1", "greedy#2")}
    best_greedy = max(wins["greedy#1"], wins["greedy#2"])
    low, high = newcombe(wins["mcts"], 30, best_greedy, 30)
    assert low > 0, (wins, low, high)
    score = {a: sum(r["totals"][r["agents"].index(a)] for r in records) / 30 for a in wins}
    assert score["mcts"] > max(score["greedy#1"], score["greedy#2"])


@pytest.mark.parametrize("base, expansions, players", [("duel", (), 2), ("duel", ("pantheon", "agora"), 2),
                                                     (HANDS, (), 3), ("classic", (), 4)])
def test_a_random_rollout_to_the_end_is_the_game_random_actions_play(base, expansions, players):
    # The search plays a rollout to the end through `play_out` (every seat drawing from the
    # search's generator); a rollout with a depth, action by action: the same game and rewards
    # where the depth is never reached, from positions a search meets (its own choice first).
    rules = load_ruleset(expansions, base, players)
    for seed in range(4):
        game = rules.new_game(seed=seed)
        me = game.to_act()[-1]
        first = game.random_action(random.Random(seed), me)
        ends = []
        for agent in (MCTSAgent(seed), MCTSAgent(seed, depth=10**6)):
            g = determinize(game, me, random.Random(seed))
            agent._step(g, first, me, True)
            ends.append((agent._playout(g, random.Random(seed + 1)), g.state))
        assert ends[0][1].flow == "over" and ends[0] == ends[1], seed


def test_bad_search_options():
    with pytest.raises(ValueError, match="rollout"):
        MCTSAgent(0, rollout="minimax")


def test_classic_hidden_hands_swapped_same_decision():
    """Classic 7 Wonders at 5 seats: seat 0 cannot see the other hands nor the decks."""
    game = load_ruleset((), "classic", 5).new_game(seed=9)
    me = game.to_move()
    other = game.clone()
    _swap_zones(other, "hand", 2, 4)
    assert other.state.zones != game.state.zones
    for make in (lambda: MCTSAgent(6, iterations=15), lambda: RandomAgent(6), lambda: GreedyAgent(6)):
        assert str(make().act(game)) == str(make().act(other))
    assert other.to_move() == me


@pytest.mark.parametrize("players", [3, 7])
def test_greedy_does_not_read_the_other_hands(players):
    """The greedy agent had the other seats of a round take their first legal actions from their
    real hands: with two other hands swapped, its choice changed in about 1 decision in 13."""
    rules = load_ruleset((), "classic", players)
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        game = rules.new_game(seed=seed)
        while not game.over:
            me = game.to_move()
            if game.state.flow == "round" and game.state.pending is None and rng.random() < 0.3:
                a, b = [p for p in range(players) if p != me][:2]
                other = game.clone()
                _swap_zones(other, "hand", a, b)
                assert str(GreedyAgent(seed).act(game)) == str(GreedyAgent(seed).act(other))
                checked += 1
            game.apply(game.random_action(rng))
    assert checked >= 20


def test_the_search_rewards_of_a_lead_of_thousands_of_points():
    """A card worth 5000 points (a designer's typo, which `check` accepts) made `math.exp`
    overflow in the search's rewards: mcts stopped with OverflowError."""
    from rulesdsl.interpreter import new_game
    from rulesdsl.interpreter.search import rewards
    game = new_game(seed=1, options=["beginner_wonders"])
    game.total_score = lambda p: 5000 * (p == 0)   # (the rewards read the totals only)
    low, high = sorted(rewards(game))
    assert 0.0 <= low < 1e-6 and 0.2 - 1e-6 < high <= 0.2


def test_a_choice_among_face_down_cards_offers_what_lies_at_their_places_in_a_redrawn_game():
    """The search redraws the face-down cards a choice offers (a god discarding any card of the
    structure): the answers still name the same places, and each takes the card that lies at
    its place in the redrawn game (the choice kept the real cards, wherever the redraw put them)."""
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from pantheon_positions import pantheon_game
    from test_pantheon_gods import activate
    game = pantheon_game(age=2)
    st = game.state
    down = [k for k, i in enumerate(st.structure) if i >= 0 and not st.face_up[k]]
    activate(game, "Zeus")
    before = game.legal_actions()
    moved = 0
    for k in range(6):
        g = determinize(game, 0, random.Random(k))
        assert g.legal_actions() == before
        slot = down[k % len(down)]
        card = g.state.structure[slot]
        moved += card != st.structure[slot]
        g.apply(Action("choose", (f"slot {slot} (face down)",)))
        assert g.state.structure[slot] == -1
        assert g.state.loc[card] == g.slot(g.content.zone_index["discard"], 0)
    assert moved > 0                      # the redraw did put other cards there


def test_an_unseen_item_an_effect_has_bound_is_drawn_again_and_the_effect_follows_it():
    """A face-down decree picked by its place is bound for the rest of the effect (it is placed
    next).  Its chooser never saw it, so the search draws it again like any unseen item (kept
    as it was, the search knew which decree it was placing), and the names bound to it follow:
    the effect places the decree that lies at that place in the redrawn game, never the real one
    while another lies there (three decrees from two)."""
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from agora_positions import agora_game, answer, decrees, set_decree
    from test_agora_conspiracies import trigger
    game = agora_game()
    set_decree(game, 0, "Decree: discard bonus")
    set_decree(game, 3, "Decree: blue coins", face_down=True)
    trigger(game, "Insider Influence")
    answer(game, "decrees 3 (face down)")
    seat = game.state.pending.player
    decree_slot = game.slot(game.content.zone_index["decrees"], 0)
    seen = set()
    for k in range(8):
        g = determinize(game, seat, random.Random(k))
        at_3 = next(i for i in g.state.zones[decree_slot] if g.state.positions.get(i) == 3)
        g.apply(Action("choose_space", ("1",)))
        placed = decrees(g)
        assert sorted(placed) == [0, 1] and placed[1] == [g.content.items[at_3].name], placed
        seen.add(placed[1][0])
    assert len(seen) > 1                  # drawn again, not kept as it really is


def test_a_space_bound_by_a_choice_is_not_taken_for_the_item_of_that_number():
    """A choice of a space binds a number (`chosen`, its alias); the search kept every unseen item
    whose number an effect under way had bound, so the face-down card that happened to be item
    3 stayed where it really lay while a senator's cube moved from space 3 (Agora)."""
    rules = load_ruleset(("agora",), "duel")
    found = 0
    for seed in range(40):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over and found < 3:
            d = game.state.pending
            if d is not None and d.kind == "space":
                st = game.state
                pinned = [v for v in d.env.values() if type(v) is int and v in st.structure
                          and not st.face_up[st.structure.index(v)]]
                if pinned:
                    item, slot = pinned[0], st.structure.index(pinned[0])
                    lying = {determinize(game, d.player, random.Random(k)).state.structure[slot] for k in range(12)}
                    assert lying != {item}, (seed, d.env)   # the card at that slot is drawn again
                    found += 1
            game.apply(game.random_action(rng))
        if found >= 3:
            break
    assert found


def test_what_a_choice_offers_its_chooser_is_not_redrawn():
    """Classic's Halikarnassos: its owner chooses from the discard pile, which lies face down for
    the others; the search redrew the pile for the chooser too, and its answer then built the
    card from another seat's hand."""
    rules = load_ruleset((), "classic", 4)
    discard = rules.content.zone_index["discard"]
    found = 0
    for seed in range(30):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            d = game.state.pending
            if d is not None and d.kind == "item" and len(d.options) > 1 and \
                    all(game.state.loc[o] == game.slot(discard, 0) for o in d.options):
                for k in range(3):
                    g = determinize(game, d.player, random.Random(k))
                    assert g.state.pending.options == d.options
                    assert all(g.state.loc[o] == game.state.loc[o] for o in d.options)
                found += 1
                break
            game.apply(game.random_action(rng))
        if found >= 2:
            break
    assert found


@pytest.mark.parametrize("base, expansions, players", [("duel", (), 2), ("duel", ("pantheon",), 2),
                                                     ("duel", ("agora",), 2), ("classic", (), 3)])
def test_a_redrawn_game_keeps_every_back_the_seat_knows(base, expansions, players):
    """A determinization drew unseen items by kind and age alone: the gods of one mythology took
    the places of another's (a face-down god on the Pantheon showed another back than the one
    the seat saw, and a mythology's deck later drew another's gods), unseen age cards slipped
    into the deck of senators or of Grand Temples, guilds into the Age III deck before their
    time.  Now the copy shows the seat what the game shows it (but the others' choices of the
    round), and every deck holds as many of its own items as it did."""
    from rulesdsl.interpreter.observation import observe
    rules = load_ruleset(expansions, base, players)
    c = rules.content
    def own(g):
        return [sum(1 for i in g.state.zones[g.slot(z.id, o)] if c.items[i].deck == z.id)
                for z in c.zones for o in range(players if z.per_player else 1)]
    checked = 0
    for seed in range(2):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            for seat in range(players):
                g = determinize(game, seat, random.Random(checked))
                _consistent(g)
                seen, shown = observe(game, seat), observe(g, seat)
                for view in (seen, shown):
                    del view["to_move"], view["to_act"], view["round"]
                assert shown == seen, (seed, game.state.turn, seat)
                assert own(g) == own(game), (seed, game.state.turn, seat)
                checked += 1
            game.apply(game.random_action(rng))
    assert checked > 100
