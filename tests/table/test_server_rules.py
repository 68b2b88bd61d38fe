"""The rules of a shared table (:mod:`table.server.rules`), each on its own: the table is
a plain :class:`TableRow`, positions come from ``core``, and the time is a number passed
in, so nothing here opens a socket, reads a clock or sleeps."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

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


def mover(states: Sequence[core.GameState]) -> int:
    """Who made the last action."""
    seat = states[-2].current_player
    assert seat is not None
    return seat


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
    def test_a_blank_title_says_the_seats_in_words(self):
        rows = [
            player("ann", core.Colour.BLUE),
            SeatRow("computer", None, "normal", core.Colour.RED),
            SeatRow("open", None, None, core.Colour.GREEN),
        ]
        assert rules.table_title("   ", rows) == "ann, computer (normal), open seat"

    def test_a_given_title_is_kept_stripped(self):
        assert rules.table_title("  Friday game ", []) == "Friday game"

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
            rules.table_title(title, [player("ann", core.Colour.BLUE)])
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


def paused(until: float, by: str = "ben") -> TableRow:
    row = table()
    row.paused_until, row.paused_by = until, by
    return row


class TestPause:
    def test_a_pause_lasts_until_its_end_and_not_a_moment_more(self):
        row = paused(T0 + 600)
        assert rules.paused_until(row, T0) == T0 + 600
        assert rules.paused_until(row, T0 + 599.9) == T0 + 600
        assert rules.paused_until(row, T0 + 600) is None
        assert rules.paused_until(table(), T0) is None

    def test_a_paused_table_refuses_saying_until_when_and_by_whom(self):
        at = time.strftime("%H:%M", time.localtime(T0 + 600))
        with pytest.raises(Refusal) as refused:
            rules.refuse_if_paused(paused(T0 + 600), T0 + 1)
        assert str(refused.value) == f"the table is paused until {at} (ben)"
        rules.refuse_if_paused(paused(T0 + 600), T0 + 600.1)

    def test_each_player_pauses_a_live_game_once_a_season(self):
        state = at_start()
        row = table()
        assert rules.check_pause(row, state, "ann", T0) == state.season == 1
        row.pauses.add(("ann", 1))
        with refused("you have paused this table once this season already"):
            rules.check_pause(row, state, "ann", T0)
        assert rules.check_pause(row, state, "ben", T0) == 1

    def test_the_next_season_brings_a_new_pause(self):
        states, _ = game_until(lambda states: states[-1].season == 2)
        row = table()
        row.pauses.add(("ann", 1))
        assert rules.check_pause(row, states[-1], "ann", T0) == 2

    def test_no_pause_while_another_is_under_way(self):
        at = time.strftime("%H:%M", time.localtime(T0 + 600))
        with refused(f"the table is paused until {at} (ben)"):
            rules.check_pause(paused(T0 + 600), at_start(), "ann", T0 + 10)
        assert rules.check_pause(paused(T0 + 600), at_start(), "ann", T0 + 600) == 1

    def test_a_table_that_waits_for_everyone_is_never_paused(self):
        with refused("only a live game in progress can be paused"):
            rules.check_pause(table(pace="days"), at_start(), "ann", T0)

    def test_a_game_not_started_or_over_is_never_paused(self):
        over = game_until(lambda states: core.is_over(states[-1]))[0][-1]
        for state in (None, over):
            with refused("only a live game in progress can be paused"):
                rules.check_pause(table(), state, "ann", T0)


class TestCheckPlay:
    def test_the_player_deciding_now_plays_their_seat(self):
        state = at_start()
        seat = state.current_player
        assert seat is not None
        assert rules.check_play(table(), state, (seat,), T0) == seat

    def test_a_player_of_two_seats_plays_whichever_decides(self):
        state = at_start()
        assert rules.check_play(table(), state, (ANN, BEN), T0) == state.current_player

    @pytest.mark.parametrize(
        ("case", "reason"),
        [
            ("not started", "the game has not started: a seat is still free"),
            ("over", "the game is over"),
            ("not sitting", "sit at the table first"),
            ("other's turn", "it is not your decision"),
            ("watching", "it is not your decision"),
            ("handed over", "a computer plays your seat now: take it back first"),
            ("paused", "the table is paused until"),
        ],
    )
    def test_refusals(self, case, reason):
        state: core.GameState | None = at_start()
        assert state is not None
        seat = state.current_player
        assert seat is not None
        row, now = table(), T0
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
        elif case == "handed over":
            row.seats[seat].standin = "normal"
        else:
            row.paused_until, row.paused_by, now = T0 + 60, "ann", T0 + 59
        with pytest.raises(Refusal) as refused:
            rules.check_play(row, state, seats_here, now)
        assert str(refused.value).startswith(reason)

    def test_a_request_made_at_another_position_is_refused(self):
        row = table(actions=game_until(lambda states: len(states) == 4)[1])
        rules.check_seq(row, 3)
        for stale in (2, 4, 0):
            with refused("someone played meanwhile: look again"):
                rules.check_seq(row, stale)


class TestUndo:
    """Board Game Arena's rule: your own last action, until the next player acts or new
    parcels are dealt."""

    @staticmethod
    def why(states, actions, seats_here, seq=None):
        row = table(actions=actions)
        return rules.why_no_undo(row, states, seats_here, len(actions) if seq is None else seq)

    def test_the_player_may_take_back_their_own_last_action(self):
        states, actions = game_until(lambda states: len(states) == 2)
        assert self.why(states, actions, (mover(states),)) is None

    def test_nor_after_the_next_player_acted(self):
        """Ann acts, then Ben: Ann's action is not the last any more, and Ben's is not hers."""
        states, actions = game_until(
            lambda s: len(s) >= 3 and s[-3].current_player != s[-2].current_player
        )
        first, then = states[-3].current_player, mover(states)
        assert first is not None and first != then
        why = self.why(states, actions, (first,))
        assert why == (
            f"the last action was {['ann', 'ben'][then]}'s, not yours: "
            "only your own can be taken back"
        )
        assert self.why(states, actions, (then,)) is None

    def test_nor_after_new_parcels_were_dealt(self):
        states, actions = game_until(lambda s: len(s) >= 2 and s[-1].season != s[-2].season)
        assert self.why(states, actions, (mover(states),)) == (
            "new parcels were dealt since: that action cannot be taken back"
        )
        # the action before the deal could have been taken back, at its time
        assert self.why(states[:-1], actions[:-1], (mover(states[:-1]),)) is None

    def test_not_before_anything_was_played(self):
        states, actions = game_until(lambda states: True)
        assert self.why(states, actions, (ANN, BEN)) == "nothing has been played yet"

    def test_not_at_another_position(self):
        states, actions = game_until(lambda states: len(states) == 2)
        why = self.why(states, actions, (mover(states),), seq=0)
        assert why == "someone played meanwhile: look again"

    def test_not_by_a_watcher(self):
        states, actions = game_until(lambda states: len(states) == 2)
        assert self.why(states, actions, ()) == "only the table's players may undo"

    def test_not_once_the_game_is_over(self):
        states, actions = game_until(lambda states: core.is_over(states[-1]))
        assert self.why(states, actions, (mover(states),)) == (
            "the game is over: its last action stands"
        )


# ---------------------------------------------------------------- life at the table


class TestAbsentSeat:
    """At a live table, a present player may hand an absent player's seat to a computer
    once that player has been away longer than the table's wait."""

    @staticmethod
    def hand(row=None, seat=BEN, level="normal", present=(ANN,), since=T0, now=T0 + 300):
        away = {} if since is None else {BEN: since}
        return rules.absent_seat(row or table(wait=300), seat, level, set(present), away, now)

    def test_exactly_after_the_wait_the_seat_may_be_handed_over(self):
        assert self.hand(now=T0 + 300) == BEN
        assert self.hand(now=T0 + 3600) == BEN

    def test_before_the_wait_the_seconds_left_are_said(self):
        with pytest.raises(Refusal) as refused:
            self.hand(now=T0 + 290)
        assert str(refused.value) == (
            "that player has been away less than the table's wait: 10 s more"
        )
        with pytest.raises(Refusal, match="wait: 1 s more"):
            self.hand(now=T0 + 299.6)  # never "0 s more"

    def test_a_present_player_keeps_their_seat(self):
        with refused("that player is here (or has not come yet): only an absent seat"):
            self.hand(present=(ANN, BEN), now=T0 + 3600)

    def test_a_player_who_never_came_is_not_away(self):
        with refused("that player is here (or has not come yet): only an absent seat"):
            self.hand(since=None, now=T0 + 3600)

    def test_a_table_that_waits_for_everyone_hands_over_nobody(self):
        with refused("this table waits for everyone", whole=False):
            self.hand(row=table(pace="days"), now=T0 + 10**6)

    def test_only_its_player_takes_a_seat_back(self):
        with refused("only its player takes a seat back"):
            self.hand(level=None)

    @pytest.mark.parametrize("seat", [2, -1, 5])
    def test_only_a_players_seat(self, seat):
        row = table(
            player("ann", core.Colour.BLUE),
            player("ben", core.Colour.RED),
            SeatRow("computer", None, "easy", core.Colour.GREEN),
        )
        with refused("that is not a player's seat"):
            self.hand(row=row, seat=seat)

    def test_not_while_the_table_is_paused(self):
        row = paused(T0 + 400, by="ann")
        with refused("the table is paused until", whole=False):
            self.hand(row=row, now=T0 + 350)
        assert self.hand(row=row, now=T0 + 400) == BEN


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
