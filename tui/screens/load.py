"""The load screen: every saved game in the save folder, to resume, replay or delete.

Damaged files are listed with their error (shown under the table) and cannot be opened;
nothing here ever modifies a file except a confirmed delete. Dismisses with the name of
the save to resume, or None.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from tui.widgets.keys import KeysBar
from tui.widgets.rows import RowTable

if TYPE_CHECKING:
    import saves

COLUMNS = (("Title", 20), ("Players", 18), ("Season", 6), ("Leader", 9), ("Last played", 12))
"""Column labels and widths: the five fit in 80 columns with the table's cell padding."""


def when(summary: saves.SaveSummary, now: datetime | None = None) -> str:
    """The last-played time in the player's local time zone, short: the year is only
    shown when it is not this one."""
    local = summary.updated.astimezone()
    this_year = (now or datetime.now(local.tzinfo)).year == local.year
    return local.strftime("%d %b %H:%M" if this_year else "%d %b %Y")


def cell(text: str, style: str = "") -> Text:
    """A table cell cut with an ellipsis when it is wider than its column."""
    return Text(text, style=style, no_wrap=True, overflow="ellipsis")


def short_title(summary: saves.SaveSummary) -> str:
    """The title without the player names the Players column shows: a new game's title
    is "Ann, Ben, Cleo (02 Jan 2026 03:04)", which becomes "02 Jan 2026 03:04"."""
    title = summary.title
    for joiner in (", ", " v "):
        names = joiner.join(summary.players)
        if names and title.startswith(names):
            rest = title[len(names) :].strip()
            if rest.startswith("(") and rest.endswith(")"):
                rest = rest[1:-1]
            return rest or title
    return title


def row_of(summary: saves.SaveSummary) -> tuple[Text, ...]:
    """The table cells of one save; a damaged one says so in place of its players."""
    if summary.error is not None:
        damaged = cell("damaged", "bold reverse")
        return (cell(summary.name), damaged, cell("-"), cell("-"), cell(when(summary)))
    season = "over" if summary.finished else str(summary.season)
    if summary.open_elsewhere:
        season += " open"  # in another window: the detail line says since when
    return (
        cell(short_title(summary)),
        cell(", ".join(summary.players)),
        cell(season),
        cell(summary.leader or "-"),
        cell(when(summary)),
    )


class LoadScreen(Screen[str | None]):
    """The saved games, newest first: Enter resumes, r replays, d deletes, Esc goes back."""

    DEFAULT_CSS = """
    LoadScreen { layout: vertical; }
    LoadScreen #load-title { height: 1; background: $panel; text-style: bold; }
    LoadScreen #saves { height: 1fr; }
    LoadScreen #load-detail { height: auto; max-height: 4; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "resume", "Resume", priority=True),
        Binding("enter", "replay", "Replay", priority=True),
        Binding("r", "replay", "Replay"),
        Binding("d,delete", "delete", "Delete"),
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self, store: saves.SaveStore, replay_only: bool = False) -> None:
        """``replay_only``: saved games here are replayed, never played on (a door's
        session: a remote player plays only at the server's tables)."""
        super().__init__()
        self.store = store
        self.replay_only = replay_only
        self.summaries: dict[str, saves.SaveSummary] = {}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":  # Enter: resume, or replay where nothing is played on
            return not self.replay_only
        return True

    def compose(self) -> ComposeResult:
        yield Static(f"Saved games in {self.store.folder}", id="load-title", markup=False)
        table: RowTable = RowTable(id="saves")
        for label, width in COLUMNS:
            table.add_column(label, width=width)
        yield table
        yield Static(id="load-detail", markup=False)
        yield KeysBar()

    def on_mount(self) -> None:
        self.refresh_list()
        self.query_one(RowTable).focus()

    # ---------------------------------------------------------------- the list

    def refresh_list(self, keep: str | None = None) -> None:
        """Read the folder again; keep the cursor on ``keep`` if it is still there."""
        table: RowTable = self.query_one(RowTable)
        table.clear()
        self.summaries = {s.name: s for s in self.store.list()}
        for summary in self.summaries.values():
            table.add_row(*row_of(summary), key=summary.name)
        names = list(self.summaries)
        if keep in names:
            table.move_cursor(row=names.index(keep))
        self.show_detail()

    @property
    def selected(self) -> saves.SaveSummary | None:
        """The save under the cursor, None when the list is empty."""
        table: RowTable = self.query_one(RowTable)
        if not self.summaries or table.cursor_row < 0:
            return None
        names = list(self.summaries)
        return self.summaries[names[min(table.cursor_row, len(names) - 1)]]

    @on(RowTable.RowHighlighted)
    def show_detail(self) -> None:
        detail = self.query_one("#load-detail", Static)
        summary = self.selected
        if summary is None:
            detail.update(f"No saved games yet in {self.store.folder}.")
        elif summary.error is not None:
            detail.update(summary.error)
        elif summary.finished:
            detail.update(f"{summary.title}: finished, won by {summary.leader}. r: replay it.")
        elif summary.open_elsewhere:
            detail.update(
                f"{summary.title}: season {summary.season}, open {summary.open_elsewhere}. "
                "Enter: watch it or take it over."
            )
        else:
            verb = "replay" if self.replay_only else "resume"
            detail.update(f"{summary.title}: season {summary.season}. Enter: {verb} it.")

    # ---------------------------------------------------------------- actions

    def action_resume(self) -> None:
        summary = self.selected
        if summary is None:
            return
        if summary.error is not None:
            self.notify(
                summary.error, title="Cannot open", severity="error", timeout=10, markup=False
            )
        elif summary.finished:
            self.action_replay()
        else:
            self.dismiss(summary.name)

    def action_replay(self) -> None:
        from tui.screens.replay import show_saved

        if self.selected is not None:
            show_saved(self, self.selected.name, self.store)

    def action_delete(self) -> None:
        from tui.screens.dialogs import ConfirmScreen

        summary = self.selected
        if summary is None:
            return
        question = f"Delete the saved game “{summary.title}”? This cannot be undone."
        if summary.open_elsewhere:
            question = (
                f"“{summary.title}” is open {summary.open_elsewhere}. Delete it anyway? "
                "That window will not be able to save it any more."
            )
        force = summary.open_elsewhere is not None

        def delete(yes: bool | None) -> None:
            self._delete(summary.name, yes, force)

        self.app.push_screen(ConfirmScreen(question), delete)

    def _delete(self, name: str, yes: bool | None, force: bool) -> None:
        import saves

        if not yes:
            return
        names = list(self.summaries)
        index = names.index(name)
        try:
            self.store.delete(name, force=force)
        except saves.SaveError as exc:
            self.notify(str(exc), title="Cannot delete", severity="error", timeout=10, markup=False)
        remaining = [n for n in names if n != name]
        self.refresh_list(keep=remaining[min(index, len(remaining) - 1)] if remaining else None)

    def action_close(self) -> None:
        self.dismiss(None)
