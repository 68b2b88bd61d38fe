"""Regressions of the newcomer's first hour (issue 11): each test fails on what got in the
way of a new player at 80×24 in tmux."""

from __future__ import annotations

import pytest
from msgspec.structs import replace
from rich.cells import cell_len
from rich.color import Color, ColorSystem
from textual import events
from textual.content import Content
from textual.widgets import Input

import core
import saves
from core.region import spaces_of
from core.state import SurveyStep
from tests.tui.conftest import (
    FIXED_TIME,
    HOT_SEAT_3,
    app_for,
    play_until,
    session_for,
    session_of,
    settle,
)
from tests.tui.driver import KeyPlayer
from tui import charts, decisions, look
from tui.screens.dialogs import SaveAsScreen
from tui.screens.new_game import NewGameScreen
from tui.widgets.actionbar import ActionBar
from tui.widgets.cycler import Cycler
from tui.widgets.keys import KeysBar
from tui.widgets.log import LogView
from tui.widgets.museum import MuseumView
from tui.widgets.players import PlayersView
from tui.widgets.region import RegionPicture, RegionView, still_recent
from tui.widgets.scores import SeasonChart, SourceBars


@pytest.mark.parametrize("system", [ColorSystem.STANDARD, ColorSystem.EIGHT_BIT])
def test_players_and_patrons_keep_apart_in_16_and_256_colours(system) -> None:
    """With TERM=xterm Tangerine's t and the red player's R were both ANSI 91."""
    colours = [*look.PATRON_COLOUR.values(), *look.COLOUR_STYLE.values(), look.NEUTRAL_STYLE]
    downgraded = [Color.parse(c).downgrade(system).number for c in colours]
    assert len(set(downgraded)) == len(colours), downgraded


# ---------------------------------------------------------------- 4, 5, 12: the panels


async def test_a_wide_name_keeps_every_panel_line_on_its_row(store) -> None:
    """`Zoë 🐫 日本語テスト` is 11 characters but 17 cells: `res 14` wrapped onto the next
    row and pushed another player's cards out of the panel."""
    seats = [saves.SeatConfig("Zoë 🐫 日本語テスト", core.Colour.BLUE, "human"), *HOT_SEAT_3[1:]]
    session_for(store, seats, seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.screen.query_one(PlayersView)
        lines = panel.render().split("\n")
        assert len(lines) == 6 and panel.region.height == 6
        assert all(line.cell_len <= panel.size.width for line in lines), [
            line.plain for line in lines
        ]
        assert "Zoë 🐫" in lines[0].plain and "res 14" in lines[0].plain


async def test_the_new_game_form_measures_names_in_cells(store) -> None:
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        name = app.screen.query_one("#name-0", Input)
        name.value = "日本語テスト日本語"  # 9 characters, 18 cells
        await pilot.press("enter")
        error = str(app.screen.query_one("#new-game-error").render())
        assert "12 columns" in error and type(app.screen).__name__ == "NewGameScreen"
    assert store.list() == []


def _finished(store) -> saves.Session:
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: core.is_over(s), seed=5)
    return session


async def test_the_board_after_the_final_scores_shows_the_totals(store) -> None:
    """ "See the board" showed the score before the exhibition (B Ann 17 pts for 41)."""
    session = _finished(store)
    totals = {s.seat: s.total for s in core.final_scores(session.state).players}
    assert any(totals[seat] != p.score for seat, p in enumerate(session.state.players))
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f", "escape")  # the final scores, then "See the board"
        panel = app.screen.query_one(PlayersView).render().plain.split("\n")
        for seat, total in totals.items():
            assert f"{total:>3} pts" in panel[2 * seat]


def test_the_patronless_card_has_no_usable_mark() -> None:
    """It has no power: `*●` looked usable."""
    state = core.new_game(players=3, seed=7)
    patronless = next(c.id for c in core.CARDS if c.patron is None)
    lemon = next(c.id for c in core.CARDS if c.patron is core.Patron.LEMON)
    player = replace(state.players[0], cards=(lemon, patronless))
    state = replace(state, players=(player, *state.players[1:]))
    cards = PlayersView(state).render().plain.split("\n")[1]
    assert "l●" in cards and "*" in cards and "*●" not in cards


def test_parcels_10_to_12_keep_their_p_and_the_legend_names_the_letters(store) -> None:
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: s.season == 4)
    for roomy in (False, True):
        view = RegionView(RegionPicture(session.state), roomy=roomy)
        text = "\n".join("".join(seg.text for seg in line) for line in view._lines)
        assert all(f"P{n}" in text for n in range(1, 13)), text
        assert "s Sir Brown" in text or "s Brown" in text
        assert "k Mrs. Blackmore" in text or "k Blackmore" in text
        assert "* no patron" in text
        assert all(len(line.rstrip()) <= view.metrics.width for line in text.split("\n"))


# ---------------------------------------------------------------- 8: typing fast


async def _burst(app, pilot, keys: list[str]) -> None:
    """``keys`` all queued at once, as a terminal hands over one read of fast typing
    (Pilot.press waits for the app to idle after each key, which hides the race)."""
    for key in keys:
        character = key if len(key) == 1 else {"space": " ", "enter": "\r"}.get(key)
        app.post_message(events.Key(key, character))
    await pilot.pause()
    await pilot.pause(0.2)


@pytest.mark.parametrize("pause", [False, True], ids=["with-ctrl-s", "dialog-open"])
async def test_a_name_typed_fast_into_save_as_is_kept_whole(store, pause) -> None:
    """30 Backspaces, `my save 1` and Enter sent at once saved `my s` (or nothing): keys
    sent with Ctrl+S went to the board, and the field's Backspaces and Enter (bindings,
    run once bubbled up to the app) were overtaken by the letters after them."""
    session_for(store, HOT_SEAT_3, seed=7, name="pos")
    app = app_for(store, resume="pos")
    typed = ["backspace"] * 30 + [*"my", "space", *"save", "space", "1", "enter"]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if pause:
            await pilot.press("ctrl+s")
            await _burst(app, pilot, typed)
        else:
            await _burst(app, pilot, ["ctrl+s", *typed])
        assert not isinstance(app.screen, SaveAsScreen)
        assert session_of(app.screen).name == "my save 1"
        assert session_of(app.screen).actions == []  # no key reached the board


# ---------------------------------------------------------------- 1: Tab


async def test_tab_never_takes_the_keys_away_from_the_decision(store) -> None:
    """Tab moved focus to the Museum during a turn: the board cursor vanished, the arrows
    moved an invisible Museum cursor and Enter did nothing."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: any(isinstance(a, core.BookRoom) for a in legal))
    session.undo()  # back to the excavation just before the survey
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        for key in ("tab", "shift+tab", "tab"):
            await pilot.press(key)
            assert isinstance(screen.focused, RegionView), key
        assert "room" not in screen.query_one(KeysBar).render().plain
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos2")
    play_until(session, lambda s, legal: any(isinstance(a, core.BookRoom) for a in legal))
    app = app_for(store, resume="pos2")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        options = decisions.survey_options(session.state, core.legal_actions(session.state))
        await pilot.press(str(next(i for i, o in enumerate(options, 1) if o.action is None)))
        await pilot.press("tab")
        assert isinstance(app.screen.focused, MuseumView)


# ---------------------------------------------------------------- 2: the log


def _ann_passed_and_others_played(store) -> saves.Session:
    """Ann passed at once in season 1; Ben and Cleo played on, the survey went by: her
    next decision comes after dozens of lines she has not seen."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    session.apply(core.Pass())
    play_until(session, lambda s, legal: s.current_player == 0)
    return session


async def test_the_whole_game_log_reads_back_to_its_first_line(store) -> None:
    session = _ann_passed_and_others_played(store)
    play_until(session, lambda s, legal: s.season == 3)
    first = core.apply_action_with_events(session.states()[0], session.actions[0])[1][0].text
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.screen.query_one(LogView)
        assert "PgUp" in app.screen.query_one(KeysBar).render().plain
        await pilot.press("home")
        assert log.render().plain.split("\n")[0].endswith(first)
        await pilot.press("pagedown")
        assert first not in log.render().plain
        await pilot.press("end")
        assert log.render().plain.rstrip().endswith("season 3.")


async def test_a_turn_opens_the_log_at_what_the_others_did_since(store) -> None:
    """In season 4 the opponents' moves between the player's pass and the survey were
    never visible: they had scrolled away before the player was asked."""
    session = _ann_passed_and_others_played(store)
    ben = session.states()[1]  # Ben's first decision, just after Ann's pass
    ben_first = core.apply_action_with_events(ben, session.actions[1])[1][0].text
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.screen.query_one(LogView)
        rows = log.render().plain.split("\n")  # issue 18 #12: the newest lines, and a way up
        assert rows[0].startswith("▲ ") and "since Ann's" in rows[0] and "PgUp" in rows[0]
        for _ in range(30):
            await pilot.press("pageup")
            rows = log.render().plain.split("\n")
            if "── since Ann's last decision ──" in rows:
                break
        at = rows.index("── since Ann's last decision ──")
        assert rows[at + 1].endswith(ben_first)
        assert "more lines follow" in rows[-1]
        await KeyPlayer(app, pilot).play(core.Pass())  # her decision: back to the newest
        assert "since Ann's" not in app.screen.query_one(LogView).render().plain


async def test_the_survey_ranking_stays_in_view_while_the_choice_is_made(store) -> None:
    """Area 2's ranking had scrolled out of the log by the time of the choice."""
    session = session_for(store, HOT_SEAT_3, seed=7, name="pos")
    play_until(session, lambda s, legal: s.phase is core.Phase.SURVEY and s.survey_area == 1)
    state = session.state
    ranked = core.rules.ranking(state, 1)
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(60):  # lines enough to push the survey's own line out of the log
            app.screen.query_one(LogView).tell(state, "filler")
        text = app.screen.query_one(ActionBar).text.split("\n")[1]
        assert text.startswith("Area 2 ranking: 1st ")
        letters = [look.seat_letter(state, seat) for seat in ranked]
        assert [word for word in text.split() if word in letters] == letters


def test_cubes_marked_new_are_forgotten_when_they_leave_the_region() -> None:
    """After a survey the {·} marks stayed on the emptied spaces, into the next season."""
    import random

    state, rng = core.new_game(players=3, seed=7), random.Random(3)
    while state.phase is not core.Phase.SURVEY:
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
    on_region = frozenset(s for mask in state.cubes for s in spaces_of(mask))
    after = state
    while after.season == 1:
        before, after = after, core.apply_action(after, rng.choice(core.legal_actions(after)))
        kept = still_recent(on_region, before, after)
        assert all(any(mask >> s & 1 for mask in after.cubes) for s in kept)
    assert still_recent(on_region, before, after) == frozenset()


def test_a_third_player_who_gets_nothing_is_not_said_to_miss_a_room() -> None:
    """`R Ben gets nothing: no parcel left, no room to book`: 3rd and 4th never book."""
    import random

    state, rng = core.new_game(players=3, seed=7), random.Random(1)
    log = LogView()
    while "gets nothing" not in "\n".join(line.plain for line in log.lines):
        action = rng.choice(core.legal_actions(state))
        log.tell_action(state, action)
        state = core.apply_action(state, action)
    line = next(line.plain for line in log.lines if "gets nothing" in line.plain)
    assert line.endswith("gets nothing: no parcel left"), line


# ---------------------------------------------------------------- 3, 11: the new-game form


async def test_o_on_the_new_game_form_opens_the_saved_games_and_esc_comes_back(store) -> None:
    """With only finished games the app opens on the form, where `o` did nothing."""
    from tui.screens.load import LoadScreen
    from tui.screens.new_game import NewGameScreen

    _finished(store)
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "Load" in app.screen.query_one(KeysBar).render().plain
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen) and "pos" in app.screen.summaries
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#name-0", Input).focus()
        await pilot.press("end", "o")  # in a name field o is a letter
        assert app.screen.query_one("#name-0", Input).value == "Anno"


async def test_the_form_names_both_arrows_the_seed_and_the_neutral(store) -> None:
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "←→" in screen.query_one(KeysBar).render().plain
        assert any("random deal" in str(note.render()) for note in screen.query(".note"))
        note = screen.query_one("#neutral-note")
        assert not note.display
        await pilot.press("left")  # 3 → 2 players
        assert note.display and "neutral" in str(note.render())


async def test_the_form_s_fourth_seat_comes_with_four_players_and_keeps_its_name(store) -> None:
    """The form opens with three seats' rows; choosing 4 players adds Dan's, fewer hides
    it with what was typed in it, and the game starts with the seats shown."""
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        assert [row.id for row in form.query(".seat")] == ["seat-0", "seat-1", "seat-2"]
        await pilot.press("right")  # 3 → 4 players (the count has the focus)
        rows = list(form.query(".seat"))
        assert [row.id for row in rows] == ["seat-0", "seat-1", "seat-2", "seat-3"]
        assert rows[3].display and form.query_one("#name-3", Input).value == "Dan"
        assert form.query_one("#colour-3", Cycler).value == "white"
        form.query_one("#name-3", Input).value = "Dora"
        await pilot.press("left")  # 4 → 3: the row is hidden, not removed
        assert not rows[3].display and len(form.choice().seats) == 3
        await pilot.press("right")
        assert rows[3].display and form.query_one("#name-3", Input).value == "Dora"
        await pilot.press("enter")
        assert not isinstance(app.screen, NewGameScreen)
        names = [seat.name for seat in session_of(app.screen).seats]
        assert names == ["Ann", "Ben", "Cleo", "Dora"]


# ---------------------------------------------------------------- 9: words


def test_the_neutral_s_parcel_is_not_offered_as_points(store) -> None:
    """`1 neutral takes P3 (Blackmore +3)` read as if the neutral scored 3."""
    wide = [saves.SeatConfig("日本語テスト", core.Colour.BLUE, "human"), HOT_SEAT_3[1]]
    session = session_for(store, wide, seed=5, name="pos")
    play_until(
        session,
        lambda s, legal: (
            s.phase is core.Phase.SURVEY
            and s.survey_steps[0][0] is SurveyStep.PICK_NEUTRAL
            and any(core.CARDS[s.region[a.parcel] >> 1].value for a in legal)
        ),
    )
    state = session.state
    labels = [o.label for o in decisions.survey_options(state, core.legal_actions(state))]
    assert all(label.startswith("discard P") and "+" not in label for label in labels), labels
    assert any(", worth " in label for label in labels)
    prompt = decisions.survey_prompt(state)
    assert cell_len(prompt) <= 80 and prompt.endswith("which parcel does the neutral discard?")


# ---------------------------------------------------------------- 10: the help


async def test_the_help_lines_are_not_wrapped_at_80_columns(store) -> None:
    """At 80 columns single words (`quit`, `(used)`, `wing.`, `4th`) sat on lines alone."""
    from tui import rules_text

    session_for(store, HOT_SEAT_3, seed=7, name="pos")
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        for text in (rules_text.KEYS, rules_text.RULES):
            shown = app.screen.query_one("#help-text")
            assert shown.region.height == len(text.split("\n"))  # the last one is empty
            await pilot.press("r")
            await pilot.pause()


# ---------------------------------------------------------------- 16: pictures


def test_the_season_chart_has_a_bar_per_player_per_season_readable_without_colour() -> None:
    import random

    state, rng = core.new_game(players=3, seed=7), random.Random(5)
    states = [state]
    while not core.is_over(state):
        state = core.apply_action(state, rng.choice(core.legal_actions(state)))
        states.append(state)
    columns = charts.season_columns(states)
    assert [c.label for c in columns] == ["Season 1", "Season 2", "Season 3", "Season 4", "End"]
    totals = sorted(core.final_scores(state).players, key=lambda s: s.seat)
    assert columns[-1].points == tuple(s.total for s in totals)
    season_3 = states.index(next(s for s in states if s.season == 3))
    assert charts.season_columns(states[: season_3 + 1])[-1].label == "Season 2"
    rows = charts.season_bars(state, columns, 5, 76).plain.split("\n")
    assert len(rows) == 5 + 3 and all(cell_len(row) <= 76 for row in rows)
    assert rows[-2].split() == ["B", "R", "G"] * 5  # each bar's letter: no colour needed
    for points in {p for c in columns for p in c.points}:
        assert str(points) in "\n".join(rows[:-2])
    blocks = "".join(rows[:-2]).count("█")
    assert blocks and charts.season_bars(state, columns, 10, 76).plain.count("█") > blocks


def test_the_source_bars_split_each_total_by_parcels_patrons_and_series(store) -> None:
    state = _finished(store).state
    scores = {s.seat: s for s in core.final_scores(state).players}
    rows = charts.source_bars(state, 76).plain.split("\n")
    assert len(rows) == 3 and all(cell_len(row) <= 76 for row in rows)
    lengths = []
    for row in rows:
        score = scores[
            next(seat for seat, p in enumerate(state.players) if row[0] == p.colour.letter)
        ]
        bar = row.split()[2]
        assert row.endswith(f" {score.total}")
        assert ("P" in bar) == (score.parcels > 0) and ("+" in bar) == (score.series > 0)
        for patron in core.Patron:
            assert (look.patron_letter(patron) in bar) == (score.exhibition[patron] > 0)
        lengths.append(len(bar))
    assert lengths == sorted(lengths, reverse=True)  # longest total first


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_final_pictures_fit_and_grow_with_the_terminal(store, size) -> None:
    _finished(store)
    app = app_for(store, resume="pos")
    async with app.run_test(size=size) as pilot:
        await pilot.press("f")
        await pilot.pause()
        for widget in (app.screen.query_one(SeasonChart), app.screen.query_one(SourceBars)):
            lines = widget.render().split("\n")
            assert all(line.cell_len <= widget.size.width for line in lines)
            assert widget.region.height == len(lines)
        chart = app.screen.query_one(SeasonChart)
        assert chart.region.height == (8 if size == (80, 24) else 13)
        assert "Scroll" in app.screen.query_one(KeysBar).render().plain


# ---------------------------------------------------------------- NO_COLOR


async def test_every_screen_draws_under_no_color(store, monkeypatch) -> None:
    """NO_COLOR=1 TERM=xterm: the legend's unstyled segment crashed the monochrome filter."""
    from tui.screens.summary import FinalScreen, SeasonSummaryScreen

    def drawn() -> bool:  # what goes to the terminal, through the NO_COLOR filter
        return app.screen._compositor.render_update(full=True) is not None

    monkeypatch.setenv("NO_COLOR", "1")
    session = _finished(store)
    session.undo()
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert drawn()
        states = session.states()
        app.push_screen(SeasonSummaryScreen(states, 3))
        await pilot.pause()
        assert drawn()
        await pilot.press("enter", "question_mark")
        assert drawn()
        await pilot.press("escape")
        await KeyPlayer(app, pilot).play(core.legal_actions(session.state)[0])
        await pilot.pause()
        assert isinstance(app.screen, FinalScreen) and drawn()


async def test_the_keys_bar_keeps_log_help_and_quit_whole_while_choosing_a_room(store) -> None:
    """With 'Choose room' the bar ran past 80 columns and cut Quit to 'q'."""
    session = session_for(store, HOT_SEAT_3, seed=2, name="pos")
    play_until(session, lambda s, legal: any(isinstance(a, core.Brown) for a in legal))
    app = app_for(store, resume="pos")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        keys = app.screen.query_one(KeysBar).render().plain.rstrip()
        assert "Choose room" in keys and keys.endswith("Quit") and len(keys) <= 80
        assert "Log" in keys and "Help" in keys and "Undo" in keys


@pytest.mark.parametrize("typed", ["[b", "[/]", "日本語テスト日本語[red]"])
async def test_a_refusal_quoting_what_was_typed_is_not_markup(store, typed) -> None:
    """The new-game refusals quote the name or seed typed; as markup '[/]' crashed."""
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#seed", Input).value = typed
        if "日" in typed:
            app.screen.query_one("#name-0", Input).value = typed
        await pilot.press("enter")
        await pilot.pause()
        assert typed in str(app.screen.query_one("#new-game-error").render())


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("Ann\u202eeve", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("Be\u200bn", "U+200B ZERO WIDTH SPACE"),
        ("Cl\x1b[2Jeo", "U+001B"),
    ],
)
async def test_the_new_game_form_refuses_a_name_that_hides_a_character(store, typed, named) -> None:
    """Issue 9 #12: a bidi override, a zero-width or a control character in a player's
    name is refused on the form, naming the character (not at the first save)."""
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#name-1", Input).value = typed
        await pilot.press("enter")
        await pilot.pause()
        refusal = str(app.screen.query_one("#new-game-error").render())
        assert named in refusal
        assert isinstance(app.screen, NewGameScreen)  # no game started
        assert app.screen.query_one("#name-1", Input).value == typed


async def test_a_notice_quoting_a_file_is_not_markup(tmp_path) -> None:
    """A damaged save's message names its folder: '[/]' in it was read as a tag."""
    from tui.screens.load import LoadScreen

    store = saves.SaveStore(tmp_path / "odd [/] saves", clock=lambda: FIXED_TIME)
    store.folder.mkdir(parents=True)
    (store.folder / "broken.json").write_text("{ not json")
    app = app_for(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        await pilot.press("enter")
        await pilot.pause()
        (notice,) = app._notifications  # drawn as Toast: from_markup when markup is on
        assert "odd [/] saves" in notice.message
        shown = Content.from_markup(notice.message) if notice.markup else Content(notice.message)
        assert "odd [/] saves" in shown.plain


async def test_new_games_play_with_the_cards_file_given(store, tmp_path) -> None:
    """Issue 11 #17: --cards FILE shows on the new-game screen, the new game is played and
    saved with those cards; the built-in deck is untouched for the next run."""
    text = core.DEFAULT_TEXT.replace("value = 0", "value = 1")
    app = app_for(store, cards=("my-cards.toml", text))
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, NewGameScreen)
        note = str(app.screen.query_one("#cards-note").render())
        assert "my-cards.toml" in note and "custom" in note
        await pilot.press("enter")
        await settle(pilot, lambda: app.session is not None)
        assert core.CARDS[0].value == 1 and app.session is not None
        name = app.session.name
    assert store.load(name).cards == text
    assert core.parse_cards(core.DEFAULT_TEXT)[0].value == 0
