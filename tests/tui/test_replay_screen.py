"""The replay screen shows what the game screen showed at each moment, with its widgets:
the status line, the region and its legend, the players' panels with their cards, the
passing scale and the Museum, the list of actions in the log's place (issue 18 #14: the
title was cut, Museum and cards missing, the board empty at the end, a stray cursor on
a1). A shared table's game (issue 25) lists its journal where it happened: the chat
between the moves it was said among, the table's notes, and the stand-in mark on each
move a computer made for its player. Pilot tests for the behaviour, snapshots at 80×24
and 120×40 for the layout."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual.widget import Widget
from textual.widgets import OptionList, Static

import core
import saves
from table import journal
from table.server.export import export_save
from table.store import SeatRow, TableRow
from tests.tui.conftest import HOT_SEAT_3, app_for, play_until, session_for, settle
from tui.screens.replay import ReplayScreen, verdict
from tui.screens.summary import FinalScreen
from tui.widgets.actionbar import StatusLine
from tui.widgets.board import Board
from tui.widgets.log import LogView
from tui.widgets.museum import MuseumView
from tui.widgets.passing import PassingView
from tui.widgets.players import PlayersView
from tui.widgets.region import RegionView

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
MID_GAME = 60
"""Actions played in the mid-game position: season 2, cards owned, rooms booked."""


def _finished(store: saves.SaveStore) -> saves.Session:
    """The snapshot tests' finished game (seed 7, played by seed 5), saved as ``snap``."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="snap")
    play_until(session, lambda state, legal: core.is_over(state), seed=5)
    return session


async def _replay_of_finished_game(pilot, store: saves.SaveStore) -> ReplayScreen:
    """The player's way in: the finished game, its final scores, r."""
    await pilot.pause()
    await pilot.press("f")
    assert isinstance(pilot.app.screen, FinalScreen)
    await pilot.press("r")
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


T0 = 1_767_225_600.0
HANDED = range(50, 66)
"""The actions during which a computer (normal) stood in for Cleo, who was away."""
NICE = "[bold]nice[/] dig \u202e"
"""Ben's line after action 58: markup and a format character, shown as written."""


def _evening(session: saves.Session) -> list[journal.Any]:
    """The journal of the finished game as a table would have kept it: Cleo away and
    handed to a computer from action 50 to 65, Ben's undo of action 58, chat around it."""
    states, actions = session.states(), session.actions
    moves = [
        journal.Move(T0 + seq, seq, states[seq].current_player or 0, action,
                     "normal" if seq in HANDED and states[seq].current_player == 2 else None)
        for seq, action in enumerate(actions)
    ]  # fmt: skip
    return [
        journal.Chat(T0, 0, "Ann", "good luck all"),
        *moves[:50],
        journal.HandOver(T0 + 50, 50, by="Ann", seat=2, name="Cleo", level="normal"),
        *moves[50:58],
        journal.Undo(T0 + 58, 57, "Ben"),
        *moves[57:59],
        journal.Chat(T0 + 59, 59, "Ben", NICE),
        journal.Chat(T0 + 59, 59, "Dora", "who leads?", spectator=True),
        *moves[59:66],
        journal.Back(T0 + 66, 66, seat=2, name="Cleo"),
        journal.HandOver(T0 + 66, 66, by="Cleo", seat=2, name="Cleo"),
        *moves[66:],
        journal.End(T0 + 999, len(actions)),
    ]


def _exported(store: saves.SaveStore) -> saves.Session:
    """The finished game, played at a table with its evening's journal, exported and kept
    here as ``table`` (what the load list replays)."""
    session = _finished(store)
    names = [seat.name for seat in HOT_SEAT_3]
    row = TableRow(
        7, "Evening table", 7, T0, T0 + 999,
        [SeatRow("player", seat.name, None, seat.colour) for seat in HOT_SEAT_3],
        actions=list(session.actions),
    )  # fmt: skip
    assert row.names() == names
    data = export_save(row, session.states(), _evening(session))
    kept = saves.Session.adopt(store, data, "table")
    kept.close()
    return kept


def _prompts(screen: ReplayScreen) -> list[str]:
    listed = screen.query_one(OptionList)
    return [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]


def _on_screen(screen: ReplayScreen, widget_type: type[Widget]) -> bool:
    """Whether a widget of ``widget_type`` shows whole inside the terminal."""
    widget = screen.query_one(widget_type)
    region = widget.region
    width, height = screen.app.size
    return (
        widget.display
        and region.width > 0
        and region.height > 0
        and region.right <= width
        and region.bottom <= height
    )


def _shown_lines(log: OptionList) -> str:
    """The text of the list's lines in view."""
    return "\n".join(log.render_line(y).text for y in range(log.size.height))


@pytest.mark.parametrize("size", SIZES)
async def test_every_part_of_the_table_shows(store, size) -> None:
    """Mid-game and at the final action: the status line, the region, the players'
    panels, the passing scale, the Museum and the list of actions are all on screen and
    show the position after the highlighted action."""
    session = _finished(store)
    app = app_for(store, resume="snap")
    async with app.run_test(size=size) as pilot:
        screen = await _replay_of_finished_game(pilot, store)
        for position in (MID_GAME, len(session.actions)):
            screen.go_to(position)
            await pilot.pause()
            log = screen.query_one(OptionList)  # it scrolls to the action a frame later
            shown = f"{position}. "
            await settle(pilot, lambda log=log, shown=shown: shown in _shown_lines(log))
            state = session.states()[position]
            for widget_type in (StatusLine, RegionView, PlayersView, PassingView, MuseumView):
                assert _on_screen(screen, widget_type), (widget_type.__name__, position)
            assert _on_screen(screen, OptionList)
            assert screen.query_one(PlayersView).state == state
            assert screen.query_one(MuseumView)._state == state
            assert screen.query_one(OptionList).highlighted == position - 1
            assert f"{position}. " in _shown_lines(screen.query_one(OptionList)), position
            assert not screen.query(LogView), "the game's log gives way to the actions"


async def test_the_title_is_whole_at_80_columns(store) -> None:
    """The replay's line names the action and the whole title; the game's status line
    (season, phase, who decides) has a line of its own, as on the game screen."""
    session = _finished(store)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _replay_of_finished_game(pilot, store)
        await pilot.press("pagedown", "pagedown")
        title = str(screen.query_one("#replay-status", Static).render())
        assert title == f"Replay · action 20/{len(session.actions)} · {session.title}"
        status = str(screen.query_one(StatusLine).render())
        assert status.startswith(" Season 1/4  ") and "to decide" in status


async def test_the_final_action_keeps_a_board_and_names_the_winner(store) -> None:
    """Core clears the region when the game ends: the replay keeps the last region there
    was (and says so) instead of an empty board, and the status line says who won."""
    session = _finished(store)
    states = session.states()
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _replay_of_finished_game(pilot, store)
        await pilot.press("end")
        assert core.is_over(screen.state) and not screen.state.region
        region = screen.query_one(RegionView)
        assert region.picture.state == states[-2] and region.rows == 9
        status = str(screen.query_one(StatusLine).render())
        assert verdict(screen.state) in status and "region before the last action" in status
        assert screen.query_one(PlayersView).state == screen.state  # final totals
        await pilot.press("left")
        assert region.picture.state == states[-2]
        assert "region before" not in str(screen.query_one(StatusLine).render())


def _reverse_cells(region: RegionView) -> list[tuple[int, int, str]]:
    return [
        (x, y, segment.text)
        for y in range(region.size.height)
        for x, segment in enumerate(region.render_line(y))
        if isinstance(segment.style, Style) and segment.style.reverse
    ]


async def test_no_cursor_on_the_region(store) -> None:
    """Nothing is placed in a replay: no cell of the region is in reverse video (a
    placement cursor showed on a1), in excavation, where nothing else is reversed."""
    session = _finished(store)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _replay_of_finished_game(pilot, store)
        for position in (0, 1, MID_GAME):
            screen.go_to(position)
            await pilot.pause()
            assert screen.state.phase is core.Phase.EXCAVATION
            assert _reverse_cells(screen.query_one(RegionView)) == [], position
        assert session.states()[MID_GAME].season == 2


async def test_keys_step_though_the_list_has_the_focus(store) -> None:
    """The list of actions holds the focus (so no region cursor), yet ↑↓ and ←→ step one
    action, PgDn/PgUp ten, Home/End jump, and clicking a line goes to that action."""
    session = _finished(store)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _replay_of_finished_game(pilot, store)
        assert isinstance(screen.focused, OptionList)
        await pilot.press("down", "down", "right")
        assert screen.position == 3
        await pilot.press("up")
        assert screen.position == 2
        await pilot.press("pagedown")
        assert screen.position == 12
        await pilot.press("pageup", "pageup")
        assert screen.position == 0
        await pilot.press("end")
        assert screen.position == len(session.actions)
        await pilot.press("home")
        assert screen.position == 0
        await pilot.click(OptionList, offset=(2, 0))
        assert screen.position == 1
        await pilot.press("escape")
        assert isinstance(app.screen, FinalScreen)


async def test_a_bare_list_of_states_replays_too(store) -> None:
    """The lobby's replay of a shared table: states and actions with no save, the board
    at the end, the players named from the state."""
    session = _finished(store)
    states, actions = session.states(), list(session.actions)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(ReplayScreen((states, actions), title="At the table", start=-1))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.position == len(actions)
        assert screen.query_one(Board) and screen.query_one(RegionView).rows == 9
        title = str(screen.query_one("#replay-status", Static).render())
        assert title.endswith("· At the table")


def test_the_verdict_is_the_final_scores_one(store) -> None:
    """The winner's words follow core's final scores, tie-break included: one winner,
    or the players still tied sharing the win."""
    import random

    for seed, shared in ((7, False), (80, True)):
        session = session_for(store, HOT_SEAT_3, seed=seed, name=f"v{seed}")
        rng = random.Random(seed)
        while not session.finished:
            legal = sorted(core.legal_actions(session.state), key=core.format_action)
            session.apply(rng.choice(legal))
        scores = core.final_scores(session.state)
        best = max(p.total for p in scores.players)
        names = [f"{HOT_SEAT_3[s].name} ({HOT_SEAT_3[s].colour.letter})" for s in scores.winners]
        words = verdict(session.state)
        if shared:
            assert len(names) == 2
            assert words == f"{names[0]} and {names[1]} share the win with {best} points"
        else:
            assert words == f"{names[0]} wins with {best} points"


@pytest.mark.parametrize("size", SIZES)
class TestReplaySnapshots:
    def test_mid_game(self, snap_compare, store, size) -> None:
        """Action 60 (season 2): region and legend, players with cards, passing scale,
        Museum, the list with its highlighted action, the whole title."""
        _finished(store)
        presses = ["f", "r", *["pagedown"] * (MID_GAME // 10)]
        assert snap_compare(app_for(store, resume="snap"), terminal_size=size, press=presses)

    def test_final_action(self, snap_compare, store, size) -> None:
        """The last action: the winner in the status line, the final totals, and the
        region as it was before the last action rather than an empty board."""
        _finished(store)
        presses = ["f", "r", "end"]
        assert snap_compare(app_for(store, resume="snap"), terminal_size=size, press=presses)


class TestATablesJournal:
    """The replay of a shared table's game (an export, a finished table) shows what the
    players saw; a game played here replays as a plain list of actions."""

    async def test_chat_shows_between_the_moves_it_was_said_among(self, store) -> None:
        """Ben's line after action 59 is listed between 59 and 60, as written (markup and
        all, the format character escaped); a watcher is marked; clicking it shows the
        position it was said in."""
        _exported(store)
        app = app_for(store, resume="snap")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.replay_saved("table")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            listed = _prompts(screen)
            said = listed.index("» Ben: [bold]nice[/] dig \\u202e")
            assert listed[said - 1].startswith("59. ") and listed[said + 2].startswith("60. ")
            assert listed[said + 1] == "» Dora (watching): who leads?"
            assert listed[0] == "» Ann: good luck all" and listed[1].startswith("1. ")
            screen.query_one(OptionList).highlighted = said
            screen.query_one(OptionList).action_select()
            await pilot.pause()
            assert screen.position == 59
            assert screen.query_one(OptionList).highlighted == said - 1  # back on the move

    async def test_a_stand_ins_moves_are_marked(self, store) -> None:
        """Every move the computer made for Cleo while she was away ends with
        "(computer, normal)", and no other move does."""
        session = _exported(store)
        states = session.states()
        app = app_for(store, resume="snap")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.replay_saved("table")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            moves = [line for line in _prompts(screen) if line[0].isdigit()]
            assert len(moves) == len(session.actions)
            marked = {int(line.split(".")[0]) - 1 for line in moves if line.endswith(
                " (computer, normal)")}  # fmt: skip
            cleo = {i for i in HANDED if states[i].current_player == 2}
            assert marked == cleo and cleo

    async def test_the_tables_notes_show_where_they_happened(self, store) -> None:
        """The hand-over after action 50, the undo where it was made, Cleo's return and
        the end, in the words every terminal showed."""
        session = _exported(store)
        app = app_for(store, resume="snap")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.replay_saved("table")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            listed = _prompts(screen)
            handed = listed.index(
                "Ann handed Cleo's seat to a computer (normal) while Cleo is away; "
                "it is theirs again when they come back."
            )
            assert listed[handed - 1].startswith("50. ") and listed[handed + 1].startswith("51.")
            undo = listed.index("Ben took back their last action.")
            assert listed[undo - 1].startswith("57. ") and listed[undo + 1].startswith("58. ")
            back = listed.index("Cleo is back at the table.")
            assert listed[back + 1] == "Cleo plays their own seat again."
            assert listed[back - 1].startswith("66. ")
            assert listed[-1] == "The game is over."
            assert listed[-2].startswith(f"{len(session.actions)}. ")

    async def test_a_bare_history_takes_the_tables_lines_and_standins(self, store) -> None:
        """The lobby's way: states and actions with the table's lines and stand-ins."""
        session = _finished(store)
        states, actions = session.states(), list(session.actions)
        lines = [saves.TableLine(1, T0, "hello", "Ann")]
        standins: list[core.Level | None] = [None] * len(actions)
        standins[0] = "hard"
        app = app_for(store, resume="snap")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(ReplayScreen((states, actions), lines=lines, standins=standins))
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            listed = _prompts(screen)
            assert listed[0].endswith(" (computer, hard)") and listed[1] == "» Ann: hello"
            screen.go_to(2)
            assert screen.query_one(OptionList).highlighted == 2

    async def test_a_local_game_lists_its_actions_only(self, store) -> None:
        """A game played here has no journal: one line per action, as before."""
        session = _finished(store)
        app = app_for(store, resume="snap")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _replay_of_finished_game(pilot, store)
            listed = _prompts(screen)
            assert len(listed) == len(session.actions)
            assert all(line.startswith(f"{i}. ") for i, line in enumerate(listed, start=1))
            assert not any("(computer," in line for line in listed)


class TestTablesJournalSnapshot:
    def test_chat_and_stand_ins_at_80x24(self, snap_compare, store) -> None:
        """Action 60 of a table's game: the undo's note, Ben's line and a watcher's among
        the moves, Cleo's stand-in's moves marked (computer, normal)."""
        _exported(store)

        async def open_replay(pilot) -> None:
            await pilot.pause()
            pilot.app.replay_saved("table")
            await pilot.pause()
            await pilot.press(*["pagedown"] * 6)

        assert snap_compare(
            app_for(store, resume="snap"), terminal_size=(80, 24), run_before=open_replay
        )


async def test_the_highlighted_action_stays_in_view_when_the_list_gets_shorter(store) -> None:
    """The list of actions loses height after it scrolled (a smaller terminal here; the
    region's extra row of parcels or the survey's ranking in play): the highlighted
    action is scrolled back into view, not left below the list's bottom."""
    session = _finished(store)
    app = app_for(store, resume="snap")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _replay_of_finished_game(pilot, store)
        screen.go_to(len(session.actions))
        log = screen.query_one(OptionList)
        shown = f"{len(session.actions)}. "
        await settle(pilot, lambda: shown in _shown_lines(log))
        await pilot.resize_terminal(120, 30)
        await settle(pilot, lambda: log.size.height < 20)
        await pilot.pause()
        assert shown in _shown_lines(log)
