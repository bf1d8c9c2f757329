#!/usr/bin/env python3
"""Regenerate the network's training data sets from their manifest rows
in docs/NNUE.md, and check each against its recorded sha256.

The data stays outside the repository (hundreds of MB); what the
repository keeps is, per set, the generating commit, its bench signature,
the seed, the number of games and the sha256 of the records the training
runs used. `hashmate datagen` makes game i from the seed and i alone, and
writes games in order whatever the thread count, so the same command
gives the same bytes on any machine. This script does it for one set or
all:

    python3 tools/regen_data.py --sets 5 6 --dir /work/nnue-data --threads 16
    python3 tools/regen_data.py --sets all --dir DIR --verify-only

For each set: a worktree of the generating commit (under DIR/src-COMMIT),
its engine built there, `bench` checked against the manifest's signature,
`datagen` run at the lowest priority (an interrupted run continues where
it stopped when the script runs again), then the records the runs
trained on (the whole file, or a prefix for the sets that were used part
way) copied to the file name the run commands in NNUE.md use, and its
sha256 compared. Exit status 1 if a check fails.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
RECORD = 32  # bytes per record (crates/hashmate-data/src/record.rs)

# set: (commit, bench signature, seed, network plays, games to play,
#       records used by the training runs, their sha256, file the runs read)
SETS = {
    1: ("38913a2", 934499, 1, False, 44344, 4904454,
        "f20cf9c60253172389dbb34c3e4793303872648c7cdf5e7bec7d692e92c985d0",
        "hm-38913a2-seed1.bin"),
    2: ("38913a2", 934499, 2, False, 27522, 3029966,
        "d63b1ef00556e28272cf9c0bab2c618b2b8c665a03da1f6998233a13dee5e1f0",
        "hm-38913a2-seed2.bin"),
    3: ("e228f7f", 1002074, 3, True, 16992, 1845075,
        "17f6cb1116d44a848cfb9750643e8d1f3a5dd182d5b6961db7c506a95a0fcc88",
        "hm-e228f7f-nnue-seed3.bin"),
    4: ("e228f7f", 1002074, 4, True, 29155, 3164927,
        "02955c1b6e8bcffdb35e7a5348a13bc11579ba323d322b63074a5d30340b836f",
        "hm-e228f7f-nnue-seed4.bin"),
    # Sets 5-7 were used by their first N records (the last game cut).
    5: ("254a990", 718106, 5, True, 67500, 7060000,
        "18cb6fcb106fa3000e7cb17139e615524ea850c58def175cfa2b18d0458364fb",
        "set5-prefix-7060000.bin"),
    6: ("77fe52d", 810271, 6, True, 93650, 9500000,
        "10cf704ce7b59a3367c0d78ef5800b4d6fce74d8b99db7213bfa1bb266ec00c6",
        "set6-prefix-9500000.bin"),
    # Run 11 (run 9 fine-tuned) trained on set 7's first 5,790,000.
    7: ("53174a2", 749511, 7, True, 57201, 5790000,
        "bcb358cfd81c1634e0d0a87f536cb3cfe366c5a50a8472ed24627db983f9f3c6",
        "set7-prefix-5790000.bin"),
    # Runs 13a and 13b trained on set 8's first 7,000,000; run 12 on its
    # first 3,850,000 (sha256 f47c1b42...efda164, in NNUE.md's manifest).
    8: ("e4bd616", 779216, 8, True, 72236, 7000000,
        "c0a431c891cf04a64ee8e03751a845b0e46efa11ff388251e4aebb5c6a05989f",
        "set8-prefix-7000000.bin"),
    # Run 14 (run 13b fine-tuned on sets 9 and 8) trained on set 9's first
    # 4,390,000.
    9: ("4163463", 622754, 9, True, 45853, 4390000,
        "cf2e6f168472569b1c3038fc79497018984014fe22d9af9d9a8a42832910d0b5",
        "set9-prefix-4390000.bin"),
    # Set 10 whole (stopped on a whole game); run 17a (the default net)
    # trained on it. The win/draw/loss model (hashmate wdl-fit,
    # eval/wdl.rs) was fitted on its first 3,174,912 (sha256 29335c8c...,
    # in NNUE.md's manifest).
    10: ("0498537", 622754, 10, True, 128872, 12237552,
         "80b142ce87d8f74384bbc44a8db39c13fb945edc681f234d24e0454a69b142c0",
         "hm-0498537-nnue-seed10.bin"),
    # Set 11 is played at 3,000 nodes a move (NODES below); stopped on a
    # whole game at 16,598,140 records. Run 18a trained on all of it, run
    # 17a (the default net until session 39) on its first 14,100,000
    # (sha256 e5601732...), run 16b on its first 5,000,000 (sha256
    # 6c336af7...), both in NNUE.md's manifest.
    11: ("9fa70b5", 622754, 11, True, 177145, 16598140,
         "3b29a01d9902ac29c764f780677034bf3e0864e61712b6bafab0479e5e8fcefc",
         "hm-9fa70b5-nnue-seed11-n3000.bin"),
    # Set 12, played by run 17a's net at 3,000 nodes; stopped on a whole
    # game at 9,231,146 records. Run 19a trained on all of it, run 18a on
    # its first 7,300,000 (sha256 46451d74...); the win/draw/loss model
    # was refitted on its first 3,300,000 (sha256 d74ab236...), both in
    # NNUE.md's manifest.
    12: ("e55d1c6", 928908, 12, True, 101922, 9231146,
         "e4fd407ae2a49615ff0db684fcf0e49d3dd93af76428e8e8b533c1a1c4517762",
         "hm-e55d1c6-nnue-seed12-n3000.bin"),
    # Set 13, played by run 18a's net at 3,000 nodes: run 19a trained on
    # its first 7,500,000; the win/draw/loss model (eval/wdl.rs) was
    # refitted on its first 3,000,000 (sha256 f303f58e..., in
    # STRENGTH.md).
    13: ("ab2184e", 587126, 13, True, 85968, 7500000,
         "a63a133bfe1b35e4042fa70eb1d2a9fa7d62a26ca64d83885ee3929a8ca5c80c",
         "set13-prefix-7500000.bin"),
    # Set 14, played by run 19a's net (the default since session 40) at
    # 3,000 nodes, stopped at 6,248,105 records: run 23a trained on the
    # whole file; runs 21c and 21a on its first 5,000,000 (sha256
    # 5c5fdb5c...) and 2,700,000 (e724de1e...), run 20's pilot on its first
    # 4,100,000 (e2f278b1...); the win/draw/loss model was checked on its
    # first 3,000,000 (f85e0162..., in STRENGTH.md). Its first 1,500,000
    # (c4a2d08a...) came back identical on a new machine. (Set 13 was
    # stopped at 9,272,377 records, sha256 33ba5025..., in NNUE.md.)
    14: ("79bc6ac", 711658, 14, True, 72155, 6248105,
         "0c0e6cba906b5f7db5a132814bc29d72129d87ffb63370d57ead6bed5cea2aec",
         "hm-79bc6ac-nnue-seed14-n3000.bin"),
    # Set 15, the same binary at 1,500 nodes a move, stopped at 12,218,218
    # records: run 23a trained on the whole file, run 21b on its first
    # 5,000,000 (sha256 db886956..., the node-limit measurement of session 42).
    15: ("79bc6ac", 711658, 15, True, 148841, 12218218,
         "d3951b588fa48fd4bacf31f0a625ab831d42578e73f1e2a4b1f3f73f18e30b91",
         "hm-79bc6ac-nnue-seed15-n1500.bin"),
    # Set 16, the same binary at 750 nodes a move, stopped at 57,656,428
    # records (753,435 whole games): run 26a trained on the whole file, run
    # 25a on its first 50,000,000 (sha256 07e28d70..., 653,154 games begun),
    # run 24a on its first 37,000,000 (3cc754bd..., 483,196 games begun),
    # run 23a on its first 18,000,000 (722a4f3b...), run 22a on its first
    # 5,000,000 (27cdc3bd..., the node-limit measurement of session 43).
    16: ("79bc6ac", 711658, 16, True, 753435, 57656428,
         "654b3424ef4d12a9488d30bab7cf8b0f997c87ccaadd4ad99c9381ac0d9df650",
         "hm-79bc6ac-nnue-seed16-n750.bin"),
    # Set 17, run 25a's net (the default in sessions 45-47) at 750 nodes a
    # move, whole: stopped on a whole game when run 27a became the default.
    # Run 27a trained on its first 18,500,000 records (sha256 5d3f7d80...,
    # 243,033 games begun), run 26a on its first 7,800,000 (85af956c...,
    # 102,617 games begun); 16,000,000 (84f39656...) and 5,000,000
    # (71bfbd72...) were checkpoints of sessions 46 and 45.
    17: ("f17e2d4", 772615, 17, True, 371249, 28288916,
         "6442f0b46dfc5cefadbce0136c8567170d6d8c0103c1289212b8d693cfe2d28d",
         "hm-f17e2d4-nnue-seed17-n750.bin"),
    # Set 18, run 27a's net (the default since session 47) at 750 nodes a
    # move: its first 15,000,000 records (195,930 games begun, the last one
    # cut), which run 29a trained on; 13,000,000 (5a7b3974...), 7,000,000
    # (3f214b05...) and 2,500,000 (917d56f3...) were checkpoints of
    # sessions 48 and 47.
    18: ("d749c63", 640739, 18, True, 195930, 15000000,
         "9c996d25ff3b962f18a3cf46b62c641fb386a9467d0b5ab7ddab14ee4e4c439d",
         "set18-prefix-15000000.bin"),
    # Set 19: run 27a's own games (sessions 50-53, stopped in session 53),
    # its first 87,000,000 records (1,134,164 games begun, the last one
    # cut); 80,000,000 (e59e4dd3...), 46,000,000 (3a92b67a...),
    # 38,000,000 (a18b7e8d..., run 30a's data) and 27,000,000
    # (754a5916...) were checkpoints of sessions 52, 51 and 50; its first
    # 5,000,000 (d83ebd2a...) trained run 31b.
    19: ("a3c63bd", 640739, 19, True, 1134164, 87000000,
         "b0b943a440c9994936159111fd402c8b0998d4b5fbba750b893e21e172dc8a52",
         "set19-prefix-87000000.bin"),
    # Set 20: run 27a's own games from balanced openings
    # (--max-opening-score 300; sessions 53-54, stopped when run 32a became
    # the default), its first 32,000,000 records (331,969 games begun, the
    # last one cut), which run 32a trained on beside set 19's; 27,000,000
    # (c6e2d252...) was session 53's checkpoint; its first 5,000,000
    # (cf2889b8..., 52,032 games begun) trained run 31a.
    20: ("d8967f0", 640739, 20, True, 331969, 32000000,
         "8c0ddd116ce5ced2976c7d747147ad2a76d6e832aa71cb35d9bfb32c3f20d34d",
         "set20-prefix-32000000.bin"),
    # Set 21: run 32a's own games (the default since session 54) from
    # balanced openings, its first 67,000,000 records (695,779 games begun,
    # the last one cut), session 56's checkpoint, which run 33a trained on;
    # 61,000,000 (fc1f1bb0..., 633,269 games begun) was session 55's and
    # 2,500,000 (aee08012..., 25,956 games begun) session 54's.
    21: ("684a595", 657123, 21, True, 695779, 67000000,
         "638acafff7aee63cb885a43d7e1304452f40d51a75398f73c093f155b562ca3d",
         "set21-prefix-67000000.bin"),
    # Set 22: run 33a's own games (the default since session 56) from
    # balanced openings, its first 23,000,000 records (238,964 games begun,
    # the last one cut), session 57's checkpoint; 5,000,000 (8cbb58eb...,
    # 52,170 games begun) was session 56's. Lost with session 57's machine
    # at about 27 M records.
    22: ("190b80d", 568025, 22, True, 238964, 23000000,
         "111e40759ff5d712995628208dc4fcb284aef218b21cda27358657a5481a99e9",
         "set22-prefix-23000000.bin"),
    # Set 23: run 33a's own games again, on session 58's new machine (the
    # same net as set 22, another seed), its first 10,000,000 records
    # (103,882 games begun, the last one cut), session 58's checkpoint.
    23: ("19220c7", 568025, 23, True, 103882, 10000000,
         "4cea236a444f3313a70a14acb77ae6dcf40d3239c5322508b517fdaf98163141",
         "set23-prefix-10000000.bin"),
    # Set 24: run 33a's own games, on the machine of sessions 59-61 (set 23
    # went with session 58's), its first 42,000,000 records (436,587 games
    # begun, the last one cut; run 35 trained on them, a0a14e35...) and
    # 70,000,000 (727,792 games begun, 59609566...), session 60's
    # checkpoints; then 75,000,000 (779,788 games begun), session 61's.
    24: ("3c1a267", 568025, 24, True, 779788, 75000000,
         "35f1f6f209edc937c68bb3c7e294fdaa499722298414967fbd17aff36cd82b75",
         "set24-prefix-75000000.bin"),
    # Set 25: run 33a's own games again, on session 63's machine (set 24
    # went with session 61's; session 62's start of this seed went with
    # its machine before a checkpoint), its first 16,500,000 records
    # (171,532 games begun, the last one cut).
    25: ("2bb6ad6", 568025, 25, True, 171532, 16500000,
         "beaafa16e0dc4057d221cf53b852e9960334e24edd028187ac9904d6ca84505e",
         "set25-prefix-16500000.bin"),
    # Set 26: run 33a's own games, another seed, on session 64's machine
    # (set 25 went with session 63's), its first 22,500,000 records
    # (233,787 games begun, the last one cut; 615c1c4f...) and then
    # 30,500,000 (316,916 games begun), session 64's checkpoints.
    26: ("c8e5428", 568025, 26, True, 316916, 30500000,
         "224a238bcef09c1d4a4da999dab2ad24bf6cb058906b071d88e6ddf7566f435c",
         "set26-prefix-30500000.bin"),
    # Set 27: run 33a's own games, another seed, on the machine of sessions
    # 66-70 (set 26 went with session 65's), its first 100,000,000 records
    # (1,039,278 games begun, the last one cut; the 12,000,000 of session 66,
    # the 45,000,000 of session 67, the 71,000,000 of session 68 and the
    # 95,000,000 of session 69 are their prefixes).
    27: ("0d020cc", 568025, 27, True, 1039278, 100000000,
         "4f622b608b3513c679b2c7ee717779beabb8e80f9ab1e81005d1cab4779f1c40",
         "set27-prefix-100000000.bin"),
    # Set 28: run 33a's own games, another seed, from the first binary
    # whose search scores dead-drawn material as a draw, on session 71's
    # machine (set 27 went with session 70's), its first 29,000,000
    # records (301,651 games begun, the last one cut).
    28: ("87c9901", 569792, 28, True, 301651, 29000000,
         "1dfdfc19dbd159165b825797bd11995a30e28afafdac5dace0e1fac7a5df98d3",
         "set28-prefix-29000000.bin"),
    # Set 29: run 33a's own games, another seed, on session 73's machine
    # (set 28 went with session 72's), its first 199,000,000 records
    # (2,071,210 games begun, the last one cut).
    29: ("1f0fd56", 569792, 29, True, 2071210, 199000000,
         "a1cf41b6e9a6db66c6c5204ef53a894102a3e9c6dde88fc396fbe68664d7ff6b",
         "set29-prefix-199000000.bin"),
    # Set 31: the same binary played by run 36's net (`NETS` below), on
    # session 78's machine, its first 25,000,000 records (261,657 games
    # begun, the last one cut); the first 16,500,000 (6ce562be...,
    # 172,577 games begun) were session 78's entry.
    31: ("1f0fd56", 569792, 31, True, 261657, 25000000,
         "a3355eee334386ceed2f76a09b732a7221e201d623d1c4079b14f3d11feb5f10",
         "set31-prefix-25000000.bin"),
}

# Sets played at another node limit than datagen's default (6,000).
NODES = {11: 3000, 12: 3000, 13: 3000, 14: 3000, 15: 1500, 16: 750, 17: 750, 18: 750,
         19: 750, 20: 750, 21: 750, 22: 750, 23: 750, 24: 750, 25: 750, 26: 750,
         27: 750, 28: 750, 29: 750, 31: 750}

# Sets whose openings were drawn again beyond this score (--max-opening-score).
OPENING_LIMIT = {20: 300, 21: 300, 22: 300, 23: 300, 24: 300, 25: 300, 26: 300, 27: 300, 28: 300, 29: 300, 31: 300}


# Sets played by a net other than the generating binary's embedded one:
# the net's file in this repository and its sha256 (the file is checked
# before it plays).
NETS = {31: ("nets/run36.nnue", "724bf55dcf59e62ad0b1dfc0e831912a44461bc63716daf8b721dd7f13c15264")}


def datagen_name(n):
    commit, _, seed, nnue, *_ = SETS[n]
    nodes = f"-n{NODES[n]}" if n in NODES else ""
    limit = f"-m{OPENING_LIMIT[n]}" if n in OPENING_LIMIT else ""
    if n in NETS:
        net = os.path.splitext(os.path.basename(NETS[n][0]))[0]
        return f"hm-{commit}-{net}-seed{seed}{nodes}{limit}.bin"
    return f"hm-{commit}-{'nnue-' if nnue else ''}seed{seed}{nodes}{limit}.bin"


def sha256_prefix(path, nbytes):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        left = nbytes
        while left:
            chunk = f.read(min(left, 1 << 22))
            if not chunk:
                raise ValueError(f"{path}: shorter than {nbytes} bytes")
            h.update(chunk)
            left -= len(chunk)
    return h.hexdigest()


def net_path(n):
    """The repository's copy of set n's net, its sha256 checked."""
    rel, sha = NETS[n]
    path = os.path.join(ROOT, rel)
    if not os.path.isfile(path):
        raise SystemExit(f"set {n}: {path}: no such net file")
    got = sha256_prefix(path, os.path.getsize(path))
    if got != sha:
        raise SystemExit(f"set {n}: {path}: sha256 {got[:16]}…, the manifest says {sha[:16]}…")
    return path


def build(commit, signature, work):
    """The engine of `commit`, built in a worktree; its bench signature checked."""
    binary = os.path.join(work, f"hashmate-{commit}")
    if not os.path.exists(binary):
        src = os.path.join(work, f"src-{commit}")
        if not os.path.isdir(src):
            subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", src, commit], check=True)
        target = os.path.join(work, f"target-{commit}")
        # `--workspace --bin`: the package that owns the binary moved
        # (hashmate-engine until 858c6d9, hashmate-cli since).
        subprocess.run(["cargo", "build", "--release", "--workspace", "--bin", "hashmate",
                        "--target-dir", target], cwd=src, check=True)
        shutil.copy(os.path.join(target, "release", "hashmate"), binary + ".tmp")
        os.replace(binary + ".tmp", binary)
    out = subprocess.run([binary, "bench"], capture_output=True, text=True, check=True)
    nodes = int(out.stdout.strip().splitlines()[-1].split()[0])
    if nodes != signature:
        raise SystemExit(f"{binary}: bench signature {nodes}, the manifest says {signature}")
    return binary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="+", required=True, help="set numbers, or 'all'")
    ap.add_argument("--dir", required=True, help="where the data, builds and worktrees go")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--book", default="/usr/share/games/gnuchess/book.bin",
                    help="Debian gnuchess-book 1.02's book.bin, as every set used")
    ap.add_argument("--verify-only", action="store_true",
                    help="only hash the files already there (build, generate and write nothing)")
    a = ap.parse_args()
    sets = sorted(SETS) if a.sets == ["all"] else sorted({int(s) for s in a.sets})
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        ap.error(f"no such set: {unknown} (sets are {sorted(SETS)})")
    if not a.verify_only and not os.path.isfile(a.book):
        ap.error(f"{a.book}: no opening book (apt-get install gnuchess-book)")
    os.makedirs(a.dir, exist_ok=True)
    failed = []
    for n in sets:
        commit, signature, seed, nnue, games, records, sha, used = SETS[n]
        full = os.path.join(a.dir, datagen_name(n))
        if not a.verify_only:
            net = net_path(n) if n in NETS else None  # checked before minutes of building
            binary = build(commit, signature, a.dir)
            cmd = ["nice", "-n", "19", binary, "datagen", "--out", full, "--games", str(games),
                   "--threads", str(a.threads), "--seed", str(seed), "--book", a.book]
            if net:
                cmd += ["--nnue", net]
            elif nnue:
                cmd += ["--nnue", "<internal>"]
            if n in NODES:
                cmd += ["--nodes", str(NODES[n])]
            if n in OPENING_LIMIT:
                cmd += ["--max-opening-score", str(OPENING_LIMIT[n])]
            print(f"set {n}: {' '.join(cmd)}", flush=True)
            subprocess.run(cmd, check=True)
        if not os.path.exists(full):
            print(f"set {n}: {full} missing")
            failed.append(n)
            continue
        have = os.path.getsize(full) // RECORD
        if have < records:
            print(f"set {n}: {full} holds {have} records, the runs used {records}")
            failed.append(n)
            continue
        got = sha256_prefix(full, records * RECORD)
        ok = got == sha
        print(f"set {n}: first {records} records sha256 {got[:16]}… {'matches' if ok else 'DIFFERS from ' + sha[:16] + '…'}")
        if not ok:
            failed.append(n)
            continue
        dest = os.path.join(a.dir, used)
        if used != datagen_name(n) and not os.path.exists(dest) and not a.verify_only:
            with open(full, "rb") as src, open(dest + ".tmp", "wb") as out:
                left = records * RECORD
                while left:
                    chunk = src.read(min(left, 1 << 22))
                    out.write(chunk)
                    left -= len(chunk)
            os.replace(dest + ".tmp", dest)
            print(f"set {n}: {dest} written ({records} records)")
    if failed:
        print(f"failed: sets {failed}")
        sys.exit(1)


if __name__ == "__main__":
    main()
