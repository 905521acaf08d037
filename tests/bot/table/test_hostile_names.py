"""Names that try to break lines: a right-to-left override, an invisible nickname, markdown in a name.

Every name a message shows goes through one function (``cogs.table.messages.text.player_name``):
what steers or hides text never reaches Discord, an invisible display name falls back to the
username, a right-to-left name is isolated, and markdown is escaped exactly once (the leaderboard
included)."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime, timedelta

from incan_kit import buttons, lobby_id, start_bot

from db import NewResult, NewSeat, Store
from fakediscord import FakeChannel, FakeDiscord, FakeMessage

FSI, PDI = "\u2068", "\u2069"


def lobby_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


def everything_sent(fake: FakeDiscord) -> str:
    """Every version of every message the bot sent or edited, as text."""
    return "\n".join(text for m in fake.messages.values() for text in m.all_texts())


async def test_no_name_steers_or_hides_text_and_an_invisible_one_falls_back_to_the_username(
        fake, table, store, clock):
    bot = await start_bot(fake, store, clock)
    host = fake.user("al\u202eice")  # "alice" with a right-to-left override in it
    ghost = fake.user("\u200b\u200d", username="ghost")  # an invisible display name
    arabic = fake.user("سلمى")
    await fake.slash(host, table, "incan new", {})
    lobby = lobby_message(fake, table)
    for user in (ghost, arabic):
        await fake.click(user, lobby, lobby_id(lobby, "join"))
    await fake.click(host, lobby, lobby_id(lobby, "start"))

    sent = everything_sent(fake)
    steering = {ch for ch in sent if unicodedata.category(ch) == "Cf"} - {FSI, PDI, "\u200d", "\ufe0f"}
    assert steering == set()
    seated = [s.display_name for s in (await bot.sessions.table_in(table.id)).seats]
    assert sorted(seated) == sorted(["alice", "ghost", "سلمى"])  # seats are drawn at the start
    assert "alice" in sent and "ghost" in sent
    assert f"{FSI}سلمى{PDI}" in sent and "سلمى" not in sent.replace(f"{FSI}سلمى{PDI}", "")
    await fake.stop(bot)


async def test_a_stored_name_with_nothing_visible_is_shown_as_such(fake, table, store, clock):
    from cogs.table.messages.text import player_name

    assert player_name("\u200b") == "(no visible name)"
    assert player_name("\u200b", "ghost") == "ghost"
    assert player_name("snake_case_sam") == "snake\\_case\\_sam"


async def record(store: Store, guild: int, seats: list[tuple[NewSeat, int]]) -> None:
    at = datetime.fromtimestamp(1_800_000_000, UTC) - timedelta(days=1)
    row = await store.create_game("incan_gold", guild_id=guild, channel_id=999, host_id=1, preset="incan-gold")
    await store.start_game(row.id, [s for s, _ in seats], seed=5, started_at=at - timedelta(minutes=15))
    scores = [sc for _, sc in seats]
    await store.finish_game(row.id, [NewResult(i, sc, 1 + sum(o > sc for o in scores), sc == max(scores))
                                     for i, sc in enumerate(scores)], finished_at=at)


async def test_the_leaderboard_escapes_a_name_exactly_once(fake, table, store, clock):
    sam, bo = fake.user("snake_case_sam"), fake.user("Bo")
    await record(store, fake.guild_id, [(NewSeat.human(sam.id, sam.name), 20), (NewSeat.human(bo.id, "b\u202eo"), 5)])
    bot = await start_bot(fake, store, clock)
    rec = await fake.slash(bo, table, "leaderboard", {"by": "wins"})
    shown = rec.replies[-1].render()
    assert "**1.** snake\\_case\\_sam — " in shown and "\\\\" not in shown
    assert "**2.** bo — " in shown and "\u202e" not in shown
    stats = (await fake.slash(bo, table, "stats", {"user": sam})).replies[-1].render()
    assert "Stats — snake\\_case\\_sam" in stats and "\\\\" not in stats
    await fake.stop(bot)
