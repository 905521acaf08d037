"""``/game replay`` and the summaries' Replay button through the real bot on the fake Discord (issue 44).

A finished game of each kind, written to the store as the session writes it (on SQLite and on
PostgreSQL), is stepped to its end with ▶: every step shows the engine's replay of the log up to it
(the board's fields as the game's own renderer draws that state, and the step's log lines) and
costs only the press's own interaction response. A running game is refused with nothing of it
shown, also through a forged custom_id; another server's game is "no such game"; a replay opened
before a restart keeps stepping after it.
"""

from __future__ import annotations

from typing import Any

import pytest
from incan_kit import buttons, config, start_bot
from table_kit import incan_table, incan_to_the_end

from bot import Bot
from cogs.replay.steps import cut
from cogs.sakkara.render import SakkaraRenderer
from cogs.sakkara.words import SEAT_MARKS, counts_text
from cogs.table import answer as answer_module
from db import NewResult, NewSeat, Store
from engine.core import play, replay
from engine.session import SeatSpec, Table
from engine.session.games import SPECS
from fakediscord import FakeDiscord, FakeMessage, InteractionRecord

SEED = 11


@pytest.fixture
def store(either_store: Store) -> Store:
    """The bot's database on each backend: a replay reads the log the same way from both."""
    return either_store


def _random(view, legal, rng):  # an Agent
    return rng.choice(legal)


async def finished_game(store: Store, fake: FakeDiscord, channel_id: int, name: str, people: list[Any],
                        guild_id: int | None = None, seats: list[NewSeat] | None = None
                        ) -> tuple[int, list[tuple[int, Any]]]:
    """Write a finished two-seat game of ``name`` played by random moves (by ``people``, or ``seats``);
    return its id and log."""
    game = SPECS[name].game
    run = play(game, [_random] * 2, seed=SEED)
    row = await store.create_game(name, guild_id=guild_id or fake.guild_id, channel_id=channel_id,
                                  host_id=people[0].id)
    await store.start_game(row.id, seats or [NewSeat.human(p.id, p.name) for p in people], seed=SEED)
    await store.append_actions(row.id, 0, run.log)
    scores = game.result(run.state)["scores"]
    await store.finish_game(row.id, [NewResult(i, sc, 1 + sum(o > sc for o in scores), sc == max(scores))
                                     for i, sc in enumerate(scores)])
    return row.id, run.log


def answer(rec: InteractionRecord) -> FakeMessage:
    assert rec.acknowledged and rec.replies, rec
    return rec.replies[-1]


def step_id(message: FakeMessage, game_id: int, tag: str) -> str:
    """The custom_id of a replay's ⏮ (f), ◀ (p), ▶ (n) or ⏭ (l) button."""
    [found] = [c for c in buttons(message, f"replay:{game_id}:") if c.endswith(f":{tag}")]
    return found


def limited_since(fake: FakeDiscord, start: int) -> list[str]:
    """The rate-limited REST calls (everything but the interaction endpoints) made since ``start``."""
    return [f"{c.method} {c.path}" for c in fake.rest_calls[start:]
            if not c.route.startswith(("/interactions/", "/webhooks/"))]


class Replayed:
    """The engine's states after every prefix of a log, from one pass over it (``states[k]`` is
    ``replay(log[:k])``; ``happened[k]`` the events of ``log[k - 1]``), so that checking each of a
    long game's steps does not replay the log from its start again for each."""

    def __init__(self, name: str, log: list[tuple[int, Any]]) -> None:
        self.game = SPECS[name].game
        state = self.game.setup(2, SEED, None)
        self.states: list[Any] = [state]
        self.happened: list[list[dict[str, Any]]] = [[]]
        for seat, action in log:
            state, events = self.game.apply(state, seat, action)
            self.states.append(state)
            self.happened.append(events)


def expected_fields(bot: Bot, fake: FakeDiscord, name: str, game_id: int, people: list[Any],
                    replayed: Replayed, upto: int, since: int) -> tuple[list[tuple[str, str]], list[str]]:
    """The fields a step must show: the game's own board fields for ``replay(log[:upto])`` and the log
    lines of the events of ``log[since:upto]``, computed here from the engine alone."""
    state = replayed.states[upto]
    table = Table(game_id, SPECS[name], fake.guild_id, 999, people[0].id, {}, {}, "finished",
                  [SeatSpec(p.name, p.id) for p in people], SEED, state)
    renderer: Any = bot.hub.renderer(table)
    embed = (renderer.round_embed(table) if name == "incan_gold" else
             renderer.public_embed(table, True) if name == "sakkara" else renderer.board_embed(table, True))
    events = [event for happened in replayed.happened[since + 1:upto + 1] for event in happened]
    lines = renderer.event_lines(table, events) if events else []
    return [(f.name, f.value) for f in embed.fields], lines


def expected_racks(replayed: Replayed, people: list[Any], upto: int) -> list[str]:
    """Each Sakkara builder's rack in ``replay(log[:upto])``, read from the engine's private view of
    that seat (what only its owner saw while the game was played)."""
    return [f"{mark} {person.name}: {counts_text(replayed.game.view(replayed.states[upto], seat)['rack'])}"
            for seat, (mark, person) in enumerate(zip(SEAT_MARKS, people, strict=True))]


@pytest.mark.parametrize("name", ["incan_gold", "sakkara", "indus"])
async def test_a_finished_game_stepped_to_the_end_is_the_engines_replay_at_every_step(fake, table, store, clock,
                                                                                      name):
    ann, bo = fake.user("Ann"), fake.user("Bo")
    game_id, log = await finished_game(store, fake, 999, name, [ann, bo])
    bot = await start_bot(fake, store, clock)
    shown = answer(await fake.slash(bo, table, "game replay", {"id": game_id}))
    assert shown.ephemeral and f"Replay of game #{game_id}" in shown.render() and "step 0/" in shown.render()
    assert "nothing has happened yet" in shown.render()
    steps = cut(SPECS[name], 2, SEED, {}, log)
    assert len(steps) > 10
    replayed = Replayed(name, log)
    assert replayed.states[-1] == replay(SPECS[name].game, 2, SEED, log)  # one pass is the replay
    ends = [0]
    at = 0
    seen_racks: set[tuple[str, ...]] = set()
    while True:
        step_button = step_id(shown, game_id, "n")
        if shown.component(step_button)["disabled"]:
            break
        start = len(fake.rest_calls)
        rec = await fake.click(bo, shown, step_button)
        assert rec.callbacks == [7] and limited_since(fake, start) == []  # the press's own answer, no REST edit
        at += 1
        ends.append(steps[at].end)
        [embed] = shown.embeds
        assert f"step {at}/{len(steps) - 1}" in embed["title"]
        board, lines = expected_fields(bot, fake, name, game_id, [ann, bo], replayed, ends[-1], ends[-2])
        fields = [(f["name"], f["value"]) for f in embed["fields"]]
        assert fields[:len(board)] == board  # the board's fields for replay(log[:end]), in full
        assert fields[-1][1] == "\n".join(lines)[-1024:]  # the step's own log lines
        if name != "incan_gold":
            assert [f.filename for f in shown.files] == ["board.png"] and embed["image"]["url"] == "attachment://board.png"
        if name == "sakkara":
            racks = expected_racks(replayed, [ann, bo], ends[-1])
            assert fields[len(board)] == ("Racks (hidden during play)", "\n".join(racks))
            seen_racks.add(tuple(racks))
    assert at == len(steps) - 1 and ends[-1] == len(log)
    assert name != "sakkara" or len(seen_racks) > 10  # the racks shown change with the steps
    await fake.stop(bot)


async def test_a_running_game_is_refused_and_shows_nothing(fake, table, store, clock):
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    row = await store.create_game("incan_gold", guild_id=fake.guild_id, channel_id=table.id, host_id=ann.id)
    await store.start_game(row.id, [NewSeat.human(ann.id, "Ann"), NewSeat.human(bo.id, "Bo")], seed=SEED)
    run = play(SPECS["incan_gold"].game, [_random] * 2, seed=SEED)
    await store.append_actions(row.id, 0, run.log[:3])  # a card and both choices: hidden until revealed
    refused = answer(await fake.slash(bo, table, "game replay", {"id": row.id}))
    assert refused.ephemeral and "not over yet" in refused.render()
    assert not refused.custom_ids and not refused.files and len(refused.embeds[0].get("fields") or []) == 0
    # a forged step button or jump naming the running game: the same refusal, nothing drawn
    done_id, _ = await finished_game(store, fake, 999, "incan_gold", [ann, bo])
    shown = answer(await fake.slash(bo, table, "game replay", {"id": done_id, "public": True}))
    assert not shown.ephemeral
    before = shown.render()
    forged = answer(await fake.craft_component(bo, shown, f"replay:{row.id}:2:n"))
    assert forged.ephemeral and "not over yet" in forged.render() and shown.render() == before
    jumped = answer(await fake.craft_component(bo, shown, f"replay-jump:{row.id}", component_type=3, values=["3"]))
    assert jumped.ephemeral and "not over yet" in jumped.render() and shown.render() == before
    # a running Sakkara game, its workers placed (tiles in both private racks): refused the same way
    sakkara = await store.create_game("sakkara", guild_id=fake.guild_id, channel_id=996, host_id=ann.id)
    await store.start_game(sakkara.id, [NewSeat.human(ann.id, "Ann"), NewSeat.human(bo.id, "Bo")], seed=SEED)
    await store.append_actions(sakkara.id, 0, play(SPECS["sakkara"].game, [_random] * 2, seed=SEED).log[:5])
    for rec in (await fake.slash(bo, table, "game replay", {"id": sakkara.id}),
                await fake.craft_component(bo, shown, f"replay:{sakkara.id}:2:l")):
        running = answer(rec)
        assert running.ephemeral and "not over yet" in running.render() and not running.files
        assert not running.custom_ids and len(running.embeds[0].get("fields") or []) == 0
    assert shown.render() == before
    # another server's game is no game here, by number or by a forged custom_id
    other, _ = await finished_game(store, fake, 999, "sakkara", [ann, bo], guild_id=fake.guild_id + 1)
    hidden = answer(await fake.slash(bo, table, "game replay", {"id": other}))
    assert hidden.ephemeral and f"no game #{other}" in hidden.render() and not hidden.custom_ids
    elsewhere = answer(await fake.craft_component(bo, shown, f"replay:{other}:1:n"))
    assert elsewhere.ephemeral and f"no game #{other}" in elsewhere.render() and shown.render() == before
    # an abandoned game whose log no longer replays, and a lobby that never started: refused, nothing drawn
    broken = await store.create_game("incan_gold", guild_id=fake.guild_id, channel_id=998, host_id=ann.id)
    await store.start_game(broken.id, [NewSeat.human(ann.id, "Ann"), NewSeat.human(bo.id, "Bo")], seed=3)
    await store.append_actions(broken.id, 0, [(-1, "T5"), (0, "jump")])  # "jump" is no Incan Gold move
    await store.cancel_game(broken.id, "abandoned")
    unreadable = answer(await fake.slash(bo, table, "game replay", {"id": broken.id}))
    assert unreadable.ephemeral and "cannot be read" in unreadable.render() and not unreadable.custom_ids
    lobby = await store.create_game("sakkara", guild_id=fake.guild_id, channel_id=997, host_id=ann.id)
    await store.cancel_game(lobby.id, "cancelled")
    never = answer(await fake.slash(bo, table, "game replay", {"id": lobby.id}))
    assert never.ephemeral and "never started" in never.render() and not never.custom_ids
    await fake.stop(bot)


async def test_a_replay_keeps_stepping_after_a_restart_and_jumps_by_chapter(fake, table, store, clock):
    ann, bo = fake.user("Ann"), fake.user("Bo")
    game_id, log = await finished_game(store, fake, 999, "incan_gold", [ann, bo])
    bot = await start_bot(fake, store, clock)
    shown = answer(await fake.slash(ann, table, "game replay", {"id": game_id}))
    [menu] = [c for c in shown.custom_ids if c.startswith("replay-jump:")]
    options = shown.component(menu)["options"]
    assert [o["label"] for o in options] == [f"Expedition {n}" for n in range(1, 6)] + ["The end"]
    again = Bot(store, config(), clock)
    await fake.restart(bot, again)
    start = len(fake.rest_calls)
    rec = await fake.select(ann, shown, menu, [options[2]["value"]])  # Expedition 3, after the restart
    assert rec.callbacks == [7] and limited_since(fake, start) == []
    assert "expedition 3/5" in shown.embeds[0]["description"]
    last = step_id(shown, game_id, "l")
    await fake.click(ann, shown, last)
    steps = cut(SPECS["incan_gold"], 2, SEED, {}, log)
    assert f"step {len(steps) - 1}/{len(steps) - 1}" in shown.embeds[0]["title"]
    assert shown.component(last)["disabled"] and limited_since(fake, start) == []
    await fake.stop(again)


async def test_every_summary_carries_a_replay_button_that_opens_it_privately(fake, table, store, clock):
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    live = await incan_table(fake, bot, table, [ann, bo])  # a real game, played through the buttons
    await incan_to_the_end(fake, live, [ann, bo])
    game_id = live.id
    summary = next(m for m in fake.channel_messages(table) if buttons(m, "rematch:"))
    assert buttons(summary, "replay-open:") == [f"replay-open:{game_id}"]
    start = len(fake.rest_calls)
    opened = answer(await fake.click(bo, summary, f"replay-open:{game_id}"))
    assert opened.ephemeral and f"Replay of game #{game_id}" in opened.render()
    assert limited_since(fake, start) == []
    # a step button crafted onto the summary never turns the summary into a replay: it opens privately
    before = summary.render()
    crafted = answer(await fake.craft_component(ann, summary, f"replay:{game_id}:3:n"))
    assert crafted.ephemeral and "step 3/" in crafted.render() and summary.render() == before
    await fake.stop(bot)


async def test_a_private_replay_speaks_its_openers_language_and_a_public_one_the_servers(fake, table, store, clock):
    ann, aino = fake.user("Ann"), fake.user("Aino", locale="fi")
    game_id, _ = await finished_game(store, fake, 999, "indus", [ann, aino])
    bot = await start_bot(fake, store, clock)
    private = answer(await fake.slash(aino, table, "game replay", {"id": game_id}))
    assert private.ephemeral and f"Pelin #{game_id} uusinta" in private.render()
    await fake.click(aino, private, step_id(private, game_id, "n"))
    assert "vaihe 1/" in private.embeds[0]["title"]
    public = answer(await fake.slash(aino, table, "game replay", {"id": game_id, "public": True}))
    assert not public.ephemeral and f"Replay of game #{game_id}" in public.render()
    await fake.click(ann, public, step_id(public, game_id, "n"))
    assert "step 1/" in public.embeds[0]["title"] and not public.ephemeral  # anyone there may step it
    await fake.stop(bot)


async def test_a_slow_step_is_deferred_in_time_and_still_costs_no_rate_limited_call(fake, table, store, clock,
                                                                                   monkeypatch):
    ann, bo = fake.user("Ann"), fake.user("Bo")
    game_id, _ = await finished_game(store, fake, 999, "sakkara", [ann, bo])
    bot = await start_bot(fake, store, clock)
    shown = answer(await fake.slash(ann, table, "game replay", {"id": game_id}))
    monkeypatch.setattr(answer_module, "ACK_GUARD_S", 0.0)  # as if the picture queued behind others
    start = len(fake.rest_calls)
    rec = await fake.click(ann, shown, step_id(shown, game_id, "l"))
    assert rec.callbacks == [6] and limited_since(fake, start) == []  # deferred, then its response edited
    assert shown.component(step_id(shown, game_id, "l"))["disabled"] and "step 0/" not in shown.embeds[0]["title"]
    await fake.stop(bot)


async def test_a_bots_turn_in_a_replay_is_shown_as_played_not_as_thinking(fake, table, store, clock):
    ann = fake.user("Ann")
    game_id, _ = await finished_game(store, fake, 999, "indus", [ann],
                                       seats=[NewSeat.human(ann.id, "Ann"), NewSeat.ai("easy", "Easy bot 1")])
    bot = await start_bot(fake, store, clock)
    shown = answer(await fake.slash(ann, table, "game replay", {"id": game_id}))
    seen = []
    for _ in range(12):  # the setup's placements alternate: the bot's come up every other step
        await fake.click(ann, shown, step_id(shown, game_id, "n"))
        seen.append(shown.render())
    assert any("Easy bot 1" in text for text in seen)
    assert not any("The bot is thinking" in text for text in seen)
    await fake.stop(bot)


async def test_a_sakkara_table_still_playing_never_shows_a_rack_even_asked_for_its_replay_board():
    # The replay cog refuses a running game before reading it; the renderer is a second lock.
    people = [SeatSpec("Ann", 1), SeatSpec("Bo", 2)]
    state = replay(SPECS["sakkara"].game, 2, SEED, play(SPECS["sakkara"].game, [_random] * 2, seed=SEED).log[:5])
    assert all(SPECS["sakkara"].game.view(state, seat)["rack"] for seat in (0, 1))  # both racks hold tiles
    renderer = SakkaraRenderer()
    for status, shows in (("playing", False), ("finished", True)):
        table = Table(1, SPECS["sakkara"], 10, 20, 1, {}, {}, status, people, SEED, state)
        embed, _ = await renderer.replay_board(table)
        assert any(f.name == "Racks (hidden during play)" for f in embed.fields) is shows
