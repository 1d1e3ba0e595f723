#!/usr/bin/env bash
# Builds the rules core for the browser (docs/ENGINE.md): core/ and wasm/engine.cpp compiled by
# Debian's emscripten into web/engine/core.mjs (the loader, an ES module) and web/engine/core.wasm.
# Both are committed, so the page and its hosts need no emscripten; the test command builds them
# again and fails if they differ from what is committed (--check).
# Usage: scripts/build-wasm.sh [--check] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
out=web/engine
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --out) out="$2"; shift ;;
    *) echo "build-wasm: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

if ! command -v emcc >/dev/null; then
  echo "build-wasm: emcc not found (Debian's emscripten: scripts/install-deps.sh installs it)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Debian's emscripten ships its libc and libc++ built (a frozen cache: nothing is compiled on first
# use); its optimizer needs Debian's node-acorn, which is where NODE_PATH points.
export NODE_PATH=/usr/share/nodejs

exports='_bc_create,_bc_from_position,_bc_state,_bc_apply,_bc_effects,_bc_free,_bc_perft,_bc_sides,_bc_turns,_bc_after_turn,_bc_error'
# -ffile-prefix-map and no debug info: the same bytes wherever the checkout is.
emcc -std=c++20 -O2 -g0 -ffile-prefix-map="$PWD"=. -Icore/include \
  core/src/names.cpp core/src/options.cpp core/src/checkers.cpp core/src/kaboom.cpp \
  core/src/game.cpp core/src/perft.cpp wasm/engine.cpp \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createCore -sENVIRONMENT=web,worker \
  -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=0 -sEXPORTED_FUNCTIONS="$exports" \
  -sEXPORTED_RUNTIME_METHODS=cwrap \
  -o "$work/core.mjs"

if [ "$check" = 1 ]; then
  status=0
  for f in core.mjs core.wasm; do
    if ! cmp -s "$work/$f" "$out/$f"; then
      echo "build-wasm: $out/$f is not what core/ and wasm/ build: run scripts/build-wasm.sh and commit it" >&2
      status=1
    fi
  done
  [ "$status" = 0 ] && echo "build-wasm: $out/core.mjs and core.wasm match the sources"
  exit "$status"
fi
mkdir -p "$out"
cp "$work/core.mjs" "$work/core.wasm" "$out/"
echo "build-wasm: $out/core.mjs ($(stat -c %s "$out/core.mjs") bytes), $out/core.wasm ($(stat -c %s "$out/core.wasm") bytes)"
