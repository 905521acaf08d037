"""Issue 45: the invite asks for exactly what the bot checks for, managers see it and what the bot
lacks where, and a permission taken away mid-game costs a fallback, never a 403.

The games played to the end under a server's permissions are in
tests/bot/indus/test_permissions_in_play.py (beside the Indus drivers it plays with).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from incan_kit import buttons, start_bot
from table_kit import incan_table, incan_to_the_end

from cogs.table.messages.permissions import INVITE_PERMISSIONS, NEEDS, invite_url
from fakediscord import FakeDiscord, FakeUser
from fakediscord import payloads as p

README = Path(__file__).resolve().parents[3] / "README.md"


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


def test_the_readme_invite_asks_for_the_union_of_what_the_code_checks_for():
    text = README.read_text(encoding="utf-8")
    [integer] = set(re.findall(r"permissions integer: (\d+)", text))
    [url] = re.findall(r"<(https://discord\.com/oauth2/authorize\?[^>]+)>", text)
    union = 0
    for need in NEEDS:  # the bits as the fake Discord knows them: not the code's own sum
        union |= getattr(p, f"PERM_{need.flag.upper()}")
    assert int(integer) == INVITE_PERMISSIONS.value == union
    assert url == invite_url() and f"permissions={integer}" in url and "client_id=YOUR_CLIENT_ID" in url
    for need in NEEDS:  # each permission is named where the README explains the invite
        assert f"{need.name}" in text


async def test_help_shows_managers_the_invite_with_the_bots_own_id(fake, table, store, clock):
    boss, ann = fake.user("Boss", manage_guild=True), fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    text = (await fake.slash(boss, table, "help", {})).replies[-1].render()
    assert f"permissions={INVITE_PERMISSIONS.value}" in text and f"client_id={fake.application_id}" in text
    assert str(INVITE_PERMISSIONS.value) in text and "Attach Files" in text
    plain = (await fake.slash(ann, table, "help", {})).replies[-1].render()
    assert "oauth2" not in plain  # a player is not shown the invite
    await fake.stop(bot)


async def test_settings_lists_what_the_bot_lacks_per_channel_with_a_table(fake, store, clock, players):
    boss = fake.user("Boss", manage_guild=True)
    pictures, threads, fine, empty = (fake.text_channel(name) for name in ("pictures", "threads", "fine", "empty"))
    fake.set_bot_permissions(pictures, attach=False)
    fake.set_bot_permissions(threads, create_threads=False, send_in_threads=False)
    fake.set_bot_permissions(empty, attach=False)  # no table there: not listed
    bot = await start_bot(fake, store, clock)
    answer = (await fake.slash(boss, fine, "settings permissions", {})).replies[-1].render()
    assert "No table is open" in answer
    for channel in (pictures, threads, fine):
        await fake.slash(players[0], channel, "incan new", {})
    answer = (await fake.slash(boss, fine, "settings permissions", {})).replies[-1].render()
    assert f"<#{pictures.id}>: **Attach Files**" in answer
    assert f"<#{threads.id}>: **Create Public Threads**, **Send Messages in Threads**" in answer
    assert f"<#{fine.id}>" not in answer and f"<#{empty.id}>" not in answer
    assert fake.forbidden == []
    await fake.stop(bot)


async def test_embed_links_taken_mid_game_the_board_goes_on_as_plain_text(fake, table, store, clock, players):
    """Embed Links off after the start (the command refuses to open a table without it): every
    message from then on is plain text with the same controls, the channel is told once, no 403."""
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players)
    before = {m.id for m in fake.channel_messages(table)}
    fake.set_bot_permissions(table, embed=False)
    await incan_to_the_end(fake, game, players)
    assert game.status == "finished"
    later = [m for m in fake.channel_messages(table) if m.id not in before]
    assert later and not any(m.embeds for m in later)
    [summary] = [m for m in later if buttons(m, "rematch:")]
    assert "Winner" in summary.content or "Shared win" in summary.content
    assert sum(m.content.startswith("⚠️ **Embed Links** is off") for m in later) == 1
    assert fake.forbidden == []
    await fake.stop(bot)


async def test_without_send_messages_nothing_is_tried_there(fake, table, store, clock, players):
    """A channel the bot may not post in: a command there is refused privately, and the bot's
    mention answer is not even tried."""
    fake.set_bot_permissions(table, send=False)
    bot = await start_bot(fake, store, clock)
    rec = await fake.slash(players[0], table, "incan new", {})
    assert "I cannot post in this channel" in rec.replies[-1].render()
    await fake.say(players[0], table, f"<@{fake.bot_user.id}> hello?")
    assert fake.calls("POST", "/channels/{channel_id}/messages") == []
    assert fake.forbidden == []
    await fake.stop(bot)
