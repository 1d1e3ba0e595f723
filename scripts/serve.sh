#!/usr/bin/env bash
# Builds bombcheckers (Release) if needed and starts the server on its defaults:
# http://0.0.0.0:8080, web client from web/, data in ./data. Extra arguments go to `serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --no-browser >/dev/null
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target bombcheckers -j"${JOBS:-2}"
exec build/bombcheckers serve "$@"
