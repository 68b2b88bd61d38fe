"""The rules of a shared table written once (:mod:`table.rules`), every function on its
own, over the one view the server and every client hold (:class:`TableInfo`): the table
is a value built here, positions come from ``core``, the time is a number passed in. The
server raises these reasons as refusals (``test_room.py`` shows it does); a client shows
the same words."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from msgspec.structs import replace

import core
from table import rules
from table.clock import clock
from table.protocol import SeatInfo, TableInfo
from tests.table.tables import T0

ANN, BEN, CLEO = 0, 1, 2
BLUE, RED, GREEN = core.Colour.BLUE, core.Colour.RED, core.Colour.GREEN


def here(name: str, colour: core.Colour = BLUE, standin: core.Level | None = None) -> SeatInfo:
    return SeatInfo(colour, name, None, True, None, standin)


def away(name: str, since: float | None = T0, colour: core.Colour = RED) -> SeatInfo:
    """``since`` None: never came."""
    return SeatInfo(colour, name, None, False, since)


def computer(level: core.Level = "easy") -> SeatInfo:
    return SeatInfo(GREEN, level.capitalize(), level, True)


def table(*seats: SeatInfo, **fields: object) -> TableInfo:
    """Ann (here) and Ben (here) at a live table with a wait of 300 s, unless said."""
    seats = seats or (here("ann"), here("ben", RED))
    info = TableInfo(7, "ann, ben", seats, "playing", ANN, 1, T0, T0, 0, "live", 300)
    return replace(info, **fields)


def paused(until: float = T0 + 600, by: str = "ben", **fields: object) -> TableInfo:
    return table(paused_until=until, paused_by=by, **fields)


def game_until(
    stop: Callable[[list[core.GameState]], bool],
) -> tuple[list[core.GameState], list[core.Level | None]]:
    """Ann and Ben's game, random legal actions from a seeded random, until
    ``stop(states)``: every real position, and no stand-in for any action."""
    chance = random.Random(5)
    states = [core.new_game(2, 5, ["ann", "ben"], [BLUE, RED])]
    while not stop(states):
        assert not core.is_over(states[-1]), "the game ended before the position was found"
        states.append(core.apply_action(states[-1], chance.choice(core.legal_actions(states[-1]))))
    return states, [None] * (len(states) - 1)


def at_start() -> core.GameState:
    return game_until(lambda states: True)[0][0]


def over() -> core.GameState:
    return game_until(lambda states: core.is_over(states[-1]))[0][-1]


def mover(states: list[core.GameState]) -> int:
    """Who made the last action."""
    seat = states[-2].current_player
    assert seat is not None
    return seat


# ---------------------------------------------------------------- words


class TestSentence:
    def test_a_reason_becomes_a_sentence(self):
        assert rules.sentence("the table is not paused") == "The table is not paused."

    def test_a_sentence_stays_one(self):
        assert rules.sentence("  Wait!  ") == "Wait!"
        assert rules.sentence("really?") == "Really?"
        assert rules.sentence("") == ""


# ---------------------------------------------------------------- the pause


class TestPausedUntil:
    def test_a_pause_lasts_until_its_end_and_not_a_moment_more(self):
        assert rules.paused_until(paused(T0 + 600), T0) == T0 + 600
        assert rules.paused_until(paused(T0 + 600), T0 + 599.9) == T0 + 600
        assert rules.paused_until(paused(T0 + 600), T0 + 600) is None
        assert rules.paused_until(table(), T0) is None

    def test_a_paused_table_says_until_when_and_by_whom(self):
        assert rules.why_paused(paused(T0 + 600), T0 + 1) == (
            f"the table is paused until {clock(T0 + 600)} (ben)"
        )
        assert rules.why_paused(paused(T0 + 600), T0 + 600.1) is None
        assert rules.why_paused(table(), T0) is None


class TestWhyNoPause:
    def test_each_player_pauses_a_live_game_once_a_season(self):
        state = at_start()
        assert rules.why_no_pause(table(), state, "ann", (ANN,), T0) is None
        taken = table(paused_this_season=("ann",))
        assert rules.why_no_pause(taken, state, "ann", (ANN,), T0) == (
            "you have paused this table once this season already"
        )
        assert rules.why_no_pause(taken, state, "ben", (BEN,), T0) is None

    def test_only_a_player_pauses(self):
        assert rules.why_no_pause(table(), at_start(), "eve", (), T0) == (
            "only a player of the table can pause it"
        )

    def test_no_pause_while_another_is_under_way(self):
        assert rules.why_no_pause(paused(T0 + 600), at_start(), "ann", (ANN,), T0 + 10) == (
            f"the table is paused until {clock(T0 + 600)} (ben)"
        )
        assert rules.why_no_pause(paused(T0 + 600), at_start(), "ann", (ANN,), T0 + 600) is None

    @pytest.mark.parametrize("case", ["days", "not started", "over"])
    def test_only_a_live_game_in_progress(self, case):
        info, state = table(), at_start()
        if case == "days":
            info = table(pace="days")
        state_or_none = None if case == "not started" else over() if case == "over" else state
        assert rules.why_no_pause(info, state_or_none, "ann", (ANN,), T0) == (
            "only a live game in progress can be paused"
        )


class TestWhyNoResume:
    def test_the_player_who_paused_may_end_it_at_once(self):
        assert rules.why_no_resume(paused(by="ann"), "ann", T0 + 1) is None

    def test_nobody_else_ends_another_players_pause(self):
        assert rules.why_no_resume(paused(by="ann"), "ben", T0 + 1) == (
            f"ann paused the table until {clock(T0 + 600)}: only they can resume it early"
        )

    def test_a_table_not_paused_or_whose_pause_ran_out_is_not_resumed(self):
        assert rules.why_no_resume(table(), "ann", T0) == "the table is not paused"
        assert rules.why_no_resume(paused(by="ann"), "ann", T0 + 600) == "the table is not paused"


# ---------------------------------------------------------------- undo


class TestWhyNoUndo:
    """Board Game Arena's rule: your own last action, until the next player acts or new
    parcels are dealt; never the game's last, never a stand-in's."""

    @staticmethod
    def why(states, standins, seats_here, seq=None):
        actions = len(states) - 1
        return rules.why_no_undo(table(), states, standins, seats_here,
                                 actions if seq is None else seq)  # fmt: skip

    def test_the_player_may_take_back_their_own_last_action(self):
        states, standins = game_until(lambda states: len(states) == 2)
        assert self.why(states, standins, (mover(states),)) is None

    def test_nor_after_the_next_player_acted(self):
        states, standins = game_until(
            lambda s: len(s) >= 3 and s[-3].current_player != s[-2].current_player
        )
        first, then = states[-3].current_player, mover(states)
        assert first is not None and first != then
        assert self.why(states, standins, (first,)) == (
            f"the last action was {['ann', 'ben'][then]}'s, not yours: "
            "only your own can be taken back"
        )
        assert self.why(states, standins, (then,)) is None

    def test_nor_after_new_parcels_were_dealt(self):
        states, standins = game_until(lambda s: len(s) >= 2 and s[-1].season != s[-2].season)
        assert self.why(states, standins, (mover(states),)) == (
            "new parcels were dealt since: that action cannot be taken back"
        )
        assert self.why(states[:-1], standins[:-1], (mover(states[:-1]),)) is None

    def test_nor_a_move_a_computer_made_for_the_player(self):
        states, standins = game_until(lambda states: len(states) == 2)
        assert self.why(states, ["easy"], (mover(states),)) == (
            "a computer made that move for you: only your own can be taken back"
        )
        assert self.why(states, standins, (mover(states),)) is None

    def test_not_before_anything_was_played_nor_at_another_position(self):
        states, standins = game_until(lambda states: True)
        assert self.why(states, standins, (ANN, BEN)) == "nothing has been played yet"
        states, standins = game_until(lambda states: len(states) == 2)
        assert self.why(states, standins, (mover(states),), seq=0) == (
            "someone played meanwhile: look again"
        )

    def test_not_by_a_watcher(self):
        states, standins = game_until(lambda states: len(states) == 2)
        assert self.why(states, standins, ()) == "only the table's players may undo"

    def test_not_once_the_game_is_over(self):
        states, standins = game_until(lambda states: core.is_over(states[-1]))
        assert self.why(states, standins, (mover(states),)) == (
            "the game is over: its last action stands"
        )


# ---------------------------------------------------------------- presence, hand-over


class TestAway:
    def test_a_player_who_left_is_away_since_then(self):
        assert rules.away_since(away("ben", T0)) == T0
        assert rules.away_words(away("ben", T0)) == f"away since {clock(T0)}"

    def test_a_player_who_never_came_is_not_here_yet(self):
        assert rules.away_since(away("ben", None)) is None
        assert rules.away_words(away("ben", None)) == "not here yet"

    @pytest.mark.parametrize(
        "seat", [here("ann"), computer(), SeatInfo(BLUE, None)], ids=["here", "computer", "open"]
    )
    def test_nobody_else_is_away(self, seat):
        assert rules.away_since(seat) is None and rules.away_words(seat) is None


class TestWhyNoHandOver:
    def test_a_player_hands_over_their_own_seat(self):
        assert rules.why_no_hand_over(table(), at_start(), (ANN,)) is None
        assert rules.why_no_hand_over(table(), None, (ANN,)) is None

    def test_not_a_watcher(self):
        assert rules.why_no_hand_over(table(), at_start(), ()) == (
            "only a player of the table can hand over their seat"
        )

    def test_not_once_the_game_is_over(self):
        assert rules.why_no_hand_over(table(), over(), (ANN,)) == (
            "the game is over: there is nothing left to decide"
        )


class TestWhyNotAbsent:
    """At a live table, a present player may hand an absent player's seat to a computer
    once that player has been away longer than the table's wait."""

    @staticmethod
    def why(info=None, seat=BEN, level="normal", now=T0 + 300):
        return rules.why_not_absent(info or table(here("ann"), away("ben", T0)), seat, level, now)

    def test_exactly_after_the_wait_the_seat_may_be_handed_over(self):
        assert self.why(now=T0 + 300) is None
        assert self.why(now=T0 + 3600) is None

    def test_before_the_wait_the_seconds_left_are_said(self):
        assert self.why(now=T0 + 290) == (
            "that player has been away less than the table's wait: 10 s more"
        )
        assert self.why(now=T0 + 299.6) == (  # never "0 s more"
            "that player has been away less than the table's wait: 1 s more"
        )

    def test_a_present_player_or_one_who_never_came_keeps_their_seat(self):
        reason = "that player is here (or has not come yet): only an absent seat"
        assert self.why(table(), now=T0 + 3600) == reason
        assert self.why(table(here("ann"), away("ben", None)), now=T0 + 3600) == reason

    def test_a_table_that_waits_for_everyone_hands_over_nobody(self):
        days = table(here("ann"), away("ben"), pace="days")
        assert self.why(days, now=T0 + 10**6) == (
            "this table waits for everyone: nobody's seat is handed over for them"
        )

    def test_only_its_player_takes_a_seat_back(self):
        assert self.why(level=None) == "only its player takes a seat back"

    @pytest.mark.parametrize("seat", [2, 3, -1, 5])
    def test_only_a_players_seat(self, seat):
        info = table(here("ann"), away("ben"), computer(), SeatInfo(GREEN, None))
        assert self.why(info, seat=seat) == "that is not a player's seat"

    def test_not_while_the_table_is_paused(self):
        info = table(here("ann"), away("ben"), paused_until=T0 + 400, paused_by="ann")
        assert self.why(info, now=T0 + 350) == f"the table is paused until {clock(T0 + 400)} (ann)"
        assert self.why(info, now=T0 + 400) is None


class TestAbsentSeats:
    def test_the_seats_a_present_player_may_hand_over_now(self):
        info = table(here("ann"), away("ben", T0), away("cleo", T0 + 200, GREEN))
        assert rules.absent_seats(info, (ANN,), T0 + 300) == [(BEN, "ben")]
        assert rules.absent_seats(info, (ANN,), T0 + 500) == [(BEN, "ben"), (CLEO, "cleo")]

    def test_not_for_a_watcher_nor_ones_own_nor_a_seat_already_handed_over(self):
        handed = replace(away("ben", T0), standin="easy")
        assert rules.absent_seats(table(here("ann"), away("ben")), (), T0 + 300) == []
        assert rules.absent_seats(table(here("ann"), away("ben")), (BEN,), T0 + 300) == []
        assert rules.absent_seats(table(here("ann"), handed), (ANN,), T0 + 300) == []


# ---------------------------------------------------------------- what the table waits for


class TestWaitsFor:
    def test_a_pause(self):
        assert rules.waits_for(paused(T0 + 600, by="cleo"), at_start(), T0) == (
            f"paused until {clock(T0 + 600)} (cleo)"
        )

    def test_an_absent_player_whose_decision_it_is(self):
        state = at_start()
        deciding = state.current_player
        assert deciding is not None
        seats = [here("ann"), here("ben", RED)]
        seats[deciding] = away(["ann", "ben"][deciding], T0)
        assert rules.waits_for(table(*seats), state, T0 + 10) == (
            f"{['ann', 'ben'][deciding]} (away since {clock(T0)})"
        )
        seats[deciding] = away(["ann", "ben"][deciding], None)
        assert rules.waits_for(table(*seats), state, T0 + 10) == (
            f"{['ann', 'ben'][deciding]} (not here yet)"
        )
        seats[deciding] = replace(seats[deciding], standin="easy")
        assert rules.waits_for(table(*seats), state, T0 + 10) is None  # a computer plays it

    def test_nothing_unusual(self):
        assert rules.waits_for(table(), at_start(), T0) is None  # someone here decides
        assert rules.waits_for(table(), None, T0) is None
        assert rules.waits_for(table(), over(), T0) is None
