#!/usr/bin/env python3
"""The client side of tests/lan/run.sh: plays over the URL a bombcheckers server printed for the LAN.

    lan_play.py play URL INDEX_HTML [--moves N] [--timeout SECONDS]
    lan_play.py healthz URL [--timeout SECONDS]

`play`: GET URL (the page must be the web client, byte for byte INDEX_HTML), GET /healthz and
/api/server (its lan_urls must include URL); then over WebSocket at URL's host and port, fire
creates a bomb room, water joins it by the room id, a third connection watches it; the side to move
plays the first legal action of its own latest state, N actions in all (default 8), and every one
of the three connections must get the new state (version + 1, the action in `last`, the same
board). GET /r/ROOM must also be the web client, and /api/rooms must show the room as it ended.
`healthz`: GET URL + "healthz" must answer 200 with "status":"ok".

Standard library only; the WebSocket client is tests/docker/ws_play.py's. Only URL's host is ever
contacted. Exit 0 on success, 1 with a message on stderr otherwise.
"""
import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docker"))
from ws_play import WS, Fail  # noqa: E402


def base_of(url):
    u = urllib.parse.urlsplit(url)
    if u.scheme != "http" or not u.hostname or not u.port or u.path != "/":
        raise Fail(f"not a base URL http://HOST:PORT/: {url!r}")
    return u.hostname, u.port


def get(url, deadline):
    """(status, content type, body) of a GET."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise Fail(f"timed out before GET {url}")
    try:
        with urllib.request.urlopen(url, timeout=min(left, 10)) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


def get_json(url, deadline):
    status, ctype, body = get(url, deadline)
    if status != 200 or "json" not in ctype:
        raise Fail(f"GET {url}: {status} {ctype!r} {body[:200]!r}")
    return json.loads(body)


def check_page(url, index, deadline):
    status, ctype, body = get(url, deadline)
    if status != 200 or not ctype.startswith("text/html"):
        raise Fail(f"GET {url}: {status} {ctype!r}, not the web client's page")
    if body != index:
        raise Fail(f"GET {url}: {len(body)} bytes that are not web/index.html ({len(index)} bytes): "
                   f"{body[:120]!r}")
    print(f"lan: GET {url}: 200 {ctype}, the web client's index.html ({len(body)} bytes)")


def same_action(a, b):
    return all(a.get(k) == b.get(k) for k in ("kind", "from", "to"))


def healthz(args):
    deadline = time.monotonic() + args.timeout
    base_of(args.url)
    h = get_json(args.url + "healthz", deadline)
    if h.get("status") != "ok":
        raise Fail(f"GET {args.url}healthz: {h}")
    print(f"lan: GET {args.url}healthz: 200 {json.dumps(h)}")


def play(args):
    deadline = time.monotonic() + args.timeout
    host, port = base_of(args.url)
    with open(args.index_html, "rb") as f:
        index = f.read()

    check_page(args.url, index, deadline)
    h = get_json(args.url + "healthz", deadline)
    if h.get("status") != "ok":
        raise Fail(f"GET {args.url}healthz: {h}")
    info = get_json(args.url + "api/server", deadline)
    if args.url not in info.get("lan_urls", []):
        raise Fail(f"/api/server lan_urls {info.get('lan_urls')} lack {args.url}")
    print(f"lan: /api/server lan_urls {info['lan_urls']}")

    fire = WS(host, port, deadline, "fire")
    if fire.expect("welcome").get("protocol") != 1:
        raise Fail("welcome: not protocol 1")
    fire.send({"type": "create", "variant": "bomb", "name": "Fire", "seat": "fire", "id": 1})
    joined = fire.expect("joined")
    if joined.get("seat") != "fire" or not joined.get("token") or joined.get("id") != 1:
        raise Fail(f"fire: joined {joined}")
    room = joined["room"]
    st = fire.expect("state")
    if st.get("room") != room or st.get("version") != 0 or st.get("status") != "waiting":
        raise Fail(f"fire: first state {str(st)[:300]}")
    print(f"lan: fire created bomb room {room} (waiting, version 0)")

    water = WS(host, port, deadline, "water")
    water.expect("welcome")
    water.send({"type": "join", "room": room, "seat": "water", "name": "Water"})
    wj = water.expect("joined")
    if wj.get("room") != room or wj.get("seat") != "water" or not wj.get("token"):
        raise Fail(f"water: joined {wj}")
    if wj.get("token") == joined.get("token"):
        raise Fail("water got fire's token")

    watch = WS(host, port, deadline, "spectator")
    watch.expect("welcome")
    watch.send({"type": "join", "room": room, "seat": "spectator", "name": "Watcher"})
    sj = watch.expect("joined")
    if sj.get("room") != room or sj.get("seat") != "spectator" or sj.get("token") is not None:
        raise Fail(f"spectator: joined {sj}")
    conns = {"fire": fire, "water": water, "spectator": watch}
    # Everyone settles on version 0, playing, with one spectator.
    latest = {}
    for name, c in conns.items():
        latest[name] = c.expect("state", lambda m: m.get("status") == "playing" and m.get("spectators") == 1)
        if latest[name].get("version") != 0:
            raise Fail(f"{name}: state before any move has version {latest[name].get('version')}")
    print(f"lan: water joined {room} by its id, a spectator watches; "
          f"players {json.dumps(latest['spectator']['players'])}")

    # The spectator may not play.
    s0 = latest["spectator"]
    watch.send({"type": "act", "action": s0["legal"][0], "version": 0, "id": "s"})
    err = watch.recv()
    if err.get("type") != "error" or err.get("code") != "not_a_player":
        raise Fail(f"spectator's act was answered {err}")

    played = 0
    while played < args.moves:
        side = latest["fire"]["turn"]
        mine = latest[side]            # the mover plays from what it has seen itself
        if mine.get("status") != "playing":
            break
        v = mine["version"]
        action = mine["legal"][0]
        conns[side].send({"type": "act", "action": action, "version": v})
        boards = {}
        for name, c in conns.items():
            new = c.expect("state", lambda m, v=v: m.get("version") != v)
            if new.get("version") != v + 1:
                raise Fail(f"{name}: after version {v} got version {new.get('version')}")
            last = new.get("last") or {}
            acts = last.get("actions") or []
            if last.get("side") != side or not acts or not same_action(acts[-1], action):
                raise Fail(f"{name}: state {v + 1} does not show {side}'s {action}: last={last}")
            boards[name] = json.dumps(new.get("board"), sort_keys=True)
            latest[name] = new
        if len(set(boards.values())) != 1:
            raise Fail(f"the three connections disagree on the board at version {v + 1}")
        played += 1
        other = "spectator and " + ("water" if side == "fire" else "fire")
        print(f"lan: {side} played {action['kind']} {action.get('from')}->{action.get('to')} "
              f"at version {v}; {other} got version {v + 1}")
    if played < 3:
        raise Fail(f"only {played} actions were played")

    check_page(f"{args.url}r/{room}", index, deadline)
    rooms = get_json(args.url + "api/rooms", deadline)
    mine = [r for r in rooms if r.get("id") == room]
    if not mine or mine[0].get("spectators") != 1 or mine[0].get("version") != latest["fire"]["version"]:
        raise Fail(f"/api/rooms does not show {room} at version {latest['fire']['version']} "
                   f"with one spectator: {mine}")
    print(f"lan: /api/rooms: {json.dumps(mine[0])}")
    for c in conns.values():
        c.close()
    print(f"lan: played {played} actions over {args.url}; all three connections saw every state")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("play")
    pp.add_argument("url")
    pp.add_argument("index_html")
    pp.add_argument("--moves", type=int, default=8)
    pp.add_argument("--timeout", type=float, default=60)
    ph = sub.add_parser("healthz")
    ph.add_argument("url")
    ph.add_argument("--timeout", type=float, default=15)
    args = p.parse_args()
    (play if args.cmd == "play" else healthz)(args)


if __name__ == "__main__":
    try:
        main()
    except (Fail, OSError, ValueError, KeyError, IndexError, TypeError) as e:
        print(f"lan_play: FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
