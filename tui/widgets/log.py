"""The game's log, in words (core's Event texts), each line led by the letter of the player
it concerns: the whole game, read with PgUp/PgDn/Home/End from the game screen.

The newest lines stay in view unless the player scrolled back (a pane of five lines in
season 4 would otherwise show the first five of thirty). When a player at this terminal
is to decide, the lines since their last decision (what the others did) are set off by a
marker line; when they do not all fit, the top row says how many are above and that PgUp
shows them. A survey ends with what each player got from it, one line each, so that it
reads in one look even in five lines; core's line by line account stays above it.
The line naming the game (``Game 'x', season 2.``) stays where the game was opened when
the log is rebuilt after an undo, a redo or a reconnection.

At a shared table the log also holds the table's journal as every player saw it
(``saves.TableLine``: chat, and notes such as "ann took back their last action."), each
line among the moves where it was said, and marks the moves a computer made standing in
for a player (`` (computer, normal)``). Those lines come from elsewhere: they are shown as
plain text, escaped (``saves.text.shown``), never read as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

import core
from saves.format import TableLine, places
from saves.text import MAX_PLAYER_NAME, shown
from tui import look

MARKER = Style(bold=True, reverse=True)
HEADING = Style(bold=True)


class Entry(msgspec.Struct, frozen=True):
    """One logged line, and the seat whose decision led to it (None: a note); ``standin``:
    a computer made that decision for the seat's player (at a shared table)."""

    text: Text
    decider: int | None = None
    standin: bool = False


class LogView(Widget):
    """The newest lines at the bottom, unless the player scrolled back (see the module
    docstring)."""

    DEFAULT_CSS = """
    LogView { height: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entries: list[Entry] = []
        self.top: int | None = None
        """The first entry shown when scrolled; None follows the newest line."""
        self.since: int | None = None
        """The first entry after the last decision of the player deciding now (marked)."""
        self.since_words = ""
        self._since_name = ""
        self._turn: int | None = None
        """The seat deciding at this terminal now (set by :meth:`turn_of`)."""
        self._survey_from: core.GameState | None = None
        """The position just before the survey under way, to sum up what it gave."""
        self._opening: tuple[int, str] | None = None
        """The line naming the game, and how many actions came before it."""
        self._shown = (0, 0)
        """The first and last entries of the last frame."""

    @property
    def lines(self) -> list[Text]:
        return [entry.text for entry in self.entries]

    # ---------------------------------------------------------------- telling

    def add(self, line: str | Text, decider: int | None = None, standin: bool = False) -> None:
        text = line if isinstance(line, Text) else Text(line)
        self.entries.append(Entry(text, decider, standin))
        self.refresh()

    def clear(self) -> None:
        self.entries.clear()
        self.top = self.since = self._turn = self._survey_from = None
        self.refresh()

    def tell(
        self,
        state: core.GameState,
        text: str,
        seat: int | None = None,
        decider: int | None = None,
        standin: core.Level | None = None,
    ) -> None:
        """A line about ``seat`` (None: nobody's), led by its letter in its colour; a
        decision a computer made standing in for its player says so."""
        line = Text()
        if seat is not None and seat >= 0:
            line.append(look.seat_letter(state, seat) + " ", look.seat_style(state, seat))
        line.append(text)
        if standin is not None:
            # Imported here: stand-ins play at shared tables only, and a game of this
            # machine's first frame needs none of the journal's module.
            from table.journal import standin_mark

            line.append(standin_mark(standin), look.DIM)
        self.add(line, decider, standin is not None)

    def tell_line(self, line: TableLine) -> None:
        """A line of the table's journal, as said now: chat (see :func:`said`) or a note."""
        self.add(said(line))

    def tell_action(
        self,
        before: core.GameState,
        action: core.Action,
        events: Sequence[core.Event] | None = None,
        after: core.GameState | None = None,
        standin: core.Level | None = None,
    ) -> None:
        """What ``action`` did when played in ``before``: its ``events`` (core's words,
        automatic steps included; worked out again when not given), else its notation;
        after the last step of a survey, what it gave each player. ``after``: the
        position it led to, if known; ``standin``: the computer that made the decision
        for the seat's player."""
        if events is None:
            after, events = core.apply_action_with_events(before, action)
        elif after is None:
            after = core.apply_action(before, action)
        decider = before.current_player
        decided = decider is not None and decider == self._turn and standin is None
        if decided or core.is_over(after):  # the player decided, or nobody will: the newest
            self.since = self.top = self._turn = None
        for event in events or [core.Event(core.format_action(action), before.current)]:
            self.tell(before, event.text, event.seat, decider, standin)
        self._follow_survey(before, after)

    def tell_history(
        self,
        states: Sequence[core.GameState],
        actions: Sequence[core.Action],
        lines: Sequence[TableLine] = (),
        opening: str | None = None,
        standins: Sequence[core.Level | None] = (),
    ) -> None:
        """The log rebuilt from the whole history, worded as when it was played, so it
        always matches the board (on opening a game, after undo or redo, on coming back
        to a table). A shared table's journal ``lines`` (in the journal's order) are
        placed among the moves where they were said (see :func:`places`), so every
        terminal shows one order; ``standins``: for each action, the computer that made
        it for its player. ``opening`` names the game: told the first time, after the
        history as it stands; a rebuild puts it back in that place (or last, when an
        undo went back before it)."""
        if opening is not None and self._opening is None:
            self._opening = (len(actions), opening)
        self.clear()
        played = min(len(actions), len(states))
        opened_at = min(self._opening[0], played) if self._opening else -1
        waiting = list(zip(places(lines, played), lines, strict=True))
        waiting.reverse()  # taken from the end: the first line first
        for index in range(played + 1):
            if index == opened_at:  # before the lines of that moment, as they came live
                self._tell_opening()
            while waiting and waiting[-1][0] <= index:
                self.tell_line(waiting.pop()[1])
            if index < played:
                after = states[index + 1] if index + 1 < len(states) else None
                standin = standins[index] if index < len(standins) else None
                self.tell_action(states[index], actions[index], after=after, standin=standin)

    def _tell_opening(self) -> None:
        if self._opening is not None:
            self.add(self._opening[1])

    # ---------------------------------------------------------------- the survey in short

    def _follow_survey(self, before: core.GameState, after: core.GameState) -> None:
        """Note where a survey starts; once it is over, sum up what it gave."""
        digging = core.Phase.EXCAVATION
        dug = after.phase is not digging or after.season != before.season
        if before.phase is digging and dug:
            self._survey_from = before
        start = self._survey_from
        if start is not None and (after.season != start.season or core.is_over(after)):
            self._survey_from = None
            for line in survey_summary(start, after):
                self.add(line)

    # ---------------------------------------------------------------- a player's turn

    def turn_of(self, state: core.GameState) -> None:
        """The player deciding in ``state`` does so at this terminal: mark what happened
        since their last decision. The view stays where it is: at the newest lines, or
        where the player scrolled to."""
        seat = state.current
        entries = self.entries
        last = next((i for i in range(len(entries) - 1, -1, -1)  # their own, not a stand-in's
                     if entries[i].decider == seat and not entries[i].standin), None)  # fmt: skip
        start = last + 1 if last is not None else 0  # never decided: a stand-in did
        news = entries[start:]
        others = any(e.decider not in (None, seat) or e.standin for e in news)
        away = any(e.decider == seat and e.standin for e in news)
        self._turn = seat
        self.since = start if others and (last is not None or away) else None
        self._since_name = look.cut(state.players[seat].name, 12)
        self.since_words = (
            "while you were away" if away else f"since {self._since_name}'s last decision"
        )
        self.refresh()

    # ---------------------------------------------------------------- scrolling

    def scroll_by_key(self, key: str) -> None:
        """``pageup``, ``pagedown``, ``home`` or ``end``."""
        {"pageup": lambda: self.page(-1), "pagedown": lambda: self.page(1),
         "home": self.home, "end": self.end}[key]()  # fmt: skip

    def page(self, pages: int) -> None:
        """Scroll by ``pages`` whole pages (negative: back to older lines): each page
        starts right after the last line shown, or ends right before the first, so no
        line is skipped however many rows a long line takes."""
        height = max(self.size.height, 1)
        for _ in range(abs(pages)):
            if pages > 0 and self.top is not None:
                self.top = self._shown[1] + 1
                if self._rows(self.top, len(self.entries)) <= height:
                    self.top = None  # the rest fits: follow the newest lines again
            elif pages < 0:
                self.top = self._page_before(self._shown[0], height)
            self._shown = self._layout(height)[1:]
        self.refresh()

    def _page_before(self, first: int, height: int) -> int:
        """The first entry of the page that ends just before entry ``first``."""
        start = max(first - 1, 0)
        while start > 0 and self._rows(start - 1, first) <= height - 1:  # - the ▼ row
            start -= 1
        return start

    def home(self) -> None:
        self.top = 0
        self.refresh()

    def end(self) -> None:
        self.top = None
        self.refresh()

    @property
    def scrolled(self) -> bool:
        return self.top is not None

    # ---------------------------------------------------------------- rendering

    def _wrap(self, index: int) -> list[Text]:
        """The rows of entry ``index`` (the marker row first, if it is marked)."""
        rows = list(self.entries[index].text.wrap(self.app.console, max(self.size.width, 10)))
        if index == self.since:
            rows.insert(0, self._marker())
        return rows

    def _rows(self, start: int, stop: int) -> int:
        return sum(len(self._wrap(i)) for i in range(start, stop))

    def _marker(self) -> Text:
        text = Text(f"── {self.since_words} ──", MARKER)
        text.truncate(max(self.size.width, 10), overflow="ellipsis")
        return text

    def render(self) -> Text:
        rows, *shown = self._layout(max(self.size.height, 1))
        self._shown = (shown[0], shown[1])
        return Text("\n").join(rows)

    def _layout(self, height: int) -> tuple[list[Text], int, int]:
        """The rows of a frame ``height`` rows high, and its first and last entries."""
        if self.top is None or self.top >= len(self.entries):
            rows, first, last = self._from_bottom(height)
            if self.since is not None and self.since < first:
                rows, first, last = self._from_bottom(height - 1)
                rows.insert(0, self._above(first - self.since))
            return rows, first, last
        return self._from_top(height)

    def _from_bottom(self, height: int) -> tuple[list[Text], int, int]:
        """The newest rows that fit."""
        shown: list[Text] = []
        first = len(self.entries)
        while first > 0:
            rows = self._wrap(first - 1)
            if len(shown) + len(rows) > height:
                break
            shown[:0] = rows
            first -= 1
        return shown, first, len(self.entries) - 1

    def _above(self, count: int) -> Text:
        """The top row when the news since the player's last decision start above it."""
        width = max(self.size.width, 10)
        lines = "line" if count == 1 else "lines"
        forms = (f"▲ {count} more {lines} {self.since_words}: PgUp",
                 f"▲ {count} more since {self._since_name}'s turn: PgUp",
                 f"▲ {count} more {lines}: PgUp")  # fmt: skip
        words = next((w for w in forms if cell_len(w) <= width), forms[-1])
        text = Text(words, MARKER)
        text.truncate(width, overflow="ellipsis")
        return text

    def _from_top(self, height: int) -> tuple[list[Text], int, int]:
        """Rows from entry ``top`` down, the last row saying how many more follow."""
        assert self.top is not None
        shown: list[Text] = []
        index = self.top
        while index < len(self.entries):
            rows = self._wrap(index)
            if len(shown) + len(rows) > height - 1:
                if not shown:  # taller than the pane: its first rows, never nothing
                    shown, index = rows[: max(height - 1, 1)], index + 1
                break
            shown += rows
            index += 1
        more = len(self.entries) - index
        if more:
            plural = "line follows" if more == 1 else "lines follow"
            shown.append(Text(f"▼ {more} more {plural}: PgDn, End", MARKER))
        return shown, self.top, index - 1


def said(line: TableLine) -> Text:
    """A line of the table's journal in the log: chat with its sayer in bold (a watcher
    marked as one), or a note as it stands; plain text, escaped, never markup."""
    if line.name is None:
        return Text(shown(line.text))
    text = Text("» ", look.DIM)
    text.append(shown(line.name, MAX_PLAYER_NAME), "bold")
    if line.spectator:
        text.append(" (watching)", look.DIM)
    text.append(f": {shown(line.text)}")
    return text


def survey_summary(start: core.GameState, end: core.GameState) -> list[Text]:
    """What a survey gave each player, one line each under a heading: the points, the
    cartouches of the parcels taken (as on the region) and the Museum rooms booked.
    ``start``: the position just before the survey; ``end``: one after it."""
    lines = [Text(f"Survey of season {start.season} in short:", HEADING)]
    booked = {
        room: new
        for room, (old, new) in enumerate(zip(start.museum, end.museum, strict=True))
        if old != new and 0 <= new < start.player_count
    }
    for seat, (was, now) in enumerate(zip(start.players, end.players, strict=True)):
        line = Text()
        line.append(look.seat_letter(start, seat) + " ", look.seat_style(start, seat))
        line.append(f"{look.cut(was.name, 12)} +{now.score - was.score}:")
        got = [
            Text(look.card_cartouche(card).rstrip(), look.patron_style(core.CARDS[card].patron))
            for card in now.cards[len(was.cards) :]
        ]
        got += [Text(look.room_short(start.wings, r)) for r, who in booked.items() if who == seat]
        line.append(" ")
        line.append_text(Text(", ").join(got) if got else Text("nothing", look.DIM))
        lines.append(line)
    return lines
