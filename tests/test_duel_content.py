"""The base-game content (cards/duel/*.rules) against the cross-checked fact table
tests/data/reference/duel-base.yaml (copied from the reference facts): counts, every card's cost, colour, chains, production and
effects (shields, coins, points measured by building it), the wonders, the progress tokens,
the military tokens, the track, the three structures; and no content name in Python code."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from rulesdsl.interpreter import load_ruleset
from positions import (act, fresh_game, give, give_wonders, item, names, put_accessible, set_coins, set_turn)

ROOT = Path(__file__).resolve().parent.parent
YAML_PATH = ROOT / "tests" / "data" / "reference" / "duel-base.yaml"


@pytest.fixture(scope="module")
def content():
    return load_ruleset().content


@pytest.fixture(scope="module")
def ref():
    import yaml  # a test dependency (pyproject [test]); comparing with the reference needs it
    return yaml.safe_load(YAML_PATH.read_text(encoding="utf-8"))


def items_of(content, kind, color=None):
    return [it for it in content.items if it.kind == kind and (color is None or it.color == color)]


def resource_vector(content, cost: dict) -> tuple[int, ...]:
    return tuple(int(cost.get(r, 0)) for r in content.resources)


# =================================================================================================
# Counts
# =================================================================================================

def test_counts(content):
    cards = items_of(content, "card")
    ages = [it.age for it in cards if it.color != "purple"]
    assert (ages.count(1), ages.count(2), ages.count(3)) == (23, 23, 20)
    assert len(cards) == 66 + 7
    assert len(items_of(content, "card", "purple")) == 7
    assert len(items_of(content, "wonder")) == 12
    assert len(items_of(content, "token")) == 10
    assert len(items_of(content, "military_token")) == 4


def test_counts_match_reference(content, ref):
    c = ref["counts"]
    cards = [it for it in items_of(content, "card") if it.color != "purple"]
    for age in (1, 2, 3):
        assert sum(1 for it in cards if it.age == age) == c[f"age_{age}"]
    assert len(items_of(content, "card", "purple")) == c["guilds"]
    assert len(items_of(content, "wonder")) == c["wonders"]
    assert len(items_of(content, "token")) == c["progress_tokens"]
    assert len(items_of(content, "military_token")) == c["military_tokens"]


def test_vocabulary(content, ref):
    assert content.resources == ref["resources"]
    assert sorted(content.science) == sorted(ref["science_symbols"])
    assert sorted(content.chains) == sorted(ref["chain_symbols"])


def test_same_names_as_reference(content, ref):
    want = {c["name"] for c in ref["age_cards"] + ref["guilds"]}
    assert {it.name for it in items_of(content, "card")} == want
    assert {it.name for it in items_of(content, "wonder")} == {w["name"] for w in ref["wonders"]}
    assert {it.name for it in items_of(content, "token")} == {t["name"] for t in ref["progress_tokens"]}


# =================================================================================================
# Static card facts: cost, colour, age, chains, production, science, trade prices
# =================================================================================================

def card_facts(content, card: dict) -> dict:
    """What the YAML says, in the engine's terms."""
    eff = card.get("effects", [])
    produce = [0] * len(content.resources)
    one_of, science, fixed = [], [], set()
    for e in eff:
        if "produce" in e:
            for r, q in e["produce"].items():
                produce[content.resources.index(r)] += q
        if "produce_one_of" in e:
            one_of.append(tuple(sorted(content.resources.index(r) for r in e["produce_one_of"])))
        if "science" in e:
            science.append(e["science"])
        if "fixed_trade_price" in e:
            fixed |= {(content.resources.index(r), 1) for r in e["fixed_trade_price"]}
    cost = card.get("cost", {})
    return {"color": card["color"], "coins": int(cost.get("coins", 0)), "resources": resource_vector(content, cost),
            "chain_gives": (card["chain_gives"],) if card.get("chain_gives") else (),
            "chain_from": (card["chain_from_symbol"],) if card.get("chain_from_symbol") else (),
            "produce": tuple(produce), "one_of": sorted(one_of), "science": sorted(science), "fixed": fixed}


def engine_facts(content, it) -> dict:
    cost = it.cost
    return {"color": it.color, "coins": cost.coins if cost else 0,
            "resources": tuple(cost.resources) if cost else (0,) * len(content.resources),
            "chain_gives": tuple(it.chain_gives), "chain_from": tuple(it.chain_from),
            "produce": tuple(it.produce) if it.produce else (0,) * len(content.resources),
            "one_of": sorted(tuple(sorted(o)) for o in it.produce_one_of), "science": sorted(it.science),
            "fixed": set(it.trade_fixed)}


def test_every_card_matches_reference(content, ref):
    problems = []
    for card in ref["age_cards"] + ref["guilds"]:
        it = content.items[content.item_index[card["name"]]]
        assert it.kind == "card", card["name"]
        if it.age != card["age"]:   # (guilds too: Age III cards dealt from a deck of their own)
            problems.append(f"{card['name']}: age {it.age} != {card['age']}")
        want, got = card_facts(content, card), engine_facts(content, it)
        for key in want:
            if want[key] != got[key]:
                problems.append(f"{card['name']}: {key} {got[key]} != {want[key]}")
    assert not problems, "\n".join(problems)


def test_guilds_are_in_the_guild_deck(content, ref):
    guild_zone = content.zone_index["guilds"]
    for g in ref["guilds"]:
        it = content.items[content.item_index[g["name"]]]
        assert it.color == "purple" and it.deck == guild_zone, g["name"]


def test_chain_pairs(content, ref):
    assert len(ref["chains"]) == 17
    for ch in ref["chains"]:
        src = content.items[content.item_index[ch["from"]]]
        dst = content.items[content.item_index[ch["to"]]]
        assert ch["symbol"] in src.chain_gives, ch
        assert ch["symbol"] in dst.chain_from, ch
    # no other chains
    gives = sum(len(it.chain_gives) for it in content.items)
    takes = sum(len(it.chain_from) for it in content.items)
    assert gives == takes == 17


def test_every_wonder_static_facts(content, ref):
    problems = []
    for w in ref["wonders"]:
        it = content.items[content.item_index[w["name"]]]
        assert it.kind == "wonder"
        if tuple(it.cost.resources) != resource_vector(content, w["cost"]) or it.cost.coins:
            problems.append(f"{w['name']}: cost {it.cost} != {w['cost']}")
        one_of = [tuple(sorted(content.resources.index(r) for r in e["produce_one_of"]))
                  for e in w["effects"] if "produce_one_of" in e]
        if sorted(tuple(sorted(o)) for o in it.produce_one_of) != sorted(one_of):
            problems.append(f"{w['name']}: one-of production {it.produce_one_of} != {one_of}")
    assert not problems, "\n".join(problems)


def test_token_static_facts(content, ref):
    toks = {t["name"]: t for t in ref["progress_tokens"]}
    law = content.items[content.item_index["Law"]]
    assert law.science == ("law",)
    for name, t in toks.items():
        it = content.items[content.item_index[name]]
        science = [s["science"] for s in t["structured"] if "science" in s]
        assert list(it.science) == science, name
        reductions = [s["cost_reduction"] for s in t["structured"] if "cost_reduction" in s]
        got = sorted((n, kind or color) for n, kind, color, _or_coins in it.discounts)
        assert got == sorted((r["resources"], r["applies_to"]) for r in reductions), name


def test_military_tokens_and_track(content, ref):
    toks = items_of(content, "military_token")
    assert sorted((it.side, it.space) for it in toks) == [(0, 3), (0, 6), (1, 3), (1, 6)]
    track = ref["conflict_track"]
    assert content.track.capital == track["capital_distance"]
    points = [0] * track["capital_distance"]
    for z in track["vp_zones"]:
        lo, hi = z["distance"]
        for d in range(lo, min(hi, track["capital_distance"] - 1) + 1):
            if z["vp"] is not None:
                points[d] = z["vp"]
    assert list(content.track.points) == points


@pytest.mark.parametrize("side, space, loss", [(0, 3, 2), (0, 6, 5), (1, 3, 2), (1, 6, 5)])
def test_military_token_losses(side, space, loss):
    """Each token, reached by the other player's pawn, costs its owner 2 or 5 coins."""
    game = fresh_game()
    pusher = 1 - side
    set_turn(game, pusher)
    game.state.pawn = (space - 1) * (1 if pusher == 0 else -1)
    set_coins(game, side, 10)
    put_accessible(game, "Guard Tower")
    game.apply(act("build", "Guard Tower"))
    assert abs(game.state.pawn) == space
    assert game.state.coins[side] == 10 - loss


# =================================================================================================
# Structures
# =================================================================================================

@pytest.mark.parametrize("age", [1, 2, 3])
def test_layout_matches_reference(content, ref, age):
    lay = content.layouts[f"age{age}"]
    cards = ref["structures"][f"age_{age}"]["cards"]
    assert len(lay.covered_by) == len(cards) == 20
    for c in cards:
        i = c["index"]
        assert sorted(lay.covered_by[i]) == sorted(c["covered_by"]), f"age {age} slot {i}"
        assert lay.face_up[i] == c["face_up"], f"age {age} slot {i}"
    initially = [c["index"] for c in cards if not c["covered_by"]]
    assert initially == ref["structures"][f"age_{age}"]["initially_accessible"]


# =================================================================================================
# Effects, measured by building every card and wonder
# =================================================================================================

# Cards already in play when the card under test is built (counts for coins_per/points_per).
# Player 0 has no green card (no science pair can interrupt the build).
MINE = ["Lumber Yard", "Clay Pool", "Glassworks", "Guard Tower", "Theater", "Tavern", "Stone Reserve", "Pyramids"]
THEIRS = ["Quarry", "Stone Pit", "Logging Camp", "Press", "Glass-blower", "Stable", "Garrison", "Altar", "Baths",
          "Rostrum", "Wood Reserve", "Apothecary", "Scriptorium", "Colossus", "Piraeus"]


def count_what(game, p, what) -> int:
    if what == "wonder":
        return len(names(game, "built_wonders", p))
    if what == "progress_token":
        return len(names(game, "tokens", p))
    colors = set(what) if isinstance(what, list) else {what}
    return sum(1 for n in names(game, "city", p) if game.content.items[item(game, n)].color in colors)


def per(game, spec, p=0) -> int:
    what, city = spec["what"], spec["city"]
    if what == "coins_triplet":
        return max(game.state.coins) // 3 if city == "richest" else game.state.coins[p] // 3
    if city == "own":
        n = count_what(game, p, what)
    else:
        n = max(count_what(game, q, what) for q in (0, 1))
    return spec["amount"] * n


def expected_effects(game, entry) -> dict:
    """Coins gained on build, shields, points at the end (in the position after the build)."""
    coins = shields = points = opp_loses = 0
    play_again = False
    for e in entry.get("effects", []):
        coins += e.get("coins", 0)
        shields += e.get("shields", 0)
        points += e.get("points", 0)
        opp_loses += e.get("opponent_loses_coins", 0)
        play_again = play_again or bool(e.get("play_again"))
        if "coins_per" in e:
            coins += per(game, e["coins_per"])
        if "points_per" in e:
            points += per(game, e["points_per"])
    points += entry.get("points", 0) or 0
    return {"coins": coins, "shields": shields, "points": points, "opp_loses": opp_loses, "play_again": play_again}


def card_names(which):
    import yaml  # noqa: F401 (the parametrisation needs the file; skipped below when yaml is missing)
    data = yaml.safe_load(YAML_PATH.read_text(encoding="utf-8"))
    return [c["name"] for c in data[which]]


def _names_or_empty(which):
    try:
        return card_names(which)
    except ImportError:
        return []


@pytest.mark.parametrize("name", _names_or_empty("age_cards") + _names_or_empty("guilds"))
def test_card_effects_when_built(ref, name):
    card = next(c for c in ref["age_cards"] + ref["guilds"] if c["name"] == name)
    game = fresh_game()
    give(game, 0, *[n for n in MINE if n != name])
    give(game, 1, *[n for n in THEIRS if n != name])
    set_coins(game, 0, 60)
    set_coins(game, 1, 60)
    color = card["color"]
    before_points = game.score(0).get(color, 0)
    cost = game.price(0, item(game, name))[0]
    put_accessible(game, name)
    game.apply(act("build", name))
    assert name in names(game, "city", 0)
    want = expected_effects(game, card)
    st = game.state
    assert st.pawn == want["shields"], f"{name}: shields"
    assert st.coins[0] == 60 - cost + want["coins"], f"{name}: coins (paid {cost})"
    assert game.score(0).get(color, 0) - before_points == want["points"], f"{name}: points"
    assert st.pending is None and game.to_move() == 1


@pytest.mark.parametrize("name", _names_or_empty("wonders"))
def test_wonder_effects_when_built(ref, name):
    w = next(x for x in ref["wonders"] if x["name"] == name)
    game = fresh_game()
    give(game, 1, "Lumber Yard", "Glassworks")     # something for Statue of Zeus / Circus Maximus to hit
    give_wonders(game, 0, name)
    set_coins(game, 0, 60)
    set_coins(game, 1, 10)
    cost = game.price(0, item(game, name))[0]
    card = game.name(game.accessible()[0])
    game.apply(act("wonder", card, name))
    st = game.state
    destroy = [e["destroy_opponent_card"] for e in w["effects"] if "destroy_opponent_card" in e]
    if destroy:
        options = [a.args[0] for a in game.legal_actions()]
        assert options == [n for n in names(game, "city", 1) if game.content.items[item(game, n)].color == destroy[0]]
        game.apply(act("choose", options[0]))
        assert options[0] in names(game, "discard")
    if any("progress_token_from_box" in e for e in w["effects"]):
        offered = [a.args[0] for a in game.legal_actions()]
        assert len(offered) == 3
        pick = offered[0]
        gained = 6 if pick in ("Agriculture", "Urbanism") else 0
        game.apply(act("choose", pick))
    else:
        gained = 0
    want = expected_effects(game, w)
    assert st.pawn == want["shields"], f"{name}: shields"
    assert st.coins[0] == 60 - cost + want["coins"] + gained, f"{name}: coins"
    assert st.coins[1] == 10 - want["opp_loses"], f"{name}: opponent's coins"
    assert game.score(0).get("wonder", 0) == want["points"], f"{name}: points"
    assert st.pending is None
    assert game.to_move() == (0 if want["play_again"] else 1), f"{name}: play again"


@pytest.mark.parametrize("name, vp", [("Agriculture", 4), ("Philosophy", 7), ("Mathematics", 3), ("Architecture", 0),
                                      ("Economy", 0), ("Law", 0), ("Masonry", 0), ("Strategy", 0),
                                      ("Theology", 0), ("Urbanism", 0)])
def test_token_points(ref, name, vp):
    t = next(x for x in ref["progress_tokens"] if x["name"] == name)
    flat = sum(s.get("points", 0) for s in t["structured"])
    per_token = [s["points_per"]["amount"] for s in t["structured"] if "points_per" in s]
    assert vp == flat + sum(per_token)
    game = fresh_game()
    give(game, 0, name)
    assert game.score(0).get("token", 0) == vp


# =================================================================================================
# No content name in the engine's Python code
# =================================================================================================

def _code_tokens(path: Path):
    """Identifiers and string literals of a Python file, without comments and docstrings."""
    src = path.read_text(encoding="utf-8")
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    out = []
    prev = tokenize.NEWLINE
    for tok in toks:
        if tok.type == tokenize.STRING and prev in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT,
                                                    tokenize.ENCODING):
            prev = tok.type      # a docstring (a string that is a statement of its own)
            continue
        if tok.type in (tokenize.NAME, tokenize.STRING):
            out.append((tok.start[0], tok.string))
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            prev = tok.type
    return out


def test_no_content_name_in_python(ref):
    """The principle: no card, guild, wonder or progress-token name in the engine's Python code
    (comments and docstrings aside)."""
    content_names = [c["name"] for c in ref["age_cards"] + ref["guilds"] + ref["wonders"] + ref["progress_tokens"]]
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(content_names, key=len, reverse=True)) + r")\b")
    files = sorted((ROOT / "interpreter").glob("*.py")) + sorted((ROOT / "rulesdsl").glob("*.py"))
    assert files
    hits = []
    for f in files:
        for line, text in _code_tokens(f):
            for m in pattern.finditer(text):
                hits.append(f"{f.relative_to(ROOT)}:{line}: {m.group(1)!r} in {text[:80]}")
    assert not hits, "\n".join(hits)
