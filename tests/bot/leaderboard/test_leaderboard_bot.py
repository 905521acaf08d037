"""/leaderboard, /stats, /history and /game log through the real bot on the fake Discord (issue 7).

History is written through the Store API (as finished games write it), plus one real Incan Gold
game played through the buttons. Covers standings, ties, a player who left the server, AI
entries, paging (also after a restart), an empty server and a user who never played.
"""

from __future__ import annotations

import importlib
import re
from datetime import UTC, datetime, timedelta

import pytest
from incan_kit import act_id, buttons, config, lobby_id, moves_message, start_bot

from bot import Bot
from db import NewResult, NewSeat, Store
from engine.core import play
from engine.ratings import GameOutcome, recompute
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionRecord

NOW = datetime.fromtimestamp(1_800_000_000, UTC)  # the ManualClock's start


async def record(store: Store, guild: int, seats: list[tuple[NewSeat, int]], days_ago: float = 1.0,
                 game: str = "incan_gold", preset: str = "incan-gold") -> int:
    """Write one finished game as the session does (placements from scores; ties share)."""
    at = NOW - timedelta(days=days_ago)
    row = await store.create_game(game, guild_id=guild, channel_id=999, host_id=1, preset=preset)
    await store.start_game(row.id, [s for s, _ in seats], seed=5, started_at=at - timedelta(minutes=15))
    scores = [sc for _, sc in seats]
    await store.finish_game(row.id, [NewResult(i, sc, 1 + sum(o > sc for o in scores), sc == max(scores))
                                     for i, sc in enumerate(scores)], finished_at=at)
    await store.set_message(row.id, "summary", 999, 70_000 + row.id)
    return row.id


def reply(rec: InteractionRecord) -> FakeMessage:
    assert rec.acknowledged and rec.replies, rec
    return rec.replies[-1]


def embed_text(message: FakeMessage) -> str:
    return message.render()


async def test_empty_server_and_a_user_who_never_played(fake, table, store, clock):
    bot = await start_bot(fake, store, clock)
    ann = fake.user("Ann")
    board = reply(await fake.slash(ann, table, "leaderboard", {}))
    assert "Nobody qualifies yet" in board.render() and not board.ephemeral
    rated = reply(await fake.slash(ann, table, "leaderboard", {"game": "sakkara"}))
    assert "rating" in rated.render() and "Nobody qualifies yet" in rated.render()
    stats = reply(await fake.slash(ann, table, "stats", {}))
    assert "Ann has not finished a game on this server yet." in stats.render()
    history = reply(await fake.slash(ann, table, "history", {}))
    assert "Ann has no games on this server yet." in history.render()
    refused = reply(await fake.slash(ann, table, "leaderboard", {"by": "rating"}))  # rating needs a game
    assert refused.ephemeral and "choose a game" in refused.render()
    await fake.stop(bot)


async def test_standings_ties_ai_entries_and_a_player_who_left(fake, table, store, clock):
    ann, bo, cy = fake.user("Ann"), fake.user("Bo"), fake.user("Cy")
    gone = fake.user("Gus", in_guild=False)  # left the server since
    g = fake.guild_id
    easy, hard = NewSeat.ai("easy", "Easy bot 1"), NewSeat.ai("hard", "Hard bot 1")
    A, B, C, GUS = (NewSeat.human(u.id, u.name) for u in (ann, bo, cy, gone))
    await record(store, g, [(A, 20), (B, 10), (easy, 5)], days_ago=3)
    await record(store, g, [(B, 15), (A, 15), (hard, 30)], days_ago=2)  # Ann and Bo tie for second
    await record(store, g, [(C, 9), (GUS, 12), (easy, 1)], days_ago=60, preset="diamant")
    await record(store, g, [(GUS, 8), (A, 4)], days_ago=50)
    await record(store, g, [(A, 3), (B, 3)], days_ago=1, game="indus", preset="standard")  # a shared win
    bot = await start_bot(fake, store, clock)
    boards = bot.get_cog("Leaderboard").boards
    await fake.run(lambda: bot.get_cog("Leaderboard")._warm)  # the start-up warm-up folds the history
    assert await boards.rating_mark(g, "incan_gold") is not None and await boards.stale_ratings() == []

    wins = reply(await fake.slash(ann, table, "leaderboard", {"by": "wins"})).render()
    # Ann 2 wins (one shared), Gus 2, Bo 1 (shared), Cy 0: ties share a rank.
    assert re.search(r"\*\*1\.\*\* Ann — \*\*2 won\*\* · 4 played", wins), wins
    assert re.search(r"\*\*1\.\*\* Gus — \*\*2 won\*\*", wins), wins
    assert re.search(r"\*\*3\.\*\* Bo — \*\*1 won\*\*", wins) and "**4.** Cy" in wins
    assert "bot" not in wins  # AI levels are yardsticks in rating rankings, not people to count wins for
    recent = reply(await fake.slash(ann, table, "leaderboard", {"by": "games", "period": "30d"})).render()
    assert "Gus" not in recent and "Cy" not in recent and "**1.** Ann — **3 played**" in recent

    rating = reply(await fake.slash(ann, table, "leaderboard", {"game": "incan_gold"})).render()
    assert "🤖 Hard bot" in rating and "🤖 Easy bot" in rating and "Gus" in rating
    lines = [line for line in rating.splitlines() if line.startswith("| **")]
    assert "Gus" in lines[0]  # two wins in two games
    assert rating.index("Hard bot") < rating.index("Cy")
    # The cache is exactly a from-scratch recomputation of the stored results.
    stored = await boards.rated_games(g, "incan_gold", None, 100)
    truth = recompute([GameOutcome(x.game_id, x.seats) for x in stored])
    cached = {r.key: (r.mu, r.sigma, r.games) for r in await boards.load_ratings(g, "incan_gold")}
    assert cached == {k: (r.mu, r.sigma, r.games) for k, r in truth.book.items()}
    assert cached[(0, "easy")][2] == 2 and cached[(ann.id, "")][2] == 3

    stats = reply(await fake.slash(ann, table, "stats", {"user": gone})).render()
    assert "Stats — Gus" in stats and "Played **2** · won **2** (100%)" in stats
    mine = reply(await fake.slash(ann, table, "stats", {"game": "incan_gold"})).render()
    assert "Played **3** · won **1** (33%)" in mine and "average **13.0**, best **20**" in mine
    assert "Rating **" in mine and "Trend " in mine and "over the last 2 games" in mine
    assert "Incan Gold, incan-gold — played 3×" in mine
    assert "Easy: met in 1 — finished ahead 1×, behind 0×, level 0×" in mine
    assert "Hard: met in 1 — finished ahead 0×, behind 1×" in mine

    history = reply(await fake.slash(bo, table, "history", {})).render()
    assert history.index("Indus (standard)") < history.index("Incan Gold (incan-gold)")  # newest first
    assert "place 1 of 2, 3 points 🏆, 15 min" in history and "place 2 of 3, 15 points" in history
    links = re.findall(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)", history)
    assert len(links) == 3 and all(int(gid) == g and ch == "999" for gid, ch, _ in links)
    await fake.stop(bot)


async def test_paging_buttons_survive_a_restart(fake, table, store, clock):
    g = fake.guild_id
    ann = fake.user("Ann")
    for n in range(23):  # P<n> wins n of n + 1 games against a sparring partner (who wins 23)
        for k in range(n + 1):
            await record(store, g, [(NewSeat.human(5000 + n, f"P{n:02d}"), 1 if k < n else 0),
                                    (NewSeat.human(9999, "Spar"), 0 if k < n else 1)], days_ago=1 + k / 100)
    bot = await start_bot(fake, store, clock)
    first = reply(await fake.slash(ann, table, "leaderboard", {"by": "wins"}))
    assert "Page 1/3" in first.render() and "**1.** Spar" in first.render() and "**2.** P22" in first.render()
    ids = buttons(first, "lb:")
    assert len(ids) == 4 and ids[0].endswith(":0:f") and first.component(ids[0])["disabled"]
    await fake.click(ann, first, ids[2])  # next
    assert "Page 2/3" in first.render() and "**11.** P13" in first.render()
    # A new bot process: the page buttons still work (the query lives in the custom_id).
    again = Bot(store, config(), clock)
    await fake.restart(bot, again)
    await fake.click(ann, first, buttons(first, "lb:")[3])  # last
    page3 = first.render()
    assert "Page 3/3" in page3 and "**24.** P00 — **0 won** · 1 played" in page3 and "P04" not in page3
    assert first.component(buttons(first, "lb:")[3])["disabled"]
    await fake.stop(again)


async def play_incan(fake: FakeDiscord, bot: Bot, channel: FakeChannel, users: list[FakeUser]) -> int:
    host, *others = users
    await fake.slash(host, channel, "incan new", {})
    lobby = next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))
    for user in others:
        await fake.click(user, lobby, lobby_id(lobby, "join"))
    await fake.click(host, lobby, lobby_id(lobby, "ai-easy"))
    await fake.click(host, lobby, lobby_id(lobby, "start"))
    live = await bot.sessions.table_in(channel.id)
    by_id = {u.id: u for u in users}
    while live.status == "playing":
        for seat in live.humans_owing():
            user = by_id[live.seats[seat].user_id]
            public = moves_message(fake, channel.id)
            choice = "camp" if live.state.carried[seat] >= 6 else "torch"
            await fake.click(user, public, act_id(public, choice))
    return live.id


async def test_a_real_game_is_ranked_and_its_log_is_readable_only_when_over(fake, table, store, clock):
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {})
    running = (await bot.sessions.table_in(table.id)).id
    refused = reply(await fake.slash(bo, table, "game log", {"id": running}))
    assert refused.ephemeral and "not over yet" in refused.render()
    lobby = next(m for m in fake.channel_messages(table) if buttons(m, "lobby:"))
    await fake.click(ann, lobby, lobby_id(lobby, "cancel"))
    game_id = await play_incan(fake, bot, table, [ann, bo])
    results = await store.results(game_id)
    board = reply(await fake.slash(bo, table, "leaderboard", {"game": "incan_gold"})).render()
    assert "Ann" in board and "Bo" in board and "🤖 Easy bot" in board
    log = reply(await fake.slash(bo, table, "game log", {"id": game_id}))
    [sent] = log.files
    text = sent.data.decode()
    assert sent.filename == f"game-{game_id}.txt"
    assert "Expedition 1" in text and "Expedition 5" in text and "Choices: " in text
    assert "Easy bot 1 (bot, easy)" in text
    for r in results:
        assert re.search(rf"{r.placement}\. .*: {r.score}", text)
    history = reply(await fake.slash(ann, table, "history", {})).render()
    summary = next(m for m in fake.channel_messages(table) if buttons(m, "rematch:"))
    assert f"https://discord.com/channels/{fake.guild_id}/{table.id}/{summary.id}" in history
    # The lobby Ann opened and cancelled first never started: it is not history.
    assert "cancelled" not in history and f"#{game_id}`" in history
    missing = reply(await fake.slash(bo, table, "game log", {"id": 10_000}))
    assert missing.ephemeral and "no game #10000" in missing.render()
    elsewhere = await record(store, fake.guild_id + 1, [(NewSeat.human(ann.id, "Ann"), 3), (NewSeat.human(2, "X"), 1)])
    hidden = reply(await fake.slash(ann, table, "game log", {"id": elsewhere}))  # another server's game
    assert hidden.ephemeral and f"no game #{elsewhere}" in hidden.render() and not hidden.files
    await fake.stop(bot)


@pytest.mark.parametrize("name", ["indus", "sakkara"])
async def test_game_log_of_the_other_games_lists_every_action_by_seat(fake, table, store, clock, name):
    engine = importlib.import_module(f"engine.{name}").GAME
    ann, bo = fake.user("Ann"), fake.user("Bo")
    run = play(engine, [lambda view, legal, rng: rng.choice(legal)] * 2, seed=11)
    row = await store.create_game(name, guild_id=fake.guild_id, channel_id=table.id, host_id=ann.id)
    await store.start_game(row.id, [NewSeat.human(ann.id, "Ann"), NewSeat.human(bo.id, "Bo")], seed=11)
    await store.append_actions(row.id, 0, run.log)
    scores = engine.result(run.state)["scores"]
    await store.finish_game(row.id, [NewResult(i, sc, 1 + sum(o > sc for o in scores), sc == max(scores))
                                     for i, sc in enumerate(scores)])
    bot = await start_bot(fake, store, clock)
    sent = reply(await fake.slash(bo, table, "game log", {"id": row.id}))
    text = sent.files[0].data.decode()
    body = [line for line in text.splitlines() if re.match(r"\s*\d+  (Ann|Bo|chance): ", line)]
    assert len(body) == len(run.log) and f"Game #{row.id}: {name.capitalize()}" in text
    assert re.search(rf"1\. (Ann|Bo): {max(scores)}", text)
    await fake.stop(bot)


async def test_an_abandoned_game_whose_log_no_longer_replays_is_listed_raw(fake, table, store, clock):
    ann = fake.user("Ann")
    row = await store.create_game("incan_gold", guild_id=fake.guild_id, channel_id=table.id, host_id=ann.id)
    await store.start_game(row.id, [NewSeat.human(ann.id, "Ann"), NewSeat.ai("easy", "Easy bot 1")], seed=3)
    await store.append_actions(row.id, 0, [(-1, "T5"), (0, "jump")])  # "jump" is no Incan Gold move
    await store.cancel_game(row.id, "abandoned")
    bot = await start_bot(fake, store, clock)
    sent = reply(await fake.slash(ann, table, "game log", {"id": row.id}))
    text = sent.files[0].data.decode()
    assert "Status: abandoned" in text and '    0  chance: "T5"' in text and '    1  Ann: "jump"' in text
    assert "Result:" not in text  # an abandoned game has no result
    await fake.stop(bot)
