#!/usr/bin/env python3
"""A sample bot for a bombcheckers server: the template to copy (docs/BOTS.md is the API).

It listens on its event stream, accepts the challenges it can play, and plays each game in a thread
of its own: a random legal turn, or with --engine the best turn of `bombcheckers analyse`.

    python3 bots/sample_bot.py --server http://127.0.0.1:8080 --token bcb_...   (or env BC_TOKEN)
    python3 bots/sample_bot.py ... --engine build/bombcheckers --engine-ms 500

Test hooks: --challenge-ai bomb,kaboom plays one game per variant against the server's computer
(--ai-level, --clock 60+1) and exits, printing a line per game: "ID VARIANT winner=W reason=R".
--drop-stream-after N closes a game's stream once after the bot's N-th turn there and opens it again.
Standard library only. Exit status: 0 done, 1 a game did not finish, 2 a protocol error.
"""

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

VARIANTS = ("bomb", "classic", "triple_king", "kaboom")
# The server writes an empty line after 7 s of silence; three missed ones mean the stream is dead.
READ_TIMEOUT_S = 21
# A stream that keeps failing is given up after this many tries in a row (a bug, not a blip).
MAX_RECONNECTS = 8


class ProtocolError(Exception):
    """The server said something this bot cannot go on from (a bad token, a line that is not JSON)."""


class Api:
    """The server's HTTP API, with the token on every request."""

    def __init__(self, server, token):
        self.server = server.rstrip("/")
        self.token = token

    def _request(self, method, path, body=None, timeout=30):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.server + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        return urllib.request.urlopen(req, timeout=timeout)

    def call(self, method, path, body=None):
        """(status, JSON answer). A 429 is waited out as its Retry-After says; 401/403 are fatal."""
        for _ in range(5):
            try:
                with self._request(method, path, body) as res:
                    return res.status, json.loads(res.read() or b"{}")
            except urllib.error.HTTPError as e:
                try:
                    answer = json.loads(e.read() or b"{}")
                except ValueError:
                    answer = {"error": "http_%d" % e.code}
                if e.code == 429:
                    time.sleep(float(e.headers.get("Retry-After") or 1))
                    continue
                if e.code in (401, 403):
                    raise ProtocolError("%s %s: %d %s" % (method, path, e.code, answer))
                return e.code, answer
        return 429, {"error": "rate_limited"}

    def stream(self, path):
        """The NDJSON lines of a stream as dicts; None for a keep-alive (an empty line)."""
        try:
            res = self._request("GET", path, timeout=READ_TIMEOUT_S)
        except urllib.error.HTTPError as e:
            if e.code in (401, 403, 404):
                raise ProtocolError("GET %s: %d %s" % (path, e.code, e.read()[:200]))
            raise  # anything else (429, 5xx): worth another try
        with res:
            while True:
                line = res.readline()
                if not line:
                    return  # the server closed it: the caller decides whether to reopen
                line = line.strip()
                if not line:
                    yield None
                    continue
                try:
                    yield json.loads(line)
                except ValueError:
                    raise ProtocolError("GET %s: not JSON: %r" % (path, line[:200]))


class Bot:
    def __init__(self, args):
        self.args = args
        self.api = Api(args.server, args.token)
        self.lock = threading.Lock()
        self.games = {}  # id -> {"variant", "result", "thread"}
        self.fatal = None  # the first ProtocolError of any thread: the bot stops with status 2

    def log(self, *words):
        if not self.args.quiet:
            print(time.strftime("%H:%M:%S"), *words, file=sys.stderr, flush=True)

    # ---- choosing a turn --------------------------------------------------------------------

    def choose(self, game, state):
        """A turn from state["legal"]: the engine's if it has one and answers, else a random one."""
        legal = state["legal"]
        if self.args.engine and state.get("position"):
            best = self.engine_turn(game, state)
            if best:
                return best
        return random.choice(legal)

    def engine_turn(self, game, state):
        ms = self.args.engine_ms
        clocks = state.get("clocks")
        if clocks and game.get("side") in clocks:  # never think past a 30th of our time left
            ms = max(50, min(ms, int(clocks[game["side"]] / 30)))
        cmd = [self.args.engine, "analyse", "--variant", game["variant"], "--fen", state["position"],
               "--time-ms", str(ms)]
        for k, v in sorted((game.get("options") or {}).items()):
            cmd += ["--opt", "%s=%s" % (k, json.dumps(v) if isinstance(v, bool) else v)]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=ms / 1000 + 5).stdout
            last = out.strip().splitlines()[-1]
            if last.startswith("best "):
                return last.split()[1]  # analyse's notation: the API reads it as well as PDN
        except (OSError, subprocess.SubprocessError, IndexError) as e:
            self.log("engine failed (%s): a random turn instead" % e)
        return None

    def play(self, gid, game, state):
        """Plays one turn; an illegal one (an engine's mistake) is replaced by a random legal turn."""
        turn = self.choose(game, state)
        for _ in range(2):
            status, answer = self.api.call("POST", "/api/bot/game/%s/move/%s" % (gid, urllib.parse.quote(turn, safe="")))
            if status == 200:
                self.log(gid, "played", turn)
                return True
            if status == 400 and answer.get("legal"):
                turn = random.choice(answer["legal"])
                continue
            # not_your_turn / game_over: the stream's next state says what happened.
            self.log(gid, "move %s refused: %s" % (turn, answer.get("error")))
            return False
        return False

    # ---- one game ---------------------------------------------------------------------------

    def play_game(self, gid):
        """Follows game `gid`'s stream until it is over, playing whenever `legal` is ours."""
        game = {"variant": None, "side": None, "options": {}}
        moved_at = None  # the state we last played in: a resent state is not played twice
        moves = 0
        drop_after = self.args.drop_stream_after  # 0 once the one planned drop is done
        failures = 0
        while not self.fatal:
            planned = False
            events = self.api.stream("/api/bot/game/stream/%s" % gid)
            try:
                for event in events:
                    failures = 0
                    if event is None:
                        continue
                    if event.get("type") == "gameFull":
                        game.update({k: event.get(k) for k in ("variant", "side", "options")})
                        with self.lock:
                            self.games[gid]["variant"] = game["variant"]
                        state = event.get("state") or {}
                    elif event.get("type") == "gameState":
                        state = event
                    else:
                        continue  # chatLine, opponentGone: a sample bot ignores them
                    if state.get("status") == "over":
                        self.finish(gid, state.get("result"))
                        return
                    # `legal` is non-empty only on our turn; after a reconnect the same state may come
                    # again, and is not played twice.
                    key = state.get("version", len(state.get("moves") or []))
                    if state.get("legal") and key != moved_at and self.play(gid, game, state):
                        moved_at = key
                        moves += 1
                        if drop_after and moves >= drop_after:
                            self.log(gid, "dropping the game stream (--drop-stream-after)")
                            drop_after, planned = 0, True
                            break
                else:
                    self.log(gid, "the game stream ended: opening it again")
            except ProtocolError as e:
                self.stop(e)
                return
            except (OSError, ValueError, http.client.HTTPException) as e:  # a reset, a timeout
                self.log(gid, "game stream lost (%r): opening it again" % e)
            finally:
                events.close()  # closes the connection, if it is still open
            if planned:
                continue  # the server resends the whole state: carry on from it at once
            failures += 1
            if failures > MAX_RECONNECTS:
                self.stop(ProtocolError("game %s: its stream failed %d times in a row" % (gid, failures)))
                return
            time.sleep(min(10, 0.5 * failures))

    def finish(self, gid, result):
        with self.lock:
            self.games[gid]["result"] = result or {"winner": None, "reason": "unknown"}
        self.log(gid, "over:", json.dumps(result))

    def start_game(self, gid):
        with self.lock:
            if gid in self.games:
                return
            t = threading.Thread(target=self.play_game, args=(gid,), daemon=True, name="game-" + gid)
            self.games[gid] = {"variant": None, "result": None, "thread": t}
        t.start()

    def stop(self, error):
        self.log("protocol error:", error)
        with self.lock:
            self.fatal = self.fatal or error

    # ---- the event stream -------------------------------------------------------------------

    def on_challenge(self, c):
        if c.get("status") != "created" or c.get("challenger", {}).get("name") == self.name:
            return  # our own challenge, or one already answered
        cid, variant = c["id"], c.get("variant")
        full = self.args.max_games and len(self.games) >= self.args.max_games
        if variant in self.args.variants and not full:
            status, answer = self.api.call("POST", "/api/challenge/%s/accept" % cid)
            self.log("accepted", cid, variant, "from", c["challenger"].get("name"), status)
            if status == 200 and answer.get("game"):
                self.start_game(answer["game"]["id"])
        else:
            reason = "I play only %s." % ", ".join(self.args.variants) if not full else "I am busy: try later."
            self.api.call("POST", "/api/challenge/%s/decline" % cid, {"reason": reason})
            self.log("declined", cid, variant)

    def listen(self):
        """The event stream, for ever (or until --max-games are over)."""
        failures = 0
        while not self.fatal and not self.all_done():
            try:
                for event in self.api.stream("/api/stream/event"):
                    failures = 0
                    if self.fatal or self.all_done():
                        return
                    if event and event.get("type") == "challenge":
                        self.on_challenge(event["challenge"])
                    elif event and event.get("type") == "gameStart":
                        self.start_game(event["game"]["id"])
            except ProtocolError as e:
                self.stop(e)
                return
            except (OSError, ValueError, http.client.HTTPException) as e:
                self.log("event stream lost (%s): opening it again" % e)
            failures += 1
            if failures > MAX_RECONNECTS:
                self.stop(ProtocolError("the event stream failed %d times in a row" % failures))
                return
            time.sleep(min(10, 0.5 * failures))

    def all_done(self):
        with self.lock:
            n = self.args.max_games
            return bool(n) and len(self.games) >= n and all(g["result"] for g in self.games.values())

    # ---- the computer's games (a test hook) -------------------------------------------------

    def challenge_ai(self):
        clock = None
        if self.args.clock:
            base, _, inc = self.args.clock.partition("+")
            clock = {"base": int(base), "increment": int(inc or 0)}
        for variant in self.args.challenge_ai.split(","):
            body = {"level": self.args.ai_level, "variant": variant, "options": {}, "clock": clock, "color": "random"}
            status, answer = self.api.call("POST", "/api/challenge/ai", body)
            if status != 200 or "game" not in answer:
                raise ProtocolError("POST /api/challenge/ai %s: %d %s" % (variant, status, answer))
            self.start_game(answer["game"]["id"])
            with self.lock:
                self.games[answer["game"]["id"]]["variant"] = variant
        for g in list(self.games.values()):
            while g["thread"].is_alive() and not self.fatal:
                g["thread"].join(1)
        ok = True
        for gid, g in self.games.items():
            r = g["result"]
            if r:
                print("%s %s winner=%s reason=%s" % (gid, g["variant"], r.get("winner") or "none", r.get("reason")))
            else:
                print("%s %s unfinished" % (gid, g["variant"]))
                ok = False
        sys.stdout.flush()
        return ok

    def run(self):
        status, me = self.api.call("GET", "/api/account")
        if status != 200 or not me.get("bot"):
            raise ProtocolError("GET /api/account: %d %s (the token must be a bot account's)" % (status, me))
        self.name = me["name"]
        self.log("signed in as", self.name)
        if self.args.challenge_ai:
            ok = self.challenge_ai()
        else:
            self.listen()
            ok = True
        if self.fatal:
            print("sample_bot: %s" % self.fatal, file=sys.stderr)
            return 2
        return 0 if ok else 1


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", default="http://127.0.0.1:8080", help="the server's URL")
    p.add_argument("--token", default=os.environ.get("BC_TOKEN"), help="the bot's token (default: env BC_TOKEN)")
    p.add_argument("--variants", default=",".join(VARIANTS), help="variants to accept (comma list)")
    p.add_argument("--engine", help="a bombcheckers binary: its `analyse` picks the turns")
    p.add_argument("--engine-ms", type=int, default=300, help="the engine's time a turn (ms)")
    p.add_argument("--max-games", type=int, default=0, help="stop after this many games (0: never)")
    p.add_argument("--quiet", action="store_true", help="no log lines, only the summary")
    t = p.add_argument_group("test hooks")
    t.add_argument("--challenge-ai", metavar="VARIANTS", help="play the server's computer once per variant, then exit")
    t.add_argument("--ai-level", type=int, default=1, help="the computer's level, 1..8 (default 1)")
    t.add_argument("--clock", metavar="BASE+INC", help="a clock for --challenge-ai, in seconds: 60+1")
    t.add_argument("--drop-stream-after", type=int, default=0, metavar="N",
                   help="close a game's stream once after the bot's N-th turn, then reopen it")
    args = p.parse_args()
    if not args.token:
        p.error("no token: --token or env BC_TOKEN")
    args.variants = [v for v in args.variants.split(",") if v]
    try:
        return Bot(args).run()
    except ProtocolError as e:
        print("sample_bot: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
