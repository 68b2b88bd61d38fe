"""The server's own rules of a shared table (:mod:`table.server.rules`), each on its own:
the table is a plain :class:`TableRow`, positions come from ``core``, and the time is a
number passed in, so nothing here opens a socket, reads a clock or sleeps. (The rules a
client shows as well, :mod:`table.rules`, are ``test_table_rules.py``'s.)"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import core
from table import protocol as wire
from table.server import rules
from table.server.rules import Refusal
from table.store import SeatRow, TableRow
from tests.table.tables import T0, refused

ANN, BEN = 0, 1
RLO = "\u202e"
"""U+202E RIGHT-TO-LEFT OVERRIDE: makes a name read backwards on another terminal."""


def table(*seats: SeatRow, pace: wire.Pace = "live", wait: float = 300, actions=()) -> TableRow:
    seats = seats or (player("ann", core.Colour.BLUE), player("ben", core.Colour.RED))
    return TableRow(
        7, "ann, ben", 5, T0, T0, list(seats), pace=pace, wait=wait, actions=list(actions)
    )


def player(name: str, colour: core.Colour, standin: core.Level | None = None) -> SeatRow:
    return SeatRow("player", name, None, colour, standin)


def game_until(
    stop: Callable[[list[core.GameState]], bool], seed: int = 5
) -> tuple[list[core.GameState], list[core.Action]]:
    """Ann and Ben's game (seed 5), random legal actions from a seeded random, until
    ``stop(states)``: every real position and the actions between them."""
    chance = random.Random(seed)
    states = [core.new_game(2, 5, ["ann", "ben"], [core.Colour.BLUE, core.Colour.RED])]
    actions: list[core.Action] = []
    while not stop(states):
        assert not core.is_over(states[-1]), "the game ended before the position was found"
        action = chance.choice(core.legal_actions(states[-1]))
        actions.append(action)
        states.append(core.apply_action(states[-1], action))
    return states, actions


def at_start() -> core.GameState:
    return game_until(lambda states: True)[0][0]


# ---------------------------------------------------------------- a new table


class TestSeatRows:
    def test_colours_are_filled_in_with_those_no_seat_asked_for(self):
        """A seat without a colour gets the first one no other seat has."""
        rows = rules.seat_rows(
            [
                wire.SeatSpec("player", "ann"),
                wire.SeatSpec("computer", level="hard", colour=core.Colour.BLUE),
                wire.SeatSpec("open"),
            ]
        )
        assert rows == [
            SeatRow("player", "ann", None, core.Colour.RED),
            SeatRow("computer", None, "hard", core.Colour.BLUE),
            SeatRow("open", None, None, core.Colour.GREEN),
        ]

    def test_two_seats_of_one_colour_are_refused(self):
        specs = [
            wire.SeatSpec("player", "ann", colour=core.Colour.RED),
            wire.SeatSpec("open", colour=core.Colour.RED),
        ]
        with refused("two seats have the same colour"):
            rules.seat_rows(specs)

    def test_a_player_seat_needs_a_name(self):
        specs = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player")]
        with refused("a seat kept for a player needs the player's name"):
            rules.seat_rows(specs)

    def test_a_computer_seat_needs_a_level(self):
        specs = [wire.SeatSpec("player", "ann"), wire.SeatSpec("computer")]
        with refused("a computer seat needs a level"):
            rules.seat_rows(specs)

    @pytest.mark.parametrize("twin", ["ann", "Ann", "ANN", "  ann "])
    def test_a_player_sits_at_most_once_whatever_the_case(self, twin):
        specs = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", twin)]
        with refused("a player sits at most once at a table"):
            rules.seat_rows(specs)

    def test_names_are_kept_without_surrounding_spaces(self):
        rows = rules.seat_rows([wire.SeatSpec("player", "  ann "), wire.SeatSpec("open")])
        assert rows[0].name == "ann"

    def test_a_name_that_reads_backwards_is_refused_naming_the_character(self):
        specs = [wire.SeatSpec("player", "ann"), wire.SeatSpec("player", f"ben{RLO}gnp.exe")]
        with pytest.raises(Refusal) as refused:
            rules.seat_rows(specs)
        assert str(refused.value) == (
            "'ben\\u202egnp.exe' cannot be a player's name: the name contains "
            "U+202E RIGHT-TO-LEFT OVERRIDE, which is not allowed"
        )


class TestCheckedName:
    def test_a_plain_name_is_kept_stripped(self):
        assert rules.checked_name("  Zoë ") == "Zoë"

    def test_an_escape_sequence_is_refused_and_quoted_harmlessly(self):
        with pytest.raises(Refusal) as refused:
            rules.checked_name("\x1b[2Jann")
        assert str(refused.value) == (
            "'\\x1b[2Jann' cannot be a player's name: the name contains "
            "U+001B (a control character), which is not allowed"
        )

    def test_a_blank_name_is_refused(self):
        with refused("'' cannot be a player's name: a player needs a name"):
            rules.checked_name("   ")


class TestTitle:
    ROWS = (
        player("ann", core.Colour.BLUE),
        SeatRow("computer", None, "normal", core.Colour.RED),
        SeatRow("open", None, None, core.Colour.GREEN),
    )

    def test_a_blank_title_is_stored_as_none(self):
        assert rules.checked_title("   ") == ""

    def test_an_untitled_table_is_named_by_its_seats_in_words(self):
        assert rules.table_name("", self.ROWS) == "ann, computer (normal), open seat"

    def test_a_given_title_is_kept_stripped_and_is_the_name(self):
        assert rules.checked_title("  Friday game ") == "Friday game"
        assert rules.table_name("Friday game", self.ROWS) == "Friday game"

    def test_a_title_the_old_rule_made_up_is_no_title(self):
        """Stored by a server before issue 26 at creation, when cleo's seat was open: the
        table is named by its seats as they are now."""
        rows = (*self.ROWS[:2], player("cleo", core.Colour.GREEN))
        made_up = "ann, computer (normal), open seat"
        assert rules.table_name(made_up, rows) == "ann, computer (normal), cleo"
        assert rules.table_name("ann, cleo", rows) == "ann, cleo"  # not the seats: a title

    @pytest.mark.parametrize(
        ("title", "named"),
        [
            ("\x1b]0;pwned\x07", "U+001B (a control character)"),
            (f"a {RLO}title", "U+202E RIGHT-TO-LEFT OVERRIDE"),
            ("\u3164", "U+3164 HANGUL FILLER"),
        ],
    )
    def test_a_hostile_title_is_refused_naming_the_character(self, title, named):
        with pytest.raises(Refusal) as refused:
            rules.checked_title(title)
        assert str(refused.value) == f"the title contains {named}, which is not allowed"


class TestCreator:
    ROWS = (player("ann", core.Colour.BLUE), SeatRow("open", None, None, core.Colour.RED))

    def test_a_creator_keeping_a_seat_under_the_limit_may_create(self):
        rules.check_creator("ann", self.ROWS, open_tables=19, limit=20)

    def test_a_creator_must_keep_a_seat_for_themselves(self):
        with refused("keep a seat for yourself at a table you create"):
            rules.check_creator("ben", self.ROWS, open_tables=0, limit=20)

    def test_a_seat_kept_for_someone_else_does_not_count(self):
        rows = [player("ben", core.Colour.BLUE), SeatRow("open", None, None, core.Colour.RED)]
        with refused("keep a seat for yourself", whole=False):
            rules.check_creator("ann", rows, open_tables=0, limit=20)

    def test_at_the_limit_of_open_tables_a_creator_is_refused(self):
        with pytest.raises(Refusal) as refused:
            rules.check_creator("ann", self.ROWS, open_tables=20, limit=20)
        assert str(refused.value) == (
            "you have 20 tables not yet over (at most 20): "
            "one must be over before you create another"
        )


# ---------------------------------------------------------------- sitting down


class TestOpenSeat:
    ROW = table(
        player("ann", core.Colour.BLUE),
        SeatRow("open", None, None, core.Colour.RED),
        SeatRow("computer", None, "easy", core.Colour.GREEN),
        SeatRow("open", None, None, core.Colour.WHITE),
    )

    def test_a_newcomer_takes_the_first_open_seat(self):
        assert rules.open_seat(self.ROW, None) == 1

    def test_a_newcomer_may_choose_an_open_seat(self):
        assert rules.open_seat(self.ROW, 3) == 3

    @pytest.mark.parametrize("taken", [0, 2])
    def test_a_seat_that_is_not_open_is_refused_counting_from_one(self, taken):
        with refused(f"seat {taken + 1} is not free"):
            rules.open_seat(self.ROW, taken)

    def test_a_full_table_sends_the_newcomer_to_watch(self):
        with refused("there is no seat for you at this table: watch it", whole=False):
            rules.open_seat(table(), None)


class TestSeatsOf:
    def test_the_seats_a_player_decides_for(self):
        row = table()
        assert rules.seats_of(row, "ann") == (ANN,)
        assert rules.seats_of(row, "ben") == (BEN,)

    def test_a_name_is_matched_exactly_and_a_watcher_has_none(self):
        assert rules.seats_of(table(), "Ann") == ()
        assert rules.seats_of(table(), "carl") == ()

    def test_played_by_computer_a_computer_seat_or_a_stand_in(self):
        row = table(
            player("ann", core.Colour.BLUE),
            player("ben", core.Colour.RED, standin="easy"),
            SeatRow("computer", None, "hard", core.Colour.GREEN),
        )
        assert [rules.played_by_computer(row, seat) for seat in range(3)] == [None, "easy", "hard"]


# ---------------------------------------------------------------- playing


class TestCheckPlay:
    def test_the_player_deciding_now_plays_their_seat(self):
        state = at_start()
        seat = state.current_player
        assert seat is not None
        assert rules.check_play(table(), state, (seat,)) == seat

    def test_a_player_of_two_seats_plays_whichever_decides(self):
        state = at_start()
        assert rules.check_play(table(), state, (ANN, BEN)) == state.current_player

    @pytest.mark.parametrize(
        ("case", "reason"),
        [
            ("not started", "the game has not started: a seat is still free"),
            ("over", "the game is over"),
            ("not sitting", "sit at the table first"),
            ("other's turn", "it is not your decision"),
            ("watching", "it is not your decision"),
            ("handed over", "a computer plays your seat now: take it back first"),
        ],
    )
    def test_refusals(self, case, reason):
        state: core.GameState | None = at_start()
        assert state is not None
        seat = state.current_player
        assert seat is not None
        row = table()
        seats_here: tuple[int, ...] | None = (seat,)
        if case == "not started":
            state = None
        elif case == "over":
            state = game_until(lambda states: core.is_over(states[-1]))[0][-1]
        elif case == "not sitting":
            seats_here = None
        elif case == "other's turn":
            seats_here = (1 - seat,)
        elif case == "watching":
            seats_here = ()
        else:
            row.seats[seat].standin = "normal"
        with pytest.raises(Refusal) as refused:
            rules.check_play(row, state, seats_here)
        assert str(refused.value).startswith(reason)

    def test_a_request_made_at_another_position_is_refused(self):
        row = table(actions=game_until(lambda states: len(states) == 4)[1])
        rules.check_seq(row, 3)
        for stale in (2, 4, 0):
            with refused("someone played meanwhile: look again"):
                rules.check_seq(row, stale)


# ---------------------------------------------------------------- life at the table


class TestChat:
    def test_a_line_is_kept_stripped(self):
        said: list[float] = []
        assert rules.chat_text("  gg  ", said, T0) == "gg"
        assert said == []  # the caller adds the time once the line is stored

    @pytest.mark.parametrize("text", ["", "   ", "\t"])
    def test_an_empty_line_is_refused(self, text):
        with refused("say something"):
            rules.chat_text(text, [], T0)

    @pytest.mark.parametrize(
        ("text", "named"),
        [
            ("hi \x1b[31mred", "U+001B (a control character)"),
            (f"{RLO}olleh", "U+202E RIGHT-TO-LEFT OVERRIDE"),
            ("a\u200bb", "U+200B ZERO WIDTH SPACE"),
        ],
    )
    def test_hidden_characters_are_refused_naming_them(self, text, named):
        with pytest.raises(Refusal) as refused:
            rules.chat_text(text, [], T0)
        assert str(refused.value) == f"the message contains {named}, which is not allowed"

    def test_five_lines_in_ten_seconds_then_wait(self):
        said = [T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4]
        with pytest.raises(Refusal) as refused:
            rules.chat_text("one more", said, T0 + 9.9)
        assert str(refused.value) == "slow down: at most 5 lines in 10 seconds"
        assert said == [T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4]
        assert rules.chat_text("one more", said, T0 + 10.1) == "one more"
        assert said == [T0 + 1, T0 + 2, T0 + 3, T0 + 4]  # the line at T0 is out of the window

    def test_four_recent_lines_leave_room_for_a_fifth(self):
        assert rules.chat_text("fifth", [T0, T0 + 1, T0 + 2, T0 + 3], T0 + 9.9) == "fifth"
