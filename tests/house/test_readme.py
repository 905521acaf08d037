"""The README is the short way in, and it and docs/ stay true (issue 43).

The README once grew to 95 KB: nobody found the two commands in it, and it named commands and
options the bot no longer had (and missed ones it had). So:

- the README stays under :data:`SIZE_LIMIT`; detail belongs in docs/;
- every relative link of the README and of docs/*.md leads to a file, and an anchor to a heading
  of that file (GitHub's anchors);
- every slash command the README names in inline code (```/name sub [option] <required>```,
  ``<game>`` standing for every game's group) is in the bot's real command tree, with those
  options, optional or required as written, and every command of the tree is named with every
  option it has (the README's table is the list of commands);
- the README's test command is the one CI runs (.ci/run), and its commands are the scripts.

The command tree is the one the bot registers: the real bot started on the fake Discord (as the
bot tests start it), its cogs loaded by the setup hook.
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from discord import app_commands

from bot import Bot
from db.store import Store
from engine.clock import ManualClock
from fakediscord import FakeDiscord
from wiring.config import Config

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
SIZE_LIMIT = 8 * 1024
"""Bytes: the README says what the bot is, the two commands, the invite, the commands, the
essentials of configuration and where things are; everything longer is a docs/ page."""

FENCE = re.compile(r"^```.*?^```[^\n]*$", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\]\(([^)\s]+)\)")
OPTIONAL, REQUIRED, GIVEN = re.compile(r"\[(\w+)(?::[^\]]*)?\]"), re.compile(r"<(\w+)>"), re.compile(r"(\w+):\S*")


def prose(text: str) -> str:
    """The text without its fenced code blocks (a link or a heading there is code, not markdown)."""
    return FENCE.sub("", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (backticks too), spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a markdown file; a repeated heading gets -1, -2, ... as on GitHub."""
    seen: Counter[str] = Counter()
    out = set()
    for heading in re.findall(r"^#{1,6} (.+)$", prose(path.read_text(encoding="utf-8")), re.MULTILINE):
        base = slug(heading)
        out.add(base if seen[base] == 0 else f"{base}-{seen[base]}")
        seen[base] += 1
    return out


def relative_links(path: Path) -> list[str]:
    """The targets of a markdown file's links that point into the repository (no scheme)."""
    text = re.sub(r"`[^`\n]*`", "", prose(path.read_text(encoding="utf-8")))  # inline code is not a link
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def test_the_readme_is_short():
    size = len(README.read_bytes())
    assert size <= SIZE_LIMIT, f"README.md has {size} bytes (limit {SIZE_LIMIT}): move the detail to docs/"


def test_the_link_pattern_finds_links():
    assert relative_links(README) and any(relative_links(doc) for doc in DOCS)


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_a_heading(path: Path):
    broken = []
    for target in relative_links(path):
        name, _, anchor = target.partition("#")
        dest = (path.parent / name).resolve() if name else path
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
            broken.append(f"{target}: no such heading in {dest.relative_to(ROOT)}")
    assert broken == []


@functools.cache
def command_tree() -> dict[str, app_commands.Command]:
    """Every slash command the bot registers, by its full name (``incan new``, ``help``)."""

    async def started() -> dict[str, app_commands.Command]:
        with tempfile.TemporaryDirectory() as folder, FakeDiscord() as fake:
            store = await Store.open(os.path.join(folder, "bot.sqlite3"))
            bot = Bot(store, Config(token=None, ai_delay_s=0.0, rate_limited=False), ManualClock())
            await fake.start(bot)
            try:
                return {command.qualified_name: command for command in bot.tree.walk_commands()
                        if isinstance(command, app_commands.Command)}
            finally:
                await fake.stop(bot)
                await store.close()

    return asyncio.run(started())


def game_groups(tree: dict[str, app_commands.Command]) -> list[str]:
    """The groups a ``<game>`` in the README stands for: those that open a table (``/<group> new``)."""
    return sorted(name.split()[0] for name in tree if name.endswith(" new") and " " in name)


def named_commands(tree: dict[str, app_commands.Command]) -> list[tuple[str, str, bool | None]]:
    """Every (command, option, required) the README's inline code names; an option of None is the
    command alone, ``required`` None an option given as ``name:value`` (either way)."""
    text = prose(README.read_text(encoding="utf-8"))
    groups = {name.split()[0] for name in tree if " " in name}
    found: list[tuple[str, str, bool | None]] = []
    for span in re.findall(r"`(/[^`]+)`", text):
        words = span.split()
        first = words[0][1:]
        heads = game_groups(tree) if first == "<game>" else [first]
        for head in heads:
            if head in groups and len(words) > 1:
                name, rest = f"{head} {words[1]}", words[2:]
            else:
                name, rest = head, words[1:]
            found.append((name, "", None))
            for word in rest:
                for pattern, required in ((OPTIONAL, False), (REQUIRED, True), (GIVEN, None)):
                    match = pattern.fullmatch(word)
                    if match:
                        found.append((name, match[1], required))
                        break
                else:
                    found.append((name, f"?{word}", None))  # not an option: reported below
    return found


def test_every_command_the_readme_names_is_the_bots_with_those_options():
    tree = command_tree()
    named = named_commands(tree)
    assert len({name for name, _, _ in named}) > 10, "the pattern found no command table"
    groups = {name.split()[0] for name in tree if " " in name}
    wrong = []
    for name, option, required in named:
        command = tree.get(name)
        if command is None and name in groups and not option:
            continue  # a group named as a whole (``/settings``)
        if command is None:
            wrong.append(f"/{name}: no such command")
            continue
        if not option:
            continue
        parameter = next((p for p in command.parameters if p.name == option), None)
        if parameter is None:
            wrong.append(f"/{name} {option}: no such option")
        elif required is not None and parameter.required != required:
            wrong.append(f"/{name} {option}: {'required' if parameter.required else 'optional'} in the bot")
    assert wrong == []


def test_every_command_of_the_bot_is_in_the_readme_with_every_option():
    tree = command_tree()
    assert tree, "the bot registered no command"
    named = {(name, option) for name, option, _ in named_commands(tree)}
    missing = [f"/{name} {option}".rstrip() for name, command in sorted(tree.items())
               for option in ["", *(p.name for p in command.parameters)] if (name, option) not in named]
    assert missing == []


def two_commands() -> list[str]:
    """The commands of the README's first code block (the two commands), without their comments."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## The two commands"):]
    block = re.search(r"^```\w*\n(.*?)^```", section, re.MULTILINE | re.DOTALL)
    assert block is not None, "no code block under 'The two commands'"
    return [line.split("#")[0].strip() for line in block[1].splitlines() if line.split("#")[0].strip()]


def test_the_readme_test_command_is_the_one_ci_runs():
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line[0].isspace() and not line.startswith("#")
          and not re.match(r"(set|cd|if|fi|then|else|export)\b", line)]
    assert ci, ".ci/run runs nothing"
    commands = two_commands()
    assert ci[-1] in commands, f".ci/run runs {ci[-1]!r}; the README's commands are {commands}"
    for command in commands:  # each is a script of the repository that can be run as written
        script = ROOT / command.split()[0]
        assert script.is_file() and os.access(script, os.X_OK), command
