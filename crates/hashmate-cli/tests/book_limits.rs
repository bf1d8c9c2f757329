//! `book make` within its limits (hardening round three): memory bounded
//! by the bytes of games in flight, not by their number; spilled runs
//! merged with a bounded number of open files; a signal removes what the
//! run left on disk.

mod common;
use common::*;
use hashmate::{Game, Position};
use hashmate_hash::rng::SplitMix64;
use std::io::Write;
use std::process::{Command, Stdio};

/// `n` random games of up to `plies` plies from the start, as PGN.
fn random_games(n: usize, plies: usize, seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::new();
    for i in 0..n {
        let mut game = Game::new(Position::startpos());
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            game.try_play(mv).unwrap();
        }
        let result = ["1-0", "0-1", "1/2-1/2"][i % 3];
        out += &game.to_pgn(&[("Event", &format!("r{i}")), ("Result", result)]);
    }
    out
}

// 6. The queue held up to 64 whole games of up to 64 MiB each: 64 games
// with 30 MB comments reached 1.98 GB and, under `ulimit -v 1000000`,
// aborted. Now the games in flight are bounded in bytes.
#[test]
fn games_with_huge_comments_are_counted_in_bounded_memory() {
    let comment = "x".repeat(12 << 20);
    let mut pgn = Vec::new();
    let mut enc = zstd::stream::write::Encoder::new(&mut pgn, 1).unwrap();
    for i in 0..32 {
        write!(
            enc,
            "[Event \"c{i}\"]\n[Result \"1-0\"]\n\n1. e4 {{{comment}}} e5 2. Nf3 1-0\n\n"
        )
        .unwrap();
    }
    enc.finish().unwrap();
    let path = tmp("r3-6.pgn.zst");
    std::fs::write(&path, &pgn).unwrap();
    let out = tmp("r3-6.bin");
    // 384 MB of games in an address space well below that (each thread's
    // malloc arena reserves address space of its own: more for 4 threads).
    for (threads, limit) in [("1", "ulimit -v 300000"), ("4", "ulimit -v 600000")] {
        let r = limited(
            limit,
            &[
                "book",
                "make",
                "--min-games",
                "1",
                "--threads",
                threads,
                "--pgn",
                path.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            "",
        );
        no_panic(&r);
        assert!(r.status.success(), "{threads} threads: {}", text(&r.stderr));
        assert!(
            text(&r.stderr).starts_with("32 games used"),
            "{}",
            text(&r.stderr)
        );
    }
}

// 9. With `--memory`, the runs were merged in one pass with every run file
// open (and a 64 KB buffer each): many runs failed at the very end with
// "Too many open files". Now in passes of a bounded fan-in.
#[test]
fn many_spilled_runs_merge_with_few_open_files() {
    let pgn = tmp("r3-9.pgn");
    std::fs::write(&pgn, random_games(3000, 40, 9)).unwrap();
    let whole = tmp("r3-9-whole.bin");
    let r = make_book(&pgn, &whole, &[]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let spills = tmp("r3-9-runs");
    std::fs::create_dir_all(&spills).unwrap();
    let spilled = tmp("r3-9-spilled.bin");
    // 16 maps of 1 MB / 24 B / 16 = 2,730 counts each: about 40 runs for
    // 120,000 moves, over what 24 open files allow.
    let args = format!(
        "book make --min-games 1 --memory 1 --threads 16 --tmp-dir {} --pgn {} --out {}",
        spills.display(),
        pgn.display(),
        spilled.display()
    );
    let r = limited("ulimit -n 24", &words(&args), "");
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(
        std::fs::read(&spilled).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    assert_eq!(
        std::fs::read_dir(&spills).unwrap().count(),
        0,
        "runs left behind"
    );
}

// 10. A signal during `book make --memory` left the spill directory behind
// (72 MB after 2 s), although runs are removed after an error.
#[cfg(unix)]
#[test]
fn a_signal_removes_the_spill_directory() {
    let games = random_games(400, 30, 10);
    for signal in ["INT", "TERM", "HUP"] {
        let spills = tmp(&format!("r3-10-{signal}"));
        std::fs::create_dir_all(&spills).unwrap();
        let out = tmp(&format!("r3-10-{signal}.bin"));
        let args = format!(
            "--min-games 1 --memory 1 --tmp-dir {} --pgn - --out {}",
            spills.display(),
            out.display()
        );
        let mut child = book_make_cmd()
            .args(words(&args))
            .stdin(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(games.as_bytes()).unwrap();
        // The input stays open: the run waits for more, with its spill
        // directory made.
        let started = std::time::Instant::now();
        while std::fs::read_dir(&spills).unwrap().count() == 0 {
            assert!(started.elapsed().as_secs() < 20, "no spill directory made");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        drop(stdin);
        assert!(!status.success(), "{signal}: {status:?}");
        assert_eq!(
            std::fs::read_dir(&spills).unwrap().count(),
            0,
            "SIG{signal} left the spill directory behind"
        );
        assert!(!out.exists());
    }
}

// 7. Under a memory limit `book make` aborted (at 30 MB) where a large
// allocation failed. The large ones — counts, the game text, the book and
// counts written out — are now asked for and refused with a message; only
// an allocation of a few hundred bytes, when the process has no memory
// left at all, may still end it. Swept over limits of 12 to 40 MB.
#[cfg(unix)]
#[test]
fn large_allocations_that_fail_are_messages() {
    let pgn = tmp("r3-7.pgn");
    std::fs::write(&pgn, random_games(3000, 40, 7)).unwrap();
    let out = tmp("r3-7.bin");
    let (mut refused_by_name, mut made) = (0, 0);
    for mb in 12..=40 {
        let args = format!(
            "book make --min-games 1 --pgn {} --out {}",
            pgn.display(),
            out.display()
        );
        let r = limited(&format!("ulimit -v {}", mb * 1024), &words(&args), "");
        let err = text(&r.stderr);
        // The sizes of the allocations that aborted (two reports may
        // interleave: "memory allocation of memory allocation of 41 …").
        let aborted: Vec<usize> = err
            .match_indices("memory allocation of ")
            .filter_map(|(i, m)| err[i + m.len()..].split(' ').next()?.parse().ok())
            .collect();
        if err.contains("memory allocation of ") {
            assert!(
                aborted.iter().all(|&bytes| bytes < 64 << 10),
                "{mb} MB: a large allocation aborted: {err}"
            );
        } else if r.status.success() {
            made += 1;
        } else {
            assert!(err.contains("not enough memory"), "{mb} MB: {err}");
            refused_by_name += 1;
        }
    }
    assert!(
        made > 0 && refused_by_name > 0,
        "made {made}, refused {refused_by_name}"
    );
}

// A CI machine met `book make` panicking with "failed to spawn thread"
// under a memory limit, and 64 threads under `ulimit -v` took all the
// address space with their stacks, so that a 1-byte allocation aborted
// the process. A counting thread beyond the first now starts only where
// memory is left for it; the first that cannot start is a message.
#[cfg(unix)]
#[test]
fn many_threads_under_a_memory_limit_start_as_memory_allows() {
    let pgn = tmp("r3-threads.pgn");
    std::fs::write(&pgn, random_games(600, 30, 11)).unwrap();
    let out = tmp("r3-threads.bin");
    let mut made = 0;
    // (At 12 MB even one thread runs out: see the test above.)
    for mb in (16..=60).step_by(4) {
        let args = format!(
            "book make --min-games 1 --threads 64 --pgn {} --out {}",
            pgn.display(),
            out.display()
        );
        let r = limited(&format!("ulimit -v {}", mb * 1024), &words(&args), "");
        let err = text(&r.stderr);
        assert!(
            !err.contains("panicked") && !err.contains("memory allocation of"),
            "{mb} MB: {err}"
        );
        if r.status.success() {
            made += 1;
        } else {
            assert!(err.contains("not enough memory"), "{mb} MB: {err}");
        }
    }
    assert!(made > 0, "no limit up to 60 MB made the book");
}
