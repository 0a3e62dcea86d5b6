#!/usr/bin/env bash
# Proves the README's set-up on a simulated bare machine, from a fresh clone of this repository:
#   - a non-root user (created as `assetloom-bare` when this runs as root);
#   - PATH is a temporary folder linking only node, npm, npx, corepack, git and basic system tools:
#     no pnpm anywhere, and no Go (the server's command must not need it);
#   - HOME, the npm prefix and cache, the pnpm store and the Go caches all in temporary folders.
# Then, as that user: `bash scripts/bootstrap.sh && npm start` until /api/v1/health answers; a second
# bootstrap that must install and build nothing; a warm `npm start` that must build nothing, with the time
# to health printed. Exit 0 when every step holds. Nothing is cached between runs (not even pnpm).
#
#   bash scripts/check-bare-machine.sh [--keep]     --keep leaves the temporary folder for a look
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
log() { printf '[assetloom/bare] %s\n' "$*"; }
fail() {
  printf '[assetloom/bare] FAILED: %s\n' "$*" >&2
  exit 1
}
keep=0
[ "${1:-}" = "--keep" ] && keep=1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/assetloom-bare.XXXXXX")
chmod 755 "$tmp"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    sleep 1
    kill -KILL -- "-$server_pid" 2>/dev/null || true
  fi
  if [ "$keep" = 1 ]; then log "left $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# The user.
if [ "$(id -u)" = 0 ]; then
  user=assetloom-bare
  if ! id "$user" >/dev/null 2>&1; then
    useradd --system --no-create-home --home-dir /nonexistent --shell /bin/bash "$user"
  fi
  runner=(runuser -u "$user" --)
else
  user=$(id -un)
  runner=()
fi
as_user() { "${runner[@]}" "$@"; }

# The PATH: only these programs.
mkdir -p "$tmp/bin" "$tmp/home" "$tmp/npm-prefix" "$tmp/data"
for tool in node npm npx corepack git bash sh env cat ls mkdir rm rmdir cp mv ln chmod sed grep awk tr \
  head tail sort uniq wc dirname basename readlink realpath mktemp date sleep id uname find xargs tar gzip \
  cut tee touch true false expr kill ps nproc; do
  found=$(type -P "$tool" 2>/dev/null || true)
  case "$found" in
    /*) ln -s "$found" "$tmp/bin/$tool" ;;
    *) [ "$tool" = corepack ] || fail "the host lacks '$tool', which the simulation links" ;;
  esac
done
[ ! -e "$tmp/bin/pnpm" ] || fail "pnpm leaked into the simulated PATH"

git clone -q --no-hardlinks "$src" "$tmp/repo"
log "clone of $(git -C "$tmp/repo" rev-parse --short HEAD) as user '$user' in $tmp"
[ "$(id -u)" = 0 ] && chown -R "$user" "$tmp"

# The environment: nothing from ours but the machine-wide certificate settings and CI.
bare_env=(env -i "PATH=$tmp/bin" "HOME=$tmp/home" "USER=$user" "LANG=C.UTF-8" "TMPDIR=$tmp"
  "NPM_CONFIG_PREFIX=$tmp/npm-prefix" "NPM_CONFIG_CACHE=$tmp/home/.npm"
  "XDG_CACHE_HOME=$tmp/home/.cache" "XDG_DATA_HOME=$tmp/home/.local/share"
  "XDG_CONFIG_HOME=$tmp/home/.config" "XDG_STATE_HOME=$tmp/home/.local/state"
  "GOPATH=$tmp/go" "GOCACHE=$tmp/go/cache" "GOMODCACHE=$tmp/go/mod")
for var in CI NODE_EXTRA_CA_CERTS SSL_CERT_FILE SSL_CERT_DIR GIT_SSL_CAINFO CURL_CA_BUNDLE; do
  [ -n "${!var:-}" ] && bare_env+=("$var=${!var}")
done
in_bare() { as_user "${bare_env[@]}" bash -c "cd '$tmp/repo' && $1"; }

in_bare 'command -v pnpm' >/dev/null 2>&1 && fail "pnpm is on the simulated PATH"

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
health="http://127.0.0.1:$port/api/v1/health"

# Waits for health from the server started in the background; prints seconds to the first answer.
start_and_wait() {
  local label=$1 limit=$2 started
  started=$(date +%s%N)
  setsid "${runner[@]}" "${bare_env[@]}" PORT="$port" HOST=127.0.0.1 DATA_DIR="$tmp/data" \
    bash -c "cd '$tmp/repo' && exec npm start" >"$tmp/$label.log" 2>&1 </dev/null &
  server_pid=$!
  until node -e "fetch('$health').then(r=>r.json()).then(b=>process.exit(b.code===0&&b.data.status==='ok'?0:1),()=>process.exit(1))" 2>/dev/null; do
    if ! kill -0 "$server_pid" 2>/dev/null; then
      tail -40 "$tmp/$label.log" >&2
      fail "$label: the server exited before /api/v1/health answered"
    fi
    if [ $(($(date +%s%N) - started)) -gt $((limit * 1000000000)) ]; then
      tail -40 "$tmp/$label.log" >&2
      fail "$label: /api/v1/health did not answer within ${limit}s"
    fi
    sleep 0.2
  done
  elapsed_ms=$((($(date +%s%N) - started) / 1000000))
}
stop_server() {
  kill -TERM -- "-$server_pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$server_pid" 2>/dev/null && fail "the server did not stop within 10 s of SIGTERM"
  server_pid=""
}

log "1/4 bash scripts/bootstrap.sh (cold: empty HOME, store and caches)"
t0=$(date +%s)
in_bare 'bash scripts/bootstrap.sh' >"$tmp/bootstrap-1.log" 2>&1 || {
  tail -40 "$tmp/bootstrap-1.log" >&2
  fail "bootstrap.sh failed"
}
log "    done in $(($(date +%s) - t0)) s"
[ -x "$tmp/repo/node_modules/.bin/pnpm" ] || fail "bootstrap left no node_modules/.bin/pnpm"
find /usr/bin /usr/local/bin -maxdepth 1 -newer "$tmp/repo/package.json" -name 'pnpm*' 2>/dev/null | grep -q . &&
  fail "bootstrap wrote a pnpm into a system folder"

log "2/4 npm start (first start) until $health answers"
start_and_wait first-start 300
log "    health answered after $((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000))) s"
studio="http://127.0.0.1:$port/studio/"
node -e "fetch('$studio').then(r=>process.exit(r.status===200&&(r.headers.get('content-type')||'').startsWith('text/html')?0:1),()=>process.exit(1))" ||
  fail "first start: $studio did not answer the studio's page"
log "    $studio answers the studio"
stop_server

log "3/4 bash scripts/bootstrap.sh again: must install and build nothing"
in_bare 'bash scripts/bootstrap.sh' >"$tmp/bootstrap-2.log" 2>&1 || {
  tail -40 "$tmp/bootstrap-2.log" >&2
  fail "second bootstrap.sh failed"
}
if grep -E 'installing|building' "$tmp/bootstrap-2.log" >&2; then fail "the second bootstrap repeated work (lines above)"; fi

log "4/4 npm start again (warm): must build nothing"
start_and_wait warm-start 120
if grep -E '\[assetloom/build\] .*building' "$tmp/warm-start.log" >&2; then fail "the warm start rebuilt packages (lines above)"; fi
log "    health answered after $((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000))) s (warm start goal: within 10 s)"
stop_server
log "ok: bootstrap and npm start work for a non-root user with no pnpm, no Go and an empty HOME"
