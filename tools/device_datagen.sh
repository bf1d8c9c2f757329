#!/bin/sh
# Data generation on a lent many-core machine (docs/NNUE.md, "Data from a
# lent machine"): plays a new data set with the embedded net for a fixed
# time, packs it into the chained form and leaves it in $OUT, which comes
# back through a 64 MiB limit (about 15 M positions chained).
#
# Run there from the repository root, with the release binary and the
# book carried in `.device/` (ignored by git):
#     sh tools/pgo.sh && mkdir -p .device && cp target/pgo/hashmate .device/ \
#         && cp /usr/share/games/gnuchess/book.bin .device/
# (the profile-guided build plays the same games 7-9 % faster than
# target/release/hashmate, which serves as well; docs/BENCHMARKS.md §9).
#     run: sh tools/device_datagen.sh SEED SECONDS   (carry: .device)
# Each lent session plays its own seed; game i of a seed depends only on
# the seed and i, so a set is regenerable here by the same datagen command
# with --games set to the count it reports.
set -eu
seed=${1:?seed}
secs=${2:?seconds}
threads=${THREADS:-$(nproc)}
# 750 nodes a move: each halving of the node limit (6,000 -> 3,000 -> 1,500
# -> 750) gave 1.7-1.9 times the positions for the same time, and at equal
# records the shallower labels cost nothing measurable (docs/NNUE.md,
# "Run 16", "Run 21" and "Run 22").
nodes=${NODES:-750}
# Openings the first search scores beyond +-300 cp are drawn again: at
# equal records the net learns more from games that start near balance
# (docs/NNUE.md, "Run 31"); OPENING_LIMIT= (empty) plays every opening.
limit=${OPENING_LIMIT-300}
out=${OUT:?OUT is where the data goes}
bin=.device/hashmate
data=/tmp/hm-seed$seed.bin
"$bin" bench 2>&1 | tail -1
"$bin" datagen --out "$data" --games 100000000 --threads "$threads" --seed "$seed" \
    --nodes "$nodes" --book .device/book.bin --nnue '<internal>' --time-limit "$secs" \
    ${limit:+--max-opening-score "$limit"} 2>&1 | tail -3
"$bin" data pack "$data" "$out/hm-seed$seed.chain"
sha256sum "$data" "$out/hm-seed$seed.chain"
