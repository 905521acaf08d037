"""Seasons through the real bot on the fake Discord (issue 44, item 2): at a quarter's boundary the
session clock's rollover freezes the ended season and posts each game's top three once to the
channel chosen in /settings, also when the bot restarts exactly at the boundary; /leaderboard
season: shows a season's table (the frozen one once it is over); /stats shows titles."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from incan_kit import buttons, config, start_bot
from test_leaderboard_bot import NOW, record, reply

from bot import Bot
from db import NewSeat, Unavailable
from engine.seasons import bounds, previous
from fakediscord import FakeChannel, FakeDiscord, FakeUser

# The ManualClock starts on 2027-01-15 (season 2027-Q1); the next season starts on 2027-04-01.
BOUNDARY = bounds("2027-Q1")[1] / 1000
assert datetime.fromtimestamp(BOUNDARY, UTC) == datetime(2027, 4, 1, tzinfo=UTC)


async def q1_games(fake: FakeDiscord, store) -> tuple[FakeUser, ...]:
    """Ann wins three games of Incan Gold in 2027-Q1 against Bo and a bot; Cy plays one Indus game."""
    ann, bo, cy = (fake.user(n) for n in ("Ann", "Bo", "Cy"))
    A, B, C = (NewSeat.human(u.id, u.name) for u in (ann, bo, cy))
    for n in range(3):
        await record(store, fake.guild_id, [(A, 20), (B, 10), (NewSeat.ai("easy", "Easy bot 1"), 5)], days_ago=1 + n)
    await record(store, fake.guild_id, [(C, 7), (A, 3)], days_ago=2, game="indus", preset="standard")
    return ann, bo, cy


def posts(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    return [m.render() for m in fake.channel_messages(channel) if "is over" in m.render()]


async def test_the_rollover_posts_the_champions_once_and_freezes_the_season(fake, table, store, clock):
    boss = fake.user("Boss", manage_guild=True)
    news = fake.text_channel("news")
    ann, bo, _ = await q1_games(fake, store)
    bot = await start_bot(fake, store, clock)
    await fake.run(lambda: bot.get_cog("Leaderboard").rollover._task)
    answer = reply(await fake.slash(boss, table, "settings season_channel", {}))
    assert "announced in: nowhere" in answer.render() and answer.ephemeral  # none by default
    done = reply(await fake.slash(boss, table, "settings season_channel", {"channel": news})).render()
    assert f"Done: a season's champions are announced in: <#{news.id}>" in done
    assert f"in: <#{news.id}>" in reply(await fake.slash(boss, table, "settings season_channel", {})).render()

    live = reply(await fake.slash(boss, table, "leaderboard", {"game": "incan_gold", "season": "current"})).render()
    assert "season 2027-Q1" in live and "**1.** Ann" in live and "**2.** Bo" in live and "Easy" not in live
    assert posts(fake, news) == []
    await fake.run(clock.advance, BOUNDARY - 1 - clock.now())
    assert posts(fake, news) == []  # a second before the boundary: nothing yet
    await fake.run(clock.advance, 1)
    [post] = posts(fake, news)
    assert "Season 2027-Q1 is over" in post and "🥇 Ann" in post and "🥈 Bo" in post and "🥇 Cy" in post
    assert posts(fake, table) == []

    # A game back-dated into the ended season changes its counts but not its frozen ratings.
    await record(store, fake.guild_id, [(NewSeat.human(bo.id, "Bo"), 30), (NewSeat.human(ann.id, "Ann"), 0)],
                 days_ago=0)
    frozen = reply(await fake.slash(boss, table, "leaderboard", {"game": "incan_gold", "season": "2027-Q1"})).render()
    assert "**1.** Ann" in frozen and "**2.** Bo" in frozen and "final" in frozen
    current = reply(await fake.slash(boss, table, "leaderboard", {"game": "incan_gold", "season": "current"})).render()
    assert "season 2027-Q2" in current and "Nobody qualifies yet" in current

    # Days later and after a restart: still the one post.
    await fake.run(clock.advance, 3 * 86_400)
    again = Bot(store, config(), clock)
    await fake.restart(bot, again)
    await fake.run(lambda: again.get_cog("Leaderboard").rollover._task)
    assert len(posts(fake, news)) == 1
    stats = reply(await fake.slash(ann, table, "stats", {"user": ann})).render()
    assert "Seasons" in stats and "🏆 1 title: Incan Gold 2027-Q1" in stats and "2027-Q1 · Indus: #2" in stats
    await fake.stop(again)


@pytest.mark.parametrize("fired_before_the_stop", [False, True])
async def test_a_restart_exactly_at_the_boundary_posts_once(fake, table, store, clock, fired_before_the_stop):
    boss = fake.user("Boss", manage_guild=True)
    news = fake.text_channel("news")
    await q1_games(fake, store)
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings season_channel", {"channel": news})
    # The old process stops at the boundary: its timer fired first, or it stopped a moment before.
    await fake.run(clock.advance, BOUNDARY - clock.now() - (0 if fired_before_the_stop else 0.001))
    assert len(posts(fake, news)) == (1 if fired_before_the_stop else 0)
    await fake.stop(bot)
    await clock.advance(BOUNDARY - clock.now())  # nobody runs: the stopped bot's timer was cancelled
    assert clock.now() == BOUNDARY and clock.pending() == []
    assert len(posts(fake, news)) == (1 if fired_before_the_stop else 0)
    again = Bot(store, config(), clock)
    await fake.start(again)
    await fake.run(lambda: again.get_cog("Leaderboard").rollover._task)
    assert len(posts(fake, news)) == 1
    await fake.run(clock.advance, 60)
    third = Bot(store, config(), clock)
    await fake.restart(again, third)
    await fake.run(lambda: third.get_cog("Leaderboard").rollover._task)
    assert len(posts(fake, news)) == 1 and clock.pending()
    await fake.stop(third)


async def test_only_managers_choose_the_channel_and_off_announces_nowhere(fake, table, store, clock):
    boss, ann = fake.user("Boss", manage_guild=True), fake.user("Ann")
    news = fake.text_channel("news")
    await q1_games(fake, store)
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings season_channel", {"channel": news})
    # Discord hides /settings from members who cannot manage the server; a crafted call is refused.
    refused = await fake.craft_slash(ann, table, "settings season_channel", {"off": True})
    assert "manage the server" in refused.replies[-1].render()
    assert f"<#{news.id}>" in reply(await fake.slash(boss, table, "settings season_channel", {})).render()
    off = reply(await fake.slash(boss, table, "settings season_channel", {"off": True})).render()
    assert "announced in: nowhere" in off
    await fake.run(clock.advance, BOUNDARY - clock.now())
    assert posts(fake, news) == []  # frozen and remembered, posted nowhere
    stats = reply(await fake.slash(boss, table, "leaderboard", {"game": "incan_gold", "season": "2027-Q1"})).render()
    assert "**1.** Ann" in stats
    await fake.stop(bot)


async def test_a_malformed_or_future_season_is_refused_privately(fake, table, store, clock):
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    bad = reply(await fake.slash(ann, table, "leaderboard", {"season": "spring"}))
    assert bad.ephemeral and "is not a season" in bad.render()
    future = reply(await fake.slash(ann, table, "leaderboard", {"season": "2027-Q3"}))
    assert future.ephemeral and "has not started yet" in future.render()
    await fake.stop(bot)


async def test_a_season_boards_page_buttons_keep_the_season(fake, table, store, clock):
    ann = fake.user("Ann")
    for n in range(12):  # P<n> beats the sparring partner once, in this season; P00 also before it
        await record(store, fake.guild_id, [(NewSeat.human(5000 + n, f"P{n:02d}"), 1 + n),
                                            (NewSeat.human(9999, "Spar"), 0)], days_ago=1 + n / 100)
    await record(store, fake.guild_id, [(NewSeat.human(5000, "P00"), 9), (NewSeat.human(9999, "Spar"), 0)],
                 days_ago=40)  # 2026-Q4: not this season's
    bot = await start_bot(fake, store, clock)
    first = reply(await fake.slash(ann, table, "leaderboard", {"game": "incan_gold", "season": "current"}))
    assert "Page 1/2" in first.render() and "season 2027-Q1" in first.render()
    ids = buttons(first, "lb:")
    assert ids[2] == "lb:incan_gold:rating:2027-Q1:1:n"
    await fake.click(ann, first, ids[2])
    assert "Page 2/2" in first.render() and "season 2027-Q1" in first.render()
    wins = reply(await fake.slash(ann, table, "leaderboard", {"by": "wins", "season": "2026-Q4"})).render()
    assert "**1.** P00 — **1 won** · 1 played" in wins and "**2.** Spar" in wins and "P01" not in wins
    await fake.stop(bot)


def days_into(season: str) -> float:
    """``record``'s days_ago for a game finished in the middle of ``season``."""
    start, end = bounds(season)
    return (NOW.timestamp() - (start + end) / 2000) / 86_400


async def test_the_season_option_offers_the_servers_seasons_with_games_newest_first(fake, table, store, clock):
    ann, aino = fake.user("Ann"), fake.user("Aino", locale="fi")
    A, B = NewSeat.human(ann.id, "Ann"), NewSeat.human(aino.id, "Aino")
    for season in ("2026-Q4", "2026-Q2"):  # 2026-Q3 has no game here
        await record(store, fake.guild_id, [(A, 9), (B, 3)], days_ago=days_into(season))
    await record(store, fake.guild_id, [(A, 2), (B, 5)], days_ago=days_into("2025-Q4"), game="indus", preset="standard")
    await record(store, fake.guild_id + 1, [(A, 9), (B, 3)], days_ago=days_into("2026-Q3"))  # another server's
    bot = await start_bot(fake, store, clock)

    async def offered(user: FakeUser, typed: str) -> list[tuple[str, str]]:
        choices = await fake.autocomplete(user, table, "leaderboard", {"season": typed}, focused="season")
        return [(c["name"], c["value"]) for c in choices]

    # The current season (2027-Q1) first, even before its first game; the past ones with games after it.
    assert await offered(ann, "") == [("2027-Q1 (current)", "2027-Q1"), ("2026-Q4", "2026-Q4"),
                                      ("2026-Q2", "2026-Q2"), ("2025-Q4", "2025-Q4")]
    assert await offered(ann, "2026") == [("2026-Q4", "2026-Q4"), ("2026-Q2", "2026-Q2")]
    assert await offered(ann, " q4") == [("2026-Q4", "2026-Q4"), ("2025-Q4", "2025-Q4")]
    assert await offered(ann, "2026 q2") == [("2026-Q2", "2026-Q2")]
    assert await offered(ann, "cur") == [("2027-Q1 (current)", "2027-Q1")]
    assert await offered(ann, "2026-Q3") == []
    assert (await offered(aino, ""))[0] == ("2027-Q1 (nykyinen)", "2027-Q1")  # in the typer's language
    assert await offered(aino, "nyky") == await offered(aino, "current") == [("2027-Q1 (nykyinen)", "2027-Q1")]
    # A choice sends its name, as typing it would; a name typed anyway is still checked.
    picked = reply(await fake.slash(ann, table, "leaderboard", {"season": "2026-Q4"})).render()
    assert "season 2026-Q4" in picked and "**1.** Ann" in picked
    bad = reply(await fake.slash(ann, table, "leaderboard", {"season": "2026-Q7"}))
    assert bad.ephemeral and "is not a season" in bad.render()
    # The store out of reach: the current season is still offered (it needs no store).
    boards = bot.get_cog("Leaderboard").boards

    async def unreachable(*args: object) -> None:
        raise Unavailable("down")

    boards.newest_finish = unreachable
    assert await offered(ann, "") == [("2027-Q1 (current)", "2027-Q1")]
    await fake.stop(bot)


async def test_the_season_choices_stop_at_discords_25(fake, table, store, clock):
    ann = fake.user("Ann")
    past = []
    season = "2027-Q1"
    for _ in range(30):
        season = previous(season)
        past.append(season)
        await record(store, fake.guild_id, [(NewSeat.human(ann.id, "Ann"), 1), (NewSeat.human(2, "Bo"), 0)],
                     days_ago=days_into(season))
    bot = await start_bot(fake, store, clock)
    choices = await fake.autocomplete(ann, table, "leaderboard", {"season": ""}, focused="season")
    assert [c["value"] for c in choices] == ["2027-Q1", *past[:24]]
    # what is typed filters the whole history, not only the newest 25 seasons
    older = await fake.autocomplete(ann, table, "leaderboard", {"season": "2020"}, focused="season")
    assert [c["value"] for c in older] == ["2020-Q4", "2020-Q3", "2020-Q2", "2020-Q1"]
    assert not set(past[:24]) & {c["value"] for c in older}
    await fake.stop(bot)


async def test_an_autocomplete_request_no_option_asks_for_is_answered_with_nothing(fake, table, store, clock):
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    # "game" offers fixed choices, not autocomplete: only a modified client asks
    rec = await fake.craft_slash(ann, table, "leaderboard", {"game": "ind"}, focused="game")
    assert rec.ack_type == 8 and rec.autocomplete_choices == [] and not rec.replies
    # a guild-only command's choices from a DM
    rec = await fake.craft_slash(ann, fake.dm_channel(ann), "leaderboard", {"season": ""}, focused="season")
    assert rec.ack_type == 8 and rec.autocomplete_choices == [] and not rec.replies
    await fake.stop(bot)
