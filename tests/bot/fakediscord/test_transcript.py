"""The transcript renderer (fakediscord/transcript.py) on the sample bot: places, privacy, edits."""

from __future__ import annotations

from fakediscord.transcript import Transcript


async def test_each_reader_sees_the_public_channel_and_only_their_own_private_messages(fake, bot, table, ann):
    bo = fake.user("Bo")
    log = Transcript(fake)
    log.act(ann, "types /sample hello")
    await fake.slash(ann, table, "sample hello", {"name": "Bo", "times": 1})
    await fake.slash(ann, table, "sample secret")
    await fake.slash(bo, table, "sample dm", {"game": 7})
    channel = log.for_place("#table")
    assert "message 1:\n  Hello Bo!" in channel
    assert "psst" not in channel and "Torch or camp?" not in channel and "»" not in channel
    mine = log.for_user_private(ann)
    assert "» Ann types /sample hello" in mine and "[#table, only Ann sees] message 1:\n  psst" in mine
    assert "Torch or camp?" not in mine
    theirs = log.for_user_private(bo)
    assert "message 1:\n  Torch or camp?" in theirs and "psst" not in theirs  # Bo's DM, numbered in its place
    assert str(ann.id) not in channel + mine + theirs  # ids are names


async def test_an_edit_shows_the_lines_it_changed(fake, bot, table, ann):
    log = Transcript(fake)
    await fake.slash(ann, table, "sample slow")
    channel = log.for_place("#table")
    assert "message 1 edited:\n  + done thinking" in channel
