"""`selection.count` (what `count(...)` in a card, a guard or a score reads) counts the items it
does not list: every selector of the bundled content, for every seat, at every action of seeded
random games, counts what `candidates` lists (or, for `owner=most`, the most any seat has)."""

import random

import pytest

from rulesdsl.interpreter import selection
from rulesdsl.loader import canonical_expansions
from rulesdsl.model import Selector
from rulesdsl.pipeline import Ruleset, compile_layers


def every_state(rules: Ruleset):
    """Each state of two seeded random games, from the first to the last action's."""
    for seed in range(2):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            yield game
            game._apply(game.random_action(rng))


@pytest.mark.parametrize("base, expansions, players", [
    ("duel", (), None), ("duel", ("pantheon", "agora"), None), ("classic", (), 3), ("classic", (), 7)])
def test_count_is_the_number_of_candidates(base, expansions, players):
    compiled = compile_layers(canonical_expansions(list(expansions)), base, players)
    rules = Ruleset(compiled.content)
    selectors = [v for v in compiled.compiler.namespace.values()
                 if isinstance(v, Selector) and v.where is None and v.named is None]
    assert any(s.printed for s in selectors)
    n = rules.content.players
    checked = 0
    for game in every_state(rules):
        for sel in selectors:
            for me in range(n):
                if sel.owner == "most":
                    if sel.zone < 0 or not rules.content.zones[sel.zone].per_player:
                        continue
                    expected = max(len(selection.candidates(game, Selector(sel.zone, "me", sel.colors, sel.kind,
                                                                           sel.age, sel.deck), p, None))
                                   for p in range(n))
                else:
                    expected = len(selection.candidates(game, sel, me, None))
                assert selection.count(game, sel, me) == expected, (sel.text, me)
                checked += expected > 0
    assert checked


@pytest.mark.parametrize("base, expansions, players", [("duel", (), None), ("classic", (), 3), ("classic", (), 7)])
def test_a_count_by_owner_alone_is_the_number_of_candidates(base, expansions, players):
    # `count(ZONE, owner=WORD)` with no other filter is written as `count_owned` (a Duel wonder's
    # rule counts the wonders built by every seat; `all` and `any` read the content's seats, the
    # other words `seats_of`): after every action of seeded games, for every seat word, every
    # zone of seats and every seat, it counts what `candidates` lists.
    compiled = compile_layers(canonical_expansions(list(expansions)), base, players)
    rules = Ruleset(compiled.content)
    content = rules.content
    n = content.players
    words = ["me", "left", "right", "neighbours", "others", "all", "any"] + ["opponent"] * (n == 2)
    zones = [z.id for z in content.zones if z.per_player]
    sources = [getattr(step, "source", "") for block in content.blocks for step in block.steps]
    assert base != "duel" or any("g.count_owned(" in s for s in sources)
    checked = 0
    for game in every_state(rules):
        for word in words:
            for zone in zones:
                for me in range(n):
                    expected = len(selection.candidates(game, Selector(zone, word), me, None))
                    assert selection.count_owned(game, zone, me, word) == expected, (word, zone, me)
                    checked += expected > 0 and word in ("all", "any")
    assert checked
