#!/usr/bin/env bash
# The JavaScript's checks, as check-format.sh is the C++'s: the page (web/) and its tests
# (tests/browser/) must be as Prettier writes them (.prettierrc.json) and pass ESLint
# (tests/browser/eslint.config.mjs), no module of web/ may be in an import cycle or over 400 lines
# (scripts/web-imports.mjs), and the service worker lists every file of web/ (web-precache.mjs). Prettier and ESLint come from tests/browser's npm modules.
# Usage: scripts/check-web.sh [--fix]   (--fix: let Prettier and ESLint rewrite what they can)
set -uo pipefail
cd "$(dirname "$0")/.."

bin=tests/browser/node_modules/.bin
if [ ! -x "$bin/prettier" ] || [ ! -x "$bin/eslint" ]; then
  echo "check-web: no Prettier or ESLint in tests/browser/node_modules (scripts/install-deps.sh runs npm ci)" >&2
  exit 1
fi
files=('web/**/*.js' 'tests/browser/**/*.mjs')
status=0
if [ "${1:-}" = --fix ]; then
  "$bin/prettier" --log-level warn --write "${files[@]}" || status=1
  "$bin/eslint" --config tests/browser/eslint.config.mjs --fix web tests/browser || status=1
else
  "$bin/prettier" --log-level warn --check "${files[@]}" || {
    echo "check-web: the files above differ from Prettier's format (scripts/check-web.sh --fix rewrites them)" >&2
    status=1
  }
  "$bin/eslint" --config tests/browser/eslint.config.mjs web tests/browser || status=1
fi
node scripts/web-imports.mjs || status=1
# The service worker keeps every file of web/ for play with no server.
if [ "${1:-}" = --fix ]; then node scripts/web-precache.mjs --fix || status=1
else node scripts/web-precache.mjs || status=1; fi
[ "$status" = 0 ] && echo "check-web: Prettier, ESLint, the layers and the service worker's files agree"
exit "$status"
