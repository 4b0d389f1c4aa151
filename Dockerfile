# Quest Tracker in a container: build the single executable, ship it alone.
# Not built in this project's CI (no Docker engine there); kept minimal on purpose.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin questtracker \
 && mkdir -p /data && chown questtracker:questtracker /data
COPY --from=build /src/dist/quest-tracker /usr/local/bin/quest-tracker
USER questtracker
ENV DATABASE_PATH=/data/quest-tracker.sqlite HOST=0.0.0.0 PORT=8080
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["quest-tracker", "healthcheck"]
ENTRYPOINT ["quest-tracker"]
CMD ["serve"]
