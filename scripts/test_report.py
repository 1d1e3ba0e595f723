#!/usr/bin/env python3
"""The closing report of scripts/test.sh: each stage's time and result, the tests each runner
counted, the slowest tests beside their time limits, and one closing line with the totals.

    scripts/test_report.py STAGES_FILE [WALL_SECONDS]

WALL_SECONDS is the whole command's time (stages in the background overlap others); without it,
the sum of the stages' times. STAGES_FILE has a line per stage, tab-separated: name, kind, seconds, exit code, log file[, ctest
build dir]. The kind says how the log counts its tests:
  ctest    ctest's summary ("N% tests passed, F tests failed out of T") and its Skipped list
  node     node's test runner (TAP "# pass N" or spec "ℹ pass N" lines), per-file durations
  counted  the stage's own closing line "N passed, N failed[, N skipped]"
  single   one check: passed (exit 0), skipped (exit 77) or failed
  build    no tests; a failure counts as one failed test so that the total cannot read clean
  skipped  not run because a build it needs failed: one failed test for the same reason
Exits 0 when every stage passed (or was skipped by its own choice, exit 77), 1 otherwise.
"""
import json
import re
import subprocess
import sys

# A test or file that takes more than this share of its time limit on a quiet machine is at risk
# on a busy one (issue 37): it is named in the report.
RISK_SHARE = 0.5

CLOSING = re.compile(r"^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$")


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def count_ctest(text):
    m = None
    for m in re.finditer(r"(\d+)% tests passed, (\d+) tests? failed out of (\d+)", text):
        pass
    if not m:
        return None
    failed, total = int(m.group(2)), int(m.group(3))
    skipped = len(re.findall(r"^\s*\d+ - .*\(Skipped\)\s*$", text, re.M))
    return total - failed - skipped, failed, skipped


def count_node(text):
    got = {}
    for key in ("pass", "fail", "skipped", "cancelled", "todo"):
        hits = re.findall(rf"^(?:# |ℹ ){key} (\d+)\s*$", text, re.M)
        got[key] = sum(int(h) for h in hits) if hits else None
    if got["pass"] is None and got["fail"] is None:
        return None
    # A cancelled test (a file past its time limit) is a failed one.
    failed = (got["fail"] or 0) + (got["cancelled"] or 0)
    return got["pass"] or 0, failed, (got["skipped"] or 0) + (got["todo"] or 0)


def count_closing(text):
    found = None
    for line in text.splitlines():
        m = CLOSING.match(line.strip())
        if m:
            found = (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))
    return found


def ctest_limits(build_dir):
    """Each test's TIMEOUT property, from ctest's own JSON listing."""
    try:
        out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                             capture_output=True, text=True, timeout=60).stdout
        limits = {}
        for t in json.loads(out).get("tests", []):
            for p in t.get("properties", []):
                if p.get("name") == "TIMEOUT":
                    limits[t["name"]] = float(p["value"])
        return limits
    except (OSError, ValueError, subprocess.SubprocessError):
        return {}


def slow_ctest(text, build_dir, default_limit):
    """(seconds, limit, name) of the five slowest tests, and of every one past RISK_SHARE."""
    limits = ctest_limits(build_dir) if build_dir else {}
    rows = []
    for m in re.finditer(r"Test +#\d+: (.+?) \.{3,}[ *]*(Passed|Failed|\w+)?.*?([\d.]+) sec$", text, re.M):
        name, secs = m.group(1).strip(), float(m.group(3))
        rows.append((secs, limits.get(name, default_limit), name))
    rows.sort(reverse=True)
    return rows[:5], [r for r in rows if r[1] and r[0] > RISK_SHARE * r[1]]


def slow_node(text):
    """From tests/browser/run.sh's lines "file: NAME SECONDS s of LIMIT s, exit RC"."""
    rows = []
    for m in re.finditer(r"^file: (\S+) ([\d.]+) s of (\d+) s", text, re.M):
        rows.append((float(m.group(2)), float(m.group(3)), m.group(1)))
    rows.sort(reverse=True)
    return rows[:5], [r for r in rows if r[0] > RISK_SHARE * r[1]]


def fmt_secs(s):
    s = int(round(s))
    return f"{s // 60}m{s % 60:02d}s"


def main():
    stages = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 5:
                stages.append(parts + [""] * (6 - len(parts)))

    total = [0, 0, 0]
    ok = True
    rows, risks, slowest = [], [], []
    for name, kind, secs, rc, log, build_dir in stages:
        secs, rc = float(secs), int(rc)
        text = read(log)
        counts = None
        if kind == "ctest":
            counts = count_ctest(text)
            top, risky = slow_ctest(text, build_dir, 1500.0)
            slowest += [(name, *r) for r in top[:3]]
            risks += [(name, *r) for r in risky]
        elif kind == "node":
            counts = count_node(text)
            top, risky = slow_node(text)
            slowest += [(name, *r) for r in top[:3]]
            risks += [(name, *r) for r in risky]
        elif kind == "counted":
            counts = count_closing(text)
        elif kind == "single":
            counts = (0, 0, 1) if rc == 77 else ((1, 0, 0) if rc == 0 else (0, 1, 0))
        elif kind in ("build", "skipped"):
            counts = (0, 0, 0) if rc in (0, 77) else (0, 1, 0)
        passed_stage = rc in (0, 77) and kind != "skipped"
        if counts is None:
            # The runner said nothing countable: a crash before its summary is one failure.
            counts = (0, 0 if rc == 0 else 1, 0)
        if rc not in (0, 77) and counts[1] == 0:
            counts = (counts[0], 1, counts[2])
        if not passed_stage:
            ok = False
        for i in range(3):
            total[i] += counts[i]
        result = {0: "passed", 77: "SKIPPED"}.get(rc, "FAILED") if kind != "skipped" else "NOT RUN"
        detail = "" if kind in ("build", "skipped") else f"{counts[0]} passed, {counts[1]} failed" + (
            f", {counts[2]} skipped" if counts[2] else "")
        rows.append((name, fmt_secs(secs), result, detail))

    print()
    print("==== report")
    width = max(len(r[0]) for r in rows) if rows else 10
    for name, t, result, detail in rows:
        print(f"  {name:<{width}}  {t:>7}  {result:<8} {detail}")
    # The command's own clock when it gives it: a stage in the background overlaps the others.
    wall = float(sys.argv[2]) if len(sys.argv) > 2 else sum(float(s[2]) for s in stages)
    print(f"  {'whole command':<{width}}  {fmt_secs(wall):>7}")
    if slowest:
        print("  slowest (seconds / time limit):")
        for stage, secs, limit, name in slowest:
            print(f"    {secs:7.1f} / {limit:5.0f}  {name}  [{stage}]")
    if risks:
        print(f"  over {int(RISK_SHARE * 100)} % of their time limit (at risk on a busy machine):")
        for stage, secs, limit, name in risks:
            print(f"    {secs:7.1f} / {limit:5.0f}  {name}  [{stage}]")
    line = f"tests: {total[0]} passed, {total[1]} failed"
    if total[2]:
        line += f", {total[2]} skipped"
    print(line)
    return 0 if ok and total[1] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
