#!/usr/bin/env python3
"""Plays a game through HAProxy in front of a three-node cluster, kills the room's owner mid-game,
and plays on after every client has reconnected (tests/docker/cluster.sh).

    cluster_play.py HOST PORT --stats URL --owner CMD --kill CMD [--before N] [--after N]
                    [--timeout SECONDS]

  --stats URL   HAProxy's status page (URL;csv is read): which node each new connection went to
  --owner CMD   shell command printing the node id that holds room {room}'s lease
  --kill CMD    shell command that kills node {node} (its container)

Ann creates a bomb room (seat random), Bob joins it (seat any), Sue watches; the three connections
go through HAProxy (leastconn: one node each, as its status page shows). They play --before
actions (each one seen by all three), then the node that owns the room is killed. Every client
whose connection breaks (on the dead node) or is closed (relayed through a live node: `notice`
room_moving, then 1012) reconnects through HAProxy and joins again, the players with their seat's
token; each must get the room back at the version it had. Then --after more actions, and the side
to move resigns; the spectator must see the same final state as the players. Prints how long the
failover took for each client. Exit 0 on success, 1 with a message on stderr otherwise.
Standard library only (ws_play.py's WebSocket client).
"""
import argparse
import csv
import io
import os
import subprocess
import sys
import threading
import time
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for ws_play
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ws_play import WS, Fail  # noqa: E402

PACE = 0.06  # seconds between actions: far under the server's 20 messages/s per connection


def shell(cmd, what):
    p = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        err = "\n".join(l for l in p.stderr.splitlines() if "systemd" not in l)
        raise Fail(f"{what} ({cmd}) failed with {p.returncode}: {err.strip()[-300:]}")
    return p.stdout.strip()


def server_sessions(stats_url):
    """{node: current sessions} of HAProxy's backend `nodes`."""
    with urllib.request.urlopen(stats_url.rstrip("/") + "/;csv", timeout=5) as r:
        text = r.read().decode().lstrip("# ")
    out = {}
    for row in csv.DictReader(io.StringIO(text)):
        if row.get("pxname") == "nodes" and row.get("svname") not in ("FRONTEND", "BACKEND"):
            out[row["svname"]] = int(row.get("scur") or 0)
    return out


class Client:
    """One player or spectator: its connection, seat, token and the last state it saw."""

    def __init__(self, args, name):
        self.args, self.name = args, name
        self.ws = None
        self.seat = self.token = self.node = None
        self.state = None
        self.lost = self.back = None  # seconds after the kill
        self.how_lost = None

    def connect(self, deadline):
        """Opens the WebSocket (retrying while HAProxy has no node for it) and reads `welcome`."""
        last = None
        while time.monotonic() < deadline:
            try:
                self.ws = WS(self.args.host, self.args.port, deadline, self.name)
                # Under --cluster, welcome names the node the connection landed on.
                self.node = self.ws.expect("welcome").get("node")
                return
            except (Fail, OSError) as e:
                last = e
                time.sleep(0.4)
        raise Fail(f"{self.name}: could not connect within the time limit ({last})")

    def state_after(self, version):
        """Reads until a state newer than `version`."""
        self.state = self.ws.expect("state", lambda m: m.get("version", -1) > version)
        return self.state

    def wait_lost(self, t_kill, deadline):
        """Reads until the connection is closed or broken; notes when and how."""
        self.ws.deadline = deadline
        moving = False
        try:
            while True:
                m = self.ws.recv()
                if m.get("type") == "notice" and m.get("code") == "room_moving":
                    moving = True
        except Fail as e:
            if "timed out" in str(e):
                raise Fail(f"{self.name}: the connection stayed open after the owner was killed")
            self.how_lost = ("room_moving, " if moving else "") + str(e).split(": ", 1)[-1]
        except OSError as e:
            self.how_lost = f"connection broken ({type(e).__name__})"
        self.lost = time.monotonic() - t_kill
        try:
            self.ws.sock.close()
        except OSError:
            pass

    def rejoin(self, room, t_kill, deadline):
        """Reconnects and joins again (a player with its token) until the room answers."""
        while True:
            self.connect(deadline)
            if self.token:
                self.ws.send({"type": "join", "room": room, "token": self.token})
            else:
                self.ws.send({"type": "join", "room": room, "seat": "spectator", "name": self.name})
            try:
                while True:
                    m = self.ws.recv()
                    if m.get("type") == "error":
                        if m.get("code") != "server_error":
                            raise Fail(f"{self.name}: rejoin refused: {m}")
                        break  # the room could not be placed yet: the server closes with 1012
                    if m.get("type") == "joined":
                        if m.get("seat") != self.seat:
                            raise Fail(f"{self.name}: rejoined as {m.get('seat')!r}, not {self.seat!r}")
                        self.state = self.ws.expect("state")
                        self.back = time.monotonic() - t_kill
                        return
            except Fail as e:
                if "timed out" in str(e):
                    raise
            except OSError:
                pass
            try:
                self.ws.sock.close()
            except OSError:
                pass
            time.sleep(0.5)


def board_key(st):
    pieces = st.get("board", {}).get("pieces", [])
    return sorted((tuple(p["at"]), p["side"], p["kind"], p.get("rank")) for p in pieces)


def same_everywhere(clients, what):
    v = {c.name: c.state.get("version") for c in clients}
    if len(set(v.values())) != 1:
        raise Fail(f"{what}: the clients see different versions: {v}")
    b = {c.name: board_key(c.state) for c in clients}
    if any(x != b[clients[0].name] for x in b.values()):
        raise Fail(f"{what}: the clients see different boards")
    return clients[0].state


def play(players, everyone, n, deadline):
    """n actions, each by the side to move, each seen by every client before the next."""
    done = 0
    while done < n:
        st = same_everywhere(everyone, "before an action")
        if st.get("status") != "playing":
            break
        mover = next(p for p in players if p.seat == st["turn"])
        mover.ws.deadline = deadline
        mover.ws.send({"type": "act", "version": st["version"], "action": st["legal"][0]})
        for c in everyone:
            c.ws.deadline = deadline
            c.state_after(st["version"])
        done += 1
        time.sleep(PACE)
    return done


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("--stats", required=True)
    ap.add_argument("--owner", required=True)
    ap.add_argument("--kill", required=True)
    ap.add_argument("--before", type=int, default=8)
    ap.add_argument("--after", type=int, default=8)
    ap.add_argument("--timeout", type=float, default=90)
    args = ap.parse_args()
    t_start = time.monotonic()
    deadline = t_start + args.timeout
    step = lambda s: min(deadline, time.monotonic() + s)  # noqa: E731

    ann, bob, sue = Client(args, "Ann"), Client(args, "Bob"), Client(args, "Sue")

    def connect_and_place(c):
        """Connects; the node from welcome, checked against the HAProxy server that got the new
        session (servers a, b, c must be nodes a, b, c); a server without welcome's node says."""
        before = server_sessions(args.stats)
        c.connect(step(15))
        for _ in range(20):  # the status page counts the new session at once; allow a moment
            now = server_sessions(args.stats)
            grown = [n for n in now if now[n] > before.get(n, 0)]
            if len(grown) == 1:
                if c.node and c.node != grown[0]:
                    raise Fail(f"{c.name}: HAProxy's server {grown[0]} is node {c.node}")
                c.node = grown[0]
                break
            time.sleep(0.1)

    connect_and_place(ann)
    ann.ws.send({"type": "create", "variant": "bomb", "seat": "random", "name": "Ann"})
    j = ann.ws.expect("joined")
    room, ann.seat, ann.token = j["room"], j["seat"], j["token"]
    ann.state = ann.ws.expect("state")
    connect_and_place(bob)
    bob.ws.send({"type": "join", "room": room, "seat": "any", "name": "Bob"})
    j = bob.ws.expect("joined")
    bob.seat, bob.token = j["seat"], j["token"]
    if {ann.seat, bob.seat} != {"fire", "water"}:
        raise Fail(f"seats: Ann {ann.seat}, Bob {bob.seat}")
    connect_and_place(sue)
    sue.ws.send({"type": "join", "room": room, "seat": "spectator", "name": "Sue"})
    j = sue.ws.expect("joined")
    sue.seat = j["seat"]
    if sue.seat != "spectator":
        raise Fail(f"Sue joined as {sue.seat!r}")
    players, everyone = [ann, bob], [ann, bob, sue]
    for c in everyone:
        c.state = c.ws.expect("state", lambda m: m.get("status") == "playing")
    owner = shell(args.owner.format(room=room), "the owner query")
    print(f"cluster: room {room}: Ann ({ann.seat}) on node {ann.node}, Bob ({bob.seat}) on node "
          f"{bob.node}, Sue (spectator) on node {sue.node}; node {owner or '(none)'} holds the lease")
    if not owner:
        raise Fail(f"no node holds room {room}'s lease")
    if ann.node and owner != ann.node:
        raise Fail(f"room {room} was made on node {ann.node} but node {owner} holds it")

    t0 = time.monotonic()
    n = play(players, everyone, args.before, step(30))
    st = same_everywhere(everyone, "before the kill")
    ms = (time.monotonic() - t0) * 1000 / max(n, 1)
    print(f"cluster: {n} actions played, version {st['version']}, {ms:.0f} ms an action "
          f"(pace {PACE * 1000:.0f} ms included), all three see the same state")
    version = st["version"]

    # The kill: every client reads until its connection ends, then comes back by itself.
    t_kill = time.monotonic()
    shell(args.kill.format(node=owner), "the kill")
    kill_s = time.monotonic() - t_kill
    errors = []

    def failover(c):
        try:
            c.wait_lost(t_kill, step(25))
            c.rejoin(room, t_kill, step(30))
        except (Fail, OSError) as e:
            errors.append(f"{c.name}: {e}")

    threads = [threading.Thread(target=failover, args=(c,)) for c in everyone]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise Fail("; ".join(errors))
    print(f"cluster: killed node {owner} ({kill_s:.2f} s for the kill command)")
    for c in everyone:
        print(f"cluster:   {c.name}: connection ended {c.lost:.2f} s after the kill "
              f"({c.how_lost}); back in the room {c.back:.2f} s after the kill"
              + (f", on node {c.node}" if c.node else ""))
    st = same_everywhere(everyone, "after the failover")
    if st["version"] != version:
        raise Fail(f"after the failover the room is at version {st['version']}, not {version}")
    new_owner = shell(args.owner.format(room=room), "the owner query")
    if not new_owner or new_owner == owner:
        raise Fail(f"after the failover the lease is {new_owner!r}'s")
    print(f"cluster: failover as the clients saw it: {max(c.back for c in everyone):.2f} s "
          f"(the last one back); the room runs on node {new_owner}, version {version}, "
          f"nothing lost")

    n = play(players, everyone, args.after, step(30))
    st = same_everywhere(everyone, "after the failover's actions")
    if st.get("status") == "playing":
        mover = next(p for p in players if p.seat == st["turn"])
        mover.ws.send({"type": "resign"})
        for c in everyone:
            c.state = c.ws.expect("state", lambda m: m.get("status") == "finished")
    st = same_everywhere(everyone, "at the end")
    result = st.get("result") or {}
    if st.get("status") != "finished" or not result:
        raise Fail(f"the game did not end: {str(st)[:300]}")
    print(f"cluster: {n} more actions, then {result.get('reason')}: winner {result.get('winner')} "
          f"at version {st['version']}; the spectator saw the same final state "
          f"({time.monotonic() - t_start:.1f} s in all)")
    for c in everyone:
        c.ws.close()


if __name__ == "__main__":
    try:
        main()
    except (Fail, OSError, ValueError, KeyError, IndexError, StopIteration,
            subprocess.TimeoutExpired) as e:
        print(f"cluster_play: FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
