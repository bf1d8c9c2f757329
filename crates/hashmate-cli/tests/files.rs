//! What every tool does with its files: outputs that are not regular
//! files (FIFOs, links, devices) never replaced, a full disk or an endless
//! input ending with an error, a reader that goes away ending the command
//! quietly, inputs read within limits.

mod common;
use common::*;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

// 8. Output errors panicked, or were lost with exit status 0.
#[test]
fn output_errors_end_like_a_command_line_tool() {
    // A reader that goes away after one line: quiet, status 0, and the
    // command stops (perft 7 would take minutes in a debug build).
    for args in [
        vec!["perft", "7", "--divide"],
        vec!["book", "probe", GNUCHESS_BOOK],
        vec!["tt-study", "--kb", "64", "--search-depth", "0"],
    ] {
        if args[0] == "book" && !std::path::Path::new(GNUCHESS_BOOK).exists() {
            continue;
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_hashmate"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // The pipe's read end is closed here.
        let status = child.wait().unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(!first.is_empty(), "{args:?}");
        assert!(status.success(), "{args:?}: {status} {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A full disk: a message and a failure status.
    if std::path::Path::new("/dev/full").exists() {
        for args in [
            vec!["key", "8/8/8/4k3/8/8/8/4K3 w - - 0 1"],
            vec!["perft", "2"],
        ] {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let r = Command::new(env!("CARGO_BIN_EXE_hashmate"))
                .args(&args)
                .stdout(full)
                .output()
                .unwrap();
            assert_eq!(r.status.code(), Some(1), "{args:?}");
            assert!(text(&r.stderr).contains("cannot write output"), "{args:?}");
        }
    }
}

// The lesser ones.
#[test]
fn readers_have_limits_and_numbers_are_checked() {
    if std::path::Path::new("/dev/zero").exists() {
        let r = hashmate(&["book", "probe", "/dev/zero"], "");
        assert_eq!(r.status.code(), Some(2));
        assert!(
            text(&r.stderr).contains("not a regular file"),
            "{}",
            text(&r.stderr)
        );
    }
    let huge_vertex = "A".repeat(1 << 20);
    let r = hashmate(
        &["go"],
        &format!(
            "komi nan\nkomi inf\nkomi 6.5\nplay b A+2\nplay b {huge_vertex}\nplay b A2\nquit\n"
        ),
    );
    let s = text(&r.stdout);
    let answers: Vec<&str> = s
        .split("\n\n")
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .collect();
    assert!(
        answers[0].starts_with('?') && answers[1].starts_with('?'),
        "{answers:?}"
    );
    assert_eq!(answers[2], "=");
    assert!(answers[3].starts_with('?'), "{answers:?}");
    assert!(
        answers[4].starts_with('?') && answers[4].len() < 200,
        "echoed back: {}",
        answers[4].len()
    );
    assert_eq!(answers[5], "=");
    // A FEN read from a file ends with a newline.
    let r = hashmate(&["key", "8/8/8/4k3/8/8/8/4K3 w - - 0 1\n"], "");
    assert!(r.status.success(), "{}", text(&r.stderr));
    // UCI lines over the limit are refused without being echoed.
    let long = format!("position fen {}\nisready\nquit\n", "x".repeat(2 << 20));
    let r = hashmate(&[], &long);
    let s = text(&r.stdout);
    assert!(
        s.contains("refused") && s.contains("readyok") && s.len() < 10_000,
        "{}",
        s.len()
    );
}

// 1. `--out P` replaced what is not a regular file: a FIFO became a
// regular file, a symlink was destroyed (its target kept the old content).
#[cfg(unix)]
#[test]
fn out_paths_that_are_not_regular_files_are_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let pgn = tmp("r2-1.pgn");
    std::fs::write(&pgn, TWO_GAMES).unwrap();
    let pgn_arg = pgn.to_str().unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.bin");
    // A FIFO, for both writers: refused, and still a FIFO.
    let fifo = tmp("r2-1.fifo");
    mkfifo(&fifo);
    let fifo_arg = fifo.to_str().unwrap();
    for args in [
        vec!["book", "make", "--pgn", pgn_arg, "--out", fifo_arg],
        vec!["tune", "--data", sample, "--out", fifo_arg, "--epochs", "1"],
    ] {
        let r = hashmate(&args, "");
        no_panic(&r);
        assert!(!r.status.success(), "{args:?}");
        assert!(
            text(&r.stderr).contains("FIFO, not a regular file"),
            "{}",
            text(&r.stderr)
        );
        let t = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(t.is_fifo(), "{args:?} replaced the FIFO");
    }
    // A directory: refused, still a directory.
    let dir = tmp("r2-1.dir");
    std::fs::create_dir_all(&dir).unwrap();
    let r = book_make(&["--pgn", pgn_arg, "--out", dir.to_str().unwrap()]);
    assert!(!r.status.success());
    assert!(dir.is_dir());
    // A symlink: followed; the target gets the book, the link stays.
    let target = tmp("r2-1.target.bin");
    let link = tmp("r2-1.link.bin");
    // (An earlier book: a file that is not one is refused without --force.)
    std::fs::write(&target, b"an earlier book!").unwrap();
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let r = book_make(&[
        "--pgn",
        pgn_arg,
        "--out",
        link.to_str().unwrap(),
        "--min-games",
        "1",
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let book = std::fs::read(&target).unwrap();
    assert!(
        book.len() > 16 && book.len().is_multiple_of(16),
        "{} bytes",
        book.len()
    );
    // A character device is written in place, never replaced.
    let r = hashmate(
        &["book", "make", "--pgn", pgn_arg, "--out", "/dev/null"],
        "",
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    let t = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(t.is_char_device());
}

// 7. Endless inputs hung: `datagen --out /dev/full` read for ever instead
// of reporting the write error; `tune --data /dev/zero` never ended.
#[cfg(unix)]
#[test]
fn endless_inputs_and_full_disks_end_with_an_error() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let r = hashmate(
        &[
            "datagen",
            "--out",
            "/dev/full",
            "--games",
            "2",
            "--nodes",
            "200",
        ],
        "",
    );
    no_panic(&r);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r.stderr));
    assert!(
        text(&r.stderr).contains("No space left on device"),
        "{}",
        text(&r.stderr)
    );
    let r = hashmate(
        &[
            "tune",
            "--data",
            "/dev/zero",
            "--out",
            tmp("r2-7.rs").to_str().unwrap(),
        ],
        "",
    );
    no_panic(&r);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("character device, not a regular file"),
        "{}",
        text(&r.stderr)
    );
    let fifo = tmp("r2-7.fifo");
    mkfifo(&fifo);
    let r = hashmate(
        &["datagen", "--out", fifo.to_str().unwrap(), "--games", "1"],
        "",
    );
    assert_eq!(r.status.code(), Some(2), "{}", text(&r.stderr));
}

// Round three, 2. `--out /dev/stdout` under the shell's `>> file` replaced
// the file (the link to fd 1 resolved and a new file renamed over it), and
// into a pipe it was refused as "a symbolic link to nothing readable".
#[cfg(unix)]
#[test]
fn a_standard_stream_as_output_is_written_as_the_stream() {
    let pgn = two_games("r3-2.pgn");
    let book = tmp("r3-2.bin");
    succeeded(&make_book(&pgn, &book, &[]));
    let expected = std::fs::read(&book).unwrap();
    let log = tmp("r3-2.log");
    std::fs::write(&log, b"earlier lines\n").unwrap();
    let appended = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "\"$0\" book make --min-games 1 --pgn '{}' --out /dev/stdout >> '{}'",
            pgn.display(),
            log.display()
        ))
        .arg(env!("CARGO_BIN_EXE_hashmate"))
        .output()
        .unwrap();
    assert!(appended.status.success(), "{}", text(&appended.stderr));
    let mut want = b"earlier lines\n".to_vec();
    want.extend(&expected);
    assert_eq!(std::fs::read(&log).unwrap(), want);
    // Into a pipe: the bytes come out of it.
    let piped = book_make_cmd()
        .args(words(&format!(
            "--min-games 1 --pgn {} --out /dev/stdout",
            pgn.display()
        )))
        .output()
        .unwrap();
    assert!(piped.status.success(), "{}", text(&piped.stderr));
    assert_eq!(piped.stdout, expected);
}

// Round three, 5. Replacing a file reset its mode: a book at 0600 became
// 0644, readable by everyone.
#[cfg(unix)]
#[test]
fn a_replaced_file_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let pgn = two_games("r3-5.pgn");
    let book = tmp("r3-5.bin");
    std::fs::write(&book, b"an earlier book!").unwrap();
    for mode in [0o600, 0o640] {
        std::fs::set_permissions(&book, std::fs::Permissions::from_mode(mode)).unwrap();
        succeeded(&make_book(&pgn, &book, &[]));
        let got = std::fs::metadata(&book).unwrap().permissions().mode() & 0o777;
        assert_eq!(got, mode, "{got:o}");
        assert_ne!(std::fs::read(&book).unwrap(), b"an earlier book!");
    }
}
