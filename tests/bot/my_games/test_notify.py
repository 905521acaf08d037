"""``/notify`` (issue 41, item 3): each player's choice of how a decision reaches them, for all
servers; shown and set privately in a server channel and in a DM with the bot, in the reader's
language; a crafted value is refused by the gate; the choice outlives a restart."""

from __future__ import annotations

from incan_kit import start_bot

from fakediscord import FakeDiscord, FakeUser

DEFAULT = ("Without a choice: the board while you are at the table, and your prompt by DM once you are away "
           "(on a correspondence table, nearly every turn).")


def answer(fake: FakeDiscord, user: FakeUser) -> str:
    [reply] = fake.last_interaction_response(user).replies
    assert reply.ephemeral
    return reply.render()


async def test_show_set_and_show_again_in_a_server_and_in_a_dm(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "notify", {})
    shown = answer(fake, ann)
    assert "You have not chosen" in shown and "/notify" in shown and DEFAULT in shown
    await fake.slash(ann, table, "notify", {"how": "mention"})
    done = answer(fake, ann)
    assert "Done." in done and "a new message in the game's channel that names only you" in done
    assert await bot.hub.notify_choices.how(ann.id) == "mention"
    dm = fake.dm_channel(ann)
    await fake.slash(ann, dm, "notify", {})  # the same choice from a DM: it is the same on every server
    shown = answer(fake, ann)
    assert "names only you" in shown and DEFAULT in shown and "You have not chosen" not in shown
    await fake.slash(ann, dm, "notify", {"how": "off"})
    assert "nothing but the board" in answer(fake, ann)
    assert await store.notify_choice(ann.id) == "off"
    assert await bot.hub.notify_choices.how(fake.user("Bo").id) is None  # never chosen: the default
    await fake.stop(bot)


async def test_the_answer_is_in_the_readers_language(fake, table, store, clock):
    aino = fake.user("Aino", locale="fi")
    bot = await start_bot(fake, store, clock)
    await fake.slash(aino, fake.dm_channel(aino), "notify", {"how": "dm"})
    assert "Valmis." in answer(fake, aino) and "yksityisviesti" in answer(fake, aino)
    await fake.stop(bot)


async def test_a_crafted_value_is_refused_by_the_gate_and_changes_nothing(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "notify", {"how": "dm"})
    for value in ("loud", "DM", "", 3):
        rec = await fake.craft_slash(ann, table, "notify", {"how": value})
        assert rec.acknowledged and "That is not valid" in answer(fake, ann)
    rec = await fake.craft_slash(ann, fake.dm_channel(ann), "notify", {"how": "everyone"})
    assert rec.acknowledged and "That is not valid" in answer(fake, ann)
    assert await store.notify_choice(ann.id) == "dm" and await bot.hub.notify_choices.how(ann.id) == "dm"
    await fake.stop(bot)


async def test_the_choice_outlives_a_restart(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "notify", {"how": "mention"})
    await fake.stop(bot)
    again = await start_bot(fake, store, clock)
    assert await again.hub.notify_choices.how(ann.id) == "mention"
    await fake.slash(ann, fake.dm_channel(ann), "notify", {})
    assert "names only you" in answer(fake, ann)
    await fake.stop(again)


async def test_a_choice_made_in_another_process_is_seen_within_a_minute(fake, table, store, clock, ann):
    """Each process caches the choices; a choice stored by another one (a DM's command lands on
    shard 0's process) reaches this one when its cached entry is read again."""
    bot = await start_bot(fake, store, clock)
    assert await bot.hub.notify_choices.how(ann.id) is None
    await store.set_notify_choice(ann.id, "off")  # as another process would
    assert await bot.hub.notify_choices.how(ann.id) is None  # cached: no query per notice
    await fake.run(clock.advance, 61)
    assert await bot.hub.notify_choices.how(ann.id) == "off"
    await fake.stop(bot)
