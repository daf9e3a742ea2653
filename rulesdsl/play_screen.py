"""The full-screen play screen of `rulesdsl play` (textual): what one seat sees (an observation,
interpreter/observation.py, so nothing hidden shows), the actions it may take with what each
costs it now, and keys to choose, explain, undo, save and quit.  The game and the agents live
in rulesdsl/play_session.py; the plain-text screen (`--plain`) in rulesdsl/play_view.py."""

from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from .play_session import Session
from .play_view import (coins, coins_held, cost_text, counter_label, cube_lines, explained_name, explanation,
                        lying_text, on_spaces)
from .safe_text import printable

MIN_WIDTH, MIN_HEIGHT = 100, 40   # the screen is laid out for this; smaller gets a message


# -- what the screen shows, as rich Text (no textual: testable alone) -----------------------------

def colour_style(color: str | None) -> str:
    """A terminal style for a content colour name (`brown`, `blue`...): the CSS colour of that
    name, lightened to read on a dark background; a name that is no colour gets none."""
    from textual.color import Color
    if not color:
        return ""
    try:
        c = Color.parse(color).blend(Color(255, 255, 255), 0.3)
    except Exception:   # a colour the cards name that no terminal knows (`gold` is known, `mauve`...)
        return ""
    return f"rgb({c.r},{c.g},{c.b})"


def action_label(action) -> str:
    args = [a for a in action.args if not a.startswith("pay=")]
    return " ".join([action.name, *args])


def header(session: Session, seat: int) -> Text:
    g = session.game
    st = g.state
    o_age = st.age + 1
    stage = f"Age {o_age}" if o_age > 0 else "Setup"
    text = Text()
    text.append(f" {g.content.title or g.content.name} ", style="bold reverse")
    text.append(f"  {stage}  seed {session.seed}  you: p{seat}  ")
    if g.over:
        text.append(session.result(), style="bold")
    else:
        acting = g.to_act()
        text.append("to act: " + ", ".join(f"p{p}" for p in acting), style="bold" if seat in acting else "")
    return text


def track_text(game) -> Text | None:
    """The conflict track between two capitals: the pawn, the military tokens on their spaces,
    and pieces a rule placed on a space (`place ... track space=N`: the track is their zone,
    so it is drawn here and not listed among the zones)."""
    c = game.content
    if game.track_slot < 0 or c.players != 2:
        return None
    cap = c.track.capital
    st = game.state
    pawn = st.pawn
    tokens, pieces = {}, {}
    for i in st.zones[game.track_slot]:
        it = c.items[i]
        if i in st.positions:
            pieces.setdefault(st.positions[i], []).append(i)
        elif it.space >= 0 and it.side >= 0:
            tokens[it.space if it.side == 1 else -it.space] = it
    line, marks = Text("p0 "), Text("   ")
    for pos in range(-cap, cap + 1):
        if pos == pawn:
            line.append("@", style="bold red")
        elif pos in pieces:
            line.append("X", style="bold magenta")
        else:
            line.append("|" if pos == 0 else "-")
        tok = tokens.get(pos)
        marks.append("v" if tok else " ", style="yellow" if tok else "")
    line.append(f" p1   pawn {pawn:+d}")
    out = Text("Conflict track\n", style="bold")
    out.append_text(line)
    out.append("\n")
    out.append_text(marks)
    if tokens:
        out.append("  tokens: " + ", ".join(f"{game.name(tokens[p].id)} at {p:+d}" for p in sorted(tokens)),
                   style="yellow")
    if pieces:
        shown = ", ".join(f"{'a face-down item' if i in st.hidden else game.name(i)} at {p:+d}"
                          for p in sorted(pieces) for i in pieces[p])
        out.append("\n   on the track: " + shown, style="magenta")
    return out


def structure_text(game, o: dict) -> Text | None:
    """The card structure, top row first: face-down cards as `#` and their slot, with their
    deck (`#7 age2`: a choice offers a face-down card by its slot), cards that can be taken in
    bold, taken slots as `..`."""
    lay = game.content.layouts.get(game.state.layout)
    if not lay or not any(lay.rows):
        return None
    half_columns = max(lay.columns) - min(lay.columns) + 2
    cell = max(6, min(16, 2 * 58 // half_columns))
    out = Text("Structure  (#7: face down, in slot 7; bold: can be taken)\n", style="bold")
    for row in lay.rows:
        indent = (lay.columns[row[0]] - min(lay.columns)) * cell // 2 if row else 0
        out.append(" " * indent)
        for slot in row:
            got = o["structure"][slot]
            if got is None:
                label, style = "..", "dim"
            elif "card" in got:
                label = got["card"]
                item = game.content.item_index.get(label)
                color = game.content.items[item].color if item is not None else None
                style = colour_style(color) + (" bold underline" if got["accessible"] else " dim")
            else:
                label, style = f"#{slot} {got['back']}", "dim"
            if len(label) > cell - 1:
                label = label[:cell - 2] + "~"
            out.append(f"{label:^{cell}}", style=style)
        out.append("\n")
    lying = lying_text(o)
    if lying:
        out.append("on the cards: " + lying + "\n", style="yellow")
    return out


def offer_text(game, seat: int, actions) -> Text | None:
    """Each item the seat may build now and what it costs (the cheapest; each `pay=` variant)."""
    c = game.content
    seen: dict[str, list[str]] = {}
    for a in actions:
        adef = next((d for d in c.actions if d.name == a.name), None)
        if adef is None:
            continue
        named = [x for x in a.args if not x.startswith("pay=")]
        t = cost_text(game, seat, a)
        # What the action builds and pays for; else, an action whose `pay` statements cost coins
        # (a god's activation): its first item, with the other items it names.
        keys = [named[k] for k in adef.paid if k < len(named) and named[k] in c.item_index]
        if not keys and adef.pays and named and named[0] in c.item_index and t:
            keys = [named[0]]
            if named[1:]:
                t += " with " + ", ".join(named[1:])
        for key in keys:
            costs = seen.setdefault(key, [])
            if t not in costs:
                costs.append(t)
    # The cards that can be taken from the structure, even those the seat cannot pay for now.
    for i in game.accessible() if game.state.structure else []:
        name = game.name(i)
        if name not in seen and c.items[i].cost is not None:
            total, trade, chain = game.price(seat, i)
            seen[name] = ["free (chain)" if chain else
                          (coins(total) + (f" ({trade} trade)" if trade else "") if total < 10**8 else "cannot be had")
                          + ("" if chain or total <= game.available_coins(seat) else ", more than you have")]
    if not seen:
        return None
    out = Text("On offer to you\n", style="bold")
    for name, costs in seen.items():
        item = c.items[c.item_index[name]]
        out.append(f"  {name}", style=colour_style(item.color))
        out.append(f" ({item.color or item.kind}): ", style="dim")
        out.append(" | ".join(costs) + "\n")
    return out


def city_text(game, o: dict, p: int, viewer: int, who: list[str]) -> Text:
    """Seat p's city as the viewer sees it: coins, counters, the build zone grouped by colour,
    what it produces, its modifiers (shields...) and science; its other zones."""
    from .interpreter.observation import zones_with_known
    from .play_view import _city_stats
    c = game.content
    zones = {z.name: z for z in c.zones}
    n = c.players
    tags = ["you" if p == viewer else who[p]]
    if n > 2 and p != viewer:
        if p == (viewer + 1) % n:
            tags.append("left neighbour")
        if p == (viewer - 1) % n:
            tags.append("right neighbour")
    out = Text()
    out.append(f"p{p}", style="bold reverse" if p == viewer else "bold")
    out.append(f" ({', '.join(tags)})  {coins_held(game, p, viewer)}", style="bold" if p == viewer else "")
    for name, per_seat in sorted(game.state.counters.items()):
        out.append(f"  {counter_label(c, name)} {per_seat[p]}")
    out.append("\n")
    build_zones = {c.zones[z].name for z in c.build_zone.values()}
    compact = n > 2 and p != viewer   # N cities: the others' one wrapped line each
    open_cities = all(z.public for z in c.zones if z.active and z.per_player)
    for name, held in zones_with_known(o).items():
        z = zones[name]
        if not z.per_player:
            continue
        mine = held.get(str(p))
        if isinstance(mine, int):
            if mine:
                out.append(f"  {name}: {mine} hidden\n", style="dim")
            continue
        if not mine:
            continue
        if name in build_zones:
            groups: dict[str, list[str]] = {}
            for item_name in mine:
                i = c.item_index.get(item_name)
                color = (c.items[i].color or c.items[i].kind) if i is not None else "?"
                groups.setdefault(color, []).append(item_name)
            for k, color in enumerate(sorted(groups, key=lambda k: c.colors.index(k) if k in c.colors
                                             else len(c.colors))):
                # A group a line; the others' cities at a big table: all groups on one line.
                out.append("   " if compact and k else "  ")
                out.append(f"{color}: ", style=colour_style(color) + " bold")
                out.append(", ".join(groups[color]), style=colour_style(color))
                if not compact:
                    out.append("\n")
            if compact:
                out.append("\n")
        else:
            out.append(f"  {name}: ", style="dim")
            out.append(", ".join(mine) + "\n")
    if open_cities or p == viewer:
        stats = [", ".join(g) for g in _city_stats(game, p)]
        if stats:
            out.append("  " + "; ".join(stats) + "\n", style="italic")
    return out


def board_text(session: Session, seat: int) -> Text:
    """Everything left of the action list: the track, the structure, the offer, the shared
    zones, every city (the viewer's first)."""
    from .interpreter.observation import known_in_decks, observe, zones_with_known
    g = session.game
    o = observe(g, seat)
    out = Text()
    if g.over:
        out.append_text(scores_text(g))
        out.append("\n")
    for piece in (track_text(g), structure_text(g, o)):
        if piece is not None:
            out.append_text(piece)
            out.append("\n")
    actions = g.legal_actions(seat) if seat in g.to_act() else []
    offer = offer_text(g, seat, actions)
    if offer is not None:
        out.append_text(offer)
        out.append("\n")
    zones = {z.name: z for z in g.content.zones}
    drawn = {g.content.zones[g.content.track.zone].name} if track_text(g) is not None else set()
    shared = [(name, held) for name, held in zones_with_known(o).items()
              if not zones[name].per_player and held and name not in drawn]
    for name, held in shared:
        out.append(f"{name}: ", style="bold")
        z = zones[name]
        # items on numbered spaces: where each lies (a face-down one too: its back is seen)
        out.append(", ".join(on_spaces(g, z, 0, held)) + "\n")
    in_decks = known_in_decks(o)   # (what the seat saw go into decks no seat sees)
    for text in in_decks:
        out.append("you know: ", style="bold")
        out.append(text + "\n")
    if shared or in_decks:
        out.append("\n")
    boards = boards_text(o)
    if boards is not None:
        out.append_text(boards)
        out.append("\n")
    n = g.content.players
    for p in [seat, *[(seat + k) % n for k in range(1, n)]]:
        out.append_text(city_text(g, o, p, seat, session.who))
    return out


def scores_text(game) -> Text:
    """The final scores, per seat and category."""
    out = Text("Final scores\n", style="bold")
    for p in range(game.content.players):
        score = game.score(p)
        parts = ", ".join(f"{k} {v}" for k, v in score.items() if v)
        out.append(f"  p{p}: {sum(score.values())}" + (f"  ({parts})" if parts else "") + "\n")
    return out


def boards_text(o: dict) -> Text | None:
    """Zones with numbered spaces players put cubes on: each seat's cubes per space (numbered
    as the actions name them) and who controls it."""
    lines = cube_lines(o)
    if not lines:
        return None
    out = Text()
    names = set(o["cubes"])
    for line in lines:
        name = line.split("  ", 1)[0]
        if name in names:   # a board's first line: its name, bold
            out.append(name, style="bold")
            out.append(line[len(name):] + "\n")
        else:
            out.append(line + "\n")
    return out


def moves_text(session: Session, viewer: int) -> Text:
    """What each seat did last, as seat `viewer` may see it."""
    out = Text("Last moves\n", style="bold", no_wrap=True, overflow="ellipsis")
    for p in sorted(session.last):
        out.append(session.last[p].line(viewer) + "\n")
    return out


# -- the app ---------------------------------------------------------------------------------------

class Explanation(ModalScreen):
    """The English explanation of an action and the items it names; any key closes it."""

    BINDINGS = [Binding("escape,question_mark,q,enter", "dismiss", "close")]
    DEFAULT_CSS = """
    Explanation { align: center middle; }
    #explain { width: 90; max-height: 36; border: round $accent; padding: 0 1; background: $surface; }
    """

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="explain"):
            yield Static(Text(self.text + "\n\n(esc or ? to close)"), id="explain-text")


class AskName(ModalScreen):
    """`e`: type any name the game defines (a card on the table, a token, a god) to explain it."""

    BINDINGS = [Binding("escape", "dismiss", "close")]
    DEFAULT_CSS = """
    AskName { align: center middle; }
    #ask { width: 70; height: 5; border: round $accent; background: $surface; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="ask"):
            yield Static("Explain which name? (enter; esc closes)")
            yield Input(id="name")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())


class Handover(ModalScreen):
    """Hot seat: the screen is blank until the next player at the terminal is ready, so no one
    sees another seat's hand."""

    BINDINGS = [Binding("enter,space", "dismiss", "ready")]
    DEFAULT_CSS = """
    Handover { align: center middle; background: $background 100%; }
    #handover { width: 60; height: 5; border: round $accent; content-align: center middle; text-align: center; }
    """

    def __init__(self, seat: int):
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        yield Static(f"p{self.seat} to play: pass the keyboard.\nPress enter when ready.", id="handover")


class PlayApp(App):
    """`rulesdsl play` on the full screen."""

    TITLE = "rulesdsl play"
    CSS = """
    #main { height: 1fr; }
    #header { height: 1; }
    #board { width: 1fr; padding: 0 1; }
    #side { width: 40; }
    #actions { height: 1fr; border: round $accent; }
    #moves { height: 12; text-wrap: nowrap; text-overflow: ellipsis; border: round $panel; padding: 0 1; }
    #status { height: 2; }
    #small { display: none; width: 100%; height: 100%; content-align: center middle; text-align: center; }
    """
    BINDINGS = [
        Binding("q", "quit_game", "quit"),
        Binding("question_mark", "explain", "explain"),
        Binding("e", "explain_name", "explain a name"),
        Binding("u", "undo", "undo"),
        Binding("s", "save", "save"),
        # (textual 1.0 on leaves Ctrl-C to copying: at a game, it stops the game as it stops every
        # other command, whatever panel is up; the plain screen's `Aborted!`)
        Binding("ctrl+c", "interrupt", "stop", show=False, priority=True),
    ]

    def __init__(self, session: Session, save_path: Path | None = None, no_color: bool = False):
        if no_color:   # textual reads (and removes) NO_COLOR as it starts
            os.environ["NO_COLOR"] = "1"
        super().__init__()
        self.session = session
        self.save_path = save_path
        self.status = ""
        self.digits = ""
        self.digit_time = 0.0
        self.shown = -1   # the seat whose view is on the screen (hot seat)
        self.failure: Exception | None = None   # a custom agent's failure, which ends the screen
        self.actions: list = []

    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            yield Static(id="header")
            with Horizontal():
                with VerticalScroll(id="board-scroll"):
                    yield Static(id="board")
                with Vertical(id="side"):
                    yield OptionList(id="actions")
                    yield Static(id="moves")
            yield Static(id="status")
        yield Static(id="small")

    def on_mount(self) -> None:
        self._run_agents()
        self.refresh_view()

    def _run_agents(self) -> None:
        """The agents play to the next human decision; one whose action runs away (the step
        budget) leaves the game as it was before it, and the screen says so."""
        from .agents import AgentError
        from .interpreter import EffectFailed
        try:
            self.session.run_agents()
        except EffectFailed as exc:
            self.status = printable(f"error: {exc}")
        except AgentError as exc:
            self._agent_failed(exc)
        self._fit()

    def _agent_failed(self, exc: Exception) -> None:
        """A custom agent failed (`agents.answer`): the game cannot go on; the command says why
        once the screen is gone."""
        self.failure = exc
        self.exit(self.session.game.over)

    def on_resize(self, event) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, w: int | None = None, h: int | None = None) -> None:
        """Too small a terminal: one clear message instead of the screen."""
        if w is None or h is None:
            w, h = self.size.width, self.size.height
        small = w < MIN_WIDTH or h < MIN_HEIGHT
        self.query_one("#main").display = not small
        note = self.query_one("#small", Static)
        note.display = small
        if small:
            note.update(f"This terminal is {w}x{h}: the play screen needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n"
                        "Enlarge the window, or run `rulesdsl play --plain`.\n\nq quits.")

    @property
    def too_small(self) -> bool:
        return not self.query_one("#main").display

    @property
    def busy(self) -> bool:
        """Too small, or a panel (an explanation, a name being typed, a hand-over) is up: the
        game's keys wait."""
        return self.too_small or isinstance(self.screen, ModalScreen)

    def refresh_view(self) -> None:
        s = self.session
        g = s.game
        seat = s.viewer()
        if len(s.humans) > 1 and seat != self.shown and not g.over:
            self.shown = seat   # another person at the terminal: hide the board until they are there
            self.push_screen(Handover(seat))
        self.query_one("#header", Static).update(header(s, seat))
        self.query_one("#board", Static).update(board_text(s, seat))
        self.query_one("#moves", Static).update(moves_text(s, seat))
        self.actions = g.legal_actions(seat) if s.human_to_move() == seat else []
        menu = self.query_one("#actions", OptionList)
        menu.clear_options()
        pending = g.state.pending
        menu.border_title = (pending.prompt if pending and pending.player == seat else "Your move") \
            if self.actions else ("Game over" if g.over else "Waiting")
        for i, a in enumerate(self.actions, 1):
            label = Text(f"{i:2}. {printable(action_label(a))}")
            cost = cost_text(g, seat, a)
            if cost:
                label.append(f"  {cost}", style="dim" if "free" not in cost else "green")
            menu.add_option(Option(label))
        if self.actions:
            menu.highlighted = 0
            menu.focus()
        keys = "↑↓ or number + enter: play  ?: explain  e: explain a name  u: undo  s: save  q: quit"
        status = Text(f" {keys}", style="reverse")
        status = Text(self.status, style="bold", no_wrap=True, overflow="ellipsis") + Text("\n") + status
        self.query_one("#status", Static).update(status)

    # -- keys --------------------------------------------------------------------------------------
    def on_key(self, event) -> None:
        if event.character and event.character in "0123456789" and self.actions:   # (not `²`: int refuses it)
            import time
            now = time.monotonic()
            if now - self.digit_time > 1.5:   # a number is its digits typed together
                self.digits = ""
            self.digit_time = now
            self.digits = (self.digits + event.character)[-3:]
            n = int(self.digits)
            if not 1 <= n <= len(self.actions):
                self.digits = event.character
                n = int(self.digits)
            if 1 <= n <= len(self.actions):
                self.query_one("#actions", OptionList).highlighted = n - 1
            event.stop()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.digits = ""
        if self.too_small or not 0 <= event.option_index < len(self.actions):
            return
        from .agents import AgentError
        from .interpreter import EffectFailed
        from .interpreter.actions import IllegalAction
        action = self.actions[event.option_index]
        try:
            self.session.play(action)
            self.status = ""
        except (IllegalAction, EffectFailed) as exc:
            self.status = printable(str(exc))
        except AgentError as exc:
            self._agent_failed(exc)
            return
        self.refresh_view()

    def highlighted_action(self):
        menu = self.query_one("#actions", OptionList)
        k = menu.highlighted
        return self.actions[k] if k is not None and 0 <= k < len(self.actions) else None

    def action_explain(self) -> None:
        action = self.highlighted_action()
        if action is not None and not self.busy:
            self.push_screen(Explanation(explanation(self.session.game.content, action)))

    def action_explain_name(self) -> None:
        if not self.busy:
            self.push_screen(AskName(), self._explain_name)

    def _explain_name(self, name: str | None) -> None:
        if not name:
            return
        self.push_screen(Explanation(explained_name(self.session.game.content, name)))

    def action_undo(self) -> None:
        if self.busy:
            return
        s = self.session
        seat = s.viewer()
        if s.undo(seat):
            self.status = "your last move is taken back"
        elif any(p == seat for p, _ in s.moves):
            self.status = "another player has moved since your last move: theirs is not yours to take back"
        else:
            self.status = "nothing to undo"
        self._run_agents()
        self.refresh_view()

    def action_save(self) -> None:
        from .files import FileProblem
        if self.busy:
            return
        path = self.save_path or Path(f"rulesdsl-play-{self.session.seed}.trace.json")
        try:
            self.session.save(path)
            self.status = printable(f"trace written to {path}")
        except FileProblem as exc:
            self.status = printable(f"error: {exc}")
        if not self.too_small:
            self.refresh_view()

    def action_quit_game(self) -> None:
        if isinstance(self.screen, AskName):   # a `q` typed in a name
            return
        self.exit(self.session.game.over)

    def action_interrupt(self) -> None:
        self.exit(self.session.game.over, return_code=INTERRUPTED)


# The status of a game stopped by Ctrl-C (`run_screen`): the command says `Aborted!` and exits 1
# once the game so far is saved, as on the plain screen.
INTERRUPTED = 130


def run_screen(session: Session, save_path: Path | None, no_color: bool) -> bool:
    """Play on the full screen; whether the player stopped it with Ctrl-C.  A custom agent's
    failure ends the screen and is raised here (an AgentError)."""
    app = PlayApp(session, save_path, no_color)
    app.run()
    if app.failure is not None:
        raise app.failure
    return app.return_code == INTERRUPTED


def screen_text(app: App, styles: bool = False) -> str:
    """What the running app shows now, as text (with ANSI styles if `styles`): for tests and
    for a look at the screen without a terminal."""
    import io
    from rich.console import Console
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, record=True,
                      color_system="truecolor", legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text(styles=styles)
