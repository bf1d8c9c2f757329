#!/usr/bin/env bash
# Strength measurements for docs/STRENGTH.md. Needs: stockfish phalanx
# gnuchess glaurung (Debian packages), python-chess, a release build.
# Usage: tools/strength.sh [GAMES] [TC]   (defaults: 20 games, 10+0.1)
set -u
cd "$(dirname "$0")/.."
G=${1:-20}
TC=${2:-10+0.1}
M=../shared/tools/match.py
E=target/release/hashmate
run() { echo "== $*"; python3 "$M" --a "$E" --games "$G" --tc "$TC" --seed 1 \
  --book /usr/share/games/gnuchess/book.bin --book-plies 8 "$@" 2>&1 | tail -3; }
run --b /usr/games/stockfish --b-name sf2200 --b-option UCI_LimitStrength=true --b-option UCI_Elo=2200
run --b /usr/games/stockfish --b-name sf1800 --b-option UCI_LimitStrength=true --b-option UCI_Elo=1800
run --b /usr/games/phalanx --b-protocol xboard
run --b /usr/games/glaurung
run --b "/usr/games/gnuchess --uci" --b-name gnuchess
run --b "$E" --b-name hashmate-noTT --b-option UseTT=false
