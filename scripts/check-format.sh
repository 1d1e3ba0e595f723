#!/usr/bin/env bash
# Fails when a C++ file of the project differs from .clang-format (Debian 12's clang-format 14).
# Usage: scripts/check-format.sh [--fix]   (--fix: rewrite the files instead of failing)
set -euo pipefail
cd "$(dirname "$0")/.."

# Tracked files and new ones not yet added (but not ignored ones), so a new file is checked before
# its first commit.
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' '*.h' '*.ipp')
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
  echo "check-format: ${#bad[@]} file(s) differ from .clang-format (scripts/check-format.sh --fix rewrites them):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files match .clang-format"
