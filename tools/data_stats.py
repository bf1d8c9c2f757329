#!/usr/bin/env python3
"""What a file of training records holds (crates/hashmate-data/src/record.rs,
32 bytes a record): games and results, records a game, how far from level
the games start and how many records lie far from level.

    python3 tools/data_stats.py FILE [--start N] [--count N]

reads COUNT records from record START (default: the first million). The
game counts are of games that begin in that window; a game cut by its end
counts with the records it has there.
"""
import argparse
import statistics
import struct
import sys

RECORD = 32
FIRST_BIT, NOISY_BIT = 0x80, 0x20
RESULTS = {2: "white wins", 1: "draws", 0: "black wins"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--start", type=int, default=0, help="first record read")
    ap.add_argument("--count", type=int, default=1_000_000, help="records read")
    a = ap.parse_args()
    with open(a.file, "rb") as f:
        f.seek(a.start * RECORD)
        data = f.read(a.count * RECORD)
    n = len(data) // RECORD
    if n == 0:
        sys.exit(f"{a.file}: no record from record {a.start} on")
    results, firsts, lengths = {0: 0, 1: 0, 2: 0}, [], []
    far = noisy = length = 0
    for i in range(n):
        r = data[i * RECORD:(i + 1) * RECORD]
        flags, result = r[24], r[27]
        score = struct.unpack("<h", r[28:30])[0]
        if result not in results:
            sys.exit(f"{a.file}: record {a.start + i}: result byte {result} (0, 1 or 2 expected)")
        if flags & FIRST_BIT:
            if length:
                lengths.append(length)
            length = 0
            results[result] += 1
            firsts.append(abs(score))
        length += 1
        far += abs(score) > 1000
        noisy += bool(flags & NOISY_BIT)
    games = sum(results.values())
    print(f"{n} records from record {a.start}: {games} games begin there")
    if games:
        print("results: " + ", ".join(f"{RESULTS[k]} {100 * results[k] / games:.1f} %" for k in (2, 1, 0)))
        print(f"the first search's score: median ±{statistics.median(firsts):.0f} cp; "
              + ", ".join(f"{100 * sum(s <= t for s in firsts) / games:.0f} % within ±{t}"
                          for t in (100, 300, 1000)))
    if lengths:
        print(f"records a game (whole games in the window): {sum(lengths) / len(lengths):.1f}")
    print(f"records beyond ±1000 cp: {100 * far / n:.1f} %; best move a capture or promotion: "
          f"{100 * noisy / n:.1f} %")


if __name__ == "__main__":
    main()
