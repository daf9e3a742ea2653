"""The fixed action space of a content set: every action the game could offer, numbered once
from the compiled content, and the translation between those numbers and `Action`s.

The numbering (docs/rl.md, "Action space"):
1. each turn action of `Content.actions`, in definition order, with every combination of item
   *names* its parameters' selectors could hold: the items that can ever lie in the selector's
   zones (rulesdsl/rl/reach.py) and pass its static filters (kind, colour, age, deck); copies
   of an item share a name, as they do in `Action`s.  In a game that trades
   with neighbours an action that builds (`paid`) takes `pay_slots` numbers per binding: slot k
   is the k-th way to pay offered now, ordered by (total coins, coins to the left neighbour,
   coins to the right neighbour); slot 0 is also the action that needs no purchase.  Payments
   past the last slot are not offered by the environment (the cheapest ones are kept);
2. the answers to decisions: `choose ITEM` for every item name, `choose PLACE` for every place
   an item its chooser cannot see may be offered from (`face_down_places`), `pass`, `choose_player pK` for
   every seat, `choose_space N` for every space of a zone with spaces (and the track's, from
   -capital to capital), and `choose_option` by position (slot k: the k-th option offered).

A legal action outside those numbers cannot happen (the reach analysis is a superset); an
option or payment past its slots is left out of the mask (and counted in `dropped`)."""

from __future__ import annotations

from itertools import product

import attrs

from rulesdsl.interpreter import legality
from rulesdsl.interpreter.actions import CHOOSE, CHOOSE_OPTION, CHOOSE_PLAYER, CHOOSE_SPACE, PASS, Action
from rulesdsl.interpreter.decisions import slot_place, zone_place
from rulesdsl.interpreter.game import Game
from rulesdsl.interpreter.trade import parse_pay, pay_label
from rulesdsl.model import Content

DEFAULT_PAY_SLOTS = 4
DEFAULT_OPTION_SLOTS = 8


@attrs.define
class ActionSpace:
    """Numbers <-> actions for one content set (the same for every seat)."""

    labels: list[str]                              # a printable label per number
    base: dict[tuple[str, tuple[str, ...]], int]   # (name, args without payment) -> first number
    paid: set[str]                                 # action names that take payment slots
    pay_slots: int
    option_base: int
    option_slots: int
    # Per turn action (by id): its first number and, per parameter, item id -> the number's
    # offset for that item's name: a binding's number is a sum, no Action needed to find it.
    offsets: list[tuple[int, list[dict[int, int]]]] = attrs.Factory(list)

    @property
    def n(self) -> int:
        return len(self.labels)

    @classmethod
    def build(cls, content: Content, pay_slots: int = DEFAULT_PAY_SLOTS,
              option_slots: int = DEFAULT_OPTION_SLOTS,
              reach: dict[int, frozenset[int]] | None = None,
              face_down: frozenset[int] = frozenset()) -> "ActionSpace":
        """`reach`: zone -> the items that can lie there (rulesdsl/rl/reach.py); without it a
        parameter may take any item its selector's static filters accept.  `face_down`: the
        zones items may lie face down in (`reach.reach_and_face_down`), for the places of those
        of them a zone without spaces holds."""
        if pay_slots < 1 or option_slots < 1:
            raise ValueError("pay_slots and option_slots must be at least 1")
        labels: list[str] = []
        base: dict[tuple[str, tuple[str, ...]], int] = {}
        paid = {a.name for a in content.actions if a.paid} if content.trade_base else set()

        def names(sel) -> list[str]:
            if reach is None:
                return list(dict.fromkeys(it.name for it in content.items if sel.matches(it)))
            there = set().union(*(reach.get(z, ()) for z in (sel.zone, *sel.more_zones)))
            return list(dict.fromkeys(it.name for it in content.items if it.id in there and sel.matches(it)))

        offsets: list[tuple[int, list[dict[int, int]]]] = []
        for act in content.actions:
            pools = [names(p.selector) for p in act.params]
            slots = pay_slots if act.name in paid else 1
            first = len(labels)
            stride, per_param = slots, []
            for pool in reversed(pools):
                at = {name: k * stride for k, name in enumerate(pool)}
                per_param.append({it.id: at[it.name] for it in content.items if it.name in at})
                stride *= len(pool)
            per_param.reverse()
            offsets.append((first, per_param))
            for args in product(*pools):
                base[(act.name, args)] = len(labels)
                text = str(Action(act.name, args))
                labels.extend([text] if slots == 1 else [f"{text} [pay {k}]" for k in range(slots)])
        for name in dict.fromkeys(it.name for it in content.items):
            base[(CHOOSE, (name,))] = len(labels)
            labels.append(str(Action(CHOOSE, (name,))))
        for place in face_down_places(content, reach, face_down):
            base[(CHOOSE, (place,))] = len(labels)
            labels.append(str(Action(CHOOSE, (place,))))
        base[(PASS, ())] = len(labels)
        labels.append(PASS)
        for p in range(content.players):
            base[(CHOOSE_PLAYER, (f"p{p}",))] = len(labels)
            labels.append(f"{CHOOSE_PLAYER} p{p}")
        spaces: dict[int, None] = {}
        for z in content.zones:
            spaces.update((s, None) for s in range(z.spaces))
        if content.track.points:
            cap = content.track.capital
            spaces.update((s, None) for s in range(-cap, cap + 1))
        for s in sorted(spaces):
            base[(CHOOSE_SPACE, (str(s),))] = len(labels)
            labels.append(f"{CHOOSE_SPACE} {s}")
        option_base = len(labels)
        labels.extend(f"{CHOOSE_OPTION} #{k}" for k in range(option_slots))
        return cls(labels, base, paid, pay_slots, option_base, option_slots, offsets)

    def legal_bindings(self, game: Game, seat: int) -> tuple[dict[int, object], int]:
        """As `legal`, but a turn action's number maps to (action, items, payment) until
        `action()` spells it out (the legal actions of the engine, without naming them all)."""
        st = game.state
        if st.flow == "over" or st.pending is not None:
            return self.legal(game, seat)
        me = legality.acting_seat(game, seat)
        if me is None:
            return {}, 0
        out: dict[int, object] = {}
        dropped = 0
        trades = bool(game.content.trade_base)
        coins = st.coins[me]
        offsets = self.offsets
        for act, binding in legality.listed_bindings(game, me):
            first, per_param = offsets[act.id]
            k = first
            for pos, item in zip(per_param, binding):
                k += pos[item]
            if k in out:
                continue   # another copy of the same card: one number
            if trades and act.paid:
                pays = legality.payments_for(game, act, binding, me, coins)
                if len(pays) > 1:
                    n = st.players
                    pays = sorted(pays, key=lambda pay: _pay_order(pay, me, n))
                for slot, pay in enumerate(pays):
                    if slot < self.pay_slots:
                        out[k + slot] = (act, binding, pay)
                    else:
                        dropped += 1
            else:
                out[k] = (act, binding, ())
        return out, dropped

    @staticmethod
    def action(game: Game, entry) -> Action:
        """The `Action` of an entry of `legal_bindings`."""
        if isinstance(entry, Action):
            return entry
        act, binding, pay = entry
        items = game.content.items
        args = tuple(items[i].name for i in binding)
        return Action(act.name, args + (pay_label(pay),) if pay else args)

    def legal(self, game: Game, seat: int) -> tuple[dict[int, Action], int]:
        """The legal actions of `seat` now by number, and how many legal actions have no number
        (payments or options past their slots)."""
        out: dict[int, Action] = {}
        dropped = 0
        pays: dict[int, list] = {}
        base = self.base
        for action in game.legal_actions(seat):
            if action.name == CHOOSE_OPTION:
                pending = game.state.pending
                k = pending.labels.index(action.args[0]) if pending is not None else -1
                if 0 <= k < self.option_slots:
                    out[self.option_base + k] = action
                else:
                    dropped += 1
                continue
            args = action.args
            pay = ()
            if args and args[-1][:4] == "pay=":
                pay = parse_pay(args[-1])
                args = args[:-1]
            first = base.get((action.name, args))
            if first is None:
                raise KeyError(f"the legal action {action} has no number in the action space "
                               "(a selector whose static filters miss an item: report it)")
            if action.name in self.paid:
                pays.setdefault(first, []).append((pay, action))
            else:
                out[first] = action
        if pays:
            n = game.state.players
            for first, options in pays.items():
                options.sort(key=lambda o: _pay_order(o[0], seat, n))
                for k, (_, action) in enumerate(options):
                    if k < self.pay_slots:
                        out[first + k] = action
                    else:
                        dropped += 1
        return out, dropped


def face_down_places(content: Content, reach: dict[int, frozenset[int]] | None = None,
                     face_down: frozenset[int] = frozenset()) -> list[str]:
    """The names a choice gives items its chooser cannot see (`decisions.unseen_place`): every
    slot of the largest structure, every space of a zone with spaces (of each seat, in a zone
    each seat has), and in a zone without spaces that items may be put in face down
    (`face_down`), each place among its items (`#k`), for as many as can lie there (`reach`)."""
    slots = max((len(lay.face_up) for lay in content.layouts.values()), default=0)
    out = [slot_place(k) for k in range(slots)]
    for z in content.zones:
        if z.spaces:
            places: list[int | str] = list(range(z.spaces))
        elif z.id in face_down:
            places = [f"#{k}" for k in range(len(reach[z.id]) if reach is not None else len(content.items))]
        else:
            continue
        for owner in (range(content.players) if z.per_player else [None]):
            out += [zone_place(z.name, owner, at) for at in places]
    return out


def _pay_order(pay, me: int, players: int) -> tuple[int, int, int]:
    """(total, coins to the left, coins to the right): the slot order of payments."""
    coins = dict(pay)
    left, right = coins.get((me + 1) % players, 0), coins.get((me - 1) % players, 0)
    return (sum(coins.values()), left, right)
