"""Turn notices that notify (issue 41, items 2 and 3): every time a decision becomes a person's,
exactly one message Discord really delivers tells them (a new DM prompt, or a new channel message
that mentions only them), nobody else is notified, and the decision can be made from where they
were told. The fake Discord records who each new message notified (an edit notifies nobody).
"""

from __future__ import annotations

import json
import random

from incan_kit import buttons, last_dm, start_bot
from indus_kit import TINY_PNG, board, dm_prompt, first_choice, open_table
from sakkara_bot_kit import open_table as open_sakkara
from sakkara_bot_kit import play_one as play_sakkara
from table_kit import incan_table

from cogs.sakkara import words as sakkara_words
from engine.indus import GAME as INDUS
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeUser


async def prefer(fake: FakeDiscord, channel: FakeChannel, choices: list[tuple[FakeUser, str]]) -> None:
    """Each person chooses how they are told, with ``/notify how`` (stored, for every server)."""
    for user, how in choices:
        rec = await fake.slash(user, channel, "notify", {"how": how})
        assert rec.ephemeral


def notified(fake: FakeDiscord, users: list[FakeUser]) -> dict[int, int]:
    """How many messages have notified each user so far."""
    return {user.id: len(fake.notifications(user)) for user in users}


def owner(table: Table) -> int | None:
    """The user whose decision the table waits for (one at a time in Sakkara and Indus)."""
    owing = table.humans_owing()
    return table.seats[owing[0]].user_id if owing else None


async def test_sakkara_every_turn_that_passes_notifies_exactly_its_player(fake, table, store, clock, monkeypatch):
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)  # text boards: the notices are the subject
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    await prefer(fake, table, [(ann, "dm"), (bo, "dm")])
    game = await open_sakkara(fake, bot, table, ann, bo, seed=3)
    users, rng, passes = {ann.id: ann, bo.id: bo}, random.Random(3), 0
    while game.status == "playing":
        before, counts = owner(game), notified(fake, [ann, bo])
        await play_sakkara(fake, game, users, rng)
        after, now = owner(game), notified(fake, [ann, bo])
        if game.status != "playing":
            break
        if after != before:
            passes += 1
            assert now[after] == counts[after] + 1, "the turn passed: one notice for the new player"
            assert now[before] == counts[before], "and none for the one who just played"
            assert fake.notifications(after)[-1].channel_id == fake.world.dm_channel_ids[after]  # a new DM
        else:
            assert now == counts, "no notice while the same player goes on"
    assert passes >= 10
    await fake.stop(bot)


async def test_indus_turn_notices_by_dm_and_by_mention_and_play_from_the_dm(fake, table, store, clock, monkeypatch):
    """Three people on a correspondence table, each coming back a while after the last move: Ann is
    told by DM and plays from her DM prompt; Bo is told by a mention in the channel (his earlier
    notice deleted: one per person); Cy has DMs closed and no choice, so he is told by a mention too.
    Every turn that passes to a person notifies exactly them."""
    monkeypatch.setattr("cogs.indus.render.board_png", lambda view, names=None: TINY_PNG)  # speed only
    monkeypatch.setattr("engine.session.opening.secrets.randbits", lambda bits: 11)
    ann, bo, cy = fake.user("Ann"), fake.user("Bo"), fake.user("Cy")
    fake.close_dms(cy)
    bot = await start_bot(fake, store, clock, decision_timeout_s=86400.0)  # a day per decision
    await prefer(fake, table, [(ann, "dm"), (bo, "mention")])
    game = await open_table(fake, bot, table, [ann, bo, cy])
    people = [ann, bo, cy]
    by_id = {user.id: user for user in people}
    passes, from_dm = 0, 0
    while game.status == "playing":
        before, counts = owner(game), notified(fake, people)
        user = by_id[before]  # type: ignore[index]
        legal = INDUS.legal_actions(game.state, game.humans_owing()[0])
        await clock.advance(61.0)  # they come back a minute later: away from the table meanwhile
        dm = dm_prompt(fake, user) if user is ann else None
        place = dm if dm is not None else await board(fake, bot, game)
        cid, value = first_choice(place, legal[0])
        rec = await (fake.click(user, place, cid) if value is None else fake.select(user, place, cid, [value]))
        assert not [r for r in rec.replies if r.ephemeral], [r.render() for r in rec.replies]
        from_dm += place is dm
        if game.status != "playing":
            break
        after, now = owner(game), notified(fake, people)
        others = [u.id for u in people if u.id != after]
        if after != before:
            passes += 1
            assert now[after] == counts[after] + 1, f"turn passed to {by_id[after].name}: one notice"  # type: ignore[index]
            assert all(now[u] == counts[u] for u in others)
            last = fake.notifications(after)[-1]  # type: ignore[arg-type]
            if after == ann.id:
                assert last.channel_id == fake.world.dm_channel_ids[ann.id] and buttons(last, "pick:") + buttons(
                    last, "act:"), "Ann's notice is her DM prompt, with the controls"
            else:
                assert last.channel_id == table.id and last.notified == {after}
                assert f"<@{after}>" in last.content and "Indus" in last.content
        else:
            assert now == counts
    assert passes >= 12 and from_dm >= 6
    # One notice per person in the channel: the earlier ones were deleted.
    for user in (bo, cy):
        alive = [m for m in fake.channel_messages(table) if user.id in m.notified]
        assert len(alive) == 1, [m.content for m in alive]  # the board's mention pings nobody
    assert fake.dm_messages(cy) == []
    await fake.stop(bot)


async def test_a_live_player_who_is_playing_is_not_notified_but_one_away_is(fake, table, store, clock, monkeypatch):
    """No choice, live table: the board is the notice for a player who clicked a moment ago; one away
    (no click for a minute) gets their prompt as a new DM."""
    monkeypatch.setattr("cogs.indus.render.board_png", lambda view, names=None: TINY_PNG)
    monkeypatch.setattr("engine.session.opening.secrets.randbits", lambda bits: 11)
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, [ann, bo])
    by_id = {ann.id: ann, bo.id: bo}

    async def step() -> None:
        user = by_id[owner(game)]  # type: ignore[index]
        legal = INDUS.legal_actions(game.state, game.humans_owing()[0])
        message = await board(fake, bot, game)
        cid, value = first_choice(message, legal[0])
        await (fake.click(user, message, cid) if value is None else fake.select(user, message, cid, [value]))

    start = notified(fake, [ann, bo])
    first = owner(game)
    while owner(game) == first:
        await step()
    second = owner(game)
    while owner(game) == second:
        await step()
    # Both clicked a moment ago (the lobby, their moves): the board was the notice.
    assert notified(fake, [ann, bo]) == start
    await clock.advance(61.0)  # a minute later the one to move plays; the other has wandered off
    mover = owner(game)
    while owner(game) == mover:
        await step()
    waiting = owner(game)
    assert waiting is not None and waiting != mover
    assert notified(fake, [ann, bo])[mover] == start[mover]
    told = fake.notifications(waiting)
    assert len(told) == start[waiting] + 1 and told[-1].channel_id == fake.world.dm_channel_ids[waiting]
    assert dm_prompt(fake, by_id[waiting]) is told[-1]  # their prompt, with the controls
    await fake.stop(bot)


async def test_incan_gold_played_entirely_from_dm_prompts(fake, table, store, clock):
    """Three people who chose ``dm``: each expedition's start sends each of them their Torch / Camp
    prompt as a new DM; each card redraws it; every choice of the game is made there."""
    users = [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]
    bot = await start_bot(fake, store, clock)
    await prefer(fake, table, [(user, "dm") for user in users])
    game = await incan_table(fake, bot, table, users, seed=5)
    clicks = 0
    by_id = {user.id: user for user in users}
    rounds_told: dict[int, int] = {user.id: 0 for user in users}
    while game.status == "playing":
        owing = game.humans_owing()
        assert owing, "Incan Gold with people only always waits for someone"
        seat = owing[0]
        user = by_id[game.seats[seat].user_id]  # type: ignore[index]
        prompt = last_dm(fake, user)
        assert prompt is not None, f"{user.name} has a DM prompt to decide from"
        choice = "torch" if (clicks + seat) % 3 else "camp"
        cid = next(c for c in buttons(prompt, "act:") if json.loads(c.split(":", 3)[3]) == choice)
        rec = await fake.click(user, prompt, cid)
        assert not [r for r in rec.replies if r.ephemeral], [r.render() for r in rec.replies]
        clicks += 1
    for user in users:
        rounds_told[user.id] = sum(1 for m in fake.notifications(user)
                                   if m.channel_id == fake.world.dm_channel_ids[user.id])
        assert rounds_told[user.id] >= 5, "a new DM prompt at every expedition's start (five expeditions)"
    assert clicks > 15
    # Nobody was mentioned publicly: the DMs were the notices.
    assert all(not m.notified for m in fake.public_messages())
    await fake.stop(bot)


async def test_incan_gold_expedition_start_names_everyone_not_told_by_dm(fake, table, store, clock):
    """An expedition's new message names everyone inside who is not told by DM (all owe a choice
    then: it tells nothing of anyone's choice): Bo (no choice) and Cy (chose ``dm``, DMs closed);
    Ann, who chose ``dm``, gets her prompt as a new DM instead; Di chose ``off``."""
    ann, bo, cy, di = users = [fake.user("Ann"), fake.user("Bo"), fake.user("Cy"), fake.user("Di")]
    fake.close_dms(cy)
    bot = await start_bot(fake, store, clock, decision_timeout_s=7200.0)
    await prefer(fake, table, [(ann, "dm"), (cy, "dm"), (di, "off")])
    game = await incan_table(fake, bot, table, users, seed=5)
    assert game.status == "playing"
    first = [m for m in fake.public_messages() if m.notified]
    assert len(first) == 1 and first[0].notified == {bo.id, cy.id}
    assert "expedition 1" in first[0].content and f"<@{ann.id}>" not in first[0].content
    assert last_dm(fake, ann) is not None and fake.notifications(ann)[-1] is last_dm(fake, ann)
    assert fake.notifications(di) == []
    await fake.stop(bot)
