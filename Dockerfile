# Temple Table: a slim image that runs the bot as an unprivileged user, the database on a volume.
#   docker build -t temple-table .
#   docker run -d --name temple-table --env-file .env -v temple-data:/data temple-table
# (or `docker compose up -d` with compose.yaml). The README's .env leaves DATABASE_PATH unset, so
# the ENV below applies: the database lives on the /data volume, which belongs to the bot's user.
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
COPY i18n ./i18n
COPY pictures ./pictures
COPY wiring ./wiring
COPY engine ./engine
COPY db ./db
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin temple \
    && mkdir -p /data && chown temple:temple /data

USER temple
VOLUME ["/data"]
# docker stop sends this; the bot then turns new clicks away, lets the writes in flight finish,
# closes the gateway and the database and exits 0 (well within docker stop's 10 s).
STOPSIGNAL SIGTERM
# DISCORD_TOKEN (and the other settings of .env.example) come from the environment: docker run --env-file .env
CMD ["python", "bot.py"]
