#!/usr/bin/env bash
# SPRT of one engine change against the previous binary, as every search or
# evaluation change in docs/STRENGTH.md was measured.
# Usage: [MATCH=path/to/match.py] tools/sprt.sh NEW OLD [NODES] [ELO0,ELO1] [MAX_GAMES] [SEED]
#   defaults: 20000 nodes per move, bounds 0,10, at most 4000 games.
# Games at a fixed node count, two at once, openings from GNU Chess's book
# (8 plies), each opening played with both colours. The match runner is
# $MATCH (default ../shared/tools/match.py; see tools/match_runner.sh).
set -eu
NEW=$1; OLD=$2; NODES=${3:-20000}; BOUNDS=${4:-0,10}; GAMES=${5:-4000}; SEED=${6:-1}
cd "$(dirname "$0")/.."
. tools/match_runner.sh
python3 "$MATCH" --a "$NEW" --b "$OLD" --nodes "$NODES" \
  --concurrency 2 --sprt="$BOUNDS" --games "$GAMES" \
  --book "$BOOK" --book-plies 8 --seed "$SEED" 2>&1 | tee "${LOG:-/dev/null}" | tail -4
