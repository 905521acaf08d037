"""Tests of the fake Discord itself, driven through the real discord.py client and a sample cog.

Each test pins one behaviour Discord has and the bot tests will rely on: what a reply looks like,
who can see it, what Discord refuses (closed DMs, stale buttons, double acknowledgements, limits),
and that buttons keep working across a bot restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time

import discord
import pytest
from discord.ext import commands
from sample_cog import SampleBot, SampleCog

from fakediscord import FakeDiscord, FakeDiscordError, LoopbackServer
from fakediscord import interactions as ix
from fakediscord import payloads as p

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


async def test_slash_reply_is_captured_in_the_channel(fake, bot, table, ann):
    rec = await fake.slash(ann, table, "sample hello", {"name": "Bo", "times": 2})
    [msg] = fake.channel_messages(table)
    assert msg.content == "Hello Bo! Hello Bo!"
    assert rec.ack_type == ix.CALLBACK_MESSAGE and rec.original is msg and not rec.ephemeral
    assert msg.data["interaction_metadata"]["user"]["id"] == str(ann.id)
    [call] = fake.calls("POST", CALLBACK)
    assert call.payload["type"] == ix.CALLBACK_MESSAGE and call.params == {"with_response": "1"}
    assert fake.last_interaction_response(ann) is rec


async def test_subcommand_group_maps_to_nested_options(fake, bot, table, ann):
    rec = await fake.slash(ann, table, "sample admin reset", {"hard": True})
    [group] = rec.payload["data"]["options"]
    assert (group["type"], group["name"]) == (ix.OPTION_SUB_COMMAND_GROUP, "admin")
    [sub] = group["options"]
    assert (sub["type"], sub["name"], sub["options"]) == (
        ix.OPTION_SUB_COMMAND,
        "reset",
        [{"name": "hard", "type": ix.OPTION_BOOLEAN, "value": True}],
    )
    assert rec.original is not None and rec.original.content == "reset hard=True"


@pytest.mark.parametrize(
    ("command", "options", "why"),
    [
        ("sample hello", {"name": "Bo", "times": 4}, "above max_value"),
        ("sample hello", {}, "required option"),
        ("sample hello", {"name": "Bo", "colour": "red"}, "has no option"),
        ("sample hello", {"name": 5}, "only sends strings"),
        ("sample admin", {}, "is a group"),
        ("nosuch", {}, "not registered"),
    ],
)
async def test_options_are_checked_like_discords_client(fake, bot, table, ann, command, options, why):
    with pytest.raises(FakeDiscordError, match=why):
        await fake.slash(ann, table, command, options)


async def test_ephemeral_reply_is_private(fake, bot, table, ann):
    rec = await fake.slash(ann, table, "sample secret")
    assert fake.channel_messages(table) == []
    [reply] = fake.ephemeral_replies(ann)
    assert reply.content == "psst" and reply.flags & p.MESSAGE_FLAG_EPHEMERAL
    assert rec.ephemeral and fake.ephemeral_replies(fake.user("Bo")) == []


async def test_defer_then_followups_complete_the_thinking_message(fake, bot, table, ann):
    rec = await fake.slash(ann, table, "sample slow")
    assert rec.ack_type == ix.CALLBACK_DEFERRED_MESSAGE
    first, second = fake.channel_messages(table)
    assert rec.original is first and first.content == "done thinking" and not first.loading
    assert first.history[0]["flags"] & p.MESSAGE_FLAG_LOADING  # it was "thinking" first
    assert second.content == "and a picture" and rec.followups == [first, second]
    [upload] = second.files
    assert (upload.filename, upload.data) == ("board.png", b"\x89PNGfake")
    assert second.data["attachments"][0]["filename"] == "board.png"
    assert fake.calls("POST", "/webhooks/{webhook_id}/{webhook_token}")[1].file_names == ["board.png"]


async def test_a_followup_after_the_thinking_message_was_deleted_is_a_message_of_its_own(fake, bot, table, ann):
    rec = await fake.slash(ann, table, "sample withdrawn")
    [placeholder] = [m for m in fake.messages.values() if m.id == rec.original_message_id]
    assert placeholder.deleted and placeholder.content == ""  # deleted while "thinking": never completed
    [answer] = fake.ephemeral_replies(ann)
    assert answer.content == "only you" and answer.id != placeholder.id


async def test_webhook_routes_edit_and_delete(fake, bot, table, ann):
    events = []
    fake.add_message_listener(lambda kind, m: events.append((kind, m.content)))
    rec = await fake.slash(ann, table, "sample webhooks")
    assert bot.notes == ["b"]  # GET @original saw the edit
    assert fake.channel_messages(table) == []  # the deferral was ephemeral, so was its completion
    assert [m.content for m in fake.ephemeral_replies(ann)] == ["b", "d"]
    assert rec.original.history[-1]["content"] == "a" and rec.original.all_texts() == ["", "a", "b"]
    gone = fake.messages[rec.followup_ids[-1]]
    assert gone.deleted and gone.content == "e" and gone in fake.public_messages()
    assert events == [("create", ""), ("edit", "a"), ("edit", "b"), ("create", "c"), ("edit", "d"),
                      ("create", "e"), ("delete", "e")]


async def test_followup_after_token_lifetime_is_50027(fake, bot, table, ann):
    bot.on_work = lambda: fake.advance(15 * 60 + 1)
    rec = await fake.slash(ann, table, "sample expire")
    assert bot.observed_codes == [50027] and rec.error_codes == [50027]
    assert rec.original.loading  # the user is left with "thinking..."


async def test_components_v2_layout_and_nested_button(fake, bot, table, ann):
    await fake.slash(ann, table, "sample layout")
    [panel] = fake.channel_messages(table)
    assert panel.flags & p.MESSAGE_FLAG_COMPONENTS_V2 and panel.custom_ids == ["sample:go"]
    assert "Panel" in panel.text
    await fake.click(ann, panel, "sample:go")
    assert panel.text == "Gone" and panel.custom_ids == []


async def test_dm_with_dynamic_item_buttons_and_click(fake, bot, table, ann):
    await fake.slash(ann, table, "sample dm", {"game": 7})
    [dm] = fake.dm_messages(ann)
    assert dm.custom_ids == ["vote:7:torch", "vote:7:camp"]
    assert fake.ephemeral_replies(ann)[0].content == "Check your DMs."
    rec = await fake.click(ann, dm, "vote:7:camp")
    assert bot.votes == [(ann.id, 7, "camp")]
    assert (
        rec.payload["channel"]["type"] == p.CHANNEL_DM
        and "user" in rec.payload
        and "member" not in rec.payload
    )
    assert rec.ephemeral and rec.original is not None and rec.original.channel_id == dm.channel_id


async def test_closed_dms_raise_forbidden_50007_in_the_cog(fake, bot, table, ann):
    fake.close_dms(ann)
    await fake.slash(ann, table, "sample dm", {"game": 3})
    assert bot.observed_codes == [50007]
    assert fake.dm_messages(ann) == []
    dm_call = fake.calls("POST", "/channels/{channel_id}/messages")[-1]
    assert dm_call.status == 403 and dm_call.response["code"] == 50007
    [fallback] = fake.ephemeral_replies(ann)
    assert fallback.custom_ids == ["vote:3:torch", "vote:3:camp"]
    await fake.click(ann, fallback, "vote:3:torch")  # buttons on an ephemeral message work too
    assert bot.votes == [(ann.id, 3, "torch")]


async def test_missing_channel_permission_is_forbidden_50013(fake, bot, table):
    fake.set_bot_permissions(table, send=False)
    channel = bot.get_channel(table.id)
    assert isinstance(channel, discord.TextChannel)
    assert not channel.permissions_for(channel.guild.me).send_messages  # CHANNEL_UPDATE reached the cache
    with pytest.raises(discord.Forbidden) as err:
        await channel.send("hi")
    assert err.value.code == 50013


async def test_dynamic_item_click_after_restart(fake, bot, table, ann):
    await fake.slash(ann, table, "sample dm", {"game": 11})
    [dm] = fake.dm_messages(ann)
    bot2 = SampleBot()
    await fake.restart(bot, bot2)
    assert bot.is_closed() and fake.bots == [bot2]
    await fake.click(ann, dm, "vote:11:torch")
    assert bot2.votes == [(ann.id, 11, "torch")] and bot.votes == []
    await fake.stop(bot2)


async def test_persistent_view_after_restart(fake, bot, table, ann):
    await fake.slash(ann, table, "sample lobby")
    [lobby] = fake.channel_messages(table)
    rec = await fake.click(ann, lobby, "sample:join")
    assert rec.ack_type == ix.CALLBACK_UPDATE_MESSAGE and lobby.content == "Lobby:\nAnn"
    bot2 = SampleBot()
    await fake.restart(bot, bot2)
    await fake.click(fake.user("Bo"), lobby, "sample:join")
    assert lobby.content == "Lobby:\nAnn\nBo"
    assert lobby.all_texts()[0].startswith("Lobby:")  # every version is kept for leak scans
    rec = await fake.click(ann, lobby, "sample:leave")
    assert rec.ack_type == ix.CALLBACK_DEFERRED_UPDATE and rec.original is lobby
    assert lobby.content == "Lobby:\nBo" and fake.calls("PATCH")[-1].route.endswith("@original")
    await fake.stop(bot2)


async def test_components_not_on_the_message_are_refused(fake, bot, table, ann):
    await fake.slash(ann, table, "sample dm", {"game": 5})
    [dm] = fake.dm_messages(ann)
    with pytest.raises(FakeDiscordError, match="no component 'vote:4:torch'"):
        await fake.click(ann, dm, "vote:4:torch")  # a stale id from an older message
    with pytest.raises(FakeDiscordError, match="another user's DMs"):
        await fake.click(fake.user("Bo"), dm, "vote:5:torch")
    await fake.slash(ann, table, "sample secret")
    with pytest.raises(FakeDiscordError, match="ephemeral message meant for someone else"):
        await fake.click(fake.user("Cy"), fake.ephemeral_replies(ann)[-1], "x")
    assert bot.votes == []


async def test_stale_click_that_the_bot_ignores_fails_the_test(fake, bot, table, ann):
    # A DynamicItem template the bot does not know: discord.py silently drops it, the user would see
    # "This interaction failed", and the harness turns that into a failure.
    await fake.slash(ann, table, "sample lobby")
    [lobby] = fake.channel_messages(table)
    lobby.data["components"][0]["components"][0]["custom_id"] = "vote:1:lantern"
    with pytest.raises(AssertionError, match="never acknowledged"):
        await fake.click(ann, lobby, "vote:1:lantern")


async def test_double_acknowledgement_is_40060(fake, bot, table, ann):
    rec = await fake.slash(ann, table, "sample twice")
    assert bot.observed_codes == [40060] and rec.error_codes == [40060]
    assert rec.callbacks == [4, 4]
    assert [m.content for m in fake.channel_messages(table)] == ["first"]


async def test_late_acknowledgement_is_10062_and_unacknowledged_fails(fake, bot, table, ann):
    bot.on_work = lambda: fake.advance(3.5)
    rec = await fake.slash(ann, table, "sample late", expect_ack=False)
    assert bot.observed_codes == [10062] and not rec.acknowledged
    with pytest.raises(AssertionError, match="never acknowledged"):
        await fake.slash(ann, table, "sample late")
    assert fake.channel_messages(table) == []


async def test_logged_errors_fail_unless_expected(fake, bot, table, ann):
    with pytest.raises(AssertionError, match="kaboom"):
        await fake.slash(ann, table, "sample boom", expect_ack=False)
    with fake.expect_error("kaboom") as hits:
        await fake.slash(ann, table, "sample boom", expect_ack=False)
    assert len(hits) == 1


async def test_other_loggers_can_be_watched():
    with FakeDiscord(error_loggers=("discord", "")) as fake:  # "" is the root logger
        logging.getLogger("temple.session").error("table 3 lost its lock")
        logging.getLogger("discord.client").error("once, not twice")
        with pytest.raises(AssertionError, match="lost its lock") as err:
            fake.check_errors()
        assert str(err.value).count("once, not twice") == 1


async def test_message_limits_are_enforced(fake, bot, table, ann):
    await fake.slash(ann, table, "sample overflow")
    assert bot.observed_codes == [50035, 50035]  # 2001 characters; a sixth action row
    assert fake.channel_messages(table) == []


def _embed(**kw) -> discord.Embed:
    e = discord.Embed(title=kw.get("title", "t"), description=kw.get("description"))
    for i in range(kw.get("fields", 0)):
        e.add_field(name=f"f{i}", value=kw.get("value", "v"))
    return e


@pytest.mark.parametrize(
    ("kwargs", "ok"),
    [
        ({"embed": _embed(title="x" * 256)}, True),
        ({"embed": _embed(title="x" * 257)}, False),
        ({"embed": _embed(description="x" * 4097)}, False),
        ({"embed": _embed(fields=25)}, True),
        ({"embed": _embed(fields=26)}, False),
        ({"embeds": [_embed(description="x" * 4000), _embed(description="x" * 2000)]}, False),  # > 6000 total
        ({"content": "x" * 2000}, True),
        ({"content": ""}, False),  # empty message (50006)
    ],
)
async def test_embed_and_content_limits(fake, bot, table, kwargs, ok):
    channel = bot.get_channel(table.id)
    if ok:
        await channel.send(**kwargs)
    else:
        with pytest.raises(discord.HTTPException) as err:
            await channel.send(**kwargs)
        assert err.value.code in (50035, 50006) and err.value.status == 400


async def test_attachments_survive_and_change_on_edit(fake, bot, table):
    channel = bot.get_channel(table.id)
    sent = await channel.send("board", file=discord.File(io.BytesIO(b"A"), "a.png"))
    stored = fake.messages[sent.id]
    assert [(f.filename, f.data) for f in stored.files] == [("a.png", b"A")]
    sent = await sent.edit(content="board v2")  # no attachments key: the image stays
    assert [f.data for f in stored.files] == [b"A"] and stored.content == "board v2"
    sent = await sent.edit(attachments=[discord.File(io.BytesIO(b"B"), "b.png")])  # replaced
    assert [(f.filename, f.data) for f in stored.files] == [("b.png", b"B")]
    sent = await sent.edit(attachments=[sent.attachments[0], discord.File(io.BytesIO(b"C"), "c.png")])
    assert [f.data for f in stored.files] == [b"B", b"C"]
    assert [a.filename for a in sent.attachments] == ["b.png", "c.png"]
    sent = await sent.edit(content="board v3", attachments=[])  # named empty: every one goes
    assert stored.files == [] and sent.attachments == [] and stored.data["attachments"] == []


def _view(*ids: str, row: int | None = None) -> discord.ui.View:
    view = discord.ui.View()
    for cid in ids:
        view.add_item(discord.ui.Button(label="b", custom_id=cid, row=row))
    return view


@pytest.mark.parametrize(
    ("ids", "ok"),
    [
        (["a" * 100], True),
        (["a" * 101], False),
        (["same", "same"], False),
    ],
)
async def test_custom_id_rules(fake, bot, table, ids, ok):
    channel = bot.get_channel(table.id)
    if ok:
        await channel.send("x", view=_view(*ids))
    else:
        with pytest.raises(discord.HTTPException) as err:
            await channel.send("x", view=_view(*ids))
        assert err.value.code == 50035


async def test_six_buttons_in_a_row_are_refused(fake, bot, table):
    view = _view("1", "2", "3", "4", "5")
    rows = view.to_components()
    rows[0]["components"].append({"type": 2, "style": 1, "label": "6", "custom_id": "6"})
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=table.id)
    with pytest.raises(discord.HTTPException) as err:
        await bot.http.request(route, json={"content": "x", "components": rows})
    assert err.value.code == 50035 and "components" in str(err.value)


async def test_modal_open_and_submit(fake, bot, table, ann):
    rec = await fake.slash(ann, table, "sample form")
    assert rec.ack_type == ix.CALLBACK_MODAL and rec.modal["title"] == "Your name"
    with pytest.raises(FakeDiscordError, match="length"):
        await fake.submit_modal(ann, {"sample:name": "x" * 21})
    await fake.submit_modal(ann, {"sample:name": "Zed"})
    assert fake.channel_messages(table)[-1].content == "Hello Zed!"
    with pytest.raises(FakeDiscordError, match="no modal is open"):
        await fake.submit_modal(ann, {"sample:name": "again"})


async def test_select_on_a_view_keyed_by_the_response_message(fake, bot, table, ann):
    await fake.slash(ann, table, "sample pick")
    [menu] = fake.channel_messages(table)
    with pytest.raises(FakeDiscordError, match="cannot send"):
        await fake.select(ann, menu, "sample:pick", ["purple"])
    await fake.select(ann, menu, "sample:pick", ["green"])  # works only if with_response gave the id
    assert fake.ephemeral_replies(ann)[-1].content == "picked green"


async def test_autocomplete(fake, bot, table, ann):
    choices = await fake.autocomplete(ann, table, "sample colour", {"colour": "gr"}, focused="colour")
    assert choices == [{"name": "green", "value": "green"}]
    # Discord's client asks only for an option declared with autocomplete ...
    with pytest.raises(FakeDiscordError, match="does not autocomplete"):
        await fake.autocomplete(ann, table, "sample hello", {"name": "m"}, focused="name")
    # ... and refuses a choice whose name is longer than 100 characters (the user sees no choices)
    with pytest.raises(AssertionError, match=r"data\.choices\.0\.name: Must be between 1 and 100"):
        await fake.autocomplete(ann, table, "sample colour", {"colour": "long"}, focused="colour")


async def test_slash_in_a_dm(fake, bot, ann):
    dm = fake.dm_channel(ann)
    await fake.slash(ann, dm, "sample hello", {"name": "me"})
    assert [m.content for m in fake.dm_messages(ann)] == ["Hello me!"]


async def test_command_sync_is_recorded(fake, bot):
    synced = await bot.tree.sync()
    assert [c.name for c in synced] == ["sample"]
    names = {o["name"] for o in fake.commands[None][0]["options"]}
    assert {"hello", "slow", "admin"} <= names


async def test_200_concurrent_slash_commands_all_complete(fake, bot, table):
    users = [fake.user(f"U{i}") for i in range(200)]
    started = time.perf_counter()
    recs = await asyncio.gather(*(fake.slash(u, table, "sample hello", {"name": u.name}) for u in users))
    elapsed = time.perf_counter() - started
    assert all(r.acknowledged for r in recs)
    assert sorted(m.content for m in fake.channel_messages(table)) == sorted(
        f"Hello U{i}!" for i in range(200)
    )
    assert elapsed < 5.0


async def test_prefix_command_through_message_create(fake, bot, table, ann):
    said = await fake.say(ann, table, "!ping")
    assert [m.content for m in fake.channel_messages(table)] == ["!ping", "pong"]
    assert said.data["author"]["id"] == str(ann.id)


async def test_user_option_resolves_and_dm_to_a_stranger_is_refused(fake, bot, table, ann):
    bo = fake.user("Bo")
    await fake.slash(ann, table, "sample poke", {"who": bo})
    assert [m.content for m in fake.dm_messages(bo)] == ["Ann poked you"]
    stranger = fake.user("Stranger", in_guild=False)
    await fake.slash(ann, table, "sample poke", {"who": stranger})
    assert bot.observed_codes == [50007] and fake.dm_messages(stranger) == []


async def test_ready_sequence(fake, bot, table):
    assert bot.is_ready() and bot.available_guilds == [fake.guild_id]
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.get_channel(table.id) is not None and guild.me is not None
    assert bot.application_id == fake.application_id and bot.user.id == fake.bot_user.id


async def test_run_waits_for_background_tasks(fake, bot, table):
    await fake.run(bot.announce_soon, table.id)
    [tick] = fake.channel_messages(table)
    assert tick.render() == "tick\n[Torch] [Camp]"


async def test_auto_sharded_bot(fake, table, ann):
    class ShardedBot(commands.AutoShardedBot):
        def __init__(self) -> None:
            super().__init__(command_prefix="!", intents=discord.Intents.default(), shard_count=3)
            self.shards_ready: list[int] = []

        async def on_shard_ready(self, shard_id: int) -> None:
            self.shards_ready.append(shard_id)

        async def setup_hook(self) -> None:
            await self.add_cog(SampleCog(self))

    bot = ShardedBot()
    await fake.start(bot)
    assert sorted(bot.shards_ready) == [0, 1, 2] and bot.is_ready()
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.shard_id == (fake.guild_id >> 22) % 3
    await fake.slash(ann, table, "sample hello", {"name": "shards"})
    await fake.slash(ann, fake.dm_channel(ann), "sample hello", {"name": "dm"})
    assert [m.content for m in fake.channel_messages(table)] == ["Hello shards!"]
    await fake.stop(bot)


async def test_ids_are_deterministic():
    with FakeDiscord() as a:
        ids_a = [a.user("Ann").id, a.text_channel("t").id, a.guild_id]
    with FakeDiscord() as b:
        ids_b = [b.user("Ann").id, b.text_channel("t").id, b.guild_id]
    assert ids_a == ids_b


async def test_loopback_smoke_bot_start_unchanged():
    fake = FakeDiscord(patch_http=False)
    table = fake.text_channel("table")
    ann = fake.user("Ann")
    async with LoopbackServer(fake) as server:
        bot = SampleBot(guild_ready_timeout=0.01)  # a public Client option: no 2 s wait for more guilds
        runner = asyncio.create_task(bot.start("loopback-token"))
        try:
            await asyncio.wait_for(bot.wait_until_ready(), timeout=10)
            assert (
                server.identify_payload is not None and server.identify_payload["token"] == "loopback-token"
            )
            rec = await server.slash(bot, ann, table, "sample hello", {"name": "Lo"})
            assert rec.ack_type == ix.CALLBACK_MESSAGE
            assert [m.content for m in fake.channel_messages(table)] == ["Hello Lo!"]
            assert server.heartbeats >= 1
        finally:
            await bot.close()
            await runner
    fake.check_errors()
