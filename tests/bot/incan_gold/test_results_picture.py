"""Incan Gold's end of game as a picture (issue 13, item 8): the standings message carries the chart
of every player's total after each expedition, on the same message (one send)."""

from __future__ import annotations

import io

from incan_kit import buttons, start_bot
from PIL import Image
from table_kit import incan_table, incan_to_the_end

from engine.incan_gold.history import ExpeditionEnd
from pictures.incan_gold.chart import chart_png


async def test_the_summary_carries_the_chart_of_the_expeditions(fake, table, store, clock):
    players = [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players, bots=("medium",))
    await incan_to_the_end(fake, game, players)
    await bot.hub.outbox.drained()
    [summary] = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert [f.filename for f in summary.files] == ["results.png"]
    assert summary.embeds[0]["image"]["url"] == "attachment://results.png"
    picture = Image.open(io.BytesIO(summary.files[0].data))
    assert picture.size == (640, 360)
    await fake.stop(bot)


def test_the_chart_draws_each_seat_in_its_colour_and_marks_artifacts():
    ends = [ExpeditionEnd(r, "all-left", (r * 3, r * 5, 0), (r * 3, r * 5 + (5 if r >= 2 else 0), 0),
                          ((), (("A2", 5),) if r == 2 else (), ())) for r in range(1, 6)]
    png = chart_png(ends, ["Ann", "[x](https://e.com) **Bo**", "Cy"])
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    colours = {colour for _, colour in picture.getcolors(1 << 16)}
    assert (0x2A, 0x6F, 0xD6) in colours and (0xD2, 0x37, 0x2C) in colours  # seats 1 and 2's lines
    assert png != chart_png([*ends[:1], *(e for e in ends[1:])], ["Ann", "Bo", "Cy"])  # names are drawn
