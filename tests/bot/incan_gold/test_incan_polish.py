"""Incan Gold as new players found it (issue 43): a word for the last chooser, one private panel per
player, repeated clicks, a lone explorer's texts (the count of choices: test_incan_waiting.py)."""

from __future__ import annotations

from incan_kit import act_id, buttons, start_bot
from table_kit import incan_table

from engine.session import Table
from fakediscord import FakeDiscord, FakeMessage, FakeUser


def private(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """What only this user saw of the game (their private answers; not the host's "table open")."""
    return [m for m in fake.ephemeral_replies(user) if "Your table is open" not in m.render()]


def expedition(fake: FakeDiscord, table: Table) -> FakeMessage:
    """The current expedition's public message (the one with My status)."""
    return [m for m in fake.channel_messages(table.channel_id) if buttons(m, "peek:")][-1]


async def test_the_last_chooser_hears_what_they_chose_and_banked(fake, table, store, clock):
    """The press that completes a decision is answered by the reveal on the board; its presser still
    gets their private word (issue 43: a camper who chose last never saw what they banked)."""
    ann, bo, cy = users = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    for user in (ann, bo):
        await fake.click(user, public, act_id(public, "torch"))
    window = game.window
    rec = await fake.click(cy, public, act_id(public, "camp"))  # Cy has no private panel yet
    assert game.window != window and rec.callbacks == [7]  # the reveal answered the press, on the board
    (word,) = private(fake, cy)  # then one private message follows it
    assert "You chose **⛺ Camp (leave)**." in word.render() and "your tent now holds" in word.render()
    # Ann's panel is redrawn when she chooses last on a later card: no second private message.
    for user in (bo, cy):
        if game.seat_of(user.id) in game.humans_owing():
            await fake.click(user, public, act_id(public, "torch"))
    await fake.click(ann, public, act_id(public, "torch"))
    assert len(private(fake, ann)) == 1
    assert "You chose **🔦 Torch (stay)**." in private(fake, ann)[0].render()
    await fake.stop(bot)


async def test_one_private_panel_per_player_and_a_repeated_press_says_what_was_chosen(fake, table, store, clock):
    ann, bo, cy = users = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    expedition_round = game.state.round
    cards = 0
    while game.status == "playing" and game.state.round == expedition_round and cards < 4:
        cards += 1
        for user in (ann, bo, cy):
            if game.seat_of(user.id) in game.humans_owing():
                await fake.click(user, public, act_id(public, "torch"))
                if user is ann:  # she presses again, unsure it worked
                    window = game.window
                    rec = await fake.click(ann, public, act_id(public, "camp"))
                    assert game.window == window and rec.replies == []  # her panel says it
                    assert "You already chose **🔦 Torch (stay)** for this card." in \
                        private(fake, ann)[0].render()
    assert cards >= 2
    for user in users:  # every press of the expedition went to one private panel a player
        assert len(private(fake, user)) <= 1
    assert len(private(fake, ann)) == 1
    await fake.stop(bot)


async def test_a_private_text_names_the_button_in_the_words_its_reader_pressed(fake, table, store, clock):
    """On a Finnish server the board's buttons are Finnish: a Swedish player pressing "Etene" is told
    she chose "🔦 Etene", not a Swedish word she never saw; the buttons carry pictures."""
    fake.guild_locale = "fi"
    sven = fake.user("Sven", locale="sv-SE")
    users = [fake.user("Aino", locale="fi"), sven, fake.user("Cy")]
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    emoji = {c.get("label"): (c.get("emoji") or {}).get("name") for row in public.data["components"]
             for c in row["components"]}
    assert emoji["Etene (jatka syvemmälle)"] == "🔦" and emoji["Palaa (leiriin)"] == "⛺"
    await fake.click(sven, public, act_id(public, "torch"))
    (panel,) = private(fake, sven)
    assert "Du valde **🔦 Etene (jatka syvemmälle)**" in panel.render()
    assert game.status == "playing"
    await fake.stop(bot)
