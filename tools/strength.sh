#!/usr/bin/env bash
# Strength measurements for docs/STRENGTH.md. Needs: stockfish phalanx
# gnuchess glaurung (Debian packages), python-chess, a release build.
# Usage: [MATCH=path/to/match.py] tools/strength.sh [GAMES] [TC]
#   (defaults: 20 games, 10+0.1; the runner as in tools/match_runner.sh)
set -u
cd "$(dirname "$0")/.."
G=${1:-20}
TC=${2:-10+0.1}
. tools/match_runner.sh
E=target/release/hashmate
[ -x "$E" ] || { echo "build the engine first: cargo build --release" >&2; exit 2; }
run() { echo "== $*"; python3 "$MATCH" --a "$E" --games "$G" --tc "$TC" --seed 1 \
  --book "$BOOK" --book-plies 8 "$@" 2>&1 | tail -3; }
run --b /usr/games/stockfish --b-name sf2200 --b-option UCI_LimitStrength=true --b-option UCI_Elo=2200
run --b /usr/games/stockfish --b-name sf1800 --b-option UCI_LimitStrength=true --b-option UCI_Elo=1800
run --b /usr/games/phalanx --b-protocol xboard
run --b /usr/games/glaurung
run --b "/usr/games/gnuchess --uci" --b-name gnuchess
run --b "$E" --b-name hashmate-noTT --b-option UseTT=false
