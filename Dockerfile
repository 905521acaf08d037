# Temple Table: a slim image that runs the bot as an unprivileged user, the database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/temple_table.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot.py ./
COPY cogs ./cogs
COPY engine ./engine
COPY db ./db
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin temple \
    && mkdir -p /data && chown temple /data

USER temple
VOLUME ["/data"]
# DISCORD_TOKEN (and the other settings of .env.example) come from the environment: docker run --env-file .env
CMD ["python", "bot.py"]
