"""``/game replay`` and the Replay button of every summary: a finished game, step by step.

A replay message shows one step (:mod:`cogs.replay.steps`): the board as it stood, drawn by the
game's own renderer (``replay_board`` of the hub's Renderer: Sakkara and Indus with their picture,
Incan Gold with its path, who is inside with what they carry and everyone's banked gems), the
scores so far as each game's board shows them, and the step's log lines in the game's own words
(each renderer's ``event_lines``). Under it ⏮ ◀ ▶ ⏭ and a jump menu. Nothing here knows a game.

Every component carries the game's number and the step it goes to, so a replay opened before a
restart keeps working; a press is answered by editing the pressed message through its own
interaction (callback type 7, exempt from the rate limits): no REST edit, whatever the step.
Each press reads the log from the store and replays it through the rules: nothing is cached,
nothing is read from a stored picture.

Who may see what: only a game that is over (finished, cancelled or abandoned) is replayed, so its
hidden choices are no secret any more; a running game is refused before anything of it is read
out. As with ``/game log`` and ``/history``, a game is shown only on its own server: a number (or
a forged custom_id) naming another server's game is answered "no such game", privately.
A replay for the channel may be stepped by anyone there (it is a shared screen, like the
leaderboard's pages); a private one is an ephemeral message only its opener sees and steps.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord.ext import commands

from cogs.replay.steps import Frame, cut
from cogs.table.answer import answering_click
from cogs.table.controls.buttons import guarded, hub_of
from cogs.table.messages.hub import TableBot, TableHub
from db import GameLog, GameNotFound, StoreError, Unavailable
from engine.core import IllegalAction
from engine.session import SeatSpec, Table
from i18n import reader_is, t

log = logging.getLogger(__name__)

__all__ = ["DYNAMIC_ITEMS", "JumpSelect", "Replays", "StepButton", "open_replay", "setup"]

OVER = ("finished", "cancelled", "abandoned")
"""The statuses of a game that may be replayed: over, so nothing of it is secret any more."""

MENU_OPTIONS = 25
"""Discord's limit of options in a select menu."""

REPLAY_COLOUR = discord.Colour(0x7B5EA7)
"""Every replay's colour: how a press tells a replay message from the bot's other messages."""

_ARROWS = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}


class Refused(Exception):
    """A replay that cannot be shown: answered privately with the catalogue text ``key``."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key, self.values = key, values


# --------------------------------------------------------------------------- the game and its steps


async def _load(bot: TableBot, game_id: int, guild_id: int | None) -> GameLog:
    """Return a replayable game's log; raise Refused for a game that may not be shown here."""
    try:
        game_log = await bot.store.load_game(game_id)
    except GameNotFound:
        raise Refused("lb.error.no_game", id=game_id) from None
    except Unavailable:
        raise  # an outage: the gate answers "reconnecting"
    except StoreError:
        raise Refused("lb.error.unreadable", id=game_id) from None
    row = game_log.game
    if row.guild_id != guild_id:
        raise Refused("lb.error.no_game", id=game_id)  # another server's game: as if it did not exist
    if row.status not in OVER:
        raise Refused("replay.not_over", id=game_id)  # a running game: nothing of it is revealed
    if row.seed is None or row.game not in bot.sessions.specs:
        raise Refused("lb.error.never_started", id=game_id)
    return game_log


def _table(bot: TableBot, game_log: GameLog, frame: Frame) -> Table:
    """Return a table as it stood at ``frame`` (what the renderers draw from); not a live table."""
    row = game_log.game
    seats = [SeatSpec(s.display_name, s.user_id, s.ai_level) for s in sorted(game_log.seats, key=lambda s: s.seat)]
    return Table(row.id, bot.sessions.specs[row.game], row.guild_id, row.channel_id, row.host_id, row.options,
                 row.table_options, "finished", seats, row.seed, frame.state, frame.end)


async def _frames(bot: TableBot, game_log: GameLog) -> list[Frame]:
    row = game_log.game
    assert row.seed is not None
    try:
        # A long game replays in tens of milliseconds: off the event loop, like the rating fold.
        return await asyncio.to_thread(cut, bot.sessions.specs[row.game], len(game_log.seats), row.seed,
                                       row.options, game_log.moves())
    except (IllegalAction, ValueError, KeyError, TypeError):  # a log that no longer replays
        raise Refused("lb.error.unreadable", id=row.id) from None


# --------------------------------------------------------------------------- drawing one step


async def _step(hub: TableHub, game_log: GameLog, frames: list[Frame], at: int
                ) -> tuple[discord.Embed, discord.File | None, discord.ui.View]:
    """Return step ``at`` of a replay: its embed, its picture and its controls."""
    frame = frames[at]
    table = _table(hub.bot, game_log, frame)
    renderer = hub.renderer(table)
    embed, picture = await renderer.replay_board(table)
    title = embed.title or ""
    embed.colour = REPLAY_COLOUR
    embed.title = t("replay.title", id=table.id, game=renderer.title(), step=at, steps=len(frames) - 1)
    embed.description = f"**{title}**\n{embed.description or ''}"[:4096]  # the game's own title says where
    lines = renderer.event_lines(table, frame.events) if frame.events else [t("replay.setup")]
    embed.add_field(name=t("replay.log"), value="\n".join(lines)[-1024:] or "-", inline=False)
    return embed, picture, _controls(table, frames, at)


def _controls(table: Table, frames: list[Frame], at: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = len(frames) - 1
    for tag, target in (("f", 0), ("p", max(at - 1, 0)), ("n", min(at + 1, last)), ("l", last)):
        view.add_item(StepButton(table.id, target, tag, disabled=target == at))
    view.add_item(JumpSelect(table.id, _menu(table, frames, at)))
    return view


def _menu(table: Table, frames: list[Frame], at: int) -> list[discord.SelectOption]:
    """The jump menu: the first step of each chapter (evenly thinned to fit Discord's 25 options,
    the last one kept for the end of the game)."""
    starts: dict[int, int] = {}
    for frame in frames:
        starts.setdefault(frame.chapter, frame.index)
    chapters = sorted(starts)
    room = MENU_OPTIONS - 1  # one option stays for the last step
    if len(chapters) > room:
        chapters = [chapters[i * len(chapters) // room] for i in range(room)]
    now = frames[at].chapter
    current = max((c for c in chapters if c <= now), default=chapters[0])
    options = [discord.SelectOption(label=t(f"replay.chapter.{table.spec.name}", chapter=c),
                                    description=t("replay.jump_step", step=starts[c]), value=str(starts[c]),
                                    default=c == current and at != len(frames) - 1)
               for c in chapters]
    options.append(discord.SelectOption(label=t("replay.jump_end"), value=str(len(frames) - 1),
                                        description=t("replay.jump_step", step=len(frames) - 1),
                                        default=at == len(frames) - 1))
    return options


# --------------------------------------------------------------------------- answering


async def _refuse(interaction: discord.Interaction, refused: Refused) -> None:
    embed = discord.Embed(description=t(refused.key, interaction.locale.value, **refused.values),
                          colour=discord.Colour.red())
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def _show(interaction: discord.Interaction, game_id: int, at: int, *, public: bool, edit: bool) -> None:
    """Answer ``interaction`` with step ``at`` of game ``game_id``: as a new message (private unless
    ``public``) or, for a press on a replay, by editing the pressed message in place."""
    hub = hub_of(interaction)
    async with answering_click(interaction) as answer:
        if not edit:
            answer.stop_guard()  # a new message is acknowledged below, once it is known not to be refused
        try:
            game_log = await _load(hub.bot, game_id, interaction.guild_id)
            frames = await _frames(hub.bot, game_log)
        except Refused as refused:
            answer.stop_guard()
            await answer.settled()
            await _refuse(interaction, refused)
            return
        if public:
            await hub.readers.load_guild(interaction.guild_id)
            reader_is(hub.readers.public(interaction.guild_id))  # a message for the channel: its language
        else:
            reader_is(interaction.locale.value)  # a private replay: the opener's language
        if not edit:
            # A board picture can queue behind other tables' in the drawing processes: acknowledged
            # first, as private or public as the replay it becomes.
            await interaction.response.defer(ephemeral=not public, thinking=True)
        embed, picture, view = await _step(hub, game_log, frames, min(max(at, 0), len(frames) - 1))
        if edit:
            # The pressed message, through its own interaction: the response (type 7), or an edit of
            # it if the guard had to defer (both exempt from the rate limits).
            await answer.edit(embed=embed, view=view, attachments=[] if picture is None else [picture])
        elif picture is None:
            await interaction.followup.send(embed=embed, view=view, ephemeral=not public)
        else:
            await interaction.followup.send(embed=embed, view=view, file=picture, ephemeral=not public)


async def open_replay(interaction: discord.Interaction, game_id: int, public: bool) -> None:
    """Answer ``/game replay``: the game's first step, privately or for the channel."""
    await _show(interaction, game_id, 0, public=public, edit=False)


async def _press(interaction: discord.Interaction, game_id: int, at: int) -> None:
    """Answer a press on a replay by redrawing it in place at step ``at``. A custom_id crafted onto
    another message (a board, a lobby, a summary) never turns that message into a replay: the
    replay then opens privately instead."""
    message = interaction.message
    client = interaction.client.user
    ours = (message is not None and client is not None and message.author.id == client.id and
            any(embed.colour == REPLAY_COLOUR for embed in message.embeds))
    public = ours and message is not None and not message.flags.ephemeral
    await _show(interaction, game_id, at, public=public, edit=ours)


class StepButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"replay:(?P<game>\d{1,18}):(?P<step>\d{1,6}):(?P<tag>[fpnl])"):
    """⏮ ◀ ▶ ⏭: the game and the step to show live in the custom_id (the tag keeps the four ids
    distinct when two point at the same step)."""

    def __init__(self, game_id: int, step: int, tag: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=_ARROWS[tag], style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"replay:{game_id}:{step}:{tag}", row=0))
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> StepButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["step"]), match["tag"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Redraw the pressed replay at this step."""
        await _press(interaction, self.game_id, self.step)


class JumpSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"replay-jump:(?P<game>\d{1,18})"):
    """The jump menu: each option's value is the step it goes to."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"replay-jump:{game_id}", options=options or [],
                                           placeholder=t("replay.jump"), row=1))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> JumpSelect:
        """Rebuild the menu from its custom_id (the picked value comes with the interaction)."""
        return cls(int(match["game"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Redraw the replay at the picked step (a crafted value is clamped to the game's steps)."""
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or []
        value = str(values[0]) if values else ""
        at = int(value) if value.isdigit() and len(value) <= 6 else 0
        await _press(interaction, self.game_id, at)


DYNAMIC_ITEMS = (StepButton, JumpSelect)
"""The replay components, registered while the cog is loaded."""


class Replays(commands.Cog):
    """Registers the replay components (they outlive restarts); ``/game replay`` itself sits in the
    ``/game`` group beside ``/game log`` (cogs.leaderboard) and calls :func:`open_replay`."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def open(self, interaction: discord.Interaction, game_id: int, public: bool) -> None:
        """Open a game's replay at its start (the Replay button of a summary: cogs.table.controls.lobby)."""
        await open_replay(interaction, game_id, public)

    async def cog_load(self) -> None:
        """Register the replay components."""
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        """Unregister them."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)


async def setup(bot: commands.Bot) -> None:
    """Load the cog (discord.py extension entry point)."""
    assert isinstance(bot, TableBot)
    await bot.add_cog(Replays(bot))
