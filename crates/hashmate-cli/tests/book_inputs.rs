//! What `book make` does with inputs and outputs that are not what they
//! should be (hardening round three, docs/RELIABILITY.md): input that
//! yields no game writes nothing, a file that is not a book is not
//! replaced by one, two outputs may not be one file, games of other
//! variants and absurd time controls are not counted as chess, an unclosed
//! comment does not swallow the file, compressed inputs are read as their
//! own tools read them.

mod common;
use common::*;
use std::io::Write;

/// `n` short decisive games, each its own opening, as PGN.
fn games(n: usize) -> String {
    let openings = [
        "1. e4 e5 2. Nf3 Nc6",
        "1. d4 d5 2. c4 e6",
        "1. c4 e5 2. Nc3 Nf6",
        "1. Nf3 d5 2. g3 Nf6",
    ];
    (0..n)
        .map(|i| {
            format!(
                "[Event \"g{i}\"]\n[Result \"1-0\"]\n\n{} 1-0\n\n",
                openings[i % openings.len()]
            )
        })
        .collect()
}

/// `book make --pgn INPUT --out OUT`, with the default filters.
fn pgn_to(input: &std::path::Path, out: &std::path::Path) -> std::process::Output {
    book_make(&words(&format!(
        "--pgn {} --out {}",
        input.display(),
        out.display()
    )))
}

/// The "N games used, M skipped" counts of a run's messages.
fn used_skipped(stderr: &str) -> (usize, usize) {
    let line = stderr
        .lines()
        .find(|l| l.contains("games used"))
        .unwrap_or_else(|| panic!("no summary in {stderr}"));
    let mut words = line.split_whitespace();
    let used = words.next().unwrap().parse().unwrap();
    let skipped = line
        .split(", ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    (used, skipped)
}

// 1. The arguments swapped by mistake: the user's PGN became an empty book.
#[test]
fn input_without_games_writes_nothing_and_a_pgn_is_not_replaced_by_a_book() {
    let pgn = tmp("in1-games.pgn");
    std::fs::write(&pgn, games(4)).unwrap();
    let book = tmp("in1-book.bin");
    let made = make_book(&pgn, &book, &[]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let book_bytes = std::fs::read(&book).unwrap();
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();

    // Swapped: the book is read as PGN (no game), the PGN is the output.
    let r = pgn_to(&book, &pgn);
    refused(&r, "is not a Polyglot book");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), pgn_text);

    // Random bytes, or a compression we do not read: no game, nothing
    // written, even where the output may be replaced.
    let noise = tmp("in1-noise.pgn");
    std::fs::write(
        &noise,
        (0..5000u32)
            .map(|i| (i * 7919 % 251) as u8)
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let xz = tmp("in1-games.pgn.xz");
    std::fs::write(&xz, b"\xfd7zXZ\0\0\x04\xe6\xd6\xb4\x46\x02\0\x21\x01").unwrap();
    for input in [&noise, &xz] {
        let r = pgn_to(input, &book);
        refused(&r, "no chess game");
        assert_eq!(std::fs::read(&book).unwrap(), book_bytes);
    }
    // A counts output that exists and is not a counts file: refused too;
    // --force replaces either.
    let r = book_make(&words(&format!(
        "--min-games 1 --pgn {} --counts-out {}",
        pgn.display(),
        book.display()
    )));
    refused(&r, "not a counts file");
    let victim = tmp("in1-victim.txt");
    std::fs::write(&victim, "notes I keep").unwrap();
    let r = make_book(&pgn, &victim, &[]);
    assert_eq!(r.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "notes I keep");
    let r = make_book(&pgn, &victim, &["--force"]);
    succeeded(&r);
    assert_eq!(std::fs::read(&victim).unwrap(), book_bytes);
}

// 4. `--out x.bin --counts-out x.bin` wrote the counts, then the book over them.
#[test]
fn the_book_and_the_counts_may_not_be_one_file() {
    let pgn = tmp("in4.pgn");
    std::fs::write(&pgn, games(4)).unwrap();
    let out = tmp("in4.bin");
    let _ = std::fs::remove_file(&out);
    let link = tmp("in4-link.bin");
    let _ = std::fs::remove_file(&link);
    std::fs::write(&out, b"").unwrap();
    std::os::unix::fs::symlink(&out, &link).unwrap();
    for other in [&out, &link] {
        let r = make_book(&pgn, &out, &["--counts-out", other.to_str().unwrap()]);
        refused(&r, "are the same file");
        assert_eq!(std::fs::read(&out).unwrap(), b"");
    }
}

// 11. and 12. A u64-wrapping TimeControl counted as bullet; a Three-check
// game counted into a chess book.
#[test]
fn absurd_time_controls_and_other_variants_are_not_chess_games_of_a_class() {
    let pgn = tmp("in11.pgn");
    std::fs::write(
        &pgn,
        "[TimeControl \"60+0\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
         [TimeControl \"18446744073709551615+1\"]\n[Result \"1-0\"]\n\n1. d4 d5 1-0\n\n\
         [Variant \"Three-check\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 1-0\n\n\
         [Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n[Result \"0-1\"]\n\n1. g3 g6 0-1\n\n\
         [Variant \"Standard\"]\n[Result \"1/2-1/2\"]\n\n1. c4 c5 1/2-1/2\n",
    )
    .unwrap();
    let book = tmp("in11.bin");
    let r = make_book(&pgn, &book, &["--time-control", "bullet"]);
    succeeded(&r);
    // The 60 s game only: the absurd control is no class, and neither the
    // Three-check game nor those without a TimeControl are bullet.
    assert_eq!(used_skipped(&text(&r.stderr)).0, 1, "{}", text(&r.stderr));
    let r = make_book(&pgn, &book, &[]);
    succeeded(&r);
    let err = text(&r.stderr);
    assert_eq!(used_skipped(&err), (4, 1), "{err}");
    assert!(
        err.contains("other variants") && err.contains("Three-check 1"),
        "{err}"
    );
}

// 13. An unclosed `{` swallowed the rest of the file: "1 games used, 0 skipped".
#[test]
fn an_unclosed_comment_is_an_error_of_its_game_and_the_games_after_it_count() {
    let pgn = tmp("in13.pgn");
    let text_in = format!(
        "[Event \"open\"]\n[Result \"1-0\"]\n\n1. e4 {{ a comment never closed e5 1-0\n\n{}",
        games(20)
    );
    std::fs::write(&pgn, &text_in).unwrap();
    let book = tmp("in13.bin");
    let r = make_book(&pgn, &book, &[]);
    succeeded(&r);
    let err = text(&r.stderr);
    assert_eq!(used_skipped(&err), (20, 1), "{err}");
    assert!(err.contains("line 4: comment '{' not closed"), "{err}");
}

// 14. A missing output folder was found only after all the work.
#[test]
fn a_missing_output_folder_is_found_before_reading_the_input() {
    let out = tmp("in14-no-such-folder/book.bin");
    // The input never ends: only a check made before reading returns.
    let mut child = book_make_cmd()
        .args(["--pgn", "-", "--out", out.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The check under test may come before the write (seen in CI).
    write_unless_exited(&mut stdin, games(2).as_bytes());
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if started.elapsed().as_secs() > 20 {
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    drop(stdin);
    let status = status.unwrap_or_else(|| {
        let _ = child.kill();
        panic!("book make read its input before finding the output's folder missing");
    });
    assert_eq!(status.code(), Some(2));
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.contains("its folder does not exist"), "{err}");
    assert!(!out.parent().unwrap().exists());
}

// 15. A `.pgn.zst` made with `zstd --long=31` was refused ("Frame requires
// too much memory"); and `.gz` with trailing zero padding.
#[test]
fn compressed_inputs_are_read_as_their_tools_read_them() {
    let plain = games(12);
    let pgn = tmp("in15.pgn");
    std::fs::write(&pgn, &plain).unwrap();
    let zst = tmp("in15.pgn.zst");
    let mut enc = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    enc.long_distance_matching(true).unwrap();
    enc.window_log(31).unwrap();
    enc.write_all(plain.as_bytes()).unwrap();
    std::fs::write(&zst, enc.finish().unwrap()).unwrap();
    let gz = tmp("in15.pgn.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(plain.as_bytes()).unwrap();
    let mut padded = enc.finish().unwrap();
    padded.extend(std::iter::repeat_n(0u8, 1000));
    std::fs::write(&gz, padded).unwrap();
    let make = |input: &std::path::Path| {
        let out = tmp(&format!(
            "{}.bin",
            input.file_name().unwrap().to_string_lossy()
        ));
        let r = make_book(input, &out, &[]);
        assert!(
            r.status.success(),
            "{}: {}",
            input.display(),
            text(&r.stderr)
        );
        std::fs::read(out).unwrap()
    };
    let expected = make(&pgn);
    assert_eq!(make(&zst), expected);
    assert_eq!(make(&gz), expected);
}

// Lesser: the same input given twice was counted twice without a word;
// `--tmp-dir a/b` created folders and left them.
#[test]
fn an_input_given_twice_is_named_and_a_missing_tmp_dir_is_not_made() {
    let pgn = tmp("in16.pgn");
    std::fs::write(&pgn, games(4)).unwrap();
    let dotted = pgn.parent().unwrap().join(".").join("in16.pgn");
    let out = tmp("in16.bin");
    let r = book_make(&[
        "--min-games",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
        dotted.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    succeeded(&r);
    assert!(
        text(&r.stderr).contains("are the same file: its games are counted twice"),
        "{}",
        text(&r.stderr)
    );
    let missing = tmp("in16-a/b");
    let r = make_book(
        &pgn,
        &out,
        &["--memory", "1", "--tmp-dir", missing.to_str().unwrap()],
    );
    refused(&r, "not an existing folder");
    assert!(!missing.parent().unwrap().exists());
}
