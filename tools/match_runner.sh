# Sourced by the match scripts: find the match runner (match.py, which
# plays UCI/xboard engines against each other and runs the SPRT) and
# say what to install when something is missing.
#
# The runner is taken from $MATCH, else from ../shared/tools/match.py
# beside a checkout of the project's workspace.
MATCH=${MATCH:-../shared/tools/match.py}
if [ ! -f "$MATCH" ]; then
  echo "no match runner at '$MATCH': set MATCH=/path/to/match.py" >&2
  echo "(any runner with match.py's options: --a --b --tc --nodes --sprt --book ...)" >&2
  exit 2
fi
if ! python3 -c 'import chess' 2>/dev/null; then
  echo "the match runner needs python-chess: pip install chess" >&2
  exit 2
fi
BOOK=${BOOK:-/usr/share/games/gnuchess/book.bin}
if [ ! -f "$BOOK" ]; then
  echo "no opening book at '$BOOK': apt-get install gnuchess-book, or set BOOK=" >&2
  exit 2
fi
