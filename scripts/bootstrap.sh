#!/usr/bin/env bash
# Installs everything Assetloom needs on a fresh machine: pnpm (the version pinned in
# package.json), the workspace dependencies, and the system packages the browser tests use.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[assetloom/bootstrap] %s\n' "$*"; }

want_pnpm=$(node -p "require('./package.json').packageManager.split('@')[1]")
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$want_pnpm" ]; then
  log "installing pnpm $want_pnpm"
  if ! (corepack enable pnpm >/dev/null 2>&1 && corepack prepare "pnpm@$want_pnpm" --activate >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$want_pnpm" ]); then
    npm install --global --no-fund --no-audit "pnpm@$want_pnpm" >/dev/null
  fi
fi

# System packages (Debian): Chromium drives the browser tests. Only with root and apt.
if [ "${ASSETLOOM_SKIP_APT:-}" != "1" ] && [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  log "installing chromium from Debian packages (browser tests)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
fi

log "installing workspace dependencies"
if [ -n "${CI:-}" ]; then
  pnpm install --frozen-lockfile
else
  pnpm install
fi
log "building the FerretDB test database (cached after the first run; skipped when MONGODB_URI is set)"
pnpm --filter @assetloom/testing run prepare-mongo
log "ready"
