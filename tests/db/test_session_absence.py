"""Absence in correspondence tables (issue 41, item 5), on both stores: a person who lets two
decisions in a row time out is played by the table's bot at bot speed until any click or command
of theirs takes the seat back; stored, so a restart keeps it; a live table never takes a seat over;
and a table whose every person is away is still abandoned (issue 42), never played out by bots."""

from __future__ import annotations

from typing import Any

from test_session import Recorder as SessionRecorder

from db import Store
from engine.clock import ManualClock
from engine.session import AUTO, DECISION, SeatEvent, SeatSpec, Sessions, SessionSettings, Table, bot_seconds
from engine.session.absence import bot_level
from engine.session.games import SPECS
from engine.session.options import AWAY_DECISIONS, TAKEOVER_DECISIONS
from wiring.storage import StoreRepository

ANN, BO, CY = SeatSpec("Ann", 1), SeatSpec("Bo", 2), SeatSpec("Cy", 3)
CHANNEL, GUILD = 502, 902
DAY = 86400.0
BOT_DELAY = 1.5


class Recorder(SessionRecorder):
    """The session tests' recorder, also told of people away and back."""

    async def away(self, table: Table, seat: int, *, origin: object | None) -> None:
        self.calls.append((table.seat_events[-1].kind, seat))


def make(store: Store, clock: ManualClock) -> tuple[Sessions, Recorder]:
    rec = Recorder()
    sessions = Sessions(StoreRepository(store), SPECS, rec, clock,
                        SessionSettings(decision_timeout_s=120, reminder_before_s=30, ai_delay_s=BOT_DELAY))
    return sessions, rec


async def indus(sessions: Sessions, timeout_s: float = DAY, bot: str | None = None,
                people: tuple[SeatSpec, ...] = (ANN, BO, CY)) -> Table:
    table = await sessions.create("indus", GUILD, CHANNEL, people[0], table_options={"decision_timeout_s": timeout_s})
    for person in people[1:]:
        await sessions.join(table.id, person)
    if bot is not None:
        await sessions.add_ai(table.id, ANN.user_id or 0, bot)
    await sessions.start(table.id, ANN.user_id or 0, seed=11)
    return table


async def step(sessions: Sessions, table: Table, clock: ManualClock, absent: set[int], timeout_s: float) -> None:
    """One step of the game: a present person who owes plays their first legal action, an absent
    one lets the deadline pass, a bot's turn waits for its delay."""
    owing = table.humans_owing()
    if not owing:
        await clock.advance(BOT_DELAY)
        return
    seat = owing[0]
    user = table.seats[seat].user_id or 0
    if user in absent:
        await clock.advance(timeout_s + 1)
    else:
        await sessions.act(table.id, user, table.window, table.spec.game.legal_actions(table.state, seat)[0])


async def until(sessions: Sessions, table: Table, clock: ManualClock, absent: set[int], done: Any,
                timeout_s: float = DAY, steps: int = 400) -> None:
    for _ in range(steps):
        if done() or table.status != "playing":
            return
        await step(sessions, table, clock, absent, timeout_s)
    raise AssertionError("the game never got there")


async def bo_away(sessions: Sessions, table: Table, clock: ManualClock, *, his_turn: bool = True) -> int:
    """Let Bo miss his decisions until the bot plays his seat (and, with ``his_turn``, until his
    turn comes again); return his seat."""
    bo = BO.user_id or 0
    seat = table.seat_of(bo)
    assert seat is not None
    await until(sessions, table, clock, {bo}, lambda: table.seats[seat].away is not None)
    if his_turn:
        await until(sessions, table, clock, {bo}, lambda: seat in table.owing())
    return seat


def events(table: Table, kind: str) -> list[SeatEvent]:
    return [e for e in table.seat_events if e.kind == kind]


async def test_two_timeouts_in_a_row_hand_the_seat_to_the_bot_which_plays_at_bot_speed(store):
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await indus(sessions)
    bo = BO.user_id or 0
    seat = table.seat_of(bo)
    assert seat is not None
    await until(sessions, table, clock, {bo}, lambda: table.seats[seat].away is not None)
    assert len(events(table, "timeout")) == TAKEOVER_DECISIONS  # after exactly two, not before
    [away] = events(table, "away")
    assert away.seat == seat and away.detail["level"] == "easy" and rec.calls.count(("away", seat)) == 1
    stored = await store.seat_events(table.id)
    assert [(e.kind, e.seat) for e in stored if e.kind == "away"] == [("away", seat)]
    # Bo's next turns: the bot plays them as soon as a bot seat would, never waiting a day.
    started = clock.now()
    await until(sessions, table, clock, {bo}, lambda: seat in table.owing())
    assert table.humans_owing() == [] and table.deadline is None
    kinds = {d.kind for d in await store.deadlines(table.id)}
    assert AUTO in kinds
    version = table.version
    await clock.advance(BOT_DELAY)
    assert table.version > version and clock.now() - started < DAY  # played at bot speed
    assert len(events(table, "timeout")) == TAKEOVER_DECISIONS  # the bot's turns are no timeouts


async def test_any_click_of_the_person_takes_the_seat_back_with_the_decision_it_owes(store):
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await indus(sessions)
    bo = BO.user_id or 0
    seat = await bo_away(sessions, table, clock)
    # Bo's turn has come and the bot has not played it yet: Bo looks at the table (My status).
    await sessions.seen(table.id, bo)
    assert table.seats[seat].away is None and table.humans_owing() == [seat]
    assert ("back", seat) in rec.calls and [e.kind for e in table.seat_events][-1] == "back"
    assert table.deadline is not None and table.deadline > clock.now() + DAY - 10  # a fresh deadline of his own
    assert (DECISION, table.window) in {(d.kind, d.version) for d in await store.deadlines(table.id)}
    version = table.version
    await clock.advance(BOT_DELAY * 4)
    assert table.version == version  # the bot's timer finds the decision Bo's: it does nothing
    await sessions.act(table.id, bo, table.window, table.spec.game.legal_actions(table.state, seat)[0])
    assert table.version > version
    await sessions.seen(table.id, bo)  # nothing more to give back: no second event
    assert len(events(table, "back")) == 1


async def test_a_move_click_takes_the_seat_back_and_plays(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await indus(sessions)
    bo = BO.user_id or 0
    seat = await bo_away(sessions, table, clock)
    version = table.version
    await sessions.act(table.id, bo, table.window, table.spec.game.legal_actions(table.state, seat)[0])
    assert table.version > version and table.seats[seat].away is None and len(events(table, "back")) == 1


async def test_the_takeover_survives_a_restart_and_is_given_back_after_it(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await indus(sessions)
    bo = BO.user_id or 0
    seat = await bo_away(sessions, table, clock, his_turn=False)
    await sessions.close()

    again, rec = make(store, clock)
    await again.open()
    loaded = await again.table(table.id)
    assert loaded.seats[seat].away == "easy" and loaded.seats[seat].is_ai
    await until(again, loaded, clock, {bo}, lambda: seat in loaded.owing())
    version = loaded.version
    await clock.advance(BOT_DELAY)
    assert loaded.version > version  # the bot still plays Bo's turn after the restart
    await again.seen(table.id, bo)
    assert loaded.seats[seat].away is None and ("back", seat) in rec.calls
    await again.close()
    third, _ = make(store, clock)
    await third.open()
    assert (await third.table(table.id)).seats[seat].away is None  # the return is stored too
    await third.close()


async def test_a_live_table_never_takes_a_seat_over(store):
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await indus(sessions, timeout_s=120)
    bo = BO.user_id or 0
    await until(sessions, table, clock, {bo}, lambda: len(events(table, "timeout")) >= 4, timeout_s=120)
    assert events(table, "away") == [] and not any(c[0] == "away" for c in rec.calls)
    assert all(not s.is_ai for s in table.seats)


async def test_the_table_option_sets_how_many_timeouts_make_a_person_away(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await sessions.create("indus", GUILD, CHANNEL, ANN,
                                  table_options={"decision_timeout_s": DAY, "takeover_after": 3})
    await sessions.join(table.id, BO)
    await sessions.start(table.id, ANN.user_id or 0, seed=11)
    bo = BO.user_id or 0
    seat = table.seat_of(bo)
    assert seat is not None
    await until(sessions, table, clock, {bo}, lambda: table.seats[seat].away is not None)
    assert len(events(table, "timeout")) == 3


async def test_the_bot_is_the_level_of_the_tables_bots(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await indus(sessions, bot="hard", people=(ANN, BO))
    assert bot_level(table) == "hard"
    bo = BO.user_id or 0
    seat = table.seat_of(bo)
    assert seat is not None
    await until(sessions, table, clock, {bo}, lambda: table.seats[seat].away is not None)
    assert table.seats[seat].away == "hard" and events(table, "away")[0].detail["level"] == "hard"


async def test_a_table_whose_every_person_is_away_is_abandoned_not_played_out(store):
    """Issue 42 still holds: Ann is taken over after two timeouts, but the bot never takes Bo's
    seat too (then only bots would play, to a counted result); Bo's third miss abandons the table."""
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await indus(sessions, people=(ANN, BO))
    ann, bo = ANN.user_id or 0, BO.user_id or 0
    await until(sessions, table, clock, {ann, bo}, lambda: False)
    assert table.status == "abandoned" and ("ended", "away") in rec.calls and rec.results == []
    assert await store.results(table.id) == []
    assert len(events(table, "away")) == 1  # one of them was taken over, never both
    last = next(s for s in table.people() if table.seats[s].away is None)
    assert table.away[last] >= AWAY_DECISIONS


async def test_a_person_who_resigns_while_the_other_is_away_ends_the_game(store):
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await indus(sessions, people=(ANN, BO))
    bo = BO.user_id or 0
    seat = table.seat_of(bo)
    assert seat is not None
    await until(sessions, table, clock, {bo}, lambda: table.seats[seat].away is not None)
    await sessions.resign(table.id, ANN.user_id or 0, "easy")
    assert table.status == "cancelled" and ("ended", "everyone_left") in rec.calls


def test_bot_seconds_counts_every_stretch_until_back_or_the_end():
    stretches = [SeatEvent(3, 1, "away", {"level": "easy", "at": 100.0}), SeatEvent(9, 1, "back", {"at": 400.0}),
                 SeatEvent(12, 1, "away", {"level": "easy", "at": 1000.0}), SeatEvent(12, 2, "timeout")]
    assert bot_seconds(stretches, 1600.0) == {1: 900.0}
    assert bot_seconds([SeatEvent(3, 0, "timeout")], 50.0) == {}


async def test_in_incan_gold_the_bot_chooses_for_the_away_seat_while_the_others_keep_their_deadline(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN, table_options={"decision_timeout_s": DAY})
    await sessions.join(table.id, BO)
    await sessions.join(table.id, CY)
    await sessions.start(table.id, ANN.user_id or 0, seed=5)
    bo = BO.user_id or 0
    seat = table.seat_of(bo)
    assert seat is not None
    others = [ANN.user_id or 0, CY.user_id or 0]

    async def play_on(done: Any) -> None:
        """Ann and Cy take the torch whenever they owe, Bo lets his decisions run out."""
        for _ in range(200):
            if done() or table.status != "playing":
                return
            present = [s for s in table.humans_owing() if table.seats[s].user_id in others]
            if present:
                await sessions.act(table.id, table.seats[present[0]].user_id or 0, table.window, "torch")
            else:
                await clock.advance(DAY + 1 if table.humans_owing() else BOT_DELAY)
        raise AssertionError("the game never got there")

    await play_on(lambda: table.seats[seat].away is not None)
    assert len(events(table, "timeout")) >= TAKEOVER_DECISIONS and table.seats[seat].away == "easy"
    # A new expedition's choice: Bo's is the bot's, Ann and Cy keep the window's day.
    await play_on(lambda: seat in table.owing() and len(table.humans_owing()) == 2)
    assert seat not in table.humans_owing()
    deadline = table.deadline
    assert deadline is not None and deadline > clock.now() + DAY / 2
    await clock.advance(BOT_DELAY)
    assert seat not in table.owing() and len(table.humans_owing()) == 2 and table.deadline == deadline


async def test_a_restart_while_the_bot_owes_the_away_seats_turn_shows_and_arms_no_deadline(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await indus(sessions)
    seat = await bo_away(sessions, table, clock)
    assert table.humans_owing() == []
    assert (DECISION, table.window) not in {(d.kind, d.version) for d in await store.deadlines(table.id)}
    await sessions.close()
    again, _ = make(store, clock)
    await again.open()
    loaded = await again.table(table.id)
    assert loaded.deadline is None and seat in loaded.owing()
    await again.seen(table.id, BO.user_id or 0)  # back: a day of his own for the turn the bot had not played
    assert loaded.deadline is not None and loaded.deadline > clock.now() + DAY - 10
    await again.close()


async def test_a_seat_that_becomes_the_bots_mid_decision_leaves_no_stored_deadline_behind(store):
    """Resigning (like being taken over) while owing: nobody waits on that deadline any more, so a
    restart must neither show it nor fire it."""
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await indus(sessions)
    [seat] = table.humans_owing()
    assert (DECISION, table.window) in {(d.kind, d.version) for d in await store.deadlines(table.id)}
    await sessions.resign(table.id, table.seats[seat].user_id or 0, "easy")
    assert table.deadline is None
    assert (DECISION, table.window) not in {(d.kind, d.version) for d in await store.deadlines(table.id)}
