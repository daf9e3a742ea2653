"""Terminal rendering and input for `rulesdsl play`, built on observations (so a player never
sees what their seat may not)."""

from __future__ import annotations

import click

from .safe_text import printable


def render_game(game, player: int) -> str:
    from rulesdsl.interpreter.observation import observe
    o = observe(game, player)
    stage = f"Age {o['age']}" if o["age"] > 0 else "Setup (wonder draft)"
    lines = [f"== {stage} == player {o['to_move']} to move" + ("  (game over)" if o["over"] else "")]
    cap = game.content.track.capital
    pawn = o["pawn"]
    track = "".join("o" if pos == pawn else ("|" if pos == 0 else "-") for pos in range(-cap, cap + 1))
    lines.append(f"conflict: p0 [{track}] p1   (pawn {pawn:+d})")
    lines.append("structure (top row first; ## = face down, .. = taken):")
    lay = game.content.layouts.get(game.state.layout)
    if lay:
        for row in lay.rows:
            cells = []
            for slot in row:
                cell = o["structure"][slot]
                if cell is None:
                    text = ".."
                elif "card" in cell:
                    text = cell["card"] + ("*" if cell["accessible"] else "")
                else:
                    text = f"## ({cell['back']})"
                cells.append(f"{text:^22}")
            # A card is two half-columns wide: 22 characters, so a half-column is 11.
            indent = " " * ((lay.columns[row[0]] - min(lay.columns)) * 11) if row else ""
            lines.append(indent + "".join(cells).rstrip())
        lines.append("(* = can be taken)")
    for p in range(game.content.players):
        zones = o["zones"]
        city = zones.get("city", {}).get(str(p), [])
        built = zones.get("built_wonders", {}).get(str(p), [])
        unbuilt = zones.get("wonders", {}).get(str(p), [])
        tokens = zones.get("tokens", {}).get(str(p), [])
        science = game.stats(p).science
        lines.append(f"player {p}{' (you)' if p == player else ''}: {o['coins'][p]} coins; "
                     f"science {dict(science) or '-'}")
        lines.append(f"   city: {', '.join(city) or '-'}")
        lines.append(f"   wonders built: {', '.join(built) or '-'}; to build: {', '.join(unbuilt) or '-'}")
        if tokens:
            lines.append(f"   tokens: {', '.join(tokens)}")
    board = o["zones"].get("board_tokens")
    if board:
        lines.append(f"progress tokens on the board: {', '.join(board)}")
    if o["over"]:
        scores = [sum(game.score(p).values()) for p in range(game.content.players)]
        lines.append(f"result: winner {o['winner']} ({o['victory']}); scores {scores}")
    return printable("\n".join(lines))


def choose_action(game):
    actions = game.legal_actions()
    pending = game.state.pending
    click.echo(printable(f"\n{pending.prompt}:" if pending else "\nyour move:"))
    for i, a in enumerate(actions, 1):
        extra = ""
        if a.name in ("build", "wonder") and a.args:
            item = game.content.item_index[a.args[-1]]
            cost = game.price(game.to_move(), item)[0]
            extra = f"  ({cost} coin{'' if cost == 1 else 's'})"
        click.echo(printable(f"  {i:2}. {a}{extra}"))
    while True:
        answer = click.prompt("number (q to quit)", default="", show_default=False).strip()
        if answer.lower() in ("q", "quit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(actions):
            return actions[int(answer) - 1]
        click.echo("type one of the numbers above")
