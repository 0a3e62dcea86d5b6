#!/usr/bin/env bash
# Installs the project's Python tools into a project-local virtual environment at .tools/venv
# (git-ignored): Schemathesis, the OpenAPI fuzzer `pnpm test:fuzz` runs against the reference server,
# and godot-parser, the third-party reader of Godot's text scenes and resources the export tests hand
# the parallax scenes to. Idempotent: when the pinned versions are already installed it does nothing.
#
#   bash scripts/python-tools.sh            # install or confirm
#   bash scripts/python-tools.sh --check    # exit 0 when the pinned versions are there, 1 otherwise
#   PYTHON=python3.12 bash scripts/python-tools.sh
#
# Needs Python ≥ 3.10 with the venv module and pip (Debian: apt-get install python3-venv).
set -euo pipefail

SCHEMATHESIS_VERSION=4.32.5
GODOT_PARSER_VERSION=0.1.7
WANT="$SCHEMATHESIS_VERSION $GODOT_PARSER_VERSION"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.tools/venv"
PY="${PYTHON:-python3}"
say() { printf '[assetloom/python-tools] %s\n' "$*"; }
die() { printf '[assetloom/python-tools] error: %s\n' "$*" >&2; exit 1; }

installed_version() {
  [ -x "$VENV/bin/python" ] || return 1
  "$VENV/bin/python" - <<'EOF' 2>/dev/null
from importlib.metadata import version
print(version("schemathesis"), version("godot-parser"))
EOF
}

if [ "$(installed_version || true)" = "$WANT" ] && [ -x "$VENV/bin/st" ]; then
  [ "${1:-}" = "--check" ] || say "schemathesis $SCHEMATHESIS_VERSION and godot-parser $GODOT_PARSER_VERSION already in .tools/venv"
  exit 0
fi
[ "${1:-}" = "--check" ] && exit 1

command -v "$PY" >/dev/null 2>&1 || die "no $PY on PATH; install Python 3.10 or newer (or set PYTHON)"
"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
  || die "$("$PY" --version 2>&1) is too old; Schemathesis 4 needs Python 3.10 or newer"

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
  say "creating .tools/venv with $("$PY" --version 2>&1)"
  rm -rf "$VENV"
  mkdir -p "$ROOT/.tools"
  "$PY" -m venv "$VENV" \
    || die "'$PY -m venv' failed; on Debian install python3-venv (apt-get install python3-venv)"
fi

say "installing schemathesis $SCHEMATHESIS_VERSION and godot-parser $GODOT_PARSER_VERSION into .tools/venv"
"$VENV/bin/python" -m pip install --disable-pip-version-check --no-input --quiet \
  "schemathesis==$SCHEMATHESIS_VERSION" "godot-parser==$GODOT_PARSER_VERSION" \
  || die "pip could not install schemathesis==$SCHEMATHESIS_VERSION godot-parser==$GODOT_PARSER_VERSION"

[ "$(installed_version || true)" = "$WANT" ] \
  || die "schemathesis $SCHEMATHESIS_VERSION / godot-parser $GODOT_PARSER_VERSION are not importable after the install"
say "schemathesis $SCHEMATHESIS_VERSION ready ($VENV/bin/st)"
