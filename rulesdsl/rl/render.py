"""A plain-text picture of a game as one seat sees it (any content set, any seat count), built
from `interpreter.observation.observe` so it shows nothing the seat may not see."""

from __future__ import annotations

from rulesdsl.interpreter.game import Game
from rulesdsl.interpreter.observation import known_in_decks, observe, zones_with_known
from rulesdsl.interpreter.scoring import score
from rulesdsl.model import Content
from rulesdsl.safe_text import printable


def render_text(game: Game, seat: int, content: Content) -> str:
    o = observe(game, seat)
    n = content.players
    head = f"{content.title or content.name}: age {o['age']}, seat {o['to_move']} to move"
    if o["over"]:
        head = f"{content.title or content.name}: over, winner {o['winner']} ({o['victory']})"
    lines = [head + f"   (as seen by seat {seat})"]
    if content.track.points:
        lines.append(f"conflict pawn {o['pawn']:+d}")
    structure = [(slot, cell) for slot, cell in enumerate(o["structure"]) if cell is not None]
    if structure:
        # (a face-down card with its slot: a choice offers it by it, `choose slot 7 (face down)`)
        shown = [((cell["card"] + ("*" if cell["accessible"] else "")) if "card" in cell else f"#{slot} {cell['back']}")
                 + (f" (with {', '.join(cell['on'])})" if "on" in cell else "") for slot, cell in structure]
        lines.append("structure (* can be taken, #7 face down in slot 7): " + ", ".join(shown))
    shown = zones_with_known(o)   # (a face-down item the seat knows: `face down (DECK): NAME`)
    per_seat = {name: value for name, value in shown.items() if isinstance(value, dict)}
    shared = {name: value for name, value in shown.items() if isinstance(value, list) and value}
    for p in range(n):
        total = f", {sum(score(game, p).values())} points" if content.points_public or p == seat or o["over"] else ""
        lines.append(f"seat {p}{' (you)' if p == seat else ''}: {o['coins'][p]} coins{total}")
        for name, by_seat in per_seat.items():
            held = by_seat.get(str(p))
            if isinstance(held, int):
                if held:
                    lines.append(f"   {name}: {held} hidden")
            elif held:
                lines.append(f"   {name}: {', '.join(held)}")
    for name, items in shared.items():
        lines.append(f"{name}: {', '.join(items)}")
    lines += [f"you know: {text}" for text in known_in_decks(o)]   # (in decks no seat sees)
    if o["pending"] is not None:
        lines.append(f"seat {o['pending']['player']}: {o['pending']['prompt']}")
    return printable("\n".join(lines))
