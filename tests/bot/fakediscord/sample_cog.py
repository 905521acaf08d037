"""A tiny cog exercising every harness feature: replies, defers, ephemerals, DMs, persistent buttons.

It is test scaffolding for tests/bot/test_harness.py, not product code: each command shows one
Discord behaviour the fake must reproduce (see the command descriptions).
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"vote:(?P<game>\d+):(?P<choice>torch|camp)"
):
    """A stateless button: the game id and the choice live in the custom_id (survives restarts)."""

    def __init__(self, game: int, choice: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=choice.title(), custom_id=f"vote:{game}:{choice}", style=discord.ButtonStyle.primary
            )
        )
        self.game = game
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> VoteButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Record the vote and confirm privately."""
        bot: SampleBot = interaction.client  # type: ignore[assignment]
        bot.votes.append((interaction.user.id, self.game, self.choice))
        await interaction.response.send_message(
            f"You chose {self.choice} in game {self.game}.", ephemeral=True
        )


class JoinView(discord.ui.View):
    """A persistent lobby view (timeout=None, fixed custom_ids, registered with add_view)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="sample:join", style=discord.ButtonStyle.success)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        """Add the clicker to the lobby message (type 7 update)."""
        assert interaction.message is not None
        names = interaction.message.content.split("\n")[1:]
        if interaction.user.display_name in names:
            await interaction.response.send_message("You already joined.", ephemeral=True)
            return
        names.append(interaction.user.display_name)
        await interaction.response.edit_message(content="\n".join(["Lobby:", *names]), view=self)

    @discord.ui.button(label="Leave", custom_id="sample:leave", style=discord.ButtonStyle.secondary)
    async def leave(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        """Remove the clicker: acknowledge first (type 6), then edit the message through @original."""
        await interaction.response.defer()
        assert interaction.message is not None
        names = [n for n in interaction.message.content.split("\n")[1:] if n != interaction.user.display_name]
        await interaction.edit_original_response(content="\n".join(["Lobby:", *names]))


class PickView(discord.ui.View):
    """A select menu (non-persistent view keyed by the response message id)."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="sample:pick",
        options=[discord.SelectOption(label=x, value=x) for x in ("red", "green", "blue")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        """Echo the pick."""
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Your name"):
    """A one-field modal."""

    name: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Name", custom_id="sample:name", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Greet the submitted name."""
        await interaction.response.send_message(f"Hello {self.name.value}!")


class SampleCog(commands.GroupCog, group_name="sample"):
    """/sample ... commands."""

    admin = app_commands.Group(name="admin", description="Nested group")

    def __init__(self, bot: SampleBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Plain reply")
    async def hello(
        self, interaction: discord.Interaction, name: str, times: app_commands.Range[int, 1, 3] = 1
    ) -> None:
        """Reply in the channel."""
        await interaction.response.send_message(" ".join([f"Hello {name}!"] * times))

    @app_commands.command(description="Deferred reply and a followup")
    async def slow(self, interaction: discord.Interaction) -> None:
        """Defer (thinking), then complete with a followup, then a second followup with a file."""
        await interaction.response.defer()
        await interaction.followup.send("done thinking")
        await interaction.followup.send(
            "and a picture", file=discord.File(io.BytesIO(b"\x89PNGfake"), "board.png")
        )

    @app_commands.command(description="Deferred, then withdrawn for a private answer")
    async def withdrawn(self, interaction: discord.Interaction) -> None:
        """Defer (thinking), delete the placeholder, then answer privately with a followup."""
        await interaction.response.defer()
        await interaction.delete_original_response()
        await interaction.followup.send("only you", ephemeral=True)

    @app_commands.command(description="Private reply")
    async def secret(self, interaction: discord.Interaction) -> None:
        """Reply only the caller can see."""
        await interaction.response.send_message("psst", ephemeral=True)

    @app_commands.command(description="Send a DM with vote buttons")
    async def dm(self, interaction: discord.Interaction, game: int) -> None:
        """DM the caller Torch/Camp DynamicItem buttons; fall back to an ephemeral prompt on closed DMs."""
        view = VoteView(game)
        try:
            await interaction.user.send("Torch or camp?", view=view)
        except discord.Forbidden as exc:
            self.bot.observed_codes.append(exc.code)
            await interaction.response.send_message(
                "Your DMs are closed; choose here.", view=view, ephemeral=True
            )
            return
        await interaction.response.send_message("Check your DMs.", ephemeral=True)

    @app_commands.command(description="Post a lobby with a persistent Join button")
    async def lobby(self, interaction: discord.Interaction) -> None:
        """Post the persistent view in the channel (a normal channel message, not the response)."""
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("Lobby:", view=self.bot.join_view)
        await interaction.response.send_message("Lobby opened.", ephemeral=True)

    @app_commands.command(description="Acknowledges twice (a bug the fake must catch)")
    async def twice(self, interaction: discord.Interaction) -> None:
        """Respond, then respond again with discord.py's local guard bypassed (as a second process would)."""
        await interaction.response.send_message("first")
        interaction.response._response_type = None
        try:
            await interaction.response.send_message("second")
        except discord.HTTPException as exc:
            self.bot.observed_codes.append(exc.code)

    @app_commands.command(description="Does slow work before acknowledging")
    async def late(self, interaction: discord.Interaction) -> None:
        """Simulate >3 s of work, then try to reply."""
        self.bot.on_work()
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            self.bot.observed_codes.append(exc.code)

    @app_commands.command(description="Open a modal")
    async def form(self, interaction: discord.Interaction) -> None:
        """Open the name modal."""
        await interaction.response.send_modal(NameModal())

    @app_commands.command(description="Send a select menu")
    async def pick(self, interaction: discord.Interaction) -> None:
        """Reply with a select menu."""
        await interaction.response.send_message("Pick a colour", view=PickView())

    @app_commands.command(description="Send something too long")
    async def overflow(self, interaction: discord.Interaction) -> None:
        """Try a 2001-character message, then 6 action rows; record the Discord error codes."""
        for attempt in (dict(content="x" * 2001), dict(content="rows", view=_too_many_rows())):
            try:
                await interaction.channel.send(**attempt)  # type: ignore[union-attr]
            except discord.HTTPException as exc:
                self.bot.observed_codes.append(exc.code)
        await interaction.response.send_message("tried", ephemeral=True)

    @app_commands.command(description="Autocomplete demo")
    async def colour(self, interaction: discord.Interaction, colour: str) -> None:
        """Echo the colour."""
        await interaction.response.send_message(colour)

    @colour.autocomplete("colour")
    async def colour_complete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Colours starting with what was typed ("long": one choice with too long a name)."""
        if current == "long":
            return [app_commands.Choice(name="x" * 101, value="x")]
        return [
            app_commands.Choice(name=c, value=c) for c in ("red", "green", "blue") if c.startswith(current)
        ]

    @commands.command(name="ping")
    async def ping(self, ctx: commands.Context[SampleBot]) -> None:
        """A prefix command (MESSAGE_CREATE path)."""
        await ctx.send("pong")

    @app_commands.command(description="DM a user")
    async def poke(self, interaction: discord.Interaction, who: discord.User) -> None:
        """DM another user; report Discord's refusal privately."""
        try:
            await who.send(f"{interaction.user.display_name} poked you")
        except discord.Forbidden as exc:
            self.bot.observed_codes.append(exc.code)
        await interaction.response.send_message("poked", ephemeral=True)

    @app_commands.command(description="Every webhook route: edit original, edit and delete followups")
    async def webhooks(self, interaction: discord.Interaction) -> None:
        """Defer privately, complete, edit the original, send/edit/delete an ephemeral followup."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("a")
        await interaction.edit_original_response(content="b")
        original = await interaction.original_response()
        self.bot.notes.append(original.content)
        extra = await interaction.followup.send("c", ephemeral=True, wait=True)
        await extra.edit(content="d")
        gone = await interaction.followup.send("e", wait=True)
        await gone.delete()

    @app_commands.command(description="Followup after the 15-minute token lifetime")
    async def expire(self, interaction: discord.Interaction) -> None:
        """Defer, 'work' past the token lifetime, then try a followup."""
        await interaction.response.defer()
        self.bot.on_work()
        try:
            await interaction.followup.send("much later")
        except discord.HTTPException as exc:
            self.bot.observed_codes.append(exc.code)

    @app_commands.command(description="A components-v2 layout with a nested button")
    async def layout(self, interaction: discord.Interaction) -> None:
        """Send a LayoutView (flag 32768) whose button sits inside a container."""
        await interaction.response.send_message(view=LayoutPanel())

    @app_commands.command(description="Raises (discord.py logs and swallows it)")
    async def boom(self, interaction: discord.Interaction) -> None:
        """Fail with an unhandled exception."""
        raise RuntimeError("kaboom")

    @admin.command(name="reset", description="Subcommand of a nested group")
    async def admin_reset(self, interaction: discord.Interaction, hard: bool = False) -> None:
        """Reply with the flag."""
        await interaction.response.send_message(f"reset hard={hard}", ephemeral=True)


class LayoutPanel(discord.ui.LayoutView):
    """Components v2: text and an action row inside a container."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        go: discord.ui.Button[LayoutPanel] = discord.ui.Button(label="Go", custom_id="sample:go")
        go.callback = self.go  # type: ignore[method-assign]
        self.add_item(discord.ui.Container(discord.ui.TextDisplay("Panel"), discord.ui.ActionRow(go)))

    async def go(self, interaction: discord.Interaction) -> None:
        """Acknowledge by replacing the panel text."""
        await interaction.response.edit_message(
            view=discord.ui.LayoutView().add_item(discord.ui.TextDisplay("Gone"))
        )


class VoteView(discord.ui.View):
    """Torch/Camp DynamicItem buttons for one game."""

    def __init__(self, game: int) -> None:
        super().__init__(timeout=None)
        self.add_item(VoteButton(game, "torch"))
        self.add_item(VoteButton(game, "camp"))


def _too_many_rows() -> discord.ui.View:
    view = discord.ui.View()
    for i in range(6):  # discord.py accepts 25 items in 5 rows; force a sixth row through the payload
        view.add_item(discord.ui.Button(label=str(i), custom_id=f"row{i}", row=min(i, 4)))
    original = view.to_components

    def six_rows() -> list[dict[str, Any]]:
        rows = original()
        return [
            *rows,
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "6", "custom_id": "row6"}]},
        ]

    view.to_components = six_rows  # type: ignore[method-assign]
    return view


class SampleBot(commands.Bot):
    """A minimal bot shaped like bot.py: setup_hook registers the cog, dynamic items, persistent view."""

    def __init__(self, **options: Any) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.default(), chunk_guilds_at_startup=False, **options
        )
        self.votes: list[tuple[int, int, str]] = []
        self.observed_codes: list[int] = []
        self.notes: list[str] = []
        self.on_work: Callable[[], None] = lambda: None
        self.join_view = JoinView()
        self.available_guilds: list[int] = []
        self.background: set[asyncio.Task[None]] = set()

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """Record guilds that became available at start-up."""
        self.available_guilds.append(guild.id)

    async def announce_soon(self, channel_id: int) -> None:
        """Start a background task that posts in a channel (like a game timer firing)."""

        async def later() -> None:
            await asyncio.sleep(0)
            channel = self.get_channel(channel_id)
            assert isinstance(channel, discord.TextChannel)
            await channel.send("tick", view=VoteView(9))

        self.background.add(task := asyncio.create_task(later()))
        task.add_done_callback(self.background.discard)

    async def setup_hook(self) -> None:
        """Register everything that must exist before the first gateway event."""
        await self.add_cog(SampleCog(self))
        self.add_dynamic_items(VoteButton)
        self.add_view(self.join_view)
