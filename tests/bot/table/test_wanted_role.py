"""The role a new table pings (issue 44): ``/settings wanted_role`` lets a server's managers give the
bot a role (a game-night role members give themselves); the players-wanted message of a new table
names it once, beside the members who asked (``/notify new_tables:on``), and lets Discord notify
exactly that role and those members. Never @everyone, nor a role Discord manages; a role deleted
since is not named."""

from __future__ import annotations

from incan_kit import start_bot

from fakediscord import FakeDiscord, FakeMessage, FakeUser, RestCall
from fakediscord.payloads import BOT_PERMISSIONS, PERM_MENTION_EVERYONE


def answer(fake: FakeDiscord, user: FakeUser) -> str:
    [reply] = fake.last_interaction_response(user).replies
    assert reply.ephemeral
    return reply.render()


def wanted_messages(fake: FakeDiscord, channel) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel) if "Players wanted" in m.content]


def wanted_sends(fake: FakeDiscord) -> list[RestCall]:
    """The requests that sent a players-wanted message, as the bot made them."""
    return [c for c in fake.calls("POST", "/channels/{channel_id}/messages")
            if "Players wanted" in str((c.payload or {}).get("content"))]


async def test_a_new_table_pings_the_role_and_the_members_who_asked_in_one_message(fake, table, store, clock, ann):
    boss = fake.user("Boss", manage_guild=True)
    bo, cy, dee = fake.user("Bo"), fake.user("Cy"), fake.user("Dee")
    night = fake.role("Game night", members=(cy, dee), mentionable=True)
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings wanted_role", {"role": night})
    said = answer(fake, boss)
    assert f"Done: a new table here pings: {night.mention}." in said and "notify nobody" not in said
    await fake.slash(bo, table, "notify", {"new_tables": "on"})
    await fake.slash(ann, table, "incan new", {})
    [message] = wanted_messages(fake, table)
    assert message.content.count(night.mention) == 1 and bo.mention in message.content
    assert message.notified == frozenset({bo.id, cy.id, dee.id})
    [sent] = wanted_sends(fake)  # the role rides in the members' message: no second call
    assert sent.payload["allowed_mentions"] == {"parse": [], "users": [bo.id], "roles": [night.id]}
    await fake.stop(bot)


async def test_only_a_manager_sets_the_role_and_never_everyone_or_a_managed_role(fake, table, store, clock):
    boss, eve = fake.user("Boss", manage_guild=True), fake.user("Eve")
    aino = fake.user("Aino", manage_guild=True, locale="fi")
    quiet = fake.role("Quiet")  # not mentionable
    everyone = fake.guild_roles()[0]
    bots = next(r for r in fake.guild_roles() if r.bot_id is not None)
    bot = await start_bot(fake, store, clock)
    # Discord hides /settings from members who cannot manage the server; a crafted call is refused.
    rec = await fake.craft_slash(eve, table, "settings wanted_role", {"role": quiet})
    assert "manage the server" in rec.replies[-1].render()
    await fake.slash(boss, table, "settings wanted_role", {"role": everyone})
    assert "Not @everyone" in answer(fake, boss) and "Nothing was changed" in answer(fake, boss)
    await fake.slash(aino, table, "settings wanted_role", {"role": everyone})
    assert "Ei @everyone" in answer(fake, aino)
    await fake.slash(boss, table, "settings wanted_role", {"role": bots})
    assert "managed by Discord or an app" in answer(fake, boss)
    assert await bot.sessions.server_settings(fake.guild_id) == {}
    # Kept, but Discord would notify nobody of it: said when it is set, and whenever it is shown.
    await fake.slash(boss, table, "settings wanted_role", {"role": quiet})
    assert f"pings: {quiet.mention}, but Discord will notify nobody" in answer(fake, boss)
    assert await bot.sessions.server_settings(fake.guild_id) == {"wanted_role": quiet.id}
    fake.grant_bot(BOT_PERMISSIONS | PERM_MENTION_EVERYONE)  # the bot may mention every role
    await fake.slash(boss, table, "settings wanted_role", {})
    assert answer(fake, boss) == f"(only you can see this)\nA new table here pings: {quiet.mention}."
    await fake.stop(bot)


async def test_a_cleared_or_deleted_role_is_not_pinged(fake, table, store, clock, ann):
    boss, bo, cy = fake.user("Boss", manage_guild=True), fake.user("Bo"), fake.user("Cy")
    night = fake.role("Game night", members=(cy,), mentionable=True)
    alone, cleared, deleted = (fake.text_channel(name) for name in ("alone", "cleared", "deleted"))
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings wanted_role", {"role": night})
    await fake.slash(ann, alone, "incan new", {})  # nobody asked: the role alone is worth the message
    [message] = wanted_messages(fake, alone)
    assert night.mention in message.content and message.notified == frozenset({cy.id})
    await fake.slash(boss, table, "settings wanted_role", {"off": True})
    assert "a new table here pings: no role" in answer(fake, boss)
    await fake.slash(bo, table, "notify", {"new_tables": "on"})
    await fake.slash(ann, cleared, "sakkara new", {})
    [message] = wanted_messages(fake, cleared)
    assert "<@&" not in message.content and message.notified == frozenset({bo.id})
    assert wanted_sends(fake)[-1].payload["allowed_mentions"] == {"parse": [], "users": [bo.id]}
    await fake.slash(boss, table, "settings wanted_role", {"role": night})
    fake.delete_role(night)
    await fake.slash(boss, table, "settings wanted_role", {})
    assert "no role" in answer(fake, boss)
    await fake.slash(ann, deleted, "indus new", {})  # no error logged (the fixture checks)
    [message] = wanted_messages(fake, deleted)
    assert "<@&" not in message.content and message.notified == frozenset({bo.id})
    assert wanted_sends(fake)[-1].payload["allowed_mentions"] == {"parse": [], "users": [bo.id]}
    await fake.slash(bo, table, "notify", {"new_tables": "off"})
    await fake.slash(ann, alone, "incan cancel", {})
    await fake.slash(ann, alone, "incan new", {})  # a deleted role and nobody asked: nothing is sent
    assert len(wanted_messages(fake, alone)) == 1
    await fake.stop(bot)
