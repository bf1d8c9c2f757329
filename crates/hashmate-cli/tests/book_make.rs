//! `hashmate book make` and `book merge`: building Polyglot books from PGN.
//!
//! * A book built from tests/data/selfplay.pgn (24 games of a self-play
//!   match played with ../shared/tools/match.py) has exactly the entries
//!   `polyglot make-book` builds from the same PGN, and python-chess reads
//!   back the same entries from our file.
//! * Inputs in parts, compressed, piped, on several threads, as shards
//!   merged from counts files or spilled to disk give the same bytes.
//! * Bad games are skipped with their line; bad inputs and outputs are
//!   refused before anything is lost.
//!
//! Tests that need polyglot or python-chess skip with a reason when those
//! are missing (CI requires them).

mod common;
use common::*;
use hashmate::book::Book;
use hashmate::Position;
use std::process::Command;

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_hashmate")
}

fn entries(path: &std::path::Path) -> Vec<(u64, u16, u16)> {
    let mut v: Vec<_> = Book::from_bytes(&std::fs::read(path).unwrap())
        .unwrap()
        .entries()
        .iter()
        .map(|e| (e.key, e.mv, e.weight))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn built_book_matches_polyglot_make_book_and_reads_in_python_chess() {
    let polyglot = common::find(&["/usr/games/polyglot", "/usr/bin/polyglot"]);
    if !common::peer_available("polyglot", polyglot.is_some())
        || !common::peer_available("python-chess", common::python_chess())
    {
        return;
    }
    let polyglot = polyglot.unwrap();
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/selfplay.pgn");
    let ours = tmp("ours.bin");
    let theirs = tmp("polyglot.bin");
    // (max ply, min games, extra option of both: ours, polyglot's)
    let cases: [(&str, &str, &[&str], &[&str]); 8] = [
        ("16", "1", &[], &[]),
        ("10", "2", &[], &[]),
        ("1024", "3", &[], &[]),
        ("12", "1", &["--min-score", "30"], &["-min-score", "30"]),
        ("12", "1", &["--min-score", "50"], &["-min-score", "50"]),
        ("12", "1", &["--min-score", "75"], &["-min-score", "75"]),
        ("12", "1", &["--uniform"], &["-uniform"]),
        (
            "20",
            "1",
            &["--only-black", "--uniform"],
            &["-only-black", "-uniform"],
        ),
    ];
    for (max_ply, min_games, ours_extra, theirs_extra) in cases {
        let st = book_make_cmd()
            .args(["--pgn", pgn, "--out"])
            .arg(&ours)
            .args(["--max-ply", max_ply, "--min-games", min_games])
            .args(ours_extra)
            .status()
            .unwrap();
        assert!(st.success());
        run_ok(
            Command::new(polyglot)
                .args(["make-book", "-pgn", pgn, "-bin"])
                .arg(&theirs)
                .args(["-max-ply", max_ply, "-min-game", min_games])
                .args(theirs_extra),
        );
        let (a, b) = (entries(&ours), entries(&theirs));
        assert!(!a.is_empty());
        assert_eq!(
            a, b,
            "max-ply {max_ply}, min-games {min_games}, {ours_extra:?}"
        );
    }
    // python-chess reads every entry of our file back.
    let script = "import sys, chess.polyglot as p\n\
                  r = p.open_reader(sys.argv[1])\n\
                  for i in range(len(r)):\n\
                  \x20   e = r[i]\n\
                  \x20   print(e.key, e.raw_move, e.weight)\n";
    let out = run_ok(Command::new("python3").args(["-c", script]).arg(&ours));
    let mut py: Vec<(u64, u16, u16)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect();
    py.sort_unstable();
    assert_eq!(py, entries(&ours));
}

#[test]
fn malformed_pgn_games_are_skipped_with_their_line() {
    let pgn = tmp("bad.pgn");
    std::fs::write(
        &pgn,
        "[Event \"ok\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
         [Event \"bad\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Qxf7 0-1\n\n\
         [Event \"ok too\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n",
    )
    .unwrap();
    let out_book = tmp("bad-pgn.bin");
    let out = book_make_cmd()
        .args(["--min-games", "1", "--pgn"])
        .arg(&pgn)
        .arg("--out")
        .arg(&out_book)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("line 9") && err.contains("Qxf7"), "{err}");
    assert!(err.contains("2 games used, 1 skipped"), "{err}");
    let book = Book::from_bytes(&std::fs::read(&out_book).unwrap()).unwrap();
    let start = Position::startpos();
    let moves: Vec<String> = book
        .moves(&start)
        .iter()
        .map(|(m, _)| m.to_string())
        .collect();
    assert!(
        moves.contains(&"e2e4".to_string()) && moves.contains(&"d2d4".to_string()),
        "{moves:?}"
    );
}

/// The same games give the same book bytes whatever the inputs look like:
/// one file; three parts compressed as gzip, zstd and bzip2; a pattern;
/// standard input. Damaged compressed input and a pattern matching
/// nothing are errors naming the input, and no book is written.
#[test]
fn inputs_in_parts_compressed_or_piped_give_the_same_book() {
    use std::io::Write;
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/selfplay.pgn");
    let text = std::fs::read_to_string(pgn).unwrap();
    let games: Vec<&str> = text.split("\n[Event ").collect();
    assert!(games.len() >= 20);
    let part = |range: std::ops::Range<usize>| -> String {
        range
            .map(|i| {
                if i == 0 {
                    games[0].to_string()
                } else {
                    format!("[Event {}", games[i])
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    };
    let n = games.len();
    let (a, b, c) = (part(0..n / 3), part(n / 3..2 * n / 3), part(2 * n / 3..n));
    let gz = tmp("part-a.pgn.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(a.as_bytes()).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    let zst = tmp("part-b.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(b.as_bytes(), 3).unwrap()).unwrap();
    let bz = tmp("part-c.pgn.bz2");
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(c.as_bytes()).unwrap();
    std::fs::write(&bz, e.finish().unwrap()).unwrap();

    let make = |inputs: &[&std::path::Path], stdin: Option<&str>, out: &str| {
        let out = tmp(out);
        let mut cmd = book_make_cmd();
        cmd.args(["--min-games", "1", "--out"])
            .arg(&out)
            .arg("--pgn");
        cmd.args(inputs);
        if stdin.is_some() {
            cmd.arg("-");
        }
        let mut child = cmd
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        if let Some(s) = stdin {
            write_unless_exited(&mut pipe, s.as_bytes());
        }
        drop(pipe);
        let result = child.wait_with_output().unwrap();
        (
            result.status.success(),
            std::fs::read(&out).ok(),
            String::from_utf8_lossy(&result.stderr).into_owned(),
        )
    };
    let (ok, whole, _) = make(&[std::path::Path::new(pgn)], None, "whole.bin");
    assert!(ok);
    let whole = whole.unwrap();
    assert!(whole.len() > 16 * 50);
    let (ok, parts, err) = make(&[&gz, &zst, &bz], None, "parts.bin");
    assert!(ok, "{err}");
    assert_eq!(parts.unwrap(), whole);
    let pattern = tmp("part-*.pgn.*");
    let (ok, globbed, err) = make(&[&pattern], None, "glob.bin");
    assert!(ok, "{err}");
    assert_eq!(globbed.unwrap(), whole);
    let (ok, piped, err) = make(&[], Some(&text), "stdin.bin");
    assert!(ok, "{err}");
    assert_eq!(piped.unwrap(), whole);
    // Line breaks as `\r\n` (Windows) or a lone `\r` (old Mac files).
    for breaks in ["\r\n", "\r"] {
        let (ok, book, err) = make(&[], Some(&text.replace('\n', breaks)), "breaks.bin");
        assert!(ok, "{err}");
        assert_eq!(book.unwrap(), whole, "{breaks:?}");
    }
    // Any number of threads: the same bytes.
    for threads in ["2", "3", "8"] {
        let out = tmp(&format!("threads{threads}.bin"));
        let st = book_make_cmd()
            .args(["--min-games", "1", "--threads", threads, "--out"])
            .arg(&out)
            .arg("--pgn")
            .args([&gz, &zst, &bz])
            .output()
            .unwrap();
        assert!(
            st.status.success(),
            "{}",
            String::from_utf8_lossy(&st.stderr)
        );
        assert_eq!(std::fs::read(&out).unwrap(), whole, "{threads} threads");
    }

    let damaged = tmp("damaged.pgn.gz");
    let bytes = std::fs::read(&gz).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    let (ok, out, err) = make(&[&damaged], None, "damaged.bin");
    assert!(!ok && out.is_none(), "{err}");
    assert!(
        err.contains("damaged.pgn.gz") && err.contains("cannot read"),
        "{err}"
    );
    let (ok, out, err) = make(&[&tmp("nothing-*.pgn")], None, "none.bin");
    assert!(
        !ok && out.is_none() && err.contains("no file matches"),
        "{err}"
    );
}

/// The tag filters on a hand-made case: four games, each a single first
/// move, so each filter's book is known by heart.
#[test]
fn tag_filters_keep_the_games_they_name() {
    let pgn = tmp("tags.pgn");
    std::fs::write(
        &pgn,
        "[WhiteElo \"2500\"]\n[BlackElo \"2400\"]\n[TimeControl \"180+2\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
         [WhiteElo \"2500\"]\n[BlackElo \"1900\"]\n[TimeControl \"60+0\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n\n\
         [WhiteElo \"2600\"]\n[BlackElo \"2650\"]\n[TimeControl \"5400+30\"]\n[Result \"1/2-1/2\"]\n\n1. c4 1/2-1/2\n\n\
         [TimeControl \"-\"]\n[Result \"1-0\"]\n\n1. Nf3 1-0\n",
    )
    .unwrap();
    let first_moves = |args: &[&str]| -> Vec<String> {
        let out = tmp("tags.bin");
        let st = book_make_cmd()
            .args(["--min-games", "1", "--pgn"])
            .arg(&pgn)
            .arg("--out")
            .arg(&out)
            .args(args)
            .output()
            .unwrap();
        assert!(
            st.status.success(),
            "{}",
            String::from_utf8_lossy(&st.stderr)
        );
        let book = Book::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        let start = Position::startpos();
        let mut moves: Vec<String> = book
            .entries()
            .iter()
            .filter(|e| e.key == start.key())
            .map(|e| {
                hashmate::book::decode_move(&start, e.mv)
                    .unwrap()
                    .to_string()
            })
            .collect();
        moves.sort();
        moves
    };
    // Losses (score 0) never enter a book: 1. d4 lost.
    assert_eq!(first_moves(&[]), ["c2c4", "e2e4", "g1f3"]);
    assert_eq!(first_moves(&["--min-elo", "2400"]), ["c2c4", "e2e4"]);
    assert_eq!(first_moves(&["--min-elo", "2600"]), ["c2c4"]);
    assert_eq!(first_moves(&["--result", "1-0"]), ["e2e4", "g1f3"]);
    assert_eq!(
        first_moves(&["--result", "1/2-1/2,1-0"]),
        ["c2c4", "e2e4", "g1f3"]
    );
    assert_eq!(first_moves(&["--time-control", "blitz"]), ["e2e4"]);
    assert_eq!(
        first_moves(&["--time-control", "bullet,classical"]),
        ["c2c4"]
    );
    assert_eq!(first_moves(&["--min-score", "100"]), ["e2e4", "g1f3"]);
}

/// Counts made on separate shards (as on several machines) and merged
/// give the bytes of one run over all the games; a damaged counts file is
/// refused by name; a Polyglot book merges as an approximation.
#[test]
fn counts_of_shards_merge_to_the_whole_book() {
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/selfplay.pgn");
    let text = std::fs::read_to_string(pgn).unwrap();
    let games: Vec<&str> = text.split("\n[Event ").collect();
    let n = games.len();
    let shard = |range: std::ops::Range<usize>, name: &str| {
        let body: Vec<String> = range
            .map(|i| {
                if i == 0 {
                    games[0].to_string()
                } else {
                    format!("[Event {}", games[i])
                }
            })
            .collect();
        let path = tmp(name);
        std::fs::write(&path, body.join("\n") + "\n").unwrap();
        path
    };
    let shards = [
        shard(0..n / 3, "s1.pgn"),
        shard(n / 3..n / 2, "s2.pgn"),
        shard(n / 2..n, "s3.pgn"),
    ];
    let run = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(exe())
            .args(["book"])
            .args(args)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    let whole = tmp("whole-merge.bin");
    let (ok, err) = run(&[
        &os("make"),
        &os("--min-games"),
        &os("2"),
        &os("--pgn"),
        pgn.as_ref(),
        &os("--out"),
        whole.as_os_str(),
    ]);
    assert!(ok, "{err}");
    let mut counts = Vec::new();
    for (i, s) in shards.iter().enumerate() {
        let c = tmp(&format!("s{i}.cnt"));
        let (ok, err) = run(&[
            &os("make"),
            &os("--pgn"),
            s.as_os_str(),
            &os("--counts-out"),
            c.as_os_str(),
        ]);
        assert!(ok, "{err}");
        counts.push(c);
    }
    let merged = tmp("merged.bin");
    let mut args = vec![
        os("merge"),
        os("--min-games"),
        os("2"),
        os("--out"),
        merged.clone().into_os_string(),
    ];
    // In another order than the shards were made: addition commutes.
    args.extend(counts.iter().rev().map(|c| c.clone().into_os_string()));
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let (ok, err) = run(&refs);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );

    // A damaged counts file: refused, nothing written.
    let bytes = std::fs::read(&counts[0]).unwrap();
    let damaged = tmp("damaged.cnt");
    let mut flipped = bytes.clone();
    flipped[30] ^= 1;
    std::fs::write(&damaged, &flipped).unwrap();
    let out = tmp("never.bin");
    let (ok, err) = run(&[
        &os("merge"),
        &os("--out"),
        out.as_os_str(),
        damaged.as_os_str(),
    ]);
    assert!(
        !ok && err.contains("damaged.cnt") && err.contains("checksum"),
        "{err}"
    );
    std::fs::write(&damaged, &bytes[..bytes.len() - 5]).unwrap();
    let (ok, err) = run(&[
        &os("merge"),
        &os("--out"),
        out.as_os_str(),
        damaged.as_os_str(),
    ]);
    assert!(!ok && err.contains("truncated"), "{err}");
    assert!(!out.exists());
    // A Polyglot book merges, with a note that it is approximate.
    let (ok, err) = run(&[
        &os("merge"),
        &os("--min-games"),
        &os("1"),
        &os("--out"),
        out.as_os_str(),
        whole.as_os_str(),
        counts[0].as_os_str(),
    ]);
    assert!(ok && err.contains("approximately"), "{err}");
    assert!(!Book::from_bytes(&std::fs::read(&out).unwrap())
        .unwrap()
        .is_empty());
}

/// With memory bounded (`--memory 1`: counts spill to sorted runs many
/// times) the counts and the book are the same bytes as without, the runs
/// are removed, and a spill directory that cannot be made is an error
/// that writes nothing.
#[test]
fn spilled_counts_give_the_same_book() {
    // 4,000 seeded games whose moves favour the first ones generated, so
    // that openings repeat (as gen_pgn writes them).
    let mut text = String::new();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..4000 {
        let mut game = hashmate::Game::new(Position::startpos());
        for _ in 0..40 {
            if game.outcome().is_some() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let moves = game.position().legal_moves();
            let k = (state | 1 << 63).trailing_zeros() as usize % moves.len();
            game.try_play(moves[k]).unwrap();
        }
        let result = ["1-0", "1/2-1/2", "0-1"][(state >> 40) as usize % 3];
        text += &game.to_pgn(&[("Result", result)]);
    }
    let pgn = tmp("spill.pgn");
    std::fs::write(&pgn, &text).unwrap();
    let spill_dir = tmp("spill-runs");
    std::fs::create_dir_all(&spill_dir).unwrap();
    let build = |extra: &[&str], name: &str| {
        let (book, counts) = (tmp(&format!("{name}.bin")), tmp(&format!("{name}.cnt")));
        run_ok(
            book_make_cmd()
                .args(["--max-ply", "24", "--min-games", "2", "--pgn"])
                .arg(&pgn)
                .arg("--out")
                .arg(&book)
                .arg("--counts-out")
                .arg(&counts)
                .args(extra),
        );
        (
            std::fs::read(&book).unwrap(),
            std::fs::read(&counts).unwrap(),
        )
    };
    let plain = build(&[], "unspilled");
    let dir = spill_dir.to_str().unwrap();
    let spilled = build(
        &["--memory", "1", "--threads", "2", "--tmp-dir", dir],
        "spilled",
    );
    assert!(
        plain.1.len() > 24 + 22 * 50_000,
        "{} bytes of counts: too few to spill",
        plain.1.len()
    );
    assert_eq!(spilled.0, plain.0, "book");
    assert_eq!(spilled.1, plain.1, "counts");
    assert_eq!(
        std::fs::read_dir(&spill_dir).unwrap().count(),
        0,
        "runs left behind"
    );
    // A spill directory under a regular file cannot be made.
    let file = tmp("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let out = tmp("never-spilled.bin");
    let st = book_make_cmd()
        .args(["--memory", "1", "--pgn"])
        .arg(&pgn)
        .arg("--out")
        .arg(&out)
        .arg("--tmp-dir")
        .arg(&file)
        .output()
        .unwrap();
    assert!(!st.status.success());
    assert!(String::from_utf8_lossy(&st.stderr).contains("spill directory"));
    assert!(!out.exists());

    // A disk that fills up while spilling: a file-size limit of 32 KB
    // (`ulimit -f 64`, with SIGXFSZ ignored so that writes past it fail
    // with EFBIG, as on a full disk, instead of killing the process). The
    // error is reported, no book is left at the output path (not even an
    // earlier one: it stays as it was), and the runs are removed.
    let full_dir = tmp("full-runs");
    std::fs::create_dir_all(&full_dir).unwrap();
    let out = tmp("full.bin");
    std::fs::write(&out, b"an earlier book!").unwrap();
    let st = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 64 && trap '' XFSZ && exec \"$0\" \"$@\"")
        .arg(exe())
        .args(["book", "make", "--memory", "1", "--max-ply", "24", "--pgn"])
        .arg(&pgn)
        .arg("--out")
        .arg(&out)
        .arg("--tmp-dir")
        .arg(&full_dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&st.stderr);
    assert!(!st.status.success(), "{err}");
    assert!(err.contains("cannot spill counts"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"an earlier book!");
    assert_eq!(
        std::fs::read_dir(&full_dir).unwrap().count(),
        0,
        "runs left behind after a full disk"
    );
}

// 2. and 3. `book make` overwrote its own input, and was not atomic.
#[test]
fn book_make_never_loses_a_file() {
    let pgn = tmp("same.pgn");
    let original = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n";
    std::fs::write(&pgn, original).unwrap();
    let dotted = pgn.parent().unwrap().join(".").join(".").join("same.pgn");
    for out in [pgn.clone(), dotted] {
        let r = make_book(&pgn, &out, &[]);
        assert_eq!(r.status.code(), Some(2), "{}", text(&r.stderr));
        assert!(text(&r.stderr).contains("input PGN"), "{}", text(&r.stderr));
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), original);
    }
    // A write that fails (file size limit: the write gets EFBIG) keeps
    // the old book whole.
    let book = tmp("old.bin");
    std::fs::write(&book, [0u8; 16]).unwrap();
    let big_pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/selfplay.pgn");
    let r = limited(
        "trap '' XFSZ; ulimit -f 1",
        &[
            "book",
            "make",
            "--min-games",
            "1",
            "--pgn",
            big_pgn,
            "--out",
            book.to_str().unwrap(),
        ],
        "",
    );
    assert!(!r.status.success(), "{}", text(&r.stderr));
    no_panic(&r);
    assert_eq!(std::fs::read(&book).unwrap(), [0u8; 16]);
    let leftovers = std::fs::read_dir(book.parent().unwrap())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        })
        .count();
    assert_eq!(leftovers, 0, "the temporary file is removed");
}

// 6. After an unclosed variation, the next game's first tag was skipped.
#[test]
fn pgn_recovery_keeps_the_next_games_fen() {
    let pgn = tmp("unclosed.pgn");
    std::fs::write(
        &pgn,
        "[Event \"a\"]\n\n1. e4 (1. d4 d5 1-0\n\n\
         [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[Event \"b\"]\n\n1. e4 Kd7 1-0\n",
    )
    .unwrap();
    let book = tmp("unclosed.bin");
    let r = make_book(&pgn, &book, &[]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    // e2e4 is in the book for the FEN position, not for the start.
    let probe = |fen: &str| {
        text(&hashmate(&["book", "probe", book.to_str().unwrap(), "--fen", fen], "").stdout)
    };
    assert!(probe("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").contains("e2e4"));
    assert!(!probe("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").contains("e2e4"));
}

// 9. One non-UTF-8 byte made `book make` copy the whole PGN a second time.
// Under an address-space limit that one copy fits in and two do not, the
// book is built (and is the same as from the clean text).
#[cfg(target_os = "linux")]
#[test]
fn a_latin1_byte_does_not_copy_the_pgn_twice() {
    let game = "[Event \"x\"]\n[White \"A\"]\n[Result \"1-0\"]\n\n\
                1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n\n";
    let mut pgn = game.repeat(64 << 20 >> 7).into_bytes();
    let clean_len = pgn.len();
    // Latin-1 "ü" in the first game's White tag.
    let at = game.find("\"A").unwrap() + 1;
    pgn[at] = 0xfc;
    let path = tmp("r2-9.pgn");
    std::fs::write(&path, &pgn).unwrap();
    drop(pgn);
    let out = tmp("r2-9.bin");
    // Measured with this 50 MB PGN: one copy needs about 73 MB of address
    // space, the build that copied it again about 171 MB. One counting
    // thread: a second one's malloc arena reserves up to 64 MB of address
    // space or none, as the threads race, which made the margin flaky.
    // The reader and main threads can race the same way (seen in CI on a
    // loaded machine: "memory allocation of 224 bytes failed" at start),
    // so glibc is held to one arena: the address space no longer depends
    // on the threads' timing.
    let limit_kb = clean_len / 1024 + 60_000;
    let r = limited(
        &format!("ulimit -v {limit_kb}; export MALLOC_ARENA_MAX=1"),
        &[
            "book",
            "make",
            "--pgn",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--max-ply",
            "4",
            "--threads",
            "1",
        ],
        "",
    );
    no_panic(&r);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let _ = std::fs::remove_file(&path);
}
