"""The game state: plain attrs data, fully serialisable (see `persistence`).

Items are integers (indexes into `Content.items`); where an item is is `loc[item]`, a zone
slot.  A zone that exists once per player has one slot per player.  Two slots the interpreter
always adds: the structure (the cards laid out this age) and the track (tokens on it).
"""

from __future__ import annotations

from typing import Any

import attrs

NOWHERE = -1
DRAW = -1  # winner value of a shared victory


@attrs.define(slots=True)
class Frame:
    """A block being run: which block, the next step, where to stop, whose it is, its names."""

    block: int
    pc: int
    stop: int
    me: int
    env: dict[str, Any]


@attrs.define
class Decision:
    """A choice a player must make before the game goes on; the next action answers it."""

    player: int
    kind: str                 # "item" or "player"
    options: list[int]
    body: int                 # block to run with `chosen`
    env: dict[str, Any]
    again_block: int = -1     # where the `choose` step stands, to ask again for the next pick
    again_pc: int = -1
    again_me: int = 0
    remaining: int = 0
    prompt: str = ""
    optional: bool = False            # the player may pass
    labels: list[str] = attrs.Factory(list)   # kind "option": the names of the options
    bodies: list[int] = attrs.Factory(list)   # kind "option": the block of each option


@attrs.define
class State:
    layers: list[str]
    options: list[str]
    seed: int
    players: int
    loc: list[int]
    zones: list[list[int]]
    coins: list[int]
    pawn: int = 0                       # > 0: towards player 1's capital
    structure: list[int] = attrs.Factory(list)
    face_up: list[bool] = attrs.Factory(list)
    layout: str = ""
    age: int = -1
    flow: str = "start"                 # start, setup, age_setup, turn, action, between, over
    current: int = 0
    next_starter: int = 0
    last_actor: int = 0
    play_again: bool = False
    frames: list[Frame] = attrs.Factory(list)
    pending: Decision | None = None
    winner: int | None = None
    victory: str | None = None
    attached: dict[int, int] = attrs.Factory(dict)      # item -> the item it lies on / under
    positions: dict[int, int] = attrs.Factory(dict)     # item -> its space in a zone with spaces, or on the track
    item_coins: dict[int, int] = attrs.Factory(dict)    # coins lying on an item
    hidden: list[int] = attrs.Factory(list)             # items lying face down outside the structure
    known: dict[int, list[int]] = attrs.Factory(dict)   # a face-down item -> the seats that know it (knowledge.py)
    cubes: dict[str, list[list[int]]] = attrs.Factory(dict)   # zone -> player -> cubes per space
    supply: dict[str, list[int]] = attrs.Factory(dict)        # zone -> cubes each player has left
    control: dict[str, list[int]] = attrs.Factory(dict)       # zone -> controller per space (-1: none)
    before_used: bool = False                           # this turn's optional first action is done
    rng: int = 0                                  # the dice: see interpreter/chance.py
    script: dict[str, list[str]] = attrs.Factory(dict)           # chance outcomes still dictated
    setup_script: dict[str, list[str]] = attrs.Factory(dict)     # as given at creation, for traces
    turn: int = 0
    history: list[list[str]] = attrs.Factory(list)     # actions applied: [name, *args]
    chance: list[list[str]] = attrs.Factory(list)      # chance outcomes: [zone, *items]
    fingerprint: str = ""                              # the content's (`Content.fingerprint`); "" in old saves
    # A simultaneous round (`turns simultaneous`): the seats acting in it and what each has chosen
    # (an action as [name, *args], None: not yet).  Choices reach `history` in seat order.
    acting: list[int] = attrs.Factory(list)
    choices: list[list[str] | None] = attrs.Factory(list)
    again: list[int] = attrs.Factory(list)             # seats that play again after this round
    deferred: list[Frame] = attrs.Factory(list)        # `after_turn` blocks, run when the turn ends
    counters: dict[str, list[int]] = attrs.Factory(dict)   # `counter NAME`: a number per seat
    prepaid: dict[int, int] = attrs.Factory(dict)      # item -> seat whose round payment covered it
    starter_named: bool = False   # a `starts_next_age` of this age named who starts the next one

    @property
    def over(self) -> bool:
        return self.flow == "over"
