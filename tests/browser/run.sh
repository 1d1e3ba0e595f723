#!/usr/bin/env bash
# Browser tests: starts the real server on 127.0.0.1 (a free port), runs the tests against it, and
# always stops the server. Most files drive headless Chromium (playwright-core); the cross-browser
# scenarios (both/*.mjs) run once per engine of BC_BROWSERS, a file each (both_*.chromium.test.mjs,
# both_*.firefox.test.mjs), Firefox ESR through puppeteer-core over WebDriver BiDi (driver.mjs).
#   tests/browser/run.sh [path/to/bombcheckers] [test files...]
#   (default: build/bombcheckers and every *.test.mjs here)
# Env: SCREENSHOT_DIR (default build/screenshots), CHROMIUM (default /usr/bin/chromium),
#   FIREFOX (default /usr/bin/firefox-esr; a missing Firefox fails the cross-browser tests),
#   BC_BROWSERS (the browsers of the cross-browser tests, default "chromium,firefox"),
#   BC_BROWSER_JOBS (test files run at once, default 2).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${1:-$root/build/bombcheckers}"
shift || true
files=("$@")
if [[ ! -x "$bin" ]]; then
  echo "run.sh: no server binary at $bin (build it, or pass its path)" >&2
  exit 2
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

shots="${SCREENSHOT_DIR:-build/screenshots}"
[[ "$shots" = /* ]] || shots="$root/$shots"
export SCREENSHOT_DIR="$shots"
mkdir -p "$SCREENSHOT_DIR"

work="$(mktemp -d "${TMPDIR:-/tmp}/bc-browser.XXXXXX")"
log="$work/server.log"
pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# A private data directory, so the tests never see (or leave) other games.
args=(serve --host 127.0.0.1 --port 0 --web-root "$root/web")
# The help is read once: `serve --help | grep -q` can fail under pipefail when grep exits
# before the (over 4 KiB) help is written, and the server then gets SIGPIPE.
serve_help=$("$bin" serve --help 2>&1 || true)
if grep -q -- '--data-dir' <<<"$serve_help"; then args+=(--data-dir "$work/data"); fi
# Every test's rooms come from 127.0.0.1, and many are left mid-game: no per-address room limit.
if grep -q -- '--max-rooms-per-address' <<<"$serve_help"; then args+=(--max-rooms-per-address 0); fi
if grep -q -- '--max-creates-per-address' <<<"$serve_help"; then args+=(--max-creates-per-address 0); fi
# Every test's analyses come from 127.0.0.1 too (the values toggle, the analysis board).
if grep -q -- '--max-analyses-per-address' <<<"$serve_help"; then args+=(--max-analyses-per-address 0); fi
# A player who leaves a clocked game can be claimed against after 2 s, not the 20 s or more a time
# control gives (both/abandon.mjs claims one); a reload elsewhere only shows a brief notice.
if grep -q -- '--claim-after' <<<"$serve_help"; then args+=(--claim-after 2); fi
(cd "$work" && exec "$bin" "${args[@]}") >"$log" 2>&1 &
pid=$!

url=""
for _ in $(seq 100); do
  url="$(grep -o 'listening on http://127\.0\.0\.1:[0-9]*' "$log" | head -n1 | sed 's/^listening on //' || true)"
  [[ -n "$url" ]] && break
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [[ -z "$url" ]]; then
  echo "run.sh: the server did not say where it listens; its log:" >&2
  cat "$log" >&2
  exit 1
fi
echo "server: $url (pid $pid)"
export BC_URL="$url"
export BC_BINARY="$bin"  # for tests that start a server of their own (tls.test.mjs)

cd "$here"
if [[ ${#files[@]} -eq 0 ]]; then files=(*.test.mjs); fi
if [[ ! -d node_modules/playwright-core || ! -d node_modules/puppeteer-core || ! -d node_modules/ws ]]; then
  npm ci --no-audit --no-fund
fi
# Two files at a time (BC_BROWSER_JOBS), each its own node process and browser, on the one server
# (two cores; the files' rooms are their own). Each file's output is printed whole when it ends, with
# its time; a file is bounded at FILE_LIMIT seconds (none should need half of it), the whole run at
# 1200 s, should a browser hang.
FILE_LIMIT=180
out="$work/out"
mkdir -p "$out"
run_file() {  # run_file FILE: its TAP output, then "file: NAME SECONDS s of LIMIT s, exit RC"
  local f=$1 t0 ms rc=0
  t0=$(date +%s%N)
  # A cross-browser file of an engine BC_BROWSERS leaves out: its tests are listed as skipped.
  local engine=${f%.test.mjs} skip=()
  engine=${engine##*.}
  if [[ "$f" == *.*.test.mjs && ",${BC_BROWSERS:-chromium,firefox}," != *",$engine,"* ]]; then
    skip=(--test-name-pattern='^(?!)')
    export BC_COUNT_SKIPPED=1
  fi
  timeout --kill-after=10 "$FILE_LIMIT" node --test --test-reporter=tap --test-timeout=$((FILE_LIMIT * 1000)) \
    "${skip[@]}" "$f" >"$out/$f.log" 2>&1 || rc=$?
  # A file killed at its limit says nothing of its own: one failure for it.
  [ "$rc" = 124 ] || [ "$rc" = 137 ] && echo "# fail 1 (the file was stopped at its ${FILE_LIMIT} s limit)" >>"$out/$f.log"
  ms=$((($(date +%s%N) - t0) / 1000000))
  printf 'file: %s %d.%d s of %s s, exit %s\n' "$f" $((ms / 1000)) $((ms % 1000 / 100)) "$FILE_LIMIT" "$rc" \
    >>"$out/$f.log"
  cat "$out/$f.log"
  return "$rc"
}
export -f run_file
export FILE_LIMIT out
status=0
printf '%s\0' "${files[@]}" |
  timeout --kill-after=10 1200 xargs -0 -P "${BC_BROWSER_JOBS:-2}" -I{} bash -c 'run_file "$1"' _ {} ||
  status=$?
echo "--- browser test files, slowest first (seconds of their ${FILE_LIMIT} s limit) ---"
grep -h '^file: ' "$out"/*.log | sort -k3 -rn | sed 's/^file: /  /'
if [[ $status -ne 0 ]]; then
  echo "--- server log (last 40 lines) ---" >&2
  tail -n 40 "$log" >&2
fi
echo "screenshots: $SCREENSHOT_DIR"
exit $status
