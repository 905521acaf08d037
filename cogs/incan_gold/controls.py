"""The controls of an Incan Gold explorer: Torch and Camp, on the expedition message and in a
seat's private prompt. Built from the actions the caller got from ``GAME.legal_actions``."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from cogs.table.controls.buttons import ActButton
from engine.session import Table
from i18n import t

__all__ = ["CHOICE_EMOJI", "choice_buttons", "choice_name"]

CHOICE_EMOJI = {"torch": "🔦", "camp": "⛺"}
"""A picture per choice that means the same in every language (the labels are the server's)."""


def choice_buttons(table: Table, actions: Iterable[str]) -> list[ActButton]:
    """Return a button per action ("torch" green, "camp" red) for the table's current window."""
    return [ActButton(table.id, table.window, action, t(f"incan.{action}"),
                      discord.ButtonStyle.success if action == "torch" else discord.ButtonStyle.danger,
                      emoji=CHOICE_EMOJI[action])
            for action in actions]


def choice_name(action: str, language: str) -> str:
    """Return a choice as its button shows it in ``language`` (the language of the message the
    reader pressed it on: the words they saw), its picture first."""
    return f"{CHOICE_EMOJI[action]} {t(f'incan.{action}', language)}"
