#!/usr/bin/env python3
"""How the engine's search threads behave across many searches.

Usage: tools/threads_probe.py ENGINE [--threads N] [--cycles C] [--latency L]

Drives ENGINE over UCI: C cycles of `go infinite` / `stop` (each waits for
its bestmove), sampling the process's thread count from /proc after each,
then L searches of `go movetime 10`, timing each from the `go` line to its
`bestmove` line. Prints the thread counts seen and the latency's median,
90th percentile and maximum. Linux only (/proc).
"""
import argparse
import statistics
import subprocess
import time


def threads_of(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return -1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--cycles", type=int, default=1000)
    ap.add_argument("--latency", type=int, default=200)
    a = ap.parse_args()
    p = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the engine closed its output")
            if line.startswith(prefix):
                return line

    send("uci")
    until("uciok")
    send(f"setoption name Threads value {a.threads}")
    send("isready")
    until("readyok")
    counts = []
    for _ in range(a.cycles):
        send("go infinite")
        send("stop")
        until("bestmove")
        counts.append(threads_of(p.pid))
    lat = []
    for _ in range(a.latency):
        t = time.perf_counter()
        send("go movetime 10")
        until("bestmove")
        lat.append((time.perf_counter() - t) * 1000)
    send("quit")
    p.wait(timeout=10)
    lat.sort()
    print(f"threads {a.threads}, {a.cycles} go/stop cycles: process threads "
          f"min {min(counts)}, max {max(counts)}, last {counts[-1]}")
    print(f"go movetime 10, {a.latency} searches: median {statistics.median(lat):.1f} ms, "
          f"p90 {lat[int(len(lat) * 0.9)]:.1f} ms, max {lat[-1]:.1f} ms")


if __name__ == "__main__":
    main()
