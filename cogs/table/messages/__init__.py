"""The bot's messages of every table: the hub and its parts (message book, private channel, closer),
the outbox that keeps REST calls within Discord's budgets, the story, and the text helpers."""
