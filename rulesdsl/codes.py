"""Every diagnostic code `rulesdsl check` can report, with a one-line title.

This is the single list of codes: the documentation is generated from it, and a test checks
that every code the parser, loader and checker emit is here (and has a broken example file in
tests/broken/).  E0xx: reading and syntax; E1xx: definitions; E2xx: statements; E3xx: names
and types; E4xx: whole-game consistency; W5xx: warnings.
"""

from __future__ import annotations

from typing import NamedTuple

CODES: dict[str, str] = {
    # -- reading and syntax (rulesdsl/parser.py, rulesdsl/loader.py) ----------------------------
    "E001": "syntax error: unexpected token",
    "E002": "unexpected character",
    "E003": "unexpected end of file or unclosed `{`",
    "E004": "unterminated string",
    "E005": "file is not valid UTF-8",
    "E006": "number too large",
    "E007": "nested too deeply",
    "E008": "unexpected word in a definition header",
    "E009": "cannot read file",
    "E010": "control or invisible character in a quoted name",
    "E011": "no card file in a folder",
    # -- definitions (rulesdsl/loader.py, rulesdsl/checker.py) ----------------------------------
    "E101": "unknown kind of definition",
    "E102": "duplicate definition",
    "E103": "definition has no name",
    "E104": "required statement missing",
    "E105": "replace/extend/remove of an undefined definition",
    "E106": "definition has no body",
    "E107": "expansion made for another base game",
    # -- statements ------------------------------------------------------------------------------
    "E201": "unknown statement",
    "E202": "statement not allowed here",
    "E203": "wrong number of arguments",
    "E204": "unknown or invalid option",
    "E205": "block missing or not allowed",
    "E206": "statement given twice",
    # -- names and types -------------------------------------------------------------------------
    "E301": "unknown resource",
    "E302": "unknown colour",
    "E303": "unknown scientific symbol",
    "E304": "unknown chain symbol",
    "E305": "unknown zone",
    "E306": "unknown item name",
    "E307": "unknown name, event field or item attribute",
    "E308": "unknown function",
    "E309": "wrong type",
    "E310": "unknown event",
    "E311": "unknown layout",
    "E312": "`else` without `if`",
    "E313": "unknown kind",
    "E314": "unknown table",
    "E315": "unknown procedure",
    "E316": "unknown counter",
    "E317": "a negative count",
    # -- whole-game consistency ------------------------------------------------------------------
    "E401": "not enough cards for a structure or deal",
    "E402": "overlapping cards in a layout row",
    "E403": "missing or second `game` definition",
    "E404": "player count the game cannot be played with",
    "E405": "nothing to play: no age, structure or card-taking action",
    "E406": "cards of an age that no age deals",
    "E407": "no zone for an item that comes into play",
    "E408": "a two-player word or construct (`opponent`, the conflict track, `shields`, `pawn_moved`) in a game of more seats",
    "E409": "the game cannot be played at a player count it supports",
    "E410": "an effect that certainly never ends (a cycle of runs or triggers)",
    "E411": "`repeat` or `choose` count above the limit (nested counts multiplied)",
    "E412": "more items (copies counted) than a game may hold",
    # -- warnings --------------------------------------------------------------------------------
    "W501": "chain symbol given but never used",
    "W502": "chain symbol used but never given",
    "W503": "item starts in a zone nothing takes from",
    "W504": "no action that is always possible",
    "W505": "a computed seat the game may not have",
    "W506": "an action's parameter names items its player cannot see",
    "W507": "`deal_onto_structure` in an age, before its structure is laid out",
    "W508": "a computed count or amount that can be below 0 (taken as 0)",
    "W509": "a trigger that this game never sets off",
    "W510": "a comparison that is never (or always) true in this game",
    "W511": "a copy for more players than the game has, or for fewer than any game",
    "W512": "a cost no seat can ever pay: more of a resource than all the game's items make",
}


class Explanation(NamedTuple):
    """What `rulesdsl explain CODE` says: what the code means, a card file making the mistake,
    and how to fix it."""

    meaning: str
    example: str
    fix: str


_CARD = 'card "Test Card" {{\n    age 1\n    color {color}\n{body}}}\n'


def _card(body: str, color: str = "brown") -> str:
    return _CARD.format(color=color, body="".join(f"    {line}\n" for line in body.split("\n") if line))


EXPLANATIONS: dict[str, Explanation] = {
    "E001": Explanation(
        "The parser met a word or symbol where the grammar does not allow one: a stray bracket, "
        "a missing argument, two statements run together.",
        _card("gain 2 coins)"),
        "Look at the place the caret points to and at what the help says was expected there; "
        "remove the stray token or add the missing one."),
    "E002": Explanation(
        "A character that is no part of the language (only letters, digits, `_`, quotes, brackets, "
        "operators and `#` comments are).",
        _card("produce wood @"),
        "Remove the character; names with spaces or symbols are written in quotes: \"My Card\"."),
    "E003": Explanation(
        "The file ended while a `{` was still open, or in the middle of a statement. The `{` "
        "reported is the one most likely never closed (judged by indentation).",
        'card "Test Card" {\n    age 1\n    color brown\n    if coins >= 3 {\n        gain 1 coin\n}\n',
        "Add the missing `}` (or finish the last statement). Definitions complete before the "
        "open `{` are still checked."),
    "E004": Explanation(
        "A quoted name has no closing `\"` on its line; quoted names cannot span lines.",
        'card "Test Card {\n    age 1\n    color brown\n}\n',
        "Close the name with `\"` on the same line."),
    # (E005, E010: the bytes at fault cannot be shown as text, and an escape such as `\\xe9`,
    # copied into a file, is a backslash the parser refuses for another reason: the example shows
    # the character as an editor does, says which bytes are meant, and a `printf` makes the file)
    "E005": Explanation(
        "The file's bytes are not valid UTF-8, e.g. a name saved in Latin-1: `Café` with the "
        "é as the single byte 0xE9. To make such a file: "
        "`printf 'card \"Caf\\351\" {\\n    age 1\\n}\\n' > latin1.rules`.",
        'card "Café" {        # the é is the byte 0xE9 alone, as a Latin-1 editor saves it\n    age 1\n}\n',
        "Save the file as UTF-8 (most editors offer it under \"Save with encoding\")."),
    "E006": Explanation(
        "A number has more digits than card files allow (9).",
        _card("gain 123456789012345678901234567890 coins"),
        "Use a smaller number: no rule of the game needs one this big."),
    "E007": Explanation(
        "Blocks or brackets are nested more deeply than the engine walks (100 levels).",
        _card("points " + "[" * 120 + "1" + "]" * 120),
        "Split the expression or block into simpler parts."),
    "E008": Explanation(
        "A definition header has a word too many: a header is a kind and one name, and a name "
        "with spaces must be quoted.",
        'card Test Card {\n    age 1\n    color brown\n}\n',
        'Quote the name: card "Test Card" { ... }.'),
    "E009": Explanation(
        "A card file could not be read: a broken link, a file without read permission, "
        "a folder, FIFO or device named where a file was expected.",
        "cards.rules -> nowhere.rules   (a link to a file that does not exist)",
        "Fix the path or the permissions, or remove the link."),
    "E010": Explanation(
        "A quoted name holds a control character (an escape, a carriage return, a bidirectional "
        "override, a tab, ...) or an invisible one (a zero-width space, a word joiner, a byte "
        "order mark, a Hangul filler). Names are printed on terminals, where a control could "
        "recolour, retitle or rewrite what is shown, and an invisible character makes a name that "
        "looks like another but is not it. To make such a file: "
        "`printf 'card \"Test Card\\033]0;owned\" {\\n    age 1\\n    color brown\\n}\\n' > esc.rules`.",
        'card "Test Card\u241b]0;owned" {    # \u241b stands for the ESC character (byte 0x1B) itself\n'
        '    age 1\n    color brown\n}\n',
        "Remove the character (an editor that shows invisible characters helps find it)."),
    "E101": Explanation(
        "The first word of a definition is not a kind the engine or the game knows "
        "(card, wonder, token, action, age, layout, ... and the game's own `item_kinds`).",
        'crad "Test Card" {\n    age 1\n    color brown\n}\n',
        "Correct the kind (the help suggests the closest), or declare a new item kind with "
        "`item_kinds` in the game or expansion."),
    "E102": Explanation(
        "Two definitions have the same kind and name, or two items of different kinds share a "
        "name (actions and traces name items by name alone).",
        _card("produce wood") + "\n" + _card("produce clay"),
        "Rename one, or, to change a definition an earlier folder made, write "
        "`replace card \"Its Name\" { ... }`."),
    "E103": Explanation(
        "A definition that must have a name has none.",
        "card {\n    age 1\n    color brown\n}\n",
        'Give it a name: card "My Card" { ... }.'),
    "E104": Explanation(
        "A statement the definition's kind requires is missing (every card needs `age` and "
        "`color`, every invariant `holds`, ...).",
        'card "Test Card" {\n    age 1\n    produce wood\n}\n',
        "Add the statement the message names."),
    "E105": Explanation(
        "`replace`, `extend` or `remove` names a definition that no earlier folder defines.",
        'replace card "Lumber Yrd" {\n    age 1\n    color brown\n    produce wood\n}\n',
        "Correct the name (the help suggests the closest), or check the expansion on top of the "
        "content that defines it: rulesdsl check -e EXPANSION PATH. Expansions apply in their "
        "`order`: one that changes another expansion's definitions needs a higher `order`."),
    "E106": Explanation(
        "A definition has a header but no `{ ... }` block.",
        'card "Test Card"\n',
        "Add the block after the name, even if it is empty: `{ }`."),
    "E107": Explanation(
        "An expansion's `base` names the game it is made for, and it is laid on another. The "
        "expansion is left out, so that its changes to a game it was not made for are not each "
        "an error of their own.",
        "expansion test {\n    base another_game\n}\n",
        "Play it on the game its `base` names (`--game NAME`), or correct `base`."),
    "E201": Explanation(
        "The first word of a statement is not a statement the engine knows.",
        _card("sheilds 1", "red"),
        "Correct the word (the help suggests the closest); `rulesdsl explain` on a card shows "
        "what the engine understood of it."),
    "E202": Explanation(
        "A statement the engine knows, but not in this kind of definition or block "
        "(e.g. `players` outside the game, `holds` outside an invariant).",
        _card("players 2"),
        "Move the statement to the definition it belongs in, or remove it."),
    "E203": Explanation(
        "A statement or function got more or fewer arguments than it takes.",
        _card("shields 1 2", "red"),
        "Give the number of arguments the help's example shows."),
    "E204": Explanation(
        "A `name=value` option the statement or event does not have, or a value it does not accept; "
        "or a zone without what the statement needs there: `choose_space` on a zone with no spaces "
        "(`spaces=`), `add_cube`, `remove_cube`, `move_cube` or a trigger's `zone=` on one with no "
        "cubes (`counters=`), `rotate` on a zone that is not a `player` zone, `place` or `deal` "
        "with `space=` on a zone with no spaces (the track's aside) or a number beyond its spaces, "
        "`deal_structure` or `deal_onto_structure` from a `player` zone (the structure is the whole game's); "
        "or an option a game that trades with neighbours cannot honour: a bank price (`trade_discount`, "
        "`trade_price` without `from=`), a discount's `or_coins=true`; or a price in a game where nothing "
        "is bought (`trade none`): the game's `trade_price`, an item's `trade_price` or `trade_discount`, "
        "a `where=` on `trade none`.",
        _card("gain 2 coins whom=opponent", "yellow"),
        "Use one of the options the help lists (here `who=`)."),
    "E205": Explanation(
        "A statement that needs a `{ ... }` block has none, or one that takes none has one (so "
        "does a `remove`, whose statements would not be read: `replace` or `extend` changes a "
        "definition).",
        _card("repeat 2", "yellow"),
        "Add the block (`repeat 2 { gain 1 coin }`) or remove it."),
    "E206": Explanation(
        "A statement that may appear once in a definition appears twice.",
        _card("color grey"),
        "Keep one of them."),
    "E301": Explanation(
        "A word in a resource position is not one of the resources the game declares "
        "(`resources` in the game or an expansion).",
        _card("produce wod"),
        "Correct the word, or declare the resource. One of several resources is written "
        "with `|`: produce wood|clay."),
    "E302": Explanation(
        "A word in a colour position is not one of the game's colours (`colors`).",
        'card "Test Card" {\n    age 1\n    color purpel\n}\n',
        "Correct the word (the help suggests the closest), or declare the colour."),
    "E303": Explanation(
        "A word in a scientific-symbol position is not one of the game's symbols (`science`).",
        _card("science globle", "green"),
        "Correct the word, or declare the symbol."),
    "E304": Explanation(
        "A chain symbol (`chain_gives`, `chain_from`) that the game's `chains` do not declare.",
        _card("chain_from horsehoe", "red"),
        "Correct the word, or declare the symbol in the game or expansion."),
    "E305": Explanation(
        "A zone name that the game's `zone` statements do not declare.",
        _card("choose 1 from cemetery { build chosen free }", "purple"),
        "Use a declared zone (the help lists them), or declare the zone."),
    "E306": Explanation(
        "A quoted item name that no card, wonder, token or other item is called.",
        _card('acquire "Pyramid"', "yellow"),
        "Correct the name: item names are exact, quotes and capitals included."),
    "E307": Explanation(
        "A plain word in an expression that is not a name the expression can use there "
        "(a counter, `me`, `opponent`, a parameter, ...).",
        _card("gain coinz coins", "yellow"),
        "Correct the word (the help suggests the closest)."),
    "E308": Explanation(
        "A call `name(...)` of a function the engine does not have.",
        _card("points cout(city)", "blue"),
        "Correct the function's name (the help suggests the closest)."),
    "E309": Explanation(
        "A value of the wrong type: a player where a number is needed, a word where quoted "
        "text is, `wood or clay` where one resource is, ...",
        _card("shields opponent", "red"),
        "Give a value of the type the message names; the help shows an example. One of "
        "several resources is written `wood|clay`, not `wood or clay`."),
    "E310": Explanation(
        "`when` names an event the engine does not raise.",
        _card("when build by=me { gain 1 coin }", "yellow"),
        "Use one of the events the help lists (here `built`)."),
    "E311": Explanation(
        "A `layout=` that names no `layout` definition.",
        "age 4 {\n    deal_structure age1 layout=pyramid\n}\n",
        "Correct the name or define the layout: layout pyramid { row up 1 3 5 }."),
    "E312": Explanation(
        "An `else` block that does not directly follow an `if` block.",
        _card("else { gain 1 coin }", "yellow"),
        "Put the `else` right after the `if { ... }` it belongs to, or remove it."),
    "E313": Explanation(
        "A `kind=` value (or other kind position) that is not a kind of item "
        "(card, wonder, token, ... and the game's `item_kinds`).",
        'token "Test Token" {\n    discount 1 kind=wonders\n}\n',
        "Use a kind of item: `kind=wonder`, not the zone `wonders`."),
    "E314": Explanation(
        "`lookup()` reads a table that no `table` statement declares.",
        'token "Test Token" {\n    points lookup(bonus_points, 2)\n}\n',
        "Declare the table in the game or expansion: table bonus_points [0, 1, 2]."),
    "E315": Explanation(
        "`run` names a procedure that no `procedure` definition defines.",
        'token "Test Token" {\n    run may_mvoe_cube\n}\n',
        "Correct the name, or define the procedure: procedure NAME { ... }."),
    "E316": Explanation(
        "`add` or `counter()` names a counter that no `counter` statement declares.",
        'token "Test Token" {\n    add 2 militray\n}\n',
        "Correct the name, or declare the counter in the game or expansion: counter NAME."),
    "E317": Explanation(
        "A number that counts something (coins gained, lost or paid, a cost, what a card produces, "
        "shields, cards chosen, dealt or taken, the rounds of a `repeat`) is written negative. "
        "The engine would not do what the sign suggests: a negative gain gives nothing, a negative "
        "production lowers what the other players pay.",
        'card "Test Card" {\n    age 1\n    color yellow\n    gain -2 coins\n}\n',
        "Write the count without a sign, and the verb that says the direction: `lose 2 coins` "
        "rather than `gain -2 coins`."),
    "E401": Explanation(
        "A deal or a structure needs more cards than the deck it draws from holds.",
        "replace age 3 {\n    deal 3 age3 box unseen=true\n    deal 8 guilds age3\n"
        "    move_all guilds box\n    deal_structure age3 layout=age3\n}\n",
        "Deal fewer cards, use a smaller layout, or add cards of that age."),
    "E402": Explanation(
        "Two cards of a layout row would overlap: columns are half-cards, so neighbours must "
        "be 2 or more apart.",
        "layout narrow {\n    row up 1 3 4 7\n}\n",
        "Space the columns 2 apart or more: row up 1 3 5 7."),
    "E403": Explanation(
        "A content set has no `game` definition, or more than one. A folder without a game is "
        "an expansion: check it on top of its base game.",
        "game first {\n    players 2\n}\n\ngame second {\n    players 2\n}\n",
        "Keep one `game`; make other folders `expansion NAME { }`, and check an expansion with "
        "its base (rulesdsl check PATH, or rulesdsl check -e EXPANSION PATH)."),
    "E404": Explanation(
        "The game says how many players it seats (`players N`, at least 2 and at most 64), and "
        "every seat a card names (`player(K)`, `side K`) must be one of them: seats count from 0.",
        _card("gain 1 coin who=player(2)"),
        "Name a seat from 0 to players - 1, or raise `players` if the game really seats more."),
    "E405": Explanation(
        "Nothing lets the game move on: there is no age, an age lays out no structure (or one "
        "with no card a player can take), or no action takes a card from the structure, so no "
        "age could ever end.",
        "remove action build\nremove action discard\nremove action wonder\n",
        "Keep at least one action that takes a card from the structure, and give each age a "
        "`deal_structure` whose layout has an uncovered face-up card."),
    "E406": Explanation(
        "Cards that no age deals, or an item that starts in no zone and that nothing names: it "
        "would sit outside the game all game.",
        'card "Test Card" {\n    age 4\n    color brown\n}\n',
        "Use an age the game deals (its `age N` definitions), give the item a `deck`, or define "
        "the age that deals it."),
    "E407": Explanation(
        "An effect can bring an item into play (`build`, `acquire`, `take_attached`) whose kind no "
        "`build_zone` places (a quoted item, a pick from a zone, `first_in(ZONE)`: the kinds that "
        "zone may hold), or `discard` with no discard pile declared.",
        'expansion test {\n    item_kinds relic\n}\n\nrelic "Test Relic" { }\n\n'
        'rule "Test Rule" {\n    when built kind=wonder {\n        acquire "Test Relic"\n    }\n}\n',
        "Add `build_zone KIND ZONE` (and `discard_pile ZONE`) to the game or the expansion."),
    "E408": Explanation(
        "`opponent` means the other player, which only two-player games have: at 3 or more seats "
        "it names nobody in particular. Likewise the conflict track (a pawn between two capitals), "
        "`shields` that move its pawn, and `pawn_distance`/`track_points` that read it.",
        'game three {\n    players 3\n    resources wood\n    colors yellow\n    item_kinds card\n    zone city player active public\n    zone discard public\n    zone age1\n    build_zone card city\n    discard_pile discard\n    score coins coins\n}\n\nlayout row {\n    row up 1 3\n}\n\nage 1 {\n    deal_structure age1 layout=row\n}\n\naction discard {\n    param card from structure\n    discard card\n}\n\ncard "Test Card" {\n    age 1\n    color yellow\n    gain 1 coin who=opponent\n}\n\ncard "Other Card" {\n    age 1\n    color yellow\n}\n',
        "Say which seat: `left` or `right` (a neighbour), or, where several are taken (`owner=` of "
        "a count, `by=` of a trigger), `neighbours` or `others`."),
    "E409": Explanation(
        "`check` plays eight random games at each player count the game supports (`players 3 7`): "
        "at this count the set-up could not deal what it asks for, the game got stuck (a player with "
        "no legal action), failed, or did not end. An effect that did not end (it set itself off "
        "again, past the step budget) or could not go on (a computed seat the game does not have, a "
        "number grown past the most a game keeps, 99,999,999 coins, points or counted) is reported "
        "at the innermost definition it was running (at an expansion's `extend` of it, where there "
        "is one); a deal that comes up short at the deal, with what it draws and what its deck holds "
        "then (at `players` where something else fills the deck); the others at the game's `players`. "
        "Without playing, an effect that can take a "
        "named item (or items a `choose` picks, deals or moves) out of a deck before a later deal "
        "that needs every item the deck holds then is reported where it is written: an Age I card "
        "moving an Age II card away starves the Age II structure, which takes all the deck keeps.",
        "game short {\n    players 3 4\n    turns simultaneous\n    resources wood\n    colors brown\n    item_kinds card\n    zone hand player private\n    zone city player active public\n    zone discard public\n    zone age1\n    build_zone card city\n    discard_pile discard\n    age_ends when count(hand, owner=all) == 0\n    score coins coins\n}\n\nage 1 {\n    each_player { deal 1 age1 hand }\n}\n\naction sell {\n    param card from hand\n    discard card\n    gain 1 coin\n}\n\ncard \"Test Card\" {\n    age 1\n    color brown\n    copies 3 3 3\n}\n",
        "Give the cards enough copies for the largest count (`copies 3 4 5`), deal fewer, or lower the "
        "most players; an effect that starves a deck takes its item from elsewhere (the structure, "
        "a city, the discard pile), or puts one back before that deal."),
    "E410": Explanation(
        "A procedure runs itself, procedures run each other, or an item's effect sets off its "
        "own trigger (an item's `when built { build event.item free }` builds the item itself "
        "again, its own build being the event), with nothing on the way that could stop it (no "
        "`if`, choice, filter or win): every game that reaches it would never end.",
        "procedure spin {\n    gain 1 coin\n    run spin\n}\n",
        "Put a condition on the way (`if ...`), or remove the call that closes the cycle; the "
        "message names the cycle."),
    "E411": Explanation(
        "A `repeat` count, or the number of picks of a `choose`, above the limit (1000): no rule "
        "repeats that often or lets a player pick that many times, and a count this large is a "
        "typo or a runaway. Nested constant counts multiply: `repeat`s inside `repeat`s whose "
        "rounds, or the steps those rounds take (each round a step, and so each statement it "
        "runs), come to more than an action's step budget (100000), or a `choose` inside "
        "`repeat`s and `choose`s asking more than 1000 picks in all.",
        'token "Test Token" {\n    repeat 999999999 { gain 1 coin }\n}\n',
        "Use a count of at most 1000, or compute what the repetition adds (`gain 5 * 3 coins`)."),
    "E412": Explanation(
        "The game holds more than 10000 items at its most players, each copy of an item (`copies`) "
        "counted: every item is compiled, dealt and kept in each game, and a `copies` line of "
        "hundreds of thousands of numbers made the content take minutes and gigabytes to load. "
        "The bundled games hold a few hundred.",
        'card "Test Card" {\n    age 1\n    color brown\n    copies 2 2 2 2 2 2 2 2 2 2 ...   # 20000 numbers\n}\n',
        "Give fewer copies or define fewer items; `copies` lists one number per copy, the fewest "
        "players that use it (`copies 3 5`), not a stock size."),
    "E011": Explanation(
        "A folder named as a game or expansion holds no `.rules` file: a misspelt or wrong "
        "folder, which would otherwise pass as an empty expansion.",
        "rulesdsl check my_cardz/   # the folder holds notes.txt, no .rules file",
        "Name the folder that holds the card files, or give the files the `.rules` ending."),
    "W501": Explanation(
        "A chain symbol is given by some card but no card is free with it: probably a typo or "
        "a missing card.",
        "expansion moons {\n    chains crescent\n}\n\n" + _card("chain_gives crescent", "blue"),
        "Add `chain_from crescent` to the card it should make free, or remove the symbol."),
    "W502": Explanation(
        "A card is free with a chain symbol that no card gives: the chain can never be used.",
        "expansion moons {\n    chains crescent\n}\n\n" + _card("chain_from crescent", "blue"),
        "Add `chain_gives crescent` to the card that should give it, or remove the symbol."),
    "W503": Explanation(
        "An item starts in a zone (its `deck`) that nothing deals, moves or chooses from: it can "
        "never reach play. Legal, but surely unintended.",
        'expansion test { title "Test"; zone attic }\ncard "Test Card" {\n    color brown\n    deck attic\n}\n',
        "Deal or move from that zone somewhere (an age, a procedure), or give the item another deck."),
    "W504": Explanation(
        "Every action that takes a card from the structure has a cost, a condition, a filter on "
        "the card it takes (`color=`, `where=`, ...) or a second parameter, and no action that takes "
        "no card is always possible either (`action rest { gain 1 coin }`), so a player short of "
        "coins, or facing only cards the filter refuses, may have nothing to do and the game "
        "would stop (`simulate` and `balance` then say which player is stuck). Legal (a test may "
        "want it), but surely unintended in a real game.",
        "replace action discard {\n    param card from structure\n    require coins < 50\n"
        "    discard card\n    gain 2 coins\n}\n",
        "Keep one action that is always possible, such as discarding a card for coins. Where "
        "`check`'s own trial game gets stuck so, that is an error too (E409)."),
    "W505": Explanation(
        "`player(...)` computes its seat, and as far as the expression tells, the number can "
        "fall outside the game's seats (a count can grow past them, a difference can go below "
        "0). Legal, but a game that meets such a seat stops with an error naming it.",
        _card("gain 1 coin who=player(modifier(luck))"),
        "Keep the number within the seats, e.g. `player(count(city) % players)`, or name the "
        "seat with a word (`left`, `right`, `opponent`)."),
    "W506": Explanation(
        "An action's parameter picks from items its player cannot see: face-down cards of "
        "`structure_all`, a zone that is neither `public` nor `private` (a deck, the box), "
        "another player's `private` zone, or a zone items are dealt or placed into face down "
        "(`face_down=true`) that no `reveal` turns up, or that some statement can still put items "
        "into after the last `reveal` of it can run (the card files' order: a reveal at Age II's start "
        "does not cover what a card of Age II, an `if age >= 2` or an action's `require age >= 2` puts "
        "there later, a reveal in an age's own block what its `when structure_dealt` puts, a reveal "
        "what its own block puts after it; a put they do not place in time is taken to come first; an "
        "action whose `require age` ends before such a put is not reported). Every legal action "
        "names its items by name, "
        "and the player's observation lists them, so a player or a bot would learn what is "
        "hidden. Legal, but `rulesdsl verify` reports it (`observation-hides`).",
        'action peek {\n    param card from structure_all\n    discard card\n}\n',
        "Pick from what the player sees: `structure` (the accessible cards), a `public` zone, "
        "or the player's own `private` zone (`owner=me`, the default); turn face-down items "
        "up first (`reveal ZONE`, where it runs after they are put there), or pick them with "
        "`choose`, which names them by their place."),
    "W507": Explanation(
        "An age lays out its structure after its other statements (so that an expansion's "
        "`extend age` can add cards first), so a `deal_onto_structure` in an age's block finds "
        "no card of the new structure and deals nothing.",
        "extend age 1 {\n    deal_onto_structure 1 progress_deck slots=[0]\n}\n",
        "Deal from a rule that hears the structure being laid out: `rule \"Bonus\" { when "
        "structure_dealt { if age == 1 { deal_onto_structure 1 progress_deck slots=[0] } } }`."),
    "W508": Explanation(
        "A count or amount that is computed (`gain count(city) - 10 coins`) can fall below 0, as far "
        "as its expression tells. The engine takes a count below 0 as 0: such a `gain` gains nothing, "
        "it does not take coins, a `lose` gives none, `shields` do not move the pawn back, a `repeat` "
        "runs no round. Legal, but what the expression says is not what happens (`explain` adds "
        "\"none if that comes to less than 0\").",
        _card("gain count(city) - 10 coins", "yellow"),
        "If nothing is meant below 0, say so: `gain max(0, count(city) - 10) coins`. If a loss is "
        "meant, write it: `if count(city) < 10 { lose 10 - count(city) coins }`."),
    "W509": Explanation(
        "The event a `when` waits for cannot happen in this game: an item of a kind that has no "
        "`build_zone` is never built or acquired (`when built kind=military_token`), and where no "
        "zone holds cubes (`counters=`) nobody ever gains or loses control of a space or adds a "
        "cube. Legal (an expansion may add what it needs), but the trigger does nothing here.",
        _card("when built kind=military_token { gain 3 coins }", "yellow"),
        "Wait for an event the game has (`when pawn_moved`, `when built kind=card`), or add "
        "what makes it happen (a `build_zone` for the kind, a zone with `counters=`)."),
    "W510": Explanation(
        "An ordered comparison (`<`, `<=`, `>`, `>=`) whose sides' ranges settle it whatever the "
        "game does: the conflict pawn never stands beyond its track's capitals (`pawn_distance > "
        "20` on a track of capital 9), the age is never past the game's last, a count is never "
        "below 0. What it guards never happens (or always does): usually a typo.",
        _card("if pawn_distance > 20 { gain 5 coins }", "yellow"),
        "Compare with a value the game can reach (`pawn_distance >= 6`), or drop the condition."),
    "W511": Explanation(
        "`copies` lists, for each copy of an item, the fewest players from which it is in the "
        "game (`copies 3 4`: one copy from 3 players, a second from 4). A number above the "
        "game's most players (`players 3 7`) is a copy that no game ever holds, and one below its "
        "fewest (`copies 0`, or `copies 2` in a game of 3 to 7) a copy every game holds said "
        "oddly: usually a count of copies written where the player counts were meant.",
        'card "Test Card" {\n    age 1\n    color yellow\n    copies 8\n}\n',
        "List one player count per copy, each at most the game's most players: `copies 3 5` "
        "for a copy from 3 players and a second from 5."),
    "W512": Explanation(
        "In a game whose seats buy resources from their neighbours (`trade neighbours`), a seat "
        "has of a resource only what its own items and its neighbours' items produce; where nothing "
        "is bought (`trade none`), only what its own items produce. An item "
        "whose cost asks more of a resource than every item of the game makes together, at the "
        "game's most players (each copy counted, a one-of producer once for each of its "
        "resources), can never be paid for, whatever happens. Not reported where a chain some item "
        "gives or a chain price, or a discount that may apply to the item, could spare it the cost, "
        "nor in a game that buys from the bank (which sells any resource). Legal (an effect's "
        "`build ... free` still puts it into play), but no seat can ever build it by paying.",
        'expansion costly {\n    title "Costly"\n    base classic\n}\n\n'
        'card "Test Card" {\n    age 3\n    color blue\n    copies 3\n    cost 11 papyrus\n'
        '    points 9\n}\n',
        "Lower the cost to what the game's items can make, or add an item that produces the "
        "resource (`produce papyrus`) for a seat to make or buy."),
}


def explain(code: str) -> str:
    """The text of `rulesdsl explain CODE`; KeyError for a code that does not exist."""
    code = code.upper()
    e = EXPLANATIONS[code]
    example = "\n".join("    " + line if line else "" for line in e.example.rstrip("\n").split("\n"))
    return (f"{code} ({severity(code)}): {CODES[code]}\n\n{e.meaning}\n\n"
            f"Example of the mistake:\n\n{example}\n\nHow to fix it: {e.fix}")


def severity(code: str) -> str:
    """"error" for E codes, "warning" for W codes."""
    return "warning" if code.startswith("W") else "error"
