"""Issue 45: every game played to the end with the permissions a real server gives the bot, and
not one request Discord refuses (each 403 counts toward its invalid-request limit).

Here beside the Indus tests, whose table drivers it plays Indus with (``test_indus_bot``); the
other games' drivers are the shared kits.
"""

from __future__ import annotations

import random

import pytest
from incan_kit import buttons, start_bot
from indus_kit import TINY_PNG, board, open_table, play_step, play_to_the_end
from sakkara_bot_kit import open_table as sakkara_table
from sakkara_bot_kit import play_one as sakkara_step
from sakkara_bot_kit import play_to_the_end as sakkara_to_the_end
from table_kit import incan_table, incan_to_the_end, thread_lines

from cogs.table.messages.permissions import INVITE_PERMISSIONS
from engine.sakkara import GAME as SAKKARA
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from pictures.sakkara import board as sakkara_board

ATTACH_OFF = "⚠️ **Attach Files** is off for me in this channel: boards and results are shown as text."


@pytest.fixture
def people(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


@pytest.fixture
def quick_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The boards' pictures drawn tiny: these tests are about what is sent, not what it shows."""
    tiny = sakkara_board.board_image(SAKKARA.view(SAKKARA.setup(2, 0), None))
    monkeypatch.setattr(sakkara_board, "board_image", lambda view, names=None: tiny)
    monkeypatch.setattr(sakkara_board, "private_pictures", lambda view, names=None: (tiny, tiny))
    monkeypatch.setattr("cogs.indus.render.board_png", lambda view, names=None: TINY_PNG)


def summary_of(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    [summary] = [m for m in fake.channel_messages(channel) if buttons(m, "rematch:")]
    return summary


def told(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    """The channel's lines about a permission the bot lacks there."""
    return [m.content for m in fake.channel_messages(channel) if m.content.startswith("⚠️")]


async def test_granted_exactly_the_invite_every_game_ends_with_its_thread(fake, store, clock, people,
                                                                          quick_pictures):
    """A server that gives the bot exactly the README's invite (and @everyone nothing): each game is
    played to the end with its pictures and its log thread, and Discord refuses nothing."""
    fake.grant_bot(INVITE_PERMISSIONS.value, everyone=0)
    incan, sakkara, indus = (fake.text_channel(name) for name in ("incan", "sakkara", "indus"))
    assert all(fake.bot_permissions_in(channel) == INVITE_PERMISSIONS.value for channel in (incan, sakkara, indus))
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, incan, people, bots=("easy",))
    await incan_to_the_end(fake, game, people)
    game = await sakkara_table(fake, bot, sakkara, people[0])
    await sakkara_to_the_end(fake, game, [people[0]])
    game = await open_table(fake, bot, indus, people[:2])
    await play_to_the_end(fake, bot, game, people[:2])
    await bot.hub.outbox.drained()
    for channel in (incan, sakkara, indus):
        [thread] = fake.threads(channel)
        assert thread_lines(fake, thread)[-1].startswith("🏁"), channel.name  # the whole story is there
        assert told(fake, channel) == []
    assert [f.filename for f in summary_of(fake, sakkara).files] == ["results.png"]
    assert [f.filename for f in summary_of(fake, indus).files] == ["results.png"]
    assert fake.forbidden == []
    await fake.stop(bot)


async def test_without_attach_files_sakkara_and_indus_end_with_text_boards(fake, table, store, clock, people,
                                                                           quick_pictures):
    """Attach Files off in the channel: both picture games are played to the end there with their
    text boards, no picture is even tried, and each table tells the channel once."""
    fake.set_bot_permissions(table, attach=False)
    bot = await start_bot(fake, store, clock)
    game = await sakkara_table(fake, bot, table, people[0])
    await sakkara_to_the_end(fake, game, [people[0]])
    assert game.status == "finished"
    sakkara_board_message = next(m for m in fake.channel_messages(table)
                                 if m.all_texts() and "Sakkara — round" in m.all_texts()[-1])
    assert all("```" in text for text in sakkara_board_message.all_texts())  # the text board, always
    summary = summary_of(fake, table)
    assert not summary.files and ("Winner" in summary.render() or "Shared win" in summary.render())
    assert told(fake, table) == [ATTACH_OFF]

    game = await open_table(fake, bot, table, people[:2])
    await play_to_the_end(fake, bot, game, people[:2])
    assert game.status == "finished"
    indus_board = await board(fake, bot, game)
    assert all("```" in text for text in indus_board.all_texts())  # every version shows the text board
    await bot.hub.outbox.drained()
    assert not any(m.files for m in fake.channel_messages(table))  # in the channel: no picture, ever
    assert not any(version.get("attachments") for m in fake.channel_messages(table) for version in m.history)
    assert told(fake, table) == [ATTACH_OFF, ATTACH_OFF]  # once per table
    assert fake.forbidden == []
    await fake.stop(bot)


async def test_a_permission_taken_between_the_check_and_the_call_costs_one_403(fake, table, store, clock, people,
                                                                              quick_pictures, caplog):
    """Attach Files is taken away while the bot still thinks it has it (Discord's CHANNEL_UPDATE not
    yet there): the timeout's redraw with a picture is refused once, logged once, not retried;
    the game goes on with text boards and ends. Given back, the pictures return."""
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, people[:2])
    for _ in range(3):
        await play_step(fake, bot, game, people[:2])
    fake.set_bot_permissions(table, attach=False, tell=False)
    await fake.run(clock.advance, 121)  # the decision runs out: the timeout's redraw comes from a timer
    assert [call.route for call in fake.forbidden] == ["/channels/{channel_id}/messages/{message_id}"]
    for _ in range(3):
        await play_step(fake, bot, game, people[:2])  # each click says Attach Files is off: text boards
    assert len(fake.forbidden) == 1
    message = await board(fake, bot, game)
    assert "```" in message.text and pictured(message) == []  # the refused picture's old one went too
    assert sum("Discord refused" in r.getMessage() for r in caplog.records) == 1
    fake.set_bot_permissions(table)  # given back (the bot hears of it)
    await play_step(fake, bot, game, people[:2])
    assert pictured(await board(fake, bot, game)) == ["board.png", "attachment://board.png"]
    await play_to_the_end(fake, bot, game, people[:2])
    assert game.status == "finished" and len(fake.forbidden) == 1
    await fake.stop(bot)


def pictured(message: FakeMessage) -> list[str]:
    """The files a board message carries now, and the picture its embed shows (both, or neither)."""
    image = (message.embeds[0].get("image") or {}).get("url") if message.embeds else None
    return [f.filename for f in message.files] + ([image] if image else [])


async def test_attach_files_taken_mid_game_takes_the_old_picture_away_indus(fake, table, store, clock, people,
                                                                            quick_pictures):
    """Attach Files taken mid-game (the bot hears of it): the next redraw of the Indus board, a press
    on it answered through that press, shows the text board and no longer the picture of a position
    that is gone (Discord keeps a message's attachments on an edit that does not name them).
    Given back, the picture returns in place of the text board."""
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, people[:2])
    for _ in range(2):
        await play_step(fake, bot, game, people[:2])
    assert pictured(await board(fake, bot, game)) == ["board.png", "attachment://board.png"]
    fake.set_bot_permissions(table, attach=False)
    await play_step(fake, bot, game, people[:2])
    message = await board(fake, bot, game)
    assert pictured(message) == [] and message.data["attachments"] == []
    assert "```" in message.text  # the text board, alone
    fake.set_bot_permissions(table)
    await play_step(fake, bot, game, people[:2])
    message = await board(fake, bot, game)
    assert pictured(message) == ["board.png", "attachment://board.png"] and "```" not in message.text
    assert fake.forbidden == []
    await fake.stop(bot)


async def test_attach_files_taken_mid_game_takes_the_old_picture_away_sakkara(fake, table, store, clock, people,
                                                                              quick_pictures):
    """The same for Sakkara, whose board is edited by plain (rate-limited) edits: moves are made on
    the players' own prompts."""
    bot = await start_bot(fake, store, clock)
    game = await sakkara_table(fake, bot, table, people[0])
    users = {people[0].id: people[0]}
    rng = random.Random(0)
    await sakkara_step(fake, game, users, rng)
    await bot.hub.outbox.drained()
    assert pictured(await board(fake, bot, game)) == ["board.png", "attachment://board.png"]
    fake.set_bot_permissions(table, attach=False)
    await sakkara_step(fake, game, users, rng)
    await bot.hub.outbox.drained()
    message = await board(fake, bot, game)
    assert pictured(message) == [] and message.data["attachments"] == []
    assert "```" in message.text
    fake.set_bot_permissions(table)
    await sakkara_step(fake, game, users, rng)
    await bot.hub.outbox.drained()
    message = await board(fake, bot, game)
    assert pictured(message) == ["board.png", "attachment://board.png"] and "```" not in message.text
    assert fake.forbidden == []
    await fake.stop(bot)
