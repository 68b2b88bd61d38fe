"""A table's room: the requests its players make, each a change in one turn of the
table's actor (:mod:`table.server.actor`: the turn, the telling and what follows each
change are the actor's, whatever the request).

Each request is checked first: with the rules a client shows too (:mod:`table.rules`,
on the view ``info()``; their reason is the :class:`Refusal`), and with the server's own
(:mod:`table.server.rules`, on the table as it is now). Then its store changes and
journal entries are committed together, memory follows, and the change is told once.
"""

from __future__ import annotations

from dataclasses import replace

import core
from table import journal
from table import rules as shared
from table.server import rules
from table.server.actor import Actor
from table.server.rules import Refusal, refuse
from table.server.view import Listener
from table.store import Change, Paused, Resumed, SitDown, StandIn, Truncate, TurnBegan


class Room(Actor):
    """One table (see the module docstring)."""

    # ---------------------------------------------------------------- coming and going

    async def enter(
        self, listener: Listener, ref: int, watch: bool, seat: int | None, back: bool = True
    ) -> None:
        """Sit at the table (taking an open seat if the player has none) or watch it,
        answered by a snapshot; ``back``: the player comes back, so a seat a computer
        plays for them is theirs again (not when their terminal only reconnects by
        itself). A seat whose player was told away is told back (while the game is on:
        once it is over, who comes and goes is no event of the game's)."""
        async with self._turn():
            player, now = listener.player, self.clock()
            mine = rules.seats_of(self.row, player)
            entries: list[journal.Any] = []
            changes: list[Change] = []
            sitting = not watch and not mine
            if sitting:
                self._writable()
                taken = rules.open_seat(self.row, seat)
                changes.append(SitDown(self.id, taken, player))
                entries.append(journal.Sit(now, len(self.row.actions), taken, player))
                after = [row if i != taken else replace(row, kind="player", name=player)
                         for i, row in enumerate(self.row.seats)]  # fmt: skip
                first = rules.first_to_play(self.row.seed, after)  # the game starts now
                if first is not None:
                    changes.append(TurnBegan(self.id, 0, first, now))
                mine = (taken,)
            elif not watch and self.damaged is None and not self.over:
                seq = len(self.row.actions)
                for here in mine:
                    if here in self.told_away:
                        entries.append(journal.Back(now, seq, here, player))
                    if back and self.row.seats[here].standin is not None:
                        changes.append(StandIn(self.id, here, None))
                        entries.append(journal.HandOver(now, seq, player, here, player, None))
            if not sitting:
                self._check_entering(watch)
            before = self.present()
            n = await self._store(changes, entries)
            for change in changes:
                if isinstance(change, SitDown):
                    self.seated(change.seat, player)
                elif isinstance(change, StandIn):
                    self.row.seats[change.seat].standin = None
            self._check_entering(watch)  # a seat taken: the table may wait for more
            seats = () if watch else mine
            self.listeners[listener] = seats
            for here in seats:
                self.away_since.pop(here, None)
                self.told_away.discard(here)
            if not listener.send(self.snapshot(ref, listener)):
                self.leave(listener)
            if entries or self.present() != before:
                self._tell(n, entries, skip=listener)

    def _check_entering(self, watch: bool) -> None:
        """Only a table whose game is under way is sat at or watched."""
        if not self.started:
            open_seats = sum(1 for s in self.row.seats if s.kind == "open")
            if watch:
                raise Refusal(f"the game has not started: {open_seats} seats are still open")
            raise Refusal(
                f"the game starts once no seat is open ({open_seats} still open: the first "
                "who joins takes one); it will be listed as yours"
            )
        if not self.states:
            raise Refusal(f"this table is damaged ({self.damaged}): it can only be exported")

    # ---------------------------------------------------------------- the game

    async def play(self, listener: Listener, ref: int, seq: int, action: core.Action) -> None:
        async with self._turn():
            self._writable()
            rules.check_play(self.row, self.state, self.listeners.get(listener))
            if self.row.paused_until is not None:  # else no pause for the rule to judge
                refuse(shared.why_paused(self.info(), self.clock()))
            await self._move(seq, action, (listener, ref))

    async def undo(self, listener: Listener, ref: int, seq: int) -> None:
        """Take back the table's last action, the player's own (:func:`table.rules.why_no_undo`)."""
        async with self._turn():
            self._writable()
            refuse(shared.why_no_undo(self.info(), self.states, self.row.standins,
                                      self.seats_here(listener), seq))  # fmt: skip
            last = len(self.row.actions) - 1
            entry = journal.Undo(self.clock(), last, listener.player)
            n = await self._store([Truncate(self.id, last)], [entry])
            del self.row.actions[last:], self.row.standins[last:], self.states[last + 1 :]
            self._tell(n, [entry], (listener, ref))

    # ---------------------------------------------------------------- life at the table

    async def say(self, listener: Listener, ref: int, text: str) -> None:
        async with self._turn():
            self._writable()
            if listener not in self.listeners:
                raise Refusal("join or watch the table to talk there")
            now = self.clock()
            said = self.said.setdefault(listener.player, [])
            text = rules.chat_text(text, said, now)
            spectator = not self.listeners[listener]
            line = journal.Chat(now, len(self.row.actions), listener.player, text, spectator)
            n = await self._store((), [line])
            said.append(now)
            self._tell(n, [line], (listener, ref))

    async def pause(self, listener: Listener, ref: int, minutes: int) -> float:
        """Pause a live table for everyone; returns when the pause ends (its timer is the
        room's: the pause is told over then, and the game goes on)."""
        async with self._turn():
            self._writable()
            now, state, player = self.clock(), self.state, listener.player
            refuse(shared.why_no_pause(self.info(), state, player, self.seats_here(listener), now))
            assert state is not None
            until = now + self.minute * minutes
            entry = journal.Pause(now, len(self.row.actions), player, until)
            n = await self._store([Paused(self.id, player, state.season, until)], [entry])
            self.row.pauses.add((player, state.season))
            self.row.paused_until, self.row.paused_by = until, player
            self._tell(n, [entry], (listener, ref))
            return until

    async def resume(self, listener: Listener, ref: int) -> None:
        """End the player's own pause now, for everyone (the computers may play again)."""
        async with self._turn():
            self._writable()
            if not self.seats_here(listener):
                raise Refusal("only a player of the table can resume it")
            now, player = self.clock(), listener.player
            refuse(shared.why_no_resume(self.info(), player, now))
            entry = journal.PauseEnd(now, len(self.row.actions), player, early=True)
            n = await self._store([Resumed(self.id, player)], [entry])
            self.row.paused_until = self.row.paused_by = None
            self._tell(n, [entry], (listener, ref))

    async def hand_over(
        self, listener: Listener, ref: int, level: core.Level | None, seat: int | None
    ) -> None:
        """Hand the player's seats to a computer of ``level``, or take them back; at a live
        table, an absent player's ``seat`` (:func:`table.rules.why_not_absent`). A seat
        already so is left as it is (the answer then tells nothing new)."""
        async with self._turn():
            self._writable()
            mine, now = self.seats_here(listener), self.clock()
            refuse(shared.why_no_hand_over(self.info(), self.state, mine))
            seats = mine
            if seat is not None and seat not in mine:
                refuse(shared.why_not_absent(self.info(), seat, level, now))
                seats = (seat,)
            names, seq = self.names, len(self.row.actions)
            handed = [s for s in seats if self.row.seats[s].standin != level]
            entries = [journal.HandOver(now, seq, listener.player, s, names[s], level)
                       for s in handed]  # fmt: skip
            n = await self._store([StandIn(self.id, s, level) for s in handed], entries)
            for s in handed:
                self.row.seats[s].standin = level
            self._tell(n, entries, (listener, ref))

    # ---------------------------------------------------------------- export

    def export(self) -> bytes:
        """The game as an ordinary save, with the journal's lines (a damaged table: as far
        as it replays)."""
        from table.server.export import export_save

        if not self.states:
            raise Refusal("the game has not started yet")
        return export_save(self.row, self.states, tuple(self.row.journal))
