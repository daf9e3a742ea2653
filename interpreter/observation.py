"""What one player may see: the state with hidden information left out.

Hidden: face-down structure cards (only their back, i.e. their deck, shows), cards tucked
under wonders, the box and every deck, and another player's pending options."""

from __future__ import annotations

from .game import Game
from .state import DRAW


def observe(game: Game, player: int) -> dict:
    c, st = game.content, game.state
    names = game.name
    zones: dict[str, object] = {}
    for z in c.zones:
        if not z.public:
            continue
        if z.per_player:
            zones[z.name] = {str(p): [names(i) for i in st.zones[game.slot(z.id, p)]] for p in range(st.players)}
        else:
            zones[z.name] = [names(i) for i in st.zones[game.slot(z.id, 0)]]
    structure = []
    for slot, item in enumerate(st.structure):
        if item < 0:
            structure.append(None)
        elif st.face_up[slot]:
            structure.append({"card": names(item), "accessible": item in game.accessible()})
        else:
            deck = c.items[item].deck
            structure.append({"back": c.zones[deck].name if deck >= 0 else "unknown", "accessible": False})
    hidden_counts = {z.name: sum(len(st.zones[game.slot(z.id, p)]) for p in range(st.players if z.per_player else 1))
                     for z in c.zones if not z.public}
    pending = None
    if st.pending is not None:
        d = st.pending
        pending = {"player": d.player, "prompt": d.prompt}
        if d.player == player:
            pending["options"] = [a.args[0] for a in game.legal_actions()]
    return {
        "player": player,
        "age": st.age + 1,
        "to_move": game.to_move(),
        "over": game.over,
        "winner": None if st.winner is None else ("draw" if st.winner == DRAW else st.winner),
        "victory": st.victory,
        "coins": list(st.coins),
        "pawn": st.pawn,
        "track_tokens": [names(i) for i in st.zones[game.track_slot]],
        "zones": zones,
        "hidden_counts": hidden_counts,
        "structure": structure,
        "pending": pending,
        "legal_actions": [str(a) for a in game.legal_actions()] if game.to_move() == player else [],
    }
