"""Which language, where: public messages in the server's language, private ones in the player's.

Games are played through the real discord.py client and the fake Discord. A server whose
preferred locale is Finnish gets every public message in Finnish; a player whose Discord is in
Swedish gets their replies, DM prompts and reminders in Swedish (and the pictures drawn for
them), an English player in English. No message of any language breaks Discord's limits.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from incan_kit import act_id, buttons, lobby_id, moves_message, start_bot
from lang_kit import foreign, over_limits

import i18n
from bot import Bot
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser


def lobby_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


async def open_table(fake: FakeDiscord, bot: Bot, channel: FakeChannel, game: str, humans: list[FakeUser],
                     bots: tuple[str, ...] = ()) -> Table:
    await fake.slash(humans[0], channel, f"{game} new", {})
    return await open_table_rest(fake, bot, channel, humans[1:], bots)


async def play_incan(fake: FakeDiscord, table: Table, users: list[FakeUser]) -> None:
    """Every human decides on the expedition's message: camp with 8 gems or more, else torch."""
    by_id = {u.id: u for u in users}
    while table.status == "playing":
        owing = [(seat, by_id[table.seats[seat].user_id]) for seat in table.humans_owing()]
        turn = table.window % len(owing)  # who presses last (and sees the reveal instead of a reply) rotates
        for seat, user in owing[turn:] + owing[:turn]:
            prompt = moves_message(fake, table.channel_id)
            await fake.click(user, prompt, act_id(prompt, "camp" if table.state.carried[seat] >= 8 else "torch"))


async def time_out(fake: FakeDiscord, clock: Any, table: Table, turns: int) -> None:
    """Let the humans' turns run out (the Easy bot plays them) ``turns`` times, or to the end."""
    for _ in range(turns):
        if table.status != "playing":
            return
        await fake.run(clock.advance, 121)


@pytest.fixture
def record(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every message id drawn, with the language it was drawn in."""
    drawn: list[tuple[str, str]] = []
    original = i18n._render

    def spy(key: str, language: str, count: int | None, values: dict[str, Any]) -> str:
        drawn.append((key, language))
        return original(key, language, count, values)

    monkeypatch.setattr(i18n, "_render", spy)
    return drawn


async def test_finnish_server_swedish_player_incan_gold(fake, table, store, clock):
    fake.guild_locale = "fi"
    aino, sven, cy = fake.user("Aino", locale="fi"), fake.user("Sven", locale="sv-SE"), fake.user("Cy")
    bot = await start_bot(fake, store, clock)
    opened = await fake.slash(aino, table, "incan new", {})
    assert "Pöytäsi on auki" in opened.replies[-1].render()
    game = await open_table_rest(fake, bot, table, [sven, cy], ("medium",))
    again = await fake.slash(sven, table, "incan join", {})
    assert "Spelet har redan börjat." in again.replies[-1].render()  # a refusal, in her language
    await play_incan(fake, game, [aino, sven, cy])

    public = "\n".join(fake.public_texts())
    assert "Incan Gold — tutkimusmatka 1/5" in public and "Incan Gold — lopputulokset" in public
    assert "Paina **Liity** istuaksesi pöytään" in public
    assert "Voittaja" in public or "Jaettu voitto" in public
    assert foreign(public, "fi") == []

    assert "Etene (jatka syvemmälle)" in public  # Torch / Camp on the public message: the server's language
    # Each press is confirmed privately, in the presser's language.
    # (every version of each reply: a camper's reply is redrawn later with what they banked)
    swedish = "\n".join(text for m in fake.ephemeral_replies(sven) for text in m.all_texts())
    assert "Incan Gold i" in swedish and re.search(r"tempel \d, kort \d", swedish)
    # A choice is named in the words on the button she pressed: the board's, in Finnish.
    assert re.search(r"Du valde \*\*(🔦 Etene \(jatka syvemmälle\)|⛺ Palaa \(leiriin\))", swedish)
    pressed = re.sub(r"🔦 Etene \(jatka syvemmälle\)|⛺ Palaa \(leiriin\)", "", swedish)
    assert foreign(pressed, "sv") == []
    english = "\n".join(text for m in fake.ephemeral_replies(cy) for text in m.all_texts())
    assert "You chose **🔦 Etene" in english
    assert foreign(re.sub(r"🔦 Etene \(jatka syvemmälle\)|⛺ Palaa \(leiriin\)", "", english), "en") == []
    finnish = "\n".join(text for m in fake.ephemeral_replies(aino) for text in m.all_texts())
    assert "Etene (jatka syvemmälle)" in finnish and foreign(finnish, "fi") == []
    await fake.stop(bot)


async def open_table_rest(fake: FakeDiscord, bot: Bot, channel: FakeChannel, others: list[FakeUser],
                          bots: tuple[str, ...]) -> Table:
    """The lobby the host opened: the others join, bots sit down, the host starts."""
    lobby = lobby_message(fake, channel)
    table = await bot.sessions.table_in(channel.id)
    host = next(u for u in fake.users.values() if u.id == table.host_id)
    clicks = [(user, "join") for user in others] + [(host, f"ai-{level}") for level in bots] + [(host, "start")]
    for user, op in clicks:
        await fake.click(user, lobby, lobby_id(lobby, op))
    return table


async def test_sakkara_pictures_follow_their_reader(fake, table, store, clock, record):
    """The public board picture is drawn in the server's language, the Swedish player's rack
    picture and prompt in Swedish; a reminder reaches her in Swedish too."""
    fake.guild_locale = "fi"
    sven = fake.user("Sven", locale="sv-SE")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, "sakkara", [sven], ("medium",))
    await fake.run(clock.advance, 95)  # the reminder
    await time_out(fake, clock, game, 6)
    languages: dict[str, set[str]] = {}
    for key, language in record:
        languages.setdefault(key, set()).add(language)
    assert languages["boards.sakkara.your_rack"] == {"sv"}  # her private picture
    assert languages["sakkara.you_title"] == {"sv"}
    assert "fi" in languages["sakkara.title"] or "fi" in languages["sakkara.title_place"]
    # the status line is on the public board in the channel and on the board in her DM
    statuses = {f"boards.sakkara.{phase}" for phase in ("deal", "place", "before", "after", "steal", "discard",
                                                         "return")}
    assert set().union(*(languages.get(key, set()) for key in statuses)) == {"fi", "sv"}
    assert languages["play.reminder_bot"] == {"sv"}
    assert languages["play.timed_out"] == {"fi"}
    public = "\n".join(fake.public_texts())
    assert "Sakkara — " in public and foreign(public, "fi") == []
    private = "\n".join(t for m in fake.dm_messages(sven) for t in m.all_texts())
    assert "ditt beslut ska fattas" in private and foreign(private, "sv") == []
    await fake.stop(bot)


async def test_italian_server_finnish_player_indus(fake, table, store, clock, monkeypatch):
    # The game runs to its summary on timeouts alone; a table whose people are all away would be
    # abandoned first (engine.session.options.AWAY_DECISIONS), which is not what is read here.
    monkeypatch.setattr("engine.session.timer_work.AWAY_DECISIONS", 10**6)
    fake.guild_locale = "it"
    lia, aino = fake.user("Lia", locale="it"), fake.user("Aino", locale="fi")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, "indus", [lia, aino], ("easy",))
    await time_out(fake, clock, game, 400)
    assert game.status == "finished"
    public = "\n".join(fake.public_texts())
    assert "Indus — punteggio finale" in public and "Rovina per rovina" in public
    assert foreign(public, "it") == []
    nudges = "\n".join(t for m in fake.dm_messages(aino) for t in m.all_texts())
    assert "Sinun vuorosi Indusissa" in nudges and foreign(nudges, "fi") == []
    await fake.stop(bot)


async def test_a_server_language_is_the_interactions_guild_locale_when_the_guild_is_not_cached(fake, table, store,
                                                                                               clock):
    """Discord sends the server's preferred locale with every interaction; that is enough."""
    sven = fake.user("Sven", locale="sv-SE")
    bot = await start_bot(fake, store, clock)
    fake.guild_locale = "sv-SE"  # changed after start-up: only the interactions carry it
    await fake.slash(sven, table, "incan new", {})
    lobby = lobby_message(fake, table)
    assert lobby.embeds[0]["title"] == "Incan Gold — bordet är öppet"
    await fake.stop(bot)


async def test_unknown_and_missing_locales_read_english(fake, table, store, clock, caplog):
    fake.guild_locale = "pl"
    jan = fake.user("Jan", locale="pl")
    bot = await start_bot(fake, store, clock)
    rec = await fake.slash(jan, table, "incan new", {})
    assert "Your table is open" in rec.replies[-1].render()
    assert lobby_message(fake, table).embeds[0]["title"] == "Incan Gold — table open"
    assert not [r for r in caplog.records if r.levelname in ("WARNING", "ERROR") and "i18n" in r.name]
    await fake.stop(bot)


@pytest.mark.parametrize("language", ["en", "fi", "sv", "it"])
async def test_no_message_in_any_language_breaks_discords_limits(fake, table, store, clock, language):
    locale = {"sv": "sv-SE"}.get(language, language)
    fake.guild_locale = locale
    users = [fake.user(name, locale=locale) for name in ("Ann", "Bo", "Cy")]
    bot = await start_bot(fake, store, clock)
    for game in ("incan", "sakkara", "indus"):
        await fake.slash(users[0], table, f"{game} rules", {})
    incan = await open_table(fake, bot, table, "incan", users, ("medium", "easy"))
    await play_incan(fake, incan, users)
    await fake.slash(users[0], table, "leaderboard", {})
    await fake.slash(users[0], table, "leaderboard", {"game": "incan_gold", "by": "rating"})
    await fake.slash(users[0], table, "stats", {})
    await fake.slash(users[0], table, "history", {})
    await fake.slash(users[0], table, "game log", {"id": incan.id})
    sakkara = await open_table(fake, bot, fake.text_channel("sakkara"), "sakkara", users[:1], ("medium",))
    await time_out(fake, clock, sakkara, 12)
    indus = await open_table(fake, bot, fake.text_channel("indus"), "indus", users[:2], ("medium", "easy"))
    await time_out(fake, clock, indus, 12)
    broken = {m.id: over_limits(m) for m in fake.messages.values() if over_limits(m)}
    assert broken == {}
    texts = [t for m in fake.messages.values() for t in m.all_texts()]
    assert foreign("\n".join(texts), language) == []
    await fake.stop(bot)


async def test_a_bot_seat_is_named_in_the_servers_language_whoever_adds_it(fake, table, store, clock):
    fake.guild_locale = "fi"
    sven = fake.user("Sven", locale="sv-SE")
    bot = await start_bot(fake, store, clock)
    rec = await fake.slash(sven, table, "incan new", {})
    assert "Ditt bord är öppet" in rec.replies[-1].render()  # his own answer: Swedish
    lobby = lobby_message(fake, table)
    await fake.click(sven, lobby, lobby_id(lobby, "ai-medium"))
    game = await bot.sessions.table_in(table.id)
    assert [s.display_name for s in game.seats] == ["Sven", "Botti 1 (Keskitaso)"]
    assert "Botti 1 (Keskitaso)" in lobby_message(fake, table).text
    await fake.stop(bot)


async def test_after_a_restart_a_dm_without_a_click_is_in_the_players_last_language(fake, table, store, clock):
    """The reminder is a DM nobody's click asked for: after a restart the bot still knows, from
    the store, that Sven last used Swedish on this server (the server itself is Finnish)."""
    fake.guild_locale = "fi"
    aino, sven = fake.user("Aino", locale="fi"), fake.user("Sven", locale="sv-SE")
    bot = await start_bot(fake, store, clock)
    await open_table(fake, bot, table, "incan", [aino, sven], ("easy",))
    await fake.stop(bot)
    assert await store.player_locales(fake.guild_id, [aino.id, sven.id]) == {aino.id: "fi", sven.id: "sv-SE"}

    bot2 = await start_bot(fake, store, clock)
    before = len(fake.dm_messages(sven))
    await fake.run(clock.advance, 95)
    reminders = [m.text for m in fake.dm_messages(sven)[before:]]
    assert any("kortet stängs" in text for text in reminders), reminders
    await fake.stop(bot2)


@pytest.mark.parametrize(("language", "levels"), [("en", ("Easy", "Medium", "Hard")),
                                                  ("fi", ("Helppo", "Keskitaso", "Vaikea"))])
async def test_every_games_rules_describe_the_three_bot_levels_in_the_readers_language(
        fake, table, store, clock, language, levels):
    reader = fake.user("Ann", locale=language)
    bot = await start_bot(fake, store, clock)
    for game in ("incan", "sakkara", "indus"):
        rec = await fake.slash(reader, table, f"{game} rules", {})
        last = rec.replies[-1].embeds[-1]
        assert last["title"] == {"en": "Bots", "fi": "Botit"}[language]
        assert [name for name in levels if f"**{name}**" in last["description"]] == list(levels)
    await fake.stop(bot)
