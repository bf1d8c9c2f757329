//! The search seen through UCI: the time it takes, the scores it
//! reports for mated, stalemated and drawn positions, and its threads
//! parked between searches.

mod common;
use common::*;
use std::io::{BufRead, BufReader, Write};
use std::time::{Duration, Instant};

// UCI conventions.
#[test]
fn movetime_is_used_and_currmove_reported() {
    // A client that waits for the bestmove before it quits, as GUIs do.
    let mut child = spawn_piped(env!("CARGO_BIN_EXE_hashmate"));
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // Long enough that some root move starts after the first second, when
    // `currmove` begins (at 1.5 s one iteration could span the whole second).
    writeln!(stdin, "position startpos\ngo movetime 4000").unwrap();
    stdin.flush().unwrap();
    let start = Instant::now();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove");
        seen.push(line);
        if done {
            break;
        }
    }
    let elapsed = start.elapsed();
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    child.wait().unwrap();
    let s = seen.join("\n");
    assert!(s.contains("bestmove"), "{s}");
    // At least 95 % of the time, less the 30 ms Move Overhead.
    assert!(
        elapsed >= Duration::from_millis(4000 * 95 / 100 - 30),
        "returned after {elapsed:?}"
    );
    assert!(
        s.contains("currmove ") && s.contains("currmovenumber "),
        "{s}"
    );
}

#[test]
fn mated_and_stalemated_roots_report_a_score() {
    for (fen, score) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "score mate 0"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "score cp 0"),
    ] {
        let r = hashmate(
            &[],
            &format!("position fen {fen}\ngo depth 3\nisready\nquit\n"),
        );
        let s = text(&r.stdout);
        let info = s.lines().position(|l| l.contains(score));
        let best = s.lines().position(|l| l == "bestmove 0000");
        assert!(info.is_some() && best.is_some() && info < best, "{s}");
    }
}

// 10. Draws were not seen at the horizon: quiescence tested neither the
// fifty-move rule nor repetitions.
#[test]
fn draws_are_seen_at_the_horizon() {
    let last_info = |input: &str| {
        let r = hashmate(&[], input);
        let s = text(&r.stdout);
        let info = s
            .lines()
            .rev()
            .find(|l| l.starts_with("info depth") && l.contains(" score "))
            .unwrap_or("")
            .to_string();
        let best = s
            .lines()
            .find(|l| l.starts_with("bestmove "))
            .unwrap_or("")
            .to_string();
        (info, best)
    };
    // KQ v K, the clock at 99, no mate in one: every move draws.
    let (info, _) = last_info("position fen 8/8/8/4k3/8/8/8/KQ6 w - - 99 80\ngo depth 1\n");
    assert!(info.contains("score cp 0 "), "{info}");
    // The same with a mate in one: checkmate takes precedence.
    let (info, best) = last_info("position fen 7k/8/6K1/8/8/8/8/1Q6 w - - 99 80\ngo depth 1\n");
    assert!(info.contains("score mate 1 "), "{info}");
    assert_eq!(best, "bestmove b1b8");
    // A knight against an army: returning the knight repeats the position.
    let (info, best) = last_info(
        "position fen 1n2k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR b KQ - 0 1 \
         moves b8c6 g1f3 c6b8 f3g1 b8c6 g1f3\ngo depth 1\n",
    );
    assert!(info.contains("score cp 0 "), "{info}");
    assert_eq!(best, "bestmove c6b8");
    // A mate that the fifty-move rule leaves no room for is not announced.
    let (info, _) = last_info("position fen 8/8/8/4k3/8/8/8/KQ6 w - - 90 80\ngo depth 12\n");
    assert!(!info.contains("score mate"), "{info}");
    // Neither side can ever mate: a draw, whatever the material count says
    // (the network scored a lone knight at about +3.8).
    for fen in [
        "8/8/4k3/8/8/2N5/8/4K3 b - - 0 1",
        "8/8/4k3/8/8/2B5/8/4K3 w - - 0 1",
        "8/8/4k3/4b3/8/2B5/8/4K3 w - - 0 1",
    ] {
        let (info, _) = last_info(&format!("position fen {fen}\ngo depth 8\n"));
        assert!(info.contains("score cp 0 "), "{fen}: {info}");
    }
}

// Issue 38: helper threads were created and joined in every `go`, the
// job thread beside the UCI loop too. They are now started once and parked
// between searches: the process's thread count is the same after every
// search, with two more for `Threads 3` than for `Threads 1` (the helpers).
#[cfg(target_os = "linux")]
#[test]
fn search_threads_are_parked_between_searches() {
    let threads_now = |pid: u32| -> usize {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let line = status.lines().find(|l| l.starts_with("Threads:")).unwrap();
        line[8..].trim().parse().unwrap()
    };
    let mut counts = Vec::new();
    for threads in [1, 3] {
        let mut s = Session::start();
        s.send(&format!("setoption name Threads value {threads}"));
        let mut seen = Vec::new();
        for _ in 0..100 {
            s.send("go infinite");
            s.send("stop");
            s.until(20, |l| l.starts_with("bestmove "))
                .unwrap_or_else(|| panic!("no bestmove: {}", s.seen));
            s.send("isready");
            s.until(20, |l| l == "readyok").unwrap();
            seen.push(threads_now(s.child.id()));
        }
        assert!(
            seen.iter().all(|&n| n == seen[0]),
            "Threads {threads}: {seen:?}"
        );
        counts.push(seen[0]);
        assert!(s.quit(20));
    }
    assert_eq!(counts[1], counts[0] + 2, "{counts:?}");
}
