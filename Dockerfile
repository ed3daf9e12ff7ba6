# Ralph worker image. Build: `docker build -t ralph-on-temporal .` (docker-compose.yml builds it as ralph-worker).
# Agent CLIs (claude, codex, ...) are not included: extend this image with the ones your loops use.

# --- build: compile TypeScript to dist/ ---
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# Sources (filtered by .dockerignore); `npm run build` is tsc -p tsconfig.build.json, output under dist/src/.
COPY . .
RUN npm run build

# --- runtime: production dependencies and the compiled output only ---
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
# git: loops snapshot and diff git workspaces between iterations. Workspaces are mounted from volumes or the host,
# often owned by another uid: let git work in them anyway, and give snapshot commits an identity when the
# repository has none (a repository's or the user's own config wins over these system defaults).
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && git config --system --add safe.directory '*' \
  && git config --system user.name 'Ralph' \
  && git config --system user.email 'ralph@localhost'
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Loops run in /workspaces/<name>; owned by the unprivileged `node` user (uid 1000) of the base image, so a
# fresh named volume mounted here starts out writable by the worker.
RUN mkdir -p /workspaces && chown node:node /workspaces
USER node
ENV TEMPORAL_ADDRESS=localhost:7233 \
  TEMPORAL_NAMESPACE=default \
  RALPH_TASK_QUEUE=ralph
CMD ["node", "dist/src/cli/index.js", "worker"]
