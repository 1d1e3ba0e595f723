#!/usr/bin/env python3
"""Plays one move of a bomb game against a running bombcheckers server, over WebSocket.

    ws_play.py HOST PORT [TIMEOUT_SECONDS]

A minimal RFC 6455 client on the standard library only (no websockets module in Debian's python3).
Player A creates a bomb room as fire, player B joins it as water, A sends the first legal action
with the state's version, and both must then see a state of version 1. Exit 0 on success, 1 with
a message on stderr otherwise.
"""
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import time

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Fail(Exception):
    pass


class WS:
    def __init__(self, host, port, deadline, name):
        self.name = name
        self.deadline = deadline
        self.sock = socket.create_connection((host, port), timeout=self._left())
        key = base64.b64encode(os.urandom(16)).decode()
        req = (f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(req.encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise Fail(f"{name}: upgrade refused: {lines[0]}")
        headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip()
                   for l in lines[1:] if ":" in l}
        want = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != want:
            raise Fail(f"{name}: bad Sec-WebSocket-Accept {headers.get('sec-websocket-accept')!r}")

    def _left(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Fail(f"timed out")
        return left

    def _fill(self):
        self.sock.settimeout(self._left())
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            raise Fail(f"{self.name}: timed out waiting for the server")
        if not data:
            raise Fail(f"{self.name}: the server closed the connection")
        self.buf += data

    def _take(self, n):
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send_frame(self, opcode, payload):
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.settimeout(self._left())
        self.sock.sendall(head + mask + body)

    def send(self, obj):
        self._send_frame(0x1, json.dumps(obj).encode())

    def recv(self):
        """The next JSON message (answers pings, joins fragments)."""
        message = b""
        while True:
            b0, b1 = self._take(2)
            fin, opcode, n = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._take(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._take(8))[0]
            mask = self._take(4) if b1 & 0x80 else None
            payload = self._take(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise Fail(f"{self.name}: the server closed the WebSocket (code {code})")
            message += payload
            if fin:
                return json.loads(message.decode())

    def expect(self, type_, pred=lambda m: True):
        """Reads until a message of this type that satisfies pred; an `error` fails."""
        while True:
            m = self.recv()
            if m.get("type") == "error":
                raise Fail(f"{self.name}: server error while waiting for {type_}: {m}")
            if m.get("type") == type_ and pred(m):
                return m

    def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        except Exception:
            pass
        self.sock.close()


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 30.0
    deadline = time.monotonic() + timeout

    a = WS(host, port, deadline, "A")
    welcome = a.expect("welcome")
    if welcome.get("protocol") != 1:
        raise Fail(f"welcome: unexpected protocol {welcome.get('protocol')!r}")
    a.send({"type": "create", "variant": "bomb", "name": "A", "seat": "fire"})
    joined = a.expect("joined")
    for f in ("room", "seat", "token"):
        if not joined.get(f):
            raise Fail(f"joined without {f}: {joined}")
    if joined["seat"] != "fire":
        raise Fail(f"joined as {joined['seat']!r}, asked for fire")
    room = joined["room"]
    st = a.expect("state")
    if st.get("room") != room or st.get("variant") != "bomb" or st.get("version") != 0:
        raise Fail(f"first state is not version 0 of bomb room {room}: {str(st)[:300]}")
    print(f"ws: created bomb room {room} as fire (state version 0, status {st.get('status')})")

    b = WS(host, port, deadline, "B")
    b.expect("welcome")
    b.send({"type": "join", "room": room, "seat": "water", "name": "B"})
    bj = b.expect("joined")
    if bj.get("room") != room or bj.get("seat") != "water":
        raise Fail(f"B joined {bj}")
    # A sees the game start: a state with the side to move's legal actions.
    st = a.expect("state", lambda m: m.get("status") == "playing" and m.get("legal"))
    if st.get("turn") != "fire":
        raise Fail(f"fire should move first, turn is {st.get('turn')!r}")
    action, version = st["legal"][0], st["version"]
    print(f"ws: B joined as water; fire has {len(st['legal'])} legal actions; playing {action} "
          f"at version {version}")

    a.send({"type": "act", "action": action, "version": version})
    for who in (a, b):
        new = who.expect("state", lambda m: m.get("version") != version)
        if new.get("version") != 1:
            raise Fail(f"{who.name}: state after the move has version {new.get('version')!r}, not 1")
        if not new.get("last") and new.get("turn") == "fire":
            raise Fail(f"{who.name}: the move left no trace: {str(new)[:300]}")
    print("ws: both players got state version 1")
    a.close()
    b.close()


if __name__ == "__main__":
    try:
        main()
    except (Fail, OSError, ValueError, KeyError, IndexError) as e:
        print(f"ws_play: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
