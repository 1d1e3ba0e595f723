#!/usr/bin/env bash
# Builds the rules core for the browser (docs/ENGINE.md): core/ and wasm/engine.cpp compiled by
# Debian's emscripten into web/engine/core.mjs (the loader, an ES module) and web/engine/core.wasm;
# and the offline server (wasm/offline.cpp with the server's rooms and the computer) into
# web/offline/offline.mjs and offline.wasm.
# Both are committed, so the page and its hosts need no emscripten; the test command builds them
# again and fails if they differ from what is committed (--check).
# Usage: scripts/build-wasm.sh [--check] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
out=web
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

# The offline server (wasm/offline.cpp): the server's Room (server/room, wire, game), the
# computer and its analysis (ai/, the answers' JSON of server/host/analysis_json.cpp) for play
# with no server. Boost's and nlohmann's headers come from Debian's
# /usr/include, which is not added whole (its C library is not emscripten's).
mkdir -p "$work/inc"
ln -s /usr/include/boost "$work/inc/boost"
ln -s /usr/include/nlohmann "$work/inc/nlohmann"
version=$(sed -n 's/^project(bombcheckers VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
offline_exports='_bc_offline_welcome,_bc_offline_send,_bc_offline_take,_bc_offline_computer_level,_bc_offline_computer_move,_bc_offline_deadline_in,_bc_offline_deadline,_bc_offline_record'
# shellcheck disable=SC2046
emcc -std=c++20 -O2 -g0 -DNDEBUG -DBC_VERSION="\"$version\"" \
  -ffile-prefix-map="$PWD"=. -ffile-prefix-map="$work/inc"=/usr/include \
  -Icore/include -Iai/include -Istore/include -Iplayers/include -I. -isystem "$work/inc" \
  $(ls core/src/*.cpp | grep -v perft.cpp) ai/src/*.cpp server/game/clock.cpp \
  players/src/glicko2.cpp players/src/speed.cpp \
  $(ls server/room/*.cpp | grep -v persist.cpp) server/wire/*.cpp server/host/analysis_json.cpp \
  wasm/offline.cpp wasm/sha256.cpp \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createOffline -sENVIRONMENT=web,worker \
  -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=0 -sEXPORTED_FUNCTIONS="$offline_exports" \
  -sEXPORTED_RUNTIME_METHODS=cwrap \
  -o "$work/offline.mjs"

built=(engine/core.mjs engine/core.wasm offline/offline.mjs offline/offline.wasm)
if [ "$check" = 1 ]; then
  status=0
  for f in "${built[@]}"; do
    if ! cmp -s "$work/$(basename "$f")" "$out/$f"; then
      echo "build-wasm: $out/$f is not what core/, ai/, server/ and wasm/ build: run scripts/build-wasm.sh and commit it" >&2
      status=1
    fi
  done
  [ "$status" = 0 ] && echo "build-wasm: $out/engine/core.* and $out/offline/offline.* match the sources"
  exit "$status"
fi
for f in "${built[@]}"; do
  mkdir -p "$out/$(dirname "$f")"
  cp "$work/$(basename "$f")" "$out/$f"
  echo "build-wasm: $out/$f ($(stat -c %s "$out/$f") bytes)"
done
