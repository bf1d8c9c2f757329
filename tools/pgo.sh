#!/bin/sh
# A profile-guided build of the engine (docs/BENCHMARKS.md, "Profile-guided
# optimisation"): the same source and the same search (bench's node count
# is unchanged), laid out by the compiler for the branches the engine
# really takes. For data generation, matches and lent machines; the
# default `cargo build --release` stays as it is.
#
#     sh tools/pgo.sh                 # writes target/pgo/hashmate
#     RUSTFLAGS="-C target-cpu=native" sh tools/pgo.sh   # also this CPU's
#                                                        # instructions
#
# Needs llvm-profdata of the compiler's own LLVM version (a newer profile
# format is not read by an older tool): `rustup component add llvm-tools`.
# The profile comes from the engine's own work, not from the benchmark
# alone: `bench` and 120 games of self-play data generation with the
# embedded net (seed 77, games no data set uses; about 25 seconds).
set -eu
cd "$(dirname "$0")/.."
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    echo "pgo.sh: no llvm-profdata at $profdata; install it with" >&2
    echo "    rustup component add llvm-tools" >&2
    exit 1
fi
flags=${RUSTFLAGS:-}
work=target/pgo
rm -rf "$work/profiles"
mkdir -p "$work/profiles"
profiles=$(cd "$work/profiles" && pwd)

# 1. An instrumented binary, which counts its branches as it runs.
RUSTFLAGS="$flags -Cprofile-generate=$profiles" \
    cargo build --release --bin hashmate --target-dir "$work/gen"
gen="$work/gen/release/hashmate"

# 2. The training run: the build scripts left profiles of their own, so
# only the engine's are kept.
rm -f "$profiles"/*.profraw
"$gen" bench >/dev/null 2>&1
book=/usr/share/games/gnuchess/book.bin
if [ -f "$book" ]; then book_arg="--book $book"; else book_arg=""; fi
rm -f "$work/train.bin"
# shellcheck disable=SC2086 # book_arg is empty or two words
"$gen" datagen --out "$work/train.bin" --games 120 --threads 1 --seed 77 \
    $book_arg --nnue '<internal>' >/dev/null 2>&1
rm -f "$work/train.bin"
"$profdata" merge -o "$work/merged.profdata" "$profiles"/*.profraw

# 3. The optimised binary.
RUSTFLAGS="$flags -Cprofile-use=$(pwd)/$work/merged.profdata" \
    cargo build --release --bin hashmate --target-dir "$work/use"
cp "$work/use/release/hashmate" "$work/hashmate"
"$work/hashmate" bench 2>&1 | tail -1
echo "pgo.sh: wrote $work/hashmate"
