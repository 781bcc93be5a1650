"""Load test of the web server on loopback: a bounded swarm of asyncio clients.

It starts ``parlour serve`` in a subprocess (on 127.0.0.1, a fresh SQLite file unless
``--db`` says otherwise), opens ``--games`` games at once, and plays them over
WebSocket (or plain HTTP with ``--transport http``): each game's client waits a
random think time (mean ``--think`` seconds), sends a legal move against the version
it saw, and measures the time until the server confirms it. A finished game is
replaced by a new one, so the number of concurrent games holds for the whole run.
It stops by itself after ``--duration`` seconds and prints the games played, moves
per second and move-latency percentiles: over the whole run, and in the steady state,
for the moves sent once every client has created and joined its first game (the
swarm arrives within the first think time: hundreds of game creations and WebSocket
handshakes at once, a load of its own, whose end the report states).

The same swarm first runs against a peer: an echo server on the same stack
(Starlette, uvicorn, JSON) that answers every move at once, with no rules, storage or
validation. The machine is shared and its load varies, so what Parlour adds is the
ratio of its latencies to the peer's, measured in the same run.

    python benchmarks/server_load.py --games 500 --think 2 --duration 30

With ``--servers N`` (and a PostgreSQL ``--db`` and ``--redis``) it starts a fleet of
N processes: game i is played through process i mod N while a second WebSocket
watches it through the next process, and the report adds the *fan-out* latency: from
sending a move until the watcher on the other process has it (through Redis and the
other process's read of the store). The peer is then N echo servers, each watcher
on one echoing nothing, so its figures are those of one hop.

The default game is the tests' race game (dice thrown by the server at every turn);
``--game chess`` etc. once the real games are registered. Only loopback is targeted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvloop
import websockets

ROOT = Path(__file__).resolve().parents[1]
#: The collector's thresholds of `parlour serve` (parlour.server.app's
#: COLLECTOR_THRESHOLDS; the script does not import the package it measures).
COLLECTOR_THRESHOLDS = (50_000, 20, 100)

LAUNCH = """
import sys
from parlour.core import registry
if sys.argv[1] == "race":
    registry.register("race", registry.GameEntry(rules="tests.conformance.toygame:RACE"))
# One client plays every game of the swarm: the limits per client are lifted.
from parlour.server.app import serve
from parlour.server.limits import Limits
unlimited = Limits(0, 0, 0, 0, 0)
redis = sys.argv[4] if len(sys.argv) > 4 else None
raise SystemExit(serve(port=int(sys.argv[2]), db=sys.argv[3], limits=unlimited, redis_url=redis))
"""


# The peer: the same transport (Starlette, uvicorn, JSON over WebSocket and HTTP) with
# no rules, no storage and no validation. It answers each move at once with a made-up
# game of the same shape and size, so its latency is the floor this machine gives any
# such server right now.
ECHO = """
import json, sys
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute

def game(version):
    # Shaped and sized like Parlour's game JSON (its move record grows the same way).
    over = version > 30
    return {"id": "g", "game": "race", "title": "Race to ten", "side_names": ["Red", "Blue"],
            "has_chance": True, "has_draws": True, "options": {"opponent": "local"},
            "created": "2026-11-22T13:00:00+00:00", "version": version,
            "status": "over" if over else "playing", "position": f"{version},0,0,2",
            "turn": version % 2, "legal_moves": ["+1", "+2"],
            "moves": [{"version": v, "side": None if v % 2 else 0, "text": "+1"}
                      for v in range(1, version + 1)],
            "draw_offer": None, "claimable_draw": None, "outcome": None,
            "seats": [{"side": side, "name": name, "player": "human", "level": None,
                       "taken": True} for side, name in ((0, "Red"), (1, "Blue"))]}

async def catalogue(request):
    return JSONResponse({"games": []})

async def create(request):
    await request.json()
    return JSONResponse({"game": game(1), "seats": [{"side": 0, "token": "a"},
                        {"side": 1, "token": "b"}]}, status_code=201)

async def act(request):
    body = await request.json()
    return JSONResponse(game(body["version"] + 2))

async def live(ws):
    await ws.accept()
    hello = json.loads(await ws.receive_text())
    version = 1
    await ws.send_text(json.dumps({"type": "welcome", "seat": None}))
    await ws.send_text(json.dumps({"type": "update", "events": [], "game": game(version)}))
    while True:
        message = json.loads(await ws.receive_text())
        version = message["version"] + 2
        events = [{"version": version - 1, "kind": "move", "payload": message["move"]},
                  {"version": version, "kind": "throw", "payload": "throw 1"}]
        await ws.send_text(json.dumps({"type": "update", "events": events, "game": game(version)}))
        await ws.send_text(json.dumps({"type": "result", "id": message["id"], "version": version}))

app = Starlette(routes=[Route("/api/catalogue", catalogue), Route("/api/games", create,
    methods=["POST"]), Route("/api/games/{id}/actions", act, methods=["POST"]),
    WebSocketRoute("/api/games/{id}/live", live)])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws_max_size=16384, ws_per_message_deflate=False)
"""


@dataclass
class Tally:
    #: The swarm's clients: once each has created and joined its first game, the
    #: swarm's arrival is over and the steady state begins.
    clients: int
    latencies: list[float] = field(default_factory=list)
    #: When each move of ``latencies`` was sent.
    sent: list[float] = field(default_factory=list)
    #: From sending a move to its arrival at a watcher on another process.
    fan_out: list[float] = field(default_factory=list)
    fan_out_sent: list[float] = field(default_factory=list)
    games_finished: int = 0
    games_started: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    #: Clients whose first game has been created and joined, and when the last was.
    arrived: int = 0
    all_arrived: float | None = None
    began: float = field(default_factory=time.monotonic)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def arrive(self) -> None:
        self.arrived += 1
        if self.arrived == self.clients:
            self.all_arrived = time.monotonic()

    def steady(self, values: list[float], sent: list[float]) -> list[float]:
        """The ``values`` of moves sent once the whole swarm had arrived."""
        if self.all_arrived is None:
            return []
        return [value for value, at in zip(values, sent, strict=True) if at >= self.all_arrived]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


Created = tuple[str, dict[int, str], dict[str, Any]]


async def new_game(http: httpx.AsyncClient, game: str) -> Created:
    response = await http.post("/api/games", json={"game": game, "opponent": "local"})
    response.raise_for_status()
    data = response.json()
    tokens = {seat["side"]: seat["token"] for seat in data["seats"]}
    return data["game"]["id"], tokens, data["game"]


class Arrivals:
    """When each version of a game reached its watcher, and who waits for one."""

    def __init__(self) -> None:
        self.times: dict[int, float] = {}
        self.waiting: dict[int, asyncio.Future[None]] = {}

    def note(self, version: int) -> None:
        self.times.setdefault(version, time.monotonic())
        waiter = self.waiting.pop(version, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def fanned_out(self, version: int, sent: float) -> float | None:
        """Seconds from ``sent`` until the watcher had ``version`` (None: not
        within 10 s). Woken by the arrival: a poll would load the shared cores."""
        if version not in self.times:
            waiter = self.waiting.setdefault(version, asyncio.get_running_loop().create_future())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, 10)
        return self.times[version] - sent if version in self.times else None


async def watch(url: str, since: int, arrivals: Arrivals) -> None:
    """A watcher through another process of the fleet: when each version arrived."""
    async with websockets.connect(url, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "since": since}))
        async for raw in ws:
            message = json.loads(raw)
            for event in message.get("events", ()):
                arrivals.note(event["version"])


async def play_ws(
    base: str,
    http: httpx.AsyncClient,
    game: str,
    think: float,
    until: float,
    tally: Tally,
    watch_base: str | None = None,
) -> None:
    rng = random.Random()
    await asyncio.sleep(rng.uniform(0, think))  # spread the starts
    first = True
    while time.monotonic() < until:
        game_id, tokens, state = await new_game(http, game)
        tally.games_started += 1
        url = base.replace("http://", "ws://") + f"/api/games/{game_id}/live"
        arrivals = Arrivals()
        watcher = None
        if watch_base is not None:
            other = watch_base.replace("http://", "ws://") + f"/api/games/{game_id}/live"
            watcher = asyncio.create_task(watch(other, state["version"], arrivals))
        async with websockets.connect(url, max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "since": state["version"]}))
            await ws.recv()  # welcome
            state = json.loads(await ws.recv())["game"]
            if first:
                tally.arrive()
                first = False
            request = 0
            while state["status"] == "playing" and time.monotonic() < until:
                await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
                request += 1
                side = state["turn"]
                sent = time.monotonic()
                await ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "id": request,
                            "action": "move",
                            "version": state["version"],
                            "move": rng.choice(state["legal_moves"]),
                            "token": tokens[side],
                        }
                    )
                )
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] == "update":
                        state = message["game"]
                    elif message.get("id") == request:
                        break
                if message["type"] == "result":
                    tally.latencies.append(time.monotonic() - sent)
                    tally.sent.append(sent)
                    if watcher is not None:
                        delay = await arrivals.fanned_out(message["version"], sent)
                        if delay is None:
                            tally.error("not-fanned-out")
                        else:
                            tally.fan_out.append(delay)
                            tally.fan_out_sent.append(sent)
                else:
                    tally.error(message.get("error", "?"))
            if state["status"] == "over":
                tally.games_finished += 1
        if watcher is not None:
            watcher.cancel()


async def play_http(
    base: str,
    http: httpx.AsyncClient,
    game: str,
    think: float,
    until: float,
    tally: Tally,
) -> None:
    rng = random.Random()
    await asyncio.sleep(rng.uniform(0, think))
    first = True
    while time.monotonic() < until:
        game_id, tokens, state = await new_game(http, game)
        tally.games_started += 1
        if first:
            tally.arrive()
            first = False
        while state["status"] == "playing" and time.monotonic() < until:
            await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
            sent = time.monotonic()
            response = await http.post(
                f"/api/games/{game_id}/actions",
                json={
                    "action": "move",
                    "version": state["version"],
                    "move": rng.choice(state["legal_moves"]),
                },
                headers={"Authorization": f"Bearer {tokens[state['turn']]}"},
            )
            if response.status_code == 200:
                tally.latencies.append(time.monotonic() - sent)
                tally.sent.append(sent)
                state = response.json()
            else:
                tally.error(response.json().get("error", "?"))
                state = (await http.get(f"/api/games/{game_id}")).json()
        if state["status"] == "over":
            tally.games_finished += 1


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def swarm(args: argparse.Namespace, bases: list[str], fleet: bool) -> Tally:
    """The swarm: game i played through ``bases[i % N]`` (and, in a fleet, watched
    through the next one)."""
    tally = Tally(args.games)
    limits = httpx.Limits(max_connections=args.games + 10, max_keepalive_connections=args.games)
    clients = []
    async with contextlib.AsyncExitStack() as stack:
        https = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=base, limits=limits, timeout=30)
            )
            for base in bases
        ]
        until = time.monotonic() + args.duration
        for i in range(args.games):
            here = i % len(bases)
            if args.transport == "ws":
                watch_base = bases[(here + 1) % len(bases)] if fleet else None
                play = play_ws(
                    bases[here],
                    https[here],
                    args.game,
                    args.think,
                    until,
                    tally,
                    watch_base,
                )
            else:
                play = play_http(bases[here], https[here], args.game, args.think, until, tally)
            clients.append(asyncio.create_task(play))
        # Bounded: whatever is still running a while after the end is cancelled.
        done, pending = await asyncio.wait(clients, timeout=args.duration + 30)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                tally.error(type(task.exception()).__name__)
    return tally


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(
    args: argparse.Namespace, db: str, port: int, code: str
) -> subprocess.Popen[bytes]:
    fleet = [args.redis] if args.servers > 1 and code == LAUNCH else []
    process = subprocess.Popen(
        [sys.executable, "-c", code, args.game, str(port), db, *fleet],
        cwd=ROOT,
        stdout=subprocess.DEVNULL if not args.verbose else None,
        stderr=subprocess.DEVNULL if not args.verbose else None,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/catalogue").status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="concurrent games (max 2000)")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds (max 600)")
    parser.add_argument("--transport", choices=("ws", "http"), default="ws")
    parser.add_argument("--game", default="race")
    parser.add_argument("--db", help="SQLAlchemy URL (default: a fresh SQLite file)")
    parser.add_argument("--servers", type=int, default=1, help="processes in the fleet (1-4)")
    parser.add_argument("--redis", help="Redis URL for a fleet (--servers 2 or more)")
    parser.add_argument("--verbose", action="store_true", help="show the server's log")
    args = parser.parse_args()
    if not 1 <= args.servers <= 4:
        parser.error("--servers is 1 to 4")
    if args.servers > 1 and not (
        args.redis and args.db and args.db.startswith("postgresql") and args.transport == "ws"
    ):
        parser.error("--servers 2 or more needs --db postgresql://..., --redis and ws")
    if not (1 <= args.games <= 2000 and 0 < args.duration <= 600 and args.think >= 0):
        parser.error("games 1..2000, duration 0..600 s, think >= 0")
    if args.db and "127.0.0.1" not in args.db and not args.db.startswith("sqlite"):
        parser.error("only a database on 127.0.0.1 (or SQLite) may be used")

    results = {}
    for name, code in (("echo peer", ECHO), ("parlour", LAUNCH)):
        with tempfile.TemporaryDirectory() as folder:
            db = args.db or f"sqlite:///{Path(folder) / 'load.db'}"
            results[name] = run(args, db, code)
            report(name, args, db, *results[name])
    (tally, _, _, _), (peer, _, _, _) = results["parlour"], results["echo peer"]
    if tally.latencies and peer.latencies:
        print("ratios (parlour / echo peer, same run):")
        for label, fraction in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99)):
            ours = percentile(tally.latencies, fraction)
            theirs = percentile(peer.latencies, fraction)
            print(f"  {label} latency  {ours / theirs:.2f}")
        ours_steady = tally.steady(tally.latencies, tally.sent)
        theirs_steady = peer.steady(peer.latencies, peer.sent)
        if ours_steady and theirs_steady:
            ratio = percentile(ours_steady, 0.99) / percentile(theirs_steady, 0.99)
            print(f"  p99 steady   {ratio:.2f}")
    return 0 if tally.latencies and not tally.errors else 1


def run(args: argparse.Namespace, db: str, code: str) -> tuple[Tally, float, float, float]:
    """One swarm against ``--servers`` servers; the tally, wall time and the CPU
    times of the servers (together) and of the clients."""
    ports = [free_port() for _ in range(args.servers)]
    servers: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            servers.append(start_server(args, db, port, code))
        server_cpu = sum(cpu_seconds(server.pid) for server in servers)
        client_cpu = time.process_time()
        started = time.monotonic()
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        # The swarm shares the machine's cores with the servers: uvloop (which
        # uvicorn runs the servers on) keeps its own share small. Its collector is
        # tuned as `parlour serve` tunes the servers' (parlour.server.app): with
        # Python's thresholds, full collections in the swarm's arrival (a thousand
        # WebSockets opened) stalled it 80 ms and more, counted as the servers'.
        gc.freeze()
        gc.set_threshold(*COLLECTOR_THRESHOLDS)
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            tally = runner.run(swarm(args, bases, fleet=code == LAUNCH and args.servers > 1))
        wall = time.monotonic() - started
        server_cpu = sum(cpu_seconds(server.pid) for server in servers) - server_cpu
        client_cpu = time.process_time() - client_cpu
    finally:
        for server in servers:
            server.send_signal(signal.SIGINT)
        for server in servers:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
    return tally, wall, server_cpu, client_cpu


def report(
    name: str,
    args: argparse.Namespace,
    db: str,
    tally: Tally,
    wall: float,
    server_cpu: float,
    client_cpu: float,
) -> None:
    moves = len(tally.latencies)
    store = "no" if name != "parlour" else db.split(":")[0]
    servers = f", {args.servers} processes" if args.servers > 1 else ""
    print(f"== {name}: {args.transport}, game {args.game}, {store} store{servers}")
    print(f"concurrent      {args.games} games, mean think {args.think} s, {wall:.1f} s run")
    print(f"games           {tally.games_started} started, {tally.games_finished} finished")
    print(f"moves           {moves} confirmed, {moves / args.duration:.0f} moves/s")
    if tally.all_arrived is not None:
        arrival = tally.all_arrived - tally.began
        print(f"arrival         all {args.games} games created and joined {arrival:.1f} s in")
    steady = tally.steady(tally.latencies, tally.sent)
    steady_fan_out = tally.steady(tally.fan_out, tally.fan_out_sent)
    for label, values, note in (
        ("latency", tally.latencies, "whole run"),
        ("  steady", steady, "sent once all had arrived"),
        ("fan-out", tally.fan_out, "to a watcher on another process"),
        ("  steady", steady_fan_out, "sent once all had arrived"),
    ):
        if values:
            ms = [1000 * value for value in values]
            print(
                f"{label + ' (ms)':16}"
                f"p50 {percentile(ms, 0.50):.1f}  p95 {percentile(ms, 0.95):.1f}  "
                f"p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}  "
                f"mean {statistics.fmean(ms):.1f}  ({len(ms)} moves, {note})"
            )
    print(f"cpu             server {server_cpu:.1f} s, clients {client_cpu:.1f} s (2 cores shared)")
    if moves:
        print(f"server cpu/move {1000 * server_cpu / moves:.2f} ms (game creation included)")
    print(f"errors          {tally.errors or 'none'}")
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"load average    {load} (after the run; 2 cores)", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
