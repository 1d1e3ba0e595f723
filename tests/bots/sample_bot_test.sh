#!/usr/bin/env bash
# The sample bot (bots/sample_bot.py) against a real server (docs/BOTS.md):
#
#   tests/bots/sample_bot_test.sh BINARY    exit 0: passed; anything else: failed
#
# Steps: a temporary data directory; `BINARY bot create samplebot` there (the token is the last line
# of its output); `BINARY serve` on 127.0.0.1 and a free port with it (the port from its log's
# "listening on" line); then the bot plays the server's computer at level 1 once in each variant,
# its game streams dropped once after its 3rd turn and opened again (the reconnect), and then one
# clocked Kaboom game (60+1). Every game must end with a result, the server must still answer, and the
# bot's profile must say "bot":true. Everything is bounded by `timeout`; the whole under 3 minutes.
# The server is always stopped and the directory removed.
set -euo pipefail

bin="${1:?usage: sample_bot_test.sh BINARY}"
[[ -x "$bin" ]] || { echo "sample_bot_test: no server binary at $bin" >&2; exit 2; }
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bot="$root/bots/sample_bot.py"

work="$(mktemp -d "${TMPDIR:-/tmp}/bc-bots.XXXXXX")"
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
fail() {
  echo "sample_bot_test: FAILED: $*" >&2
  echo "--- server log (last 40 lines) ---" >&2
  tail -n 40 "$work/server.log" >&2 || true
  exit 1
}

# The bot, and its first token (the last line of the command's output).
timeout 15 "$bin" bot create samplebot --data-dir "$work/data" >"$work/create.out" 2>&1 ||
  { cat "$work/create.out" >&2; fail "bot create"; }
token="$(tail -n 1 "$work/create.out" | grep -o 'bcb_[0-9a-f]\{32\}' || true)"
[[ -n "$token" ]] || { cat "$work/create.out" >&2; fail "no token on bot create's last line"; }

(cd "$work" && exec timeout 170 "$bin" serve --host 127.0.0.1 --port 0 --data-dir "$work/data" \
  --web-root "$root/web") >"$work/server.log" 2>&1 &
pid=$!
url=""
for _ in $(seq 100); do
  url="$(grep -o 'listening on http://127\.0\.0\.1:[0-9]*' "$work/server.log" | head -n1 | sed 's/^listening on //' || true)"
  [[ -n "$url" ]] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
[[ -n "$url" ]] || fail "the server did not say where it listens"
echo "server: $url"

# play LIMIT OUT ARGS...: the bot's games against the computer, for at most LIMIT seconds; OUT gets
# its summary (a line a game).
play() {
  local limit=$1 out=$2 t0 rc=0
  shift 2
  t0=$(date +%s)
  timeout --kill-after=5 "$limit" python3 "$bot" --server "$url" --token "$token" --quiet "$@" >"$out" 2>"$out.err" || rc=$?
  echo "bot $*: exit $rc in $(($(date +%s) - t0)) s"
  cat "$out"
  [[ $rc = 0 ]] || { cat "$out.err" >&2; fail "the bot exited with $rc"; }
}
# check OUT VARIANTS...: one finished game for each variant, in the summary's order.
check() {
  local out=$1 v line
  shift
  [[ $(wc -l <"$out") = $# ]] || fail "$# games wanted, the summary has $(wc -l <"$out") lines"
  for v in "$@"; do
    line="$(grep -E "^[A-Za-z0-9_-]+ $v winner=(first|second|none) reason=[a-z_]+$" "$out" || true)"
    [[ -n "$line" ]] || fail "no finished $v game in the summary"
  done
}

play 95 "$work/ai.out" --challenge-ai bomb,classic,triple_king,kaboom --ai-level 1 --drop-stream-after 3
check "$work/ai.out" bomb classic triple_king kaboom
# Kaboom: at most 42 turns, where a clocked checkers game (the computer takes about half a second a
# turn under a clock) can run past half a minute.
play 40 "$work/clock.out" --challenge-ai kaboom --ai-level 1 --clock 60+1
check "$work/clock.out" kaboom

kill -0 "$pid" 2>/dev/null || fail "the server is gone"
get() { timeout 10 python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$url$1"; }
get /healthz >/dev/null || fail "the server does not answer /healthz"
profile="$(get /api/players/samplebot)" || fail "GET /api/players/samplebot"
grep -q '"bot":true' <<<"$profile" || fail "the bot's profile has no \"bot\":true: $profile"
echo "sample_bot_test: passed"
