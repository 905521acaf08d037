"""The house: the layers import one way only and no module imports another that imports it back.

Read from the source (every ``import``, also inside functions and ``if TYPE_CHECKING:``), so a
new circle or an arrow the wrong way fails here before it reaches review.
"""

from __future__ import annotations

import ast
import importlib
import tomllib
from pathlib import Path

import pytest
from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("bot.py", "demo.py", "cogs", "engine", "db", "i18n", "pictures", "wiring", "fakediscord")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for entry in PRODUCT:
        path = ROOT / entry
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            out[_module_name(file)] = file
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Return the project modules ``name`` imports (a package import counts as its __init__)."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        for target in targets:
            # The longest known module the target names ("cogs.table.messages.hub.TableHub" -> ...messages.hub).
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


GRAPH = {name: _imports(name, path, set(_sources())) for name, path in _sources().items()}


def _external(name: str) -> set[str]:
    path = _sources()[name]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out


def test_no_module_imports_one_that_imports_it_back() -> None:
    # Package __init__ files that re-export their own submodules are the package's face, not a
    # circle: a submodule importing a sibling by its full name never runs through them.
    def edges(name: str) -> set[str]:
        return {t for t in GRAPH[name] if not (t.startswith(name + ".") and _sources()[name].name == "__init__.py")}

    circles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges(node)):
            if state.get(nxt) == 1:
                circles.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(GRAPH):
        if node not in state:
            visit(node)
    assert circles == []


COMMANDS = {"db.copy": {"engine"}}
"""Entry points (``python -m ...``) that stand above their package's layer, with the imports that
grants them: db.copy replays every game through the rules to check what it copied. Nothing in the
product may import a command (see the test below), so the layers still point one way."""


ABOVE_ALL = {"fakediscord", "bot", "demo", "tests", "bench"}
"""The composition root, the demo, the fake Discord, tests and benchmarks: nothing of the product
imports them."""


@pytest.mark.parametrize(("layer", "forbidden"), [
    ("engine", ABOVE_ALL | {"discord", "db", "cogs", "i18n", "pictures", "wiring", "aiosqlite", "asyncpg"}),
    ("db", ABOVE_ALL | {"discord", "engine", "cogs", "i18n", "pictures", "wiring"}),
    ("i18n", ABOVE_ALL | {"discord", "engine", "db", "cogs", "pictures", "wiring"}),
    # Pictures are drawn from the engine's views in the reader's language; they know no Discord.
    ("pictures", ABOVE_ALL | {"discord", "db", "cogs", "wiring"}),
    # The wiring binds the session to the store; it faces no Discord and draws nothing.
    ("wiring", ABOVE_ALL | {"discord", "cogs", "i18n", "pictures"}),
    # The cogs are handed the wiring's objects by bot.py; they never build or name them.
    ("cogs", ABOVE_ALL | {"wiring"}),
    ("bot", {"fakediscord", "demo", "tests", "bench"}),  # the demo and the fake stand above the bot
    # The fake Discord drives any discord.py client: it knows nothing of this bot (the chaos harness,
    # which runs the bot and reads its schema, lives in tests/chaos/harness).
    ("fakediscord", {"bot", "demo", "cogs", "engine", "db", "i18n", "pictures", "wiring", "tests", "bench"}),
])
def test_layers_import_downwards_only(layer: str, forbidden: set[str]) -> None:
    def offences(name: str) -> list[str]:
        return sorted(_external(name) & forbidden - COMMANDS.get(name, set()))

    wrong = {name: offences(name) for name in _sources()
             if (name == layer or name.startswith(layer + ".")) and offences(name)}
    assert wrong == {}


def test_no_product_module_imports_a_command() -> None:
    assert {name: sorted(GRAPH[name] & set(COMMANDS)) for name in GRAPH if GRAPH[name] & set(COMMANDS)} == {}


def test_the_commands_are_real_modules_granted_only_what_they_use() -> None:
    # A stale grant (a renamed command, an import that went away) would silently widen the layer.
    assert {name: sorted(grant - _external(name)) for name, grant in COMMANDS.items() if name in GRAPH} == {
        name: [] for name in COMMANDS}


def test_the_rules_never_import_the_session_above_them() -> None:
    rules = [name for name in _sources() if name.startswith("engine.") and not name.startswith("engine.session")]
    wrong = {name: sorted(t for t in GRAPH[name] if t.startswith("engine.session")) for name in rules}
    assert {name: targets for name, targets in wrong.items() if targets} == {}


def test_the_fake_discord_is_not_part_of_the_installed_bot() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("cogs.fake")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    installed = set(find_packages(str(ROOT), include=include))
    assert {"cogs", "cogs.table", "cogs.incan_gold", "cogs.sakkara", "cogs.indus", "engine", "db", "i18n", "pictures",
            "wiring"} <= installed
    assert not {p for p in installed if p.split(".")[0] in ("fakediscord", "tests", "bench")}


DISCORD_INTERNALS = ("discord.http", "discord.state", "discord.gateway", "discord.webhook.async_", "discord.ui.view")
"""discord.py modules whose contents are not its public API (the bot reaches them only as attributes
of public objects, e.g. a logger's name)."""


@pytest.mark.parametrize("entry", ["bot.py", "cogs", "engine", "db", "i18n", "pictures", "wiring"])
def test_the_bot_uses_discord_py_public_api_only(entry):
    """No internal module imported, no private attribute (``_state``, ``_connection``) touched: the
    fake Discord (test support) and the benchmarks may, the bot may not."""
    path = ROOT / entry
    offences = []
    for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offences += [f"{file.name}: import {n}" for n in names if n.startswith(DISCORD_INTERNALS)]
            if isinstance(node, ast.Attribute) and node.attr in ("_state", "_connection", "_view_store", "http"):
                offences.append(f"{file.name}:{node.lineno}: .{node.attr}")
    assert not offences


def test_outside_db_the_store_is_reached_through_the_db_package_only():
    """``db/__init__`` is the store's face (the Store, its records and errors): no module of the
    product outside ``db/`` imports a db submodule, so the dialects, SQL and plumbing stay private
    to db/. (Benchmarks may time db's internals; tests may test them.)"""
    wrong = {name: sorted(t for t in GRAPH[name] if t.startswith("db.")) for name in GRAPH
             if not (name == "db" or name.startswith("db.")) and name not in COMMANDS}
    assert {name: targets for name, targets in wrong.items() if targets} == {}


DISCORD_FREE_COGS = {
    "cogs.incan_gold.words": "the game's words as Discord shows them (markdown, emoji); only its renderer uses them",
    "cogs.indus.words": "the game's words as Discord shows them (markdown, emoji); only its renderer uses them",
    "cogs.leaderboard.gamelog": "the text of /game log, which only the leaderboard cog sends",
    "cogs.replay.steps": "what one screen of /game replay shows (a card, a turn), which only the replay cog draws",
    "cogs.table.messages.closed_dms": "who has closed DMs, as the hub's private channel keeps it",
    "cogs.table.messages.reach": "how each player chose to be told of their turn (/notify), as the hub keeps it",
    "cogs.table.messages.outbox": "Discord's REST budgets, for the hub's rate-limited calls only",
    "cogs.table.messages.recorded": "what the hub needs of the records (a Protocol the storage adapter meets)",
    "cogs.table.controls.throttle": "the members' budgets for opening and ending tables, kept by the gate",
}
"""The cogs/ modules that need no Discord, each with why it still belongs with the cogs (it serves
only them). Anything else Discord-free goes to pictures/, i18n/ or wiring/, or gets its reason here."""


def test_every_cog_module_faces_discord_or_says_why_it_serves_only_the_cogs():
    """cogs/ holds Discord-facing code: a module there imports discord (itself or through the cog
    modules it imports), or is listed above with its reason."""
    def facing(name: str, seen: frozenset[str] = frozenset()) -> bool:
        return "discord" in _external(name) or any(
            facing(t, seen | {name}) for t in GRAPH[name] if t.startswith("cogs.") and t not in seen)

    free = {name for name in GRAPH if name.startswith("cogs.") and _sources()[name].name != "__init__.py"
            and not facing(name)}
    assert free == set(DISCORD_FREE_COGS)
    # ... and only cog modules import them (and bot.py, which composes the cogs)
    importers = {name: sorted(m for m in GRAPH if name in GRAPH[m] and not m.startswith("cogs.") and m != "bot")
                 for name in free}
    assert importers == {name: [] for name in free}


def test_the_rules_never_import_their_players():
    """engine/<game>/ is the rules; engine/<game>/ai/ the players above them."""
    wrong = {}
    for name in GRAPH:
        parts = name.split(".")
        if parts[0] == "engine" and len(parts) >= 2 and parts[1] not in ("session", "core", "clock", "ratings") \
                and (len(parts) < 3 or parts[2] != "ai"):
            above = sorted(t for t in GRAPH[name] if t.startswith(f"engine.{parts[1]}.ai"))
            if above:
                wrong[name] = above
    assert wrong == {}


GAME_FOLDER = {"__init__.py", "cog.py", "render.py", "controls.py", "words.py", "summary.py"}


@pytest.mark.parametrize("game", ["incan_gold", "sakkara", "indus"])
def test_every_game_has_the_same_files_on_discord(game):
    assert {f.name for f in (ROOT / "cogs" / game).glob("*.py")} == GAME_FOLDER


def test_no_module_imports_a_private_name_of_another():
    """A name used across modules is public (no leading underscore), so its owner knows it is used."""
    offences = []
    for name, path in sorted(_sources().items()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                offences += [f"{name}: {alias.name}" for alias in node.names
                             if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert offences == []


def _only_raises_not_implemented(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = [n for n in function.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    return (len(body) == 1 and isinstance(body[0], ast.Raise) and body[0].exc is not None
            and "NotImplementedError" in ast.unparse(body[0].exc))


DECLARING = ("Protocol", "NamedTuple", "TypedDict", "Enum", "IntEnum", "StrEnum")
"""Bases of classes whose bare annotations declare fields or an interface, not state set elsewhere."""


def _set_on_self(cls: ast.ClassDef) -> set[str]:
    found = set()
    for node in ast.walk(cls):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign | ast.AugAssign) else []
        found |= {t.attr for target in targets for t in ast.walk(target)
                  if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in ("self", "cls")}
    return found


def test_no_class_is_a_base_that_needs_its_subclass():
    """Composition, not upward mixin chains: no method stubbed with ``raise NotImplementedError`` for
    a subclass to provide, no attribute declared "provided by" a subclass, and no attribute declared
    bare in a class that neither it nor a project base of it sets (a subclass would have to).
    (A Protocol declares what it needs with ``...``; that is an interface, not a base.)"""
    stubs, provided, classes = [], [], {}
    for name, path in sorted(_sources().items()):
        source = path.read_text(encoding="utf-8")
        provided += [f"{name}:{n}" for n, line in enumerate(source.splitlines(), 1) if "provided by" in line.lower()]
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef):
                classes[node.name] = node
                stubs += [f"{name}.{node.name}.{f.name}" for f in node.body
                          if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and _only_raises_not_implemented(f)]

    def sets(cls: ast.ClassDef) -> set[str]:
        bases = [classes[b.id] for b in cls.bases if isinstance(b, ast.Name) and b.id in classes and b.id != cls.name]
        return _set_on_self(cls).union(*(sets(b) for b in bases))

    unset = []
    for cls in classes.values():
        declaring = any(ast.unparse(b).split("[")[0].endswith(DECLARING) for b in cls.bases) or any(
            "dataclass" in ast.unparse(d) for d in cls.decorator_list)
        bare = [s.target.id for s in cls.body if isinstance(s, ast.AnnAssign) and s.value is None
                and isinstance(s.target, ast.Name) and not s.target.id.isupper()]
        if bare and not declaring:
            unset += [f"{cls.name}.{attr}" for attr in bare if attr not in sets(cls)]
    assert (stubs, provided, unset) == ([], [], [])
