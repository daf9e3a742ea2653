"""Bundled card files mutated the way an editor would (a test helper for the fuzz tests):
delete, duplicate, swap or copy lines, change numbers, put one word of the language for
another, name one item for another, remove definitions.  `mutation(folders, sets)` is a
hypothesis strategy of (layers, players, file, text): the file of one of the layers, mutated."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

from rulesdsl import registry as R

CARDS = Path(__file__).resolve().parent.parent / "cards"
WORD = re.compile(r"\b[a-z_][a-z0-9_]*\b")
NUMBERS = ("0", "1", "2", "3", "4", "7", "9", "99", "-1")


def texts(folders: tuple[str, ...]) -> dict[str, str]:
    """Each card file of the folders by `folder/file`."""
    return {f"{d}/{p.name}": p.read_text(encoding="utf-8") for d in folders for p in sorted((CARDS / d).glob("*.rules"))}


def mutation(text: dict[str, str], sets: tuple[tuple[tuple[str, ...], int | None], ...]):
    """Mutations of the files of `text` (`texts`): one of `sets` ((layers, players); players
    None: the game's fewest), a file of its layers, and that file's text after one to three
    edits."""
    words = sorted(set(R.VERBS) | set(R.FUNCTIONS) | set(R.NAMES) | set(R.EVENTS) | set(R.OWNER_WORDS)
                   | set(R.KINDS) | {w for t in text.values() for w in WORD.findall(t)})
    headers = sorted({(m.group(1), m.group(2)) for t in text.values()
                      for m in re.finditer(r'^(?:replace |extend )?(\w+) ("[^"]+"|\w+)', t, re.M)})
    names = sorted({m.group(1) for t in text.values() for m in re.finditer(r'^\w+ "([^"]+)"', t, re.M)})

    @st.composite
    def mutated(draw) -> tuple[tuple[str, ...], int | None, str, str]:
        layers, players = draw(st.sampled_from(sets))
        name = draw(st.sampled_from(sorted(k for k in text if k.split("/")[0] in layers)))
        lines = text[name].split("\n")
        for _ in range(draw(st.integers(1, 3))):
            op = draw(st.sampled_from(["delete", "duplicate", "swap", "copy", "number", "word", "word", "name", "remove"]))
            i = draw(st.integers(0, len(lines) - 1))
            if op == "delete":
                del lines[i]
            elif op == "duplicate":
                lines.insert(i, lines[i])
            elif op == "swap":
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            elif op == "copy":  # a line of any of the files
                other = text[draw(st.sampled_from(sorted(text)))].split("\n")
                lines.insert(i, other[draw(st.integers(0, len(other) - 1))])
            elif op == "number":
                found = list(re.finditer(r"\b\d+\b", lines[i]))
                if found:
                    m = draw(st.sampled_from(found))
                    lines[i] = lines[i][:m.start()] + draw(st.sampled_from(NUMBERS)) + lines[i][m.end():]
            elif op == "word":  # a word of the language (statement, zone, resource, ...) for another
                found = list(WORD.finditer(lines[i].split("#")[0]))
                if found:
                    m = draw(st.sampled_from(found))
                    lines[i] = lines[i][:m.start()] + draw(st.sampled_from(words)) + lines[i][m.end():]
            elif op == "name":  # an item named for another (a wonder for a card, ...)
                found = list(re.finditer(r'"[^"]*"', lines[i].split("#")[0]))
                if found:
                    m = draw(st.sampled_from(found))
                    lines[i] = lines[i][:m.start()] + f'"{draw(st.sampled_from(names))}"' + lines[i][m.end():]
            else:  # a definition taken away
                kind, title = draw(st.sampled_from(headers))
                lines.append(f"remove {kind} {title}")
            if not lines:
                lines = [""]
        return layers, players, name, "\n".join(lines)

    return mutated()


# Zones a fan action's parameter may take from, with the filters that make sense there, by base
# game: (zone, per seat, filters).
PARAM_ZONES = {
    "duel": (("structure", False, ("", " color=blue", " kind=card")), ("structure_all", False, ("",)),
             ("city", True, ("", " color=brown", " color=[blue, green]")), ("wonders", True, ("",)),
             ("discard", False, ("", " kind=card")), ("board_tokens", False, ("",)), ("tokens", True, ("",))),
    "classic": (("hand", True, ("", " color=brown", " color=[red, blue]")), ("city", True, ("", " color=grey")),
                ("discard", False, ("",)), ("stages", True, ("",))),
}
OWNERS = {"duel": ("", " owner=me", " owner=opponent", " owner=any"),
          "classic": ("", " owner=me", " owner=left", " owner=right", " owner=neighbours")}
# Decisions an action or a rule may ask on the way (the frame handed to the loop mid-action).
CHOICES = {"duel": ("choose 1 from board_tokens { acquire chosen }", "choose 1 from city owner=opponent { discard chosen }"),
           "classic": ("choose 1 from discard { build chosen free }", "choose 1 from city owner=left { gain 1 coins }")}
CONDITIONS = ("coins >= {n}", "age >= {n}", "count(city) >= {n}", "count(city, color=red) < {n}", "coins < {n} * 3")


def fan_actions(base: str):
    """An expansion of one to four new actions for the base game `base` ("duel" or "classic")
    in the shapes a designer might write: none to three parameters from zones of the table
    (owners and filters, a `where=`, two from one zone), guards in front and behind, a
    `before_turn`, and a body that moves or pays what it names.  A strategy of the expansion's
    text."""
    zones, owners = PARAM_ZONES[base], OWNERS[base]

    @st.composite
    def condition(draw) -> str:
        return draw(st.sampled_from(CONDITIONS)).format(n=draw(st.integers(0, 4)))

    @st.composite
    def action(draw, k: int) -> str:
        lines = [f"action fan_{k} {{"]
        if draw(st.integers(0, 4)) == 0:
            lines.append("    before_turn")
        for _ in range(draw(st.integers(0, 2))):
            lines.append(f"    require {draw(condition())}")
        params = []
        for j in range(draw(st.integers(0, 3))):
            zone, per_seat, filters = draw(st.sampled_from(zones))
            owner = draw(st.sampled_from(owners)) if per_seat else ""
            where = f" where={draw(condition())}" if draw(st.integers(0, 4)) == 0 else ""
            lines.append(f"    param p{j} from {zone}{owner}{draw(st.sampled_from(filters))}{where}")
            params.append(zone)
        if draw(st.booleans()):
            lines.append(f"    require {draw(condition())}")
        body = ["gain 1 coins", "pay 1 coins", "shields 1" if base == "duel" else "gain 2 coins",
                f"if {draw(condition())} {{ gain 3 coins }}"] + list(CHOICES[base])
        for j, zone in enumerate(params):
            body += [f"discard p{j}", f"move p{j} box"]
            if zone in ("structure", "hand"):
                body += [f"build p{j}", f"build p{j} free"]
        for _ in range(draw(st.integers(1, 4))):
            lines.append("    " + draw(st.sampled_from(body)))
        if base == "classic":   # (a seat's card of the turn leaves its hand as every action's does)
            lines.append("    run last_card")
        lines.append("}")
        return "\n".join(lines)

    @st.composite
    def expansion(draw) -> str:
        actions = [draw(action(k)) for k in range(draw(st.integers(1, 4)))]
        return "expansion fan {\n    title \"Fan actions\"\n}\n\n" + "\n\n".join(actions) + "\n"

    return expansion()


# What a replaced card may be made of, by base game: resources, colours, chain symbols, and the
# statements of a card that the engine keeps values for (production, prices, discounts, points).
CARD_WORDS = {
    "duel": {"resources": ("wood", "clay", "stone", "glass", "papyrus"),
             "colors": ("brown", "grey", "blue", "green", "yellow", "red"),
             "chains": ("horseshoe", "sword", "book", "gear", "mask", "moon"),
             "effects": ("produce {r}", "produce 2 {r}", "produce {r}|{s}", "trade_price 1 {r}", "trade_price 1 {r} {s}",
                         "discount 1 color={c}", "discount 2 kind=wonder", "shields 1", "points {n}", "gain {n} coins",
                         "gain count(city, color={c}) coins", "science wheel",
                         "when built color={c} {{ gain 1 coins }}", "when built by=opponent {{ gain 1 coins }}")},
    "classic": {"resources": ("wood", "stone", "clay", "ore", "glass", "papyrus", "textile"),
                "colors": ("brown", "grey", "blue", "yellow", "red", "green"),
                "chains": ("camel", "market", "lamp", "book", "barrel"),
                "effects": ("produce {r}", "produce 2 {r}", "produce {r}|{s}", "trade_price 1 {r} from=neighbours",
                            "trade_price 1 {r} {s} from=left", "modify shields 1", "points {n}", "gain {n} coins",
                            "gain count(city, color={c}) coins", "science gear")},
}


def card_replacements(base: str):
    """An expansion replacing one to four of the base game's age cards (`base`: "duel" or
    "classic") by cards of the same age, of a random colour, cost, chains and one to three
    effects that the engine keeps values for (production, trade prices, discounts, points,
    triggers): a designer rebalancing cards.  A strategy of the expansion's text."""
    words = CARD_WORDS[base]
    cards = sorted({(m.group(2), m.group(1)) for path in sorted((CARDS / base).glob("age*.rules"))
                    for m in re.finditer(r'^card "([^"]+)" \{\n    age (\d)', path.read_text(encoding="utf-8"), re.M)})
    copies = {name: m.group(1) for path in sorted((CARDS / base).glob("age*.rules"))
              for name, m in ((n, re.search(r"\n    (copies [\d ]+)\n", body)) for n, body in
                              re.findall(r'^card "([^"]+)" \{(.*?)\n\}', path.read_text(encoding="utf-8"), re.M | re.S)) if m}

    @st.composite
    def card(draw, age: str, name: str) -> str:
        r, s = draw(st.sampled_from(words["resources"])), draw(st.sampled_from(words["resources"]))
        if s == r:
            s = words["resources"][(words["resources"].index(r) + 1) % len(words["resources"])]
        lines = [f'replace card "{name}" {{', f"    age {age}", f"    color {draw(st.sampled_from(words['colors']))}"]
        if name in copies:   # (the classic game's copies by player count stay as they were)
            lines.append(f"    {copies[name]}")
        cost = draw(st.sampled_from(["", "cost 2 coins", f"cost {r}", f"cost 2 {r} {s}", f"cost 1 coins {r}"]))
        if cost:
            lines.append(f"    {cost}")
        if draw(st.integers(0, 3)) == 0:
            lines.append(f"    chain_from {draw(st.sampled_from(words['chains']))}")
        if draw(st.integers(0, 3)) == 0:
            lines.append(f"    chain_gives {draw(st.sampled_from(words['chains']))}")
        for _ in range(draw(st.integers(1, 3))):
            effect = draw(st.sampled_from(words["effects"]))
            lines.append("    " + effect.format(r=r, s=s, c=draw(st.sampled_from(words["colors"])), n=draw(st.integers(1, 3))))
        return "\n".join(lines + ["}"])

    @st.composite
    def expansion(draw) -> str:
        picked = draw(st.lists(st.sampled_from(cards), min_size=1, max_size=4, unique=True))
        return ("expansion rebalance {\n    title \"Rebalanced cards\"\n}\n\n"
                + "\n\n".join(draw(card(age, name)) for age, name in picked) + "\n")

    return expansion()


# Events a fan rule may hear, with the filters each takes, by base game; and what it may do.
RULE_EVENTS = {
    "duel": (("built", (" color={c}", " kind=card", " kind=wonder", " via=chain", " via=paid")), ("acquired", ("",)),
             ("gained_science", ("",)), ("pawn_moved", ("",)), ("traded", ("",)), ("discarded", (" color={c}", " kind=card")),
             ("uncovered", (" color={c}", "")), ("age_ended", ("",)), ("structure_dealt", ("",))),
    "classic": (("built", (" color={c}", " kind=card", " via=chain")), ("traded", ("",)),
                ("discarded", (" color={c}", "")), ("age_ended", ("",))),
}
RULE_EFFECTS = {
    "duel": ("gain 1 coins", "lose 1 coins", "shields 1", "gain count(city, color={c}) coins",
             "if coins >= {n} {{ gain 1 coins }}", "lose 2 coins", "choose 1 from board_tokens {{ acquire chosen }}"),
    "classic": ("gain 1 coins", "gain count(city, color={c}) coins", "if coins >= {n} {{ gain 1 coins }}",
                "choose 1 from city owner=left {{ gain 1 coins }}"),
}


def fan_rules(base: str):
    """An expansion of one to three `rule`s hearing the base game's events (`base`: "duel" or
    "classic"), with `by=` and the events' own filters, doing what changes coins, shields and
    points: where the engine's lists of who hears what (`events`) meet filters no bundled
    trigger has.  A strategy of the expansion's text."""
    colors = CARD_WORDS[base]["colors"]

    @st.composite
    def rule(draw, k: int) -> str:
        event, filters = draw(st.sampled_from(RULE_EVENTS[base]))
        c = draw(st.sampled_from(colors))
        by = draw(st.sampled_from(["", " by=me", " by=any"] + [" by=opponent"] * (base == "duel")))
        heard = f"{event}{by}{draw(st.sampled_from(filters)).format(c=c)}"
        effects = [draw(st.sampled_from(RULE_EFFECTS[base])).format(c=draw(st.sampled_from(colors)), n=draw(st.integers(0, 6)))
                   for _ in range(draw(st.integers(1, 2)))]
        return f'rule "Fan {k}" {{\n    when {heard} {{\n' + "".join(f"        {e}\n" for e in effects) + "    }\n}"

    @st.composite
    def expansion(draw) -> str:
        rules = [draw(rule(k)) for k in range(draw(st.integers(1, 3)))]
        return "expansion fan {\n    title \"Fan rules\"\n}\n\n" + "\n\n".join(rules) + "\n"

    return expansion()
