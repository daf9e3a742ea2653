"""The one registry of the language: definition kinds, statements (properties, effects,
triggers, action parts), expression functions and events, with their parameters and types.

The checker validates against it, the compiler looks up the implementation of each name in
it, `explain` reads its English templates and did-you-mean draws candidates from it.
"""

from __future__ import annotations

import attrs

# Argument types.  Vocabulary types (resource, color, ...) are checked against the words the
# game definition declares; `int`/`bool`/`player`/`item` are expressions.
INT, BOOL, PLAYER, ITEM, TEXT = "int", "bool", "player", "item", "text"
RESOURCE, COLOR, SCIENCE, CHAIN, ZONE, LAYOUT, KIND, WORD = (
    "resource", "color", "science", "chain", "zone", "layout", "kind", "word")
COLORS = "colors"          # a color or a list of colors
AMOUNTS = "amounts"        # `2 wood clay 3 coins`: [count] word, repeated
PRODUCTS = "products"      # `2 wood` or `wood|clay|stone`
WORDS = "words"            # any number of bare words (vocabulary declarations)
INTS = "ints"              # any number of integers
EVENT = "event"
SELECTOR_ZONE = "selector_zone"  # a zone name or `structure`
SEATS = "seats"            # `owner=` of production/cubes: a seat or a group of seats, added up

# Roles: where a statement may stand.
PROPERTY = "property"   # describes the definition (static)
EFFECT = "effect"       # does something when run
TRIGGER = "trigger"     # `when EVENT ... { block }`
ACTION_PART = "action"  # only inside `action`
GAME = "game"           # only inside `game`
LAYOUT_PART = "layout"  # only inside `layout`


@attrs.frozen
class Param:
    name: str
    type: str
    optional: bool = False
    literal: tuple[str, ...] = ()  # for a fixed word such as `coins`


@attrs.frozen
class Verb:
    name: str
    role: str
    params: tuple[Param, ...] = ()
    kwargs: tuple[tuple[str, str], ...] = ()
    block: str = "none"            # "none", "optional" or "required"
    kinds: tuple[str, ...] = ()    # definition kinds allowed (properties); empty = any
    repeatable: bool = True        # may appear more than once in one definition
    doc: str = ""
    example: str = ""
    explain: str = ""              # English template; {param} fills in
    # Where an effect can run correctly: definition kinds (empty = wherever effects go).
    contexts: tuple[str, ...] = ()
    # Options without which it cannot run; an inner tuple is "one of these".
    needs: tuple[tuple[str, ...], ...] = ()
    # Its numbers are expressions evaluated in play; otherwise a property's or a game
    # statement's numbers are fixed when the content is compiled and must be written out.
    evaluated: bool = False

    @property
    def kwarg_types(self) -> dict[str, str]:
        return dict(self.kwargs)


FILTER_KWARGS = (("color", COLORS), ("kind", KIND), ("owner", "owner"), ("age", INT), ("deck", ZONE), ("where", BOOL),
                 ("named", ITEM))
ITEM_KINDS = ("card", "wonder", "token", "military_token")


def _verbs() -> dict[str, Verb]:
    v: list[Verb] = [
        # -- properties of items -------------------------------------------------------------
        Verb("age", PROPERTY, (Param("age", INT),), kinds=("card",), repeatable=False,
             doc="The age of a card; it starts in zone `ageN` unless it names a `deck`.",
             example="age 1", explain="Age {age:roman} card"),
        Verb("deck", PROPERTY, (Param("zone", ZONE),), repeatable=False,
             doc="The zone the item starts the game in.", example="deck guilds", explain="starts the game in {zone}"),
        Verb("color", PROPERTY, (Param("color", COLOR),), kinds=("card",), repeatable=False,
             doc="The card's colour.", example="color brown", explain="{color} card"),
        Verb("cost", PROPERTY, (Param("amounts", AMOUNTS),), repeatable=False,
             doc="What building it costs: coins and resources, each with an optional count.",
             example="cost 2 coins wood 2 stone", explain="cost: {amounts}"),
        Verb("chain_from", PROPERTY, (Param("symbol", CHAIN),), kinds=("card",),
             doc="Free to build for a player whose city has this chain symbol.",
             example="chain_from horseshoe", explain="free to build if you have the {symbol} chain symbol"),
        Verb("chain_gives", PROPERTY, (Param("symbol", CHAIN),),
             doc="The chain symbol this card gives its owner.", example="chain_gives horseshoe",
             explain="gives the {symbol} chain symbol"),
        Verb("produce", PROPERTY, (Param("products", PRODUCTS),),
             doc="Produces resources every turn: `produce 2 wood`, or one of several: `produce glass|papyrus`.",
             example="produce wood|clay|stone", explain="produces {products}"),
        Verb("trade_price", PROPERTY, (Param("price", INT), Param("resources", WORDS)), (("from", "side"),),
             doc="Fixes the owner's price for buying these resources from the bank, or with `from=left|right|"
                 "neighbours` from those neighbours (a game with `trade neighbours`). In `game`, the "
                 "base price formula, with `resource` the resource bought.",
             example="trade_price 1 wood", explain="{me:+buy} {resources} from {from:?%|the bank} for {price:coins} each"),
        Verb("discount", PROPERTY, (Param("count", INT),), (("kind", KIND), ("color", COLOR), ("or_coins", BOOL)),
             doc="Items of that kind or colour cost the owner `count` fewer resources (the dearest ones; in a "
                 "game of `trade neighbours`, any `count` of those its own production leaves missing, its choice).",
             example="discount 2 kind=wonder", explain="each {noun} {me:+build} costs {count:fewer resources} (the most expensive ones)"
                     "{or_coins:?; where it is cheaper, its coin cost is waived instead of one of those resources}"),
        Verb("science", PROPERTY, (Param("symbol", SCIENCE),),
             doc="A scientific symbol for the owner.", example="science quill", explain="scientific symbol: {symbol}"),
        Verb("points", PROPERTY, (Param("points", INT),), evaluated=True,
             doc="Victory points at the end of the game; the expression is evaluated then.",
             example="points 3 * count(tokens)", explain="worth {points:VP}"),
        Verb("side", PROPERTY, (Param("player", INT),), kinds=("military_token",), repeatable=False,
             doc="Whose half of the track a military token lies on (0 or 1).", example="side 0",
             explain="lies on {player:seat}'s half of the conflict track"),
        Verb("space", PROPERTY, (Param("distance", INT),), kinds=("military_token",), repeatable=False,
             doc="The distance from the centre at which the pawn reaches the token.", example="space 3",
             explain="taken when the conflict pawn reaches {distance} spaces from the centre"),
        # -- effects ---------------------------------------------------------------------------
        Verb("gain", EFFECT, (Param("amount", INT), Param("unit", WORD, literal=("coins", "coin"))),
             (("who", PLAYER),), doc="Coins from the bank.", example="gain 2 + count(city, color=yellow) coins",
             explain="{who:gain} {amount:coins}"),
        Verb("lose", EFFECT, (Param("amount", INT), Param("unit", WORD, literal=("coins", "coin"))),
             (("who", PLAYER),), doc="Coins back to the bank, never below 0.", example="lose 3 coins who=opponent",
             explain="{who:lose} {amount:coins}"),
        Verb("shields", EFFECT, (Param("count", INT),), (("by", PLAYER),),
             doc="Moves the conflict pawn that many spaces towards the opponent's capital, one space at a time.",
             example="shields 2", explain="{count:shields}"),
        Verb("play_again", EFFECT, doc="The player takes another turn after this one (lost at the end of an age).",
             example="play_again", explain="{me:take} another turn"),
        Verb("win", EFFECT, (Param("victory", WORD),),
             doc="The player wins at once; the word names the kind of victory.", example="win science",
             explain="{me:+win} the game ({victory} victory)"),
        Verb("choose", EFFECT, (Param("count", INT), Param("from", WORD, literal=("from",)),
                                Param("zone", SELECTOR_ZONE)),
             FILTER_KWARGS + (("by", PLAYER), ("as", WORD), ("optional", BOOL)), block="required",
             doc="A player picks items one at a time; the block runs for each pick with `chosen`. "
                 "Nothing happens when there is nothing to pick.",
             example="choose 1 from discard { build chosen free }",
             explain="{by:choose} {what} from {zone}{where:? where %} and {block}"),
        Verb("choose_player", EFFECT, (), (("by", PLAYER),), block="required",
             doc="A player picks a player; the block runs with `chosen` (a player).",
             example="choose_player by=me { starts_next_age chosen }", explain="{by:choose} a player; {block}"),
        Verb("starts_next_age", EFFECT, (Param("player", PLAYER),),
             doc="That player takes the first turn of the next age.", example="starts_next_age chosen",
             explain="{player:+start} the next age"),
        Verb("build", EFFECT, (Param("item", ITEM), Param("free", WORD, optional=True, literal=("free",))),
             doc="Pay the item's cost (unless `free`) and put it into play for the player: the `built` "
                 "event's triggers run first, then the item's own effects. Inside an action the cost makes "
                 "the action legal or not.",
             example="build chosen free", explain="{me:build} {item}{free:? for free}"),
        Verb("acquire", EFFECT, (Param("item", ITEM),),
             doc="Put the item into play for the player without paying (a token taken, for instance).",
             example="acquire chosen", explain="{me:take} {item}"),
        Verb("discard", EFFECT, (Param("item", ITEM),),
             doc="Put the item, and whatever lies on it, on the game's discard pile (from the structure or a city): "
                 "a `discarded` event for each, by the player.",
             example="discard chosen", explain="{me:discard} {item}"),
        Verb("move", EFFECT, (Param("item", ITEM), Param("zone", ZONE)), (("owner", PLAYER), ("onto", ITEM), ("at", WORD)),
             doc="Move an item to a zone (a player zone of `owner`, default the player); `onto` attaches it to another item.",
             example="move chosen wonders", explain="{me:move} {item} to {at:?the % of |}{zone}{onto:?, attached to %}"),
        Verb("move_all", EFFECT, (Param("from", ZONE), Param("to", ZONE)),
             (("owner", "owner"), ("at", WORD), ("claim", BOOL), ("where", BOOL)),
             doc="Move every item of a zone to another (with `where=`, those for which it holds; `it`: the item).", example="move_all draft wonders owner=player(0)",
             explain="{me:move} everything in {from} to {at:?the % of |}{to}"),
        Verb("deal", EFFECT, (Param("count", INT), Param("from", ZONE), Param("to", ZONE)),
             (("owner", PLAYER), ("space", INT), ("face_down", BOOL), ("unseen", BOOL)),
             doc="Move that many items, drawn at random, from one zone to another (a chance step).",
             example="deal 5 progress_deck board_tokens", explain="{me:draw} {what} at random from {from} into {to}{space:at}{face_down:?, face down}"
                     "{unseen:?, unseen by any player}"),
        Verb("deal_structure", EFFECT, (Param("from", ZONE),), (("layout", LAYOUT),),
             contexts=("age",), needs=(("layout",),),
             doc="Lay out a new card structure from random cards of a zone, following a layout.",
             example="deal_structure age1 layout=age1", explain="{me:lay} out the structure of layout {layout} with {nouns} drawn at random from {from}"),
        Verb("each_player", EFFECT, block="required",
             doc="Run the block once for each player, as that player.", example="each_player { gain 7 coins }",
             explain="{block}"),
        Verb("if", EFFECT, (Param("condition", BOOL),), block="required",
             doc="Run the block when the condition holds; an `else { }` may follow.",
             example="if distinct_science >= 6 { win science }", explain="if {condition}, {block}"),
        Verb("else", EFFECT, block="required", doc="After an `if`: runs when its condition did not hold.",
             example="else { gain 1 coin }", explain="otherwise, {block}"),
        Verb("repeat", EFFECT, (Param("count", INT),), block="required",
             doc="Run the block that many times: at most 1000 (a constant above it is error E411; a "
                 "count computed above it stops the action).", example="repeat 2 { gain 1 coin }", explain="repeat {count} times: {block}"),
        # -- triggers --------------------------------------------------------------------------
        Verb("when", TRIGGER, (Param("event", EVENT),),
             (("by", "owner"), ("color", COLORS), ("kind", KIND), ("via", WORD), ("zone", ZONE)), block="required",
             doc="Runs the block each time the event happens while the item is in play (a rule: always). "
                 "`by=me|opponent|others|left|right|neighbours|any` says whose event; `color=`, `kind=` and `via=` match the event's item, "
                 "`zone=` the zone of a zone event (`cube_added`, `control_gained`, `control_lost`).",
             example="when built by=me color=red { shields 1 }", explain="when {event}: {block}"),
        # -- action parts ----------------------------------------------------------------------
        Verb("param", ACTION_PART, (Param("name", WORD), Param("from", WORD, literal=("from",)),
                                    Param("zone", SELECTOR_ZONE)), FILTER_KWARGS, kinds=("action",),
             doc="One choice that makes up the action: an accessible structure card, or an item of a zone.",
             example="param card from structure", explain="choose {name:a} from {zone}{filter:? (%)}{where:? where %}"),
        Verb("require", ACTION_PART, (Param("condition", BOOL),), kinds=("action",),
             doc="The action is legal only while the condition holds.", example="require coins >= 2",
             explain="only if {condition}"),
        # -- game definition -------------------------------------------------------------------
        Verb("title", GAME, (Param("title", TEXT),), kinds=("game", "expansion"), repeatable=False,
             doc="The game's full title.", example='title "7 Wonders Duel"', explain="title: {title}"),
        Verb("players", GAME, (Param("count", INT), Param("most", INT, optional=True)), kinds=("game",), repeatable=False,
             doc="The player counts the game supports (2 to 64): one number, or the fewest and the most (`players 3 7`). "
                 "A game is played (and compiled) for one count: `--players N`, the fewest by default.",
             example="players 3 7", explain="{count}{most:? to %} players"),
        Verb("resources", GAME, (Param("words", WORDS),), kinds=("game", "expansion"),
             doc="Declares resource names.", example="resources wood clay stone", explain="resources: {words}"),
        Verb("colors", GAME, (Param("words", WORDS),), kinds=("game", "expansion"),
             doc="Declares card colours.", example="colors brown grey blue", explain="card colours: {words}"),
        Verb("science", GAME, (Param("words", WORDS),), kinds=("game", "expansion"),
             doc="In `game`: declares scientific symbols.", example="science globe wheel", explain="scientific symbols: {words}"),
        Verb("chains", GAME, (Param("words", WORDS),), kinds=("game", "expansion"),
             doc="Declares chain symbols.", example="chains horseshoe sword", explain="chain symbols: {words}"),
        Verb("zone", GAME, (Param("name", WORD), Param("flags", WORDS)),
             (("spaces", INT), ("counters", INT), ("ruled_by", ZONE), ("label", TEXT)),
             kinds=("game", "expansion"),
             doc="Declares a zone; flags: `player` (one per player), `active` (its items work for the "
                 "owner), `public` (both players see it); `label=\"...\"`: how `explain` names it "
                 "(\"your ...\", \"the ...\").", example="zone city player active public",
             explain="zone {name}{flags:? (%)}{label:?, named \"%\"}{spaces:?, with % spaces}"
                     "{counters:?, % cubes for each player}"
                     "{ruled_by:?; its items work for whoever controls their space of %, and hear only the events "
                     "of that space}"),
        Verb("build_zone", GAME, (Param("kind", KIND), Param("zone", ZONE)), kinds=("game", "expansion"),
             doc="The player zone an item of that kind goes to when built or acquired.",
             example="build_zone card city", explain="{kind:plural} that are built or taken go to {zone}"),
        Verb("start_zone", GAME, (Param("kind", KIND), Param("zone", ZONE)), kinds=("game", "expansion"),
             doc="The zone items of that kind start in when they name no deck.",
             example="start_zone wonder wonder_deck", explain="{kind:plural} start in {zone}"),
        Verb("discard_pile", GAME, (Param("zone", ZONE),), kinds=("game",), repeatable=False,
             doc="The zone `discard` puts items into.", example="discard_pile discard", explain="discarded items go to {zone}"),
        Verb("score", GAME, (Param("category", WORD), Param("points", INT)), kinds=("game", "expansion"), evaluated=True,
             doc="A scoring category counted for each player at the end.", example="score coins coins // 3",
             explain="{category} (end of game): {points:VP}"),
        Verb("tiebreak", GAME, (Param("category", WORD),), kinds=("game",), repeatable=False,
             doc="The score category that breaks a tie; still tied means a shared victory.",
             example="tiebreak blue", explain="a tie goes to the player with more VP from {category:source}; still tied, the victory is shared"),
        Verb("setup", GAME, kinds=("game", "expansion"), block="required", repeatable=False,
             doc="Runs once before the first age.", example="setup { each_player { gain 7 coins } }",
             explain="at setup: {block}"),
        Verb("between_ages", GAME, kinds=("game",), block="required", repeatable=False,
             doc="Runs after each age but the last, as the player who took the last card.",
             example="between_ages { choose_player by=me { starts_next_age chosen } }",
             explain="between two ages: {block}"),
        # -- track and layout ------------------------------------------------------------------
        Verb("capital", PROPERTY, (Param("distance", INT),), kinds=("track",), repeatable=False,
             doc="Distance from the centre to each capital.", example="capital 9", explain="each capital is {distance} spaces from the centre"),
        Verb("points", PROPERTY, (Param("points", INT),), kinds=("track",)),
        Verb("row", LAYOUT_PART, (Param("face", WORD, literal=("up", "down")), Param("columns", INTS)),
             kinds=("layout",), doc="One row of a layout: face up or down, then the half-card columns.",
             example="row up 5 7", explain="a face-{face} row at half-card columns {columns}"),
        # -- added for expansions: generic verbs several games share ------------------------
        Verb("item_kinds", GAME, (Param("words", WORDS),), kinds=("game", "expansion"),
             doc="Declares the kinds of items (cards, wonders, tokens, ...) definitions may use.",
             example="item_kinds card wonder token military_token", explain="item kinds: {words}"),
        Verb("table", GAME, (Param("name", WORD), Param("numbers", INTS)), kinds=("game", "expansion"),
             doc="A named row of numbers, read with lookup(NAME, index) (index from 0; past the end: the last).",
             example="table set_bonus 0 5 12 21", explain="table {name}: {numbers}"),
        Verb("copies", PROPERTY, (Param("counts", INTS),), repeatable=False,
             doc="One copy of the item per number; each number is the smallest player count that uses that copy "
                 "(`copies 3 4`: one copy from 3 players, a second from 4). Copies share the name. Without it: one copy.",
             example="copies 3 5", explain="one copy for each of these player counts and up: {counts}"),
        Verb("value", PROPERTY, (Param("value", INT),), repeatable=False,
             doc="A number printed on the item that rules read as `item.value` (a discount printed on a token).",
             example="value 3", explain="value: {value}"),
        Verb("modify", PROPERTY, (Param("name", WORD), Param("amount", INT)),
             doc="While in play, adds `amount` to the named modifier its owner's rules read with modifier(NAME).",
             example="modify activation_discount 2", explain="{amount:adds} {me:poss} {name:code} modifier"),
        Verb("copy_science", PROPERTY, repeatable=False,
             doc="Gives its owner the scientific symbols of the item it is attached to (`move X Z onto=Y`).",
             example="copy_science", explain="gives its owner the scientific symbols of the item it lies on"),
        Verb("blocks_pawn", PROPERTY, repeatable=False,
             doc="On the track, the conflict pawn cannot enter its space: it stops before it, and this item goes back to the zone it started in (its `deck`).",
             example="blocks_pawn", explain="stops the conflict pawn before its space"),
        Verb("chain_price", PROPERTY, (Param("coins", INT),), repeatable=False,
             doc="Its owner may build any card that has a `chain_from` for this many coins (not a chain build).",
             example="chain_price 1", explain="any card that a chain symbol makes free costs you {coins:coins} instead of its cost"),
        Verb("pieces", PROPERTY, (Param("zone", ZONE),), kinds=("track",), repeatable=False,
             doc="The zone of the pieces lying on the track (military tokens, blockers).", example="pieces track",
             explain="the pieces on the track lie in {zone}"),
        Verb("pay", EFFECT, (Param("amount", INT), Param("unit", WORD, literal=("coins", "coin"))),
             doc="Pay coins to the bank (treasury first, then coins parked on your cards). In an action, "
                 "the action is legal only if the player can pay.", example="pay 3 coins", explain="{me:pay} {amount:coins}"),
        Verb("place", EFFECT, (Param("item", ITEM), Param("zone", ZONE)), (("space", INT), ("owner", PLAYER), ("face_down", BOOL)),
             needs=(("space",),),
             doc="Put an item on a numbered space of a zone (a zone with `spaces=N`, or the track).",
             example='place "Blocker" track space=chosen', explain="{me:put} {item} on {zone}{space:at}{face_down:? face down}"),
        Verb("choose_space", EFFECT, (Param("zone", ZONE), Param("empty", WORD, optional=True, literal=("empty",))),
             (("by", PLAYER), ("where", BOOL), ("as", WORD)), block="required",
             doc="A player picks a space of a zone (`empty`: only free ones; the track: any position); the block runs with `chosen`.",
             example="choose_space board empty { place chosen_item board space=chosen }",
             explain="{by:choose} a{empty:?n %} space of {zone}{where:? where %} and {block}"),
        Verb("shuffle", EFFECT, (Param("zone", ZONE),),
             doc="Shuffle a zone (a chance step; of a zone each player has, the player's own); `take_top` then draws in that order.", example="shuffle north_deck",
             explain="{me:shuffle} {zone}"),
        Verb("take_top", EFFECT, (Param("count", INT), Param("from", ZONE), Param("to", ZONE)),
             doc="Move the top items of an ordered zone (no chance involved).", example="take_top 2 north_deck revealed",
             explain="{me:move} the top {what} of {from} to {to}"),
        Verb("return_to_deck", EFFECT, (Param("zone", ZONE),),
             doc="Put every item of a zone back on top of the zone it started in.", example="return_to_deck revealed",
             explain="{me:put} everything in {zone} back on top of the zone it started in"),
        Verb("deal_onto_structure", EFFECT, (Param("count", INT), Param("from", ZONE)), (("slots", "list"), ("marked", WORD)),
             needs=(("slots", "marked"),),
             doc="Lay items drawn at random from a zone onto the structure cards at these slot numbers "
                 "(slots count from 0, top row first). The `uncovered` event tells when such a card is turned up.",
             example="deal_onto_structure 3 bonus_tokens slots=[6, 8, 10]",
             explain="{me:put} {what} drawn at random from {from} onto the structure cards{slots:? in slots %}{marked:? marked %}"),
        Verb("take_attached", EFFECT, (Param("item", ITEM),),
             doc="Acquire every item lying on this one (tokens on a structure card).",
             example="take_attached event.item", explain="{me:take} every item lying on {item}"),
        Verb("trigger", EFFECT, (Param("item", ITEM),),
             doc="Run an item's effect for the player without taking the item (a military token applied).",
             example="trigger chosen", explain="{me:apply} the effect of {item}"),
        Verb("put_coins", EFFECT, (Param("amount", INT), Param("item", ITEM)),
             doc="Coins from the bank onto an item: its owner may spend them, losses cannot take them.",
             example="put_coins 7 this", explain="{me:put} {amount:coins} on {item}"),
        Verb("trade_discount", PROPERTY, (Param("coins", INT), Param("resources", WORDS)),
             doc="Its owner pays this many coins less per unit of these resources bought from the bank, never less than 1.",
             example="trade_discount 1 wood clay stone", explain="{me:+buy} {resources} from the bank for {coins:coins} less each (never below 1 coin)"),
        Verb("borrow_chains", PROPERTY, repeatable=False,
             doc="Chain symbols on the opponent's cards count as its owner's when building.",
             example="borrow_chains", explain="the opponent's chain symbols count as yours when you build"),
        Verb("cost_coins", PROPERTY, (Param("coins", INT),), repeatable=False, evaluated=True,
             doc="A coin cost computed when the item is built (with the player as `me`).",
             example="cost_coins count(city, color=black)", explain="cost: {coins:coins}, counted when it is built"),
        Verb("on_claim", PROPERTY, block="required", repeatable=False,
             doc="Runs when the item is claimed with `claim` (chosen in a draft), before it is built.",
             example="on_claim { add_cube council space=0 }", explain="when claimed: {block}"),
        Verb("mark", LAYOUT_PART, (Param("name", WORD), Param("slots", INTS)), kinds=("layout",),
             doc="Names a set of slots of a layout (numbered from 0, top row first) where tokens go.",
             example="mark bonus 2 4 9 11 13", explain="slots {slots} are marked {name}"),
        Verb("before_turn", ACTION_PART, kinds=("action",), repeatable=False,
             doc="The action is optional and comes first in a turn: afterwards the same player takes a normal action.",
             example="before_turn", explain="may be taken before the turn's action, and the turn goes on"),
        Verb("claim", EFFECT, (Param("item", ITEM), Param("zone", ZONE)), (("owner", PLAYER),),
             doc="Move an item to a zone (like `move`) and run its `on_claim` block for the player.",
             example="claim chosen wonders", explain="{me:take} {item} into {zone} (its claim effect applies)"),
        Verb("choose_one", EFFECT, (), (("by", PLAYER),), block="required",
             doc="A player picks one of the `option NAME { ... }` blocks inside; only that block runs.",
             example="choose_one { option place { add_cube council space=0 } option pass { } }",
             explain="{by:choose} one of: {block}"),
        Verb("option", EFFECT, (Param("name", WORD),), (("if", BOOL),), block="required",
             doc="One choice of a `choose_one`; with `if=`, offered only while the condition holds.",
             example="option pass { }", explain="{name}{block:? (%)}{if:? (offered if %)}"),
        Verb("add_cube", EFFECT, (Param("zone", ZONE),), (("space", INT), ("who", PLAYER)), needs=(("space",),),
             doc="One of the player's cubes from their supply onto a space of a zone with `counters` (none left: nothing).",
             example="add_cube council space=chosen", explain="{me:put} one of {who:poss} cubes on {zone}{space:at}"),
        Verb("remove_cube", EFFECT, (Param("zone", ZONE),), (("space", INT), ("who", PLAYER)), needs=(("space",),),
             doc="One of the player's cubes from a space back to their supply.",
             example="remove_cube council space=chosen who=opponent", explain="{me:return} one of {who:poss} cubes from {zone}{space:at} to {who:poss} supply"),
        Verb("move_cube", EFFECT, (Param("zone", ZONE),), (("from", INT), ("to", INT), ("who", PLAYER)),
             needs=(("from",), ("to",)),
             doc="One of the player's cubes from one space to another (a `cube_added` event for the space it reaches).", example="move_cube council from=a to=b",
             explain="{me:move} one of {who:poss} cubes on {zone} from {from:space} to {to:space}"),
        Verb("reveal", EFFECT, (Param("zone", ZONE),), (("space", INT), ("owner", PLAYER)),
             doc="Turn face up the items of a zone (or of one space of it); of a zone each player has, the "
                 "player's own (`owner=`: another's).", example="reveal edicts space=event.space",
             explain="{me:turn} face up everything in {zone}{space:on}"),
        Verb("run", EFFECT, (Param("procedure", "procedure"),),
             doc="Run a named `procedure` block here (same player, same names in scope).",
             example="run may_move_cube", explain="{procedure}"),
        # -- seats, rounds, ages (games of any number of seats) ---------------------------------
        Verb("turns", GAME, (Param("how", WORD, literal=("alternate", "simultaneous")),), kinds=("game",),
             repeatable=False,
             doc="How a turn goes: `alternate` (default: one seat after another) or `simultaneous` (every seat "
                 "chooses an action unseen, then all resolve together: payments first, then effects in seat order).",
             example="turns simultaneous", explain="turns: {how}"),
        Verb("after_round", GAME, kinds=("game",), block="required", repeatable=False,
             doc="Runs after each round (simultaneous turns), once, as seat 0, after the round's `after_turn` blocks.",
             example="after_round { rotate hand left }", explain="after each round: {block}"),
        Verb("end_of_age", GAME, kinds=("game",), block="required", repeatable=False,
             doc="Runs when an age ends (after the last age too), once, as seat 0.",
             example="end_of_age { each_player { add 1 military } }", explain="at the end of each age: {block}"),
        Verb("end_of_game", GAME, kinds=("game",), block="required", repeatable=False,
             doc="Runs after the last age's `end_of_age`, before the final scoring, once, as seat 0.",
             example="end_of_game { each_player { gain 1 coin } }", explain="at the end of the game: {block}"),
        Verb("age_ends", GAME, (Param("when", WORD, literal=("when",)), Param("condition", BOOL)), kinds=("game",),
             repeatable=False, evaluated=True,
             doc="The age ends after a turn or round when the condition holds (as seat 0). Without it an age ends "
                 "when its structure is empty; with neither, when nobody can act.",
             example="age_ends when count(hand, owner=all) == 0", explain="an age ends when {condition}"),
        Verb("counter", GAME, (Param("name", WORD),), (("label", TEXT),), kinds=("game", "expansion"),
             doc="A number per seat, from 0: `add N NAME` changes it, `counter(NAME)` reads it; "
                 "`label=\"...\"`: how the play screens name it beside its number.",
             example="counter military", explain="each player counts {name}{label:?, shown as \"%\"}"),
        Verb("trade", GAME, (Param("with", WORD, literal=("neighbours", "none")), Param("price", INT, optional=True)),
             (("where", BOOL),), kinds=("game",), repeatable=False,
             doc="Resources a build lacks may be bought from the two neighbours at `price` coins a unit, paid to the "
                 "neighbour; a neighbour sells what its items in play for which `where=` holds produce (`it`: the item). "
                 "`trade none`: nothing is bought, from the bank or anyone; a build takes what its player produces.",
             example="trade neighbours 2 where=it.color == brown",
             explain="a resource bought from a neighbour costs {price:coins}, paid to the neighbour"
                     "{where:?; a neighbour sells only what its items in play for which % produce}"),
        Verb("tiebreak_by", GAME, (Param("value", INT),), kinds=("game",), repeatable=False, evaluated=True,
             doc="Equal totals go to the player with the most of this (then `tiebreak`); still equal: a shared victory.",
             example="tiebreak_by coins", explain="a tie goes to the player with the highest {value}; still tied, the victory is shared"),
        Verb("rotate", EFFECT, (Param("zone", ZONE), Param("direction", WORD, literal=("left", "right"))),
             doc="Every seat's items in a per-seat zone move together to the seat on that side (left = seat + 1): "
                 "passing hands.", example="rotate hand left", explain="every player passes {zone} to the player on their {direction}"),
        Verb("add", EFFECT, (Param("amount", INT), Param("counter", "counter")), (("who", PLAYER),),
             doc="Add to a player's counter (a negative amount takes away).", example="add 3 military",
             explain="{who:add} {amount} to {counter}"),
        Verb("after_turn", EFFECT, block="required",
             doc="Run the block at the end of this turn (a simultaneous round: after every seat's action), as the player.",
             example="after_turn { choose 1 from discard optional=true { build chosen free } }",
             explain="at the end of the turn, {block}"),
        Verb("part_of", PROPERTY, (Param("item", ITEM),), repeatable=False,
             doc="The item this one belongs to (a stage to its board side); read as `it.part_of`.",
             example='part_of "Harbour Board (Day)"', explain="part of {item}"),
        Verb("order", GAME, (Param("position", INT),), kinds=("expansion",), repeatable=False,
             doc="Where the expansion is applied among several (lower first), whatever order they are given in.",
             example="order 2", explain="applied in position {position}"),
        Verb("base", GAME, (Param("game", WORD),), kinds=("expansion",), repeatable=False,
             doc="The base game the expansion is made for (the name of its `game`): on another, it is one "
                 "error (E107) instead of one for every definition it changes there.",
             example="base duel", explain="an expansion of {game}"),
    ]
    table: dict[str, Verb] = {}
    for verb in v:
        # `points` and `science` have two shapes; the first registered is the item one.
        table.setdefault(verb.name, verb)
    return table


VERBS: dict[str, Verb] = _verbs()

# Special shapes of a verb inside one definition kind.
TRACK_POINTS = Verb("points", PROPERTY, (Param("points", INTS),), kinds=("track",), repeatable=False,
                    doc="VP by distance from the centre, 0 upwards.", example="points 0 2 2 5 5 5 10 10 10",
                    explain="VP for the player the pawn has advanced for, by its distance from the centre (0 upwards): {points}")
GAME_SCIENCE = Verb("science", GAME, (Param("words", WORDS),), kinds=("game", "expansion"),
                    doc="Declares scientific symbols.", example="science globe wheel", explain="scientific symbols: {words}")
GAME_TRADE_PRICE = Verb("trade_price", GAME, (Param("price", INT),), kinds=("game",), repeatable=False, evaluated=True,
                        doc="The bank price of one resource; `resource` names the one bought.",
                        example="trade_price 2 + production(resource, owner=opponent, color=[brown, grey])",
                        explain="a resource bought from the bank costs {price:coins}")


def verb_for(kind: str, name: str) -> Verb | None:
    """The verb `name` as it applies inside a definition of `kind`."""
    if kind == "track" and name == "points":
        return TRACK_POINTS
    if kind in ("game", "expansion") and name == "science":
        return GAME_SCIENCE
    if kind == "game" and name == "trade_price":
        return GAME_TRADE_PRICE
    return VERBS.get(name)


@attrs.frozen
class Kind:
    name: str
    required: tuple[str, ...] = ()
    doc: str = ""
    named: bool = True
    single: bool = False   # a content set has at most one (a second would be ignored)


KINDS: dict[str, Kind] = {k.name: k for k in [
    Kind("game", doc="The game: vocabulary, zones, scoring, setup. One per base game."),
    Kind("expansion", doc='An expansion header: `expansion my_fan_set { title "My fan set" }`.'),
    Kind("card", required=("color",), doc="A building card of an age deck (or a guild)."),
    Kind("wonder", required=("cost",), doc="A wonder."),
    Kind("token", doc="A progress token."),
    Kind("military_token", required=("side", "space"), doc="A token on the conflict track."),
    Kind("track", required=("capital", "points"), single=True, doc="The conflict track."),
    Kind("layout", doc="The shape of an age structure."),
    Kind("age", doc="How an age is set up; ages run in the order they are defined."),
    Kind("action", doc="Something a player may do on their turn."),
    Kind("rule", doc="A trigger that always applies, for every player."),
    Kind("procedure", doc="A named block of effects that `run NAME` runs (shared by several items)."),
]}

@attrs.frozen
class Event:
    """An event the interpreter emits: the fields `event.X` may read, with their types, and
    what a `when` trigger may filter on (`by=` always; `color=`, `kind=`, `via=`, `zone=` when
    the event carries that field)."""

    name: str
    fields: tuple[tuple[str, str], ...]
    doc: str = ""

    @property
    def field_types(self) -> dict[str, str]:
        return dict(self.fields)


def _event(name: str, doc: str, *fields: tuple[str, str]) -> Event:
    # Every event has the player whose event it is (`by`, what `by=` filters on).
    return Event(name, (("by", PLAYER),) + fields, doc)


_ITEM_FIELDS = (("item", ITEM), ("kind", WORD), ("color", WORD))
EVENTS: dict[str, Event] = {e.name: e for e in [
    _event("built", "an item is built (`build`, an action or an effect)", *_ITEM_FIELDS, ("via", WORD)),
    _event("acquired", "an item is taken without being built (`acquire`, a progress token)", *_ITEM_FIELDS),
    _event("gained_science", "a player gains a scientific symbol (once per symbol of the item)", ("symbol", WORD)),
    _event("pawn_moved", "shields moved the conflict pawn (`amount`: spaces moved)", ("amount", INT)),
    _event("traded", "a player buys resources while building (`seller`: the seat paid, -1 for the bank; `resource`: "
                     "the resource when one kind was bought, else empty; `amount`: coins paid)",
           ("seller", PLAYER), ("resource", WORD), ("amount", INT)),
    _event("age_ended", "an age has ended (one event per player, before `end_of_age`)"),
    _event("game_ended", "the last age has ended (one event per player, before `end_of_game` and the scoring)"),
    _event("discarded", "an item reaches the discard pile, whatever put it there (`discard`, `move`, `move_all`, "
                        "`deal`, ...; `by`: the player who discarded it, `owner`: the player whose zone it "
                        "left, -1 for none)", *_ITEM_FIELDS, ("owner", PLAYER)),
    _event("uncovered", "a face-down structure card is turned up (`by`: the player whose turn it is)", *_ITEM_FIELDS),
    _event("control_gained", "a player takes control of a space of a zone (most cubes)", ("zone", WORD), ("space", INT)),
    _event("control_lost", "a player loses control of a space of a zone", ("zone", WORD), ("space", INT)),
    _event("cube_added", "a cube is put on (or moved onto) a space of a zone", ("zone", WORD), ("space", INT)),
    _event("structure_dealt", "an age's structure has been laid out (`by`: the player who starts the age)"),
]}
# `when` filters that test a field of the event (besides `by=`, which every event has).
EVENT_FILTERS = ("color", "kind", "via", "zone")
VIAS = ("paid", "chain", "free")   # how an item is built: the `built` event's `via`

# What `ITEM.X` may read of an item (`it.color`, `chosen.value`), with types.
ITEM_ATTRIBUTES: dict[str, str] = {
    "kind": WORD, "color": WORD, "age": INT, "value": INT, "side": INT, "space": INT, "part_of": ITEM,
}
ITEM_ATTRIBUTE_DOCS: dict[str, str] = {
    "kind": "its kind (`card`, `wonder`, ...)", "color": "its colour (none: matches no colour)",
    "age": "its age (0 when it has none)", "value": "the number its `value` gives (0 by default)",
    "side": "a military token's `side`", "part_of": "the item its `part_of` names (-1: none)", "space": "a military token's printed `space` (see `space(ITEM)` for "
                                               "the space it stands on)",
}


@attrs.frozen
class Function:
    name: str
    params: tuple[tuple[str, str], ...]   # positional (name, type)
    kwargs: tuple[tuple[str, str], ...] = ()
    returns: str = INT
    min_args: int | None = None
    doc: str = ""
    example: str = ""


FUNCTIONS: dict[str, Function] = {f.name: f for f in [
    Function("count", (("zone", SELECTOR_ZONE),), FILTER_KWARGS,
             doc="How many items of a zone match. `owner=me` (default), `opponent`, `left`, `right`, `neighbours`, `others`, `all`, or `most` "
                 "(the player with the most).", example="count(city, color=[brown, grey], owner=most)"),
    Function("coins", (("player", PLAYER),), min_args=0, doc="A player's coins (default: the player).",
             example="coins(opponent)"),
    Function("max", (("a", INT), ("b", INT)), doc="The larger of two numbers.", example="max(coins(me), coins(opponent))"),
    Function("min", (("a", INT), ("b", INT)), doc="The smaller of two numbers.", example="min(3, coins)"),
    Function("either", (("condition", BOOL), ("then", "any"), ("else", "any")), returns="any",
             doc="`then` when the condition holds, else `else`.", example="either(pawn_distance > 0, opponent, me)"),
    Function("player", (("index", INT),), returns=PLAYER, doc="Player by seat, from 0.", example="player(0)"),
    Function("production", (("resource", RESOURCE),), (("owner", SEATS), ("color", COLORS)),
             doc="Units of a resource a player's cards make (one-of producers not counted).",
             example="production(stone, owner=opponent, color=[brown, grey])"),
    Function("science_count", (("symbol", SCIENCE),), doc="How many of a scientific symbol the player has.",
             example="science_count(event.symbol)"),
    Function("lookup", (("table", "table"), ("index", INT)), doc="A number of a `table` by position (from 0).",
             example="lookup(set_bonus, count(city, color=purple))"),
    Function("space", (("item", ITEM),), doc="The space an item stands on (-1: none).", example="space(chosen)"),
    Function("first_empty", (("zone", ZONE),), doc="The lowest free space of a zone with spaces (of a zone each player has, the player's own).",
             example="first_empty(board)"),
    Function("modifier", (("name", WORD),), (("owner", SEATS),),
             doc="The sum of the player's `modify NAME` amounts in play (`owner=`: another seat's, or a group's).",
             example="modifier(shields, owner=left)"),
    Function("counter", (("name", "counter"),), (("owner", SEATS),), doc="A player's counter (`counter NAME`).",
             example="counter(military, owner=left)"),
    Function("science_score", (("set", INT),),
             doc="Science points: per symbol, its count squared, plus `set` per complete set of every symbol; "
                 "`science any` symbols count as whichever symbols make it highest.", example="science_score(7)"),
    Function("first_in", (("zone", ZONE),), returns=ITEM, doc="The first item of the player's zone (-1: none).",
             example="first_in(board)"),
    Function("host", (("item", ITEM),), returns=ITEM, doc="The item this one is attached to (-1: none).",
             example="host(chosen)"),
    Function("owner", (("item", ITEM),), returns=PLAYER, doc="The player whose zone holds the item (-1: none, or no item).",
             example="owner(host(chosen))"),
    Function("coins_on", (("item", ITEM),), doc="Coins lying on an item (put_coins).", example="coins_on(this)"),
    Function("cubes", (("zone", ZONE),), (("space", INT), ("owner", SEATS)),
             doc="A player's cubes on a zone (on one space with space=).", example="cubes(council, space=2, owner=opponent)"),
    Function("supply", (("zone", ZONE),), doc="Cubes the player still has to put on a zone.", example="supply(council)"),
    Function("controller", (("zone", ZONE), ("space", INT)), returns=PLAYER,
             doc="The player with strictly most cubes on a space (-1: nobody).", example="controller(council, 2)"),
    Function("controlled", (("zone", ZONE),), doc="How many spaces of a zone the player controls.",
             example="controlled(council)"),
    Function("controlled_sum", (("zone", ZONE), ("table", "table")),
             doc="Sum of a table's numbers over the spaces the player controls.", example="controlled_sum(council, seat_points)"),
    Function("row", (("item", ITEM),), doc="The structure row of a card (0 = top row; -1: not in the structure).",
             example="row(it) == 0"),
    Function("rider", (("item", ITEM),), returns=ITEM, doc="An item attached to this one (-1: none).",
             example="rider(chosen)"),
    Function("riders", (("item", ITEM),), doc="How many items are attached to this one.", example="riders(it) == 0"),
    Function("abs", (("x", INT),), doc="The absolute value.", example="abs(space - 2) == 1"),
    Function("option", (("name", WORD),), returns=BOOL, doc="Whether a game option was chosen when the game was created.",
             example="option(beginner_wonders)"),
]}

# Bare names an expression may use, with their types.
NAMES: dict[str, str] = {
    "me": PLAYER, "opponent": PLAYER, "left": PLAYER, "right": PLAYER, "players": INT, "seat": INT, "coins": INT, "pawn_distance": INT, "distinct_science": INT,
    "track_points": INT, "true": BOOL, "false": BOOL, "age": INT, "this": ITEM,
}
# Names only some places define: `it` in a where= filter, `space` in choose_space's where=.
NAME_DOCS: dict[str, str] = {
    "me": "the player the effect belongs to", "opponent": "the other player (two-seat games only: E408)",
    "left": "the next seat in turn order (seat + 1, wrapping; with 2 players, the other one)",
    "right": "the previous seat in turn order (seat - 1, wrapping; with 2 players, the other one)",
    "players": "how many players the game seats", "seat": "the player's seat number, from 0",
    "coins": "the player's coins", "pawn_distance": "how far the conflict pawn stands towards the opponent's capital (negative: towards the player's own)",
    "distinct_science": "how many different scientific symbols the player has",
    "track_points": "the VP the conflict track gives the player",
    "chosen": "inside `choose`: the item (or player) picked", "event": "inside `when`: the event; its fields (`event.item`, `event.amount`, ...) depend on the event",
    "resource": "inside the game's `trade_price`: the resource being bought",
    "age": "the current age, from 1", "this": "inside an item: the item itself",
    "it": "inside `where=`: the item tested",
}
OWNER_WORDS = ("me", "opponent", "all", "most", "any", "neighbours", "others")
# Seat words naming several players: `owner=` of a selector and `by=` of a trigger take them,
# a place wanting one player does not (E309).
MULTI_SEAT_WORDS = ("neighbours", "others", "all")
# `owner=` of a function that adds seats up (`production`, `cubes`): one seat or a group, never
# `most`/`any` (whose sum would mean nothing); the type of such an option.
SUMMED_OWNER_WORDS = ("me", "opponent") + MULTI_SEAT_WORDS
# Whose events a trigger hears (`when EVENT by=WORD`).
TRIGGER_BY_WORDS = OWNER_WORDS + ("left", "right")
OWNER_WORD_DOCS: dict[str, str] = {
    "neighbours": "the seats to the left and right (one seat when only 2 play)",
    "others": "every seat but the player's", "all": "every seat",
}
# The fewest players the engine plays with (`players N` in the game); content may need more
# (a `player(K)` or a military token's `side K` names seat K).
MIN_PLAYERS = 2

# -- designer invariants (rulesdsl.testing) ---------------------------------------------------------
# `invariant "Coins stay under 60" { holds coins <= 60 }`: a condition `rulesdsl verify` checks for
# every player (as `me`) after every action of every game.  Runs nothing; the game never reads it.
INVARIANT_PART = "invariant"  # only inside `invariant`
VERBS["holds"] = Verb(
    "holds", INVARIANT_PART, (Param("condition", BOOL),), kinds=("invariant",),
    doc="In an `invariant`: a condition that must hold for every player (`me`) after every action; "
        "`rulesdsl verify` and rulesdsl.testing check it.",
    example="holds coins <= 60", explain="always: {condition}")
KINDS["invariant"] = Kind("invariant", required=("holds",),
                          doc="A rule property every game must keep, checked by `rulesdsl verify` (not played).")


# The counts a game takes as 0 when one computed is below 0 (W508), and what the statement then does.
CLAMPED: dict[str, str] = {
    "gain": "gains nothing (it takes no coins)", "lose": "takes nothing (it gives no coins)",
    "pay": "pays nothing", "put_coins": "puts no coin", "shields": "moves the pawn nowhere (not back)",
    "repeat": "runs no round", "choose": "offers no pick", "deal": "deals nothing",
    "take_top": "takes nothing", "deal_onto_structure": "lays nothing",
    "cost_coins": "costs no coin (it gives none back)"}
