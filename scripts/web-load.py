#!/usr/bin/env python3
"""Load on a running `perfectplay serve`: requests a second and the latency of /api/probe on
loopback while analysis streams keep the server's search threads busy.

    perfectplay serve --port 8377 &
    scripts/web-load.py --port 8377 --streams 2 --clients 8 --seconds 20

Each client sends probes of random positions (200 random legal games of 0-30 plies of awari,
answered from the 12-seed table where it reaches) over one kept-alive connection; the streams are
infinite analyses held open for the whole run. Prints the probes answered, requests a second,
p50/p90/p99/max latency in ms, and any status other than 200.
"""

import argparse
import http.client
import json
import random
import statistics
import threading
import time


def stream(port, stop, index):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/api/analysis?variant=abapa&infinite=true&page=load{index}")
    res = conn.getresponse()
    if res.status != 200:
        print(f"stream {index}: {res.status}")
        return
    while not stop.is_set():
        if not res.fp.readline():
            break
    conn.close()


def positions(port, count, seed):
    """`count` random legal games of 0-30 plies of awari, as query strings of moves."""
    rng = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    games = []
    for _ in range(count):
        moves = []
        for _ in range(rng.randrange(0, 31)):
            conn.request("GET", f"/api/state?variant=awari&moves={'+'.join(moves)}")
            state = json.loads(conn.getresponse().read())
            if state["end"]:
                break
            moves.append(rng.choice(state["legal"])["move"])
        games.append("+".join(moves))
    conn.close()
    return games


def client(port, seconds, seed, games, latencies, statuses):
    rng = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        conn.request("GET", f"/api/probe?variant=awari&moves={rng.choice(games)}")
        res = conn.getresponse()
        res.read()
        latencies.append((time.monotonic() - started) * 1000)
        statuses[res.status] = statuses.get(res.status, 0) + 1
    conn.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--streams", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    games = positions(args.port, 200, 1)
    stop = threading.Event()
    streams = [threading.Thread(target=stream, args=(args.port, stop, i)) for i in range(args.streams)]
    for s in streams:
        s.start()
    time.sleep(1)
    latencies, statuses = [], {}
    clients = [
        threading.Thread(target=client, args=(args.port, args.seconds, i, games, latencies, statuses))
        for i in range(args.clients)
    ]
    started = time.monotonic()
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    took = time.monotonic() - started
    stop.set()
    latencies.sort()
    q = statistics.quantiles(latencies, n=100)
    print(f"{len(latencies)} probes in {took:.1f} s: {len(latencies) / took:.0f} a second; "
          f"latency ms p50 {q[49]:.2f} p90 {q[89]:.2f} p99 {q[98]:.2f} max {latencies[-1]:.2f}; "
          f"statuses {statuses}; {args.streams} analysis streams running")


if __name__ == "__main__":
    main()
