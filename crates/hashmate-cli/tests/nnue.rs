//! The network in the engine: `UseNNUE`, `EvalFile` and its bad inputs,
//! `hashmate eval`, `bench --nnue`.

mod common;
use hashmate_nnue::Network;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Run the engine on `input` (kept open until a `bestmove` or the end of
/// the output) and return its output.
fn session(input: &str) -> String {
    let mut child = common::spawn_piped(env!("CARGO_BIN_EXE_hashmate"));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut seen = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        seen += &line;
        seen.push('\n');
        if line.starts_with("bestmove ") || line == "readyok" {
            break;
        }
    }
    drop(stdin);
    child.wait().unwrap();
    seen
}

fn scratch(name: &str) -> std::path::PathBuf {
    common::fresh_dir(
        env!("CARGO_TARGET_TMPDIR"),
        &format!("hashmate-nnue-{name}"),
    )
}

#[test]
fn the_engine_searches_with_the_network() {
    let out = session("setoption name UseNNUE value true\nposition startpos\ngo depth 8\n");
    assert!(out.lines().any(|l| l.starts_with("info depth 8 ")), "{out}");
    assert!(out.contains("bestmove "), "{out}");
}

/// Each bad `EvalFile` is refused with a message naming the problem, and
/// the engine goes on with the network it had.
#[test]
fn bad_network_files_are_refused_and_the_net_stays() {
    let dir = scratch("bad");
    let good = hashmate_data::net::embedded().unwrap().to_bytes();
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let other = dir.join("other.nnue");
    let net = Network::new(8, vec![1; 768 * 8], vec![0; 8], vec![1; 16], 0).unwrap();
    let mut bytes = net.to_bytes();
    bytes[4] = 7; // a format version from the future
    std::fs::write(&other, &bytes).unwrap();
    let random = dir.join("random.nnue");
    std::fs::write(
        &random,
        (0..100_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    for (path, why) in [
        (dir.join("missing.nnue"), "No such file"),
        (dir.clone(), "directory"),
        (truncated, "truncated"),
        (other, "version 7"),
        (random, "not a hashmate network"),
    ] {
        let out = session(&format!(
            "setoption name UseNNUE value true\nsetoption name EvalFile value {}\nposition startpos\ngo depth 4\n",
            path.display()
        ));
        let note = out
            .lines()
            .find(|l| l.starts_with("info string"))
            .unwrap_or_else(|| panic!("no message for {}: {out}", path.display()));
        assert!(note.contains(why) && note.contains("stays"), "{note}");
        assert!(out.contains("bestmove "), "{out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_network_file_is_loaded_and_used() {
    let dir = scratch("good");
    // A net that sees every position as +1 pawn for the side to move
    // searches like any other; `hashmate eval` prints its score.
    let flat = Network::new(8, vec![0; 768 * 8], vec![0; 8], vec![0; 16], 255 * 64 / 4).unwrap();
    let path = dir.join("flat.nnue");
    std::fs::write(&path, flat.to_bytes()).unwrap();
    let out = session(&format!(
        "setoption name EvalFile value {}\nsetoption name UseNNUE value true\nposition startpos\ngo depth 3\n",
        path.display()
    ));
    // The load is confirmed by name, and says whether the net plays.
    let note = out
        .lines()
        .find(|l| l.starts_with("info string"))
        .unwrap_or_default();
    assert!(
        note.contains("flat.nnue, 8 neurons, 1 output bucket,") && note.ends_with(": in use"),
        "{out}"
    );
    assert!(out.contains("score cp 100 "), "{out}");
    let out = session(&format!(
        "setoption name UseNNUE value false\nsetoption name EvalFile value {}\nisready\n",
        path.display()
    ));
    assert!(
        out.contains("flat.nnue, 8 neurons") && out.contains("UseNNUE is false"),
        "{out}"
    );
    let eval = Command::new(env!("CARGO_BIN_EXE_hashmate"))
        .args(["eval", "--net"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&eval.stdout);
    // The flat net says +100 cp for the side to move (White here).
    assert!(
        text.contains("NNUE evaluation        +1.00 (white side) [output bucket 1 of 1; "),
        "{text}"
    );
    assert!(text.contains("flat.nnue, 8 neurons"), "{text}");
    assert!(text.contains("Classical evaluation"), "{text}");
    assert!(
        text.contains("Final evaluation       +1.00 (white side)"),
        "{text}"
    );
    let bench = Command::new(env!("CARGO_BIN_EXE_hashmate"))
        .args(["bench", "4", "--nnue"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(bench.status.success());
    assert!(String::from_utf8_lossy(&bench.stdout).contains(" nodes "));
    // Round three (lesser): `EvalFile <empty>` was confirmed with an empty
    // name. The embedded net has one name however it is asked for.
    for name in ["<empty>", "<internal>"] {
        let out = session(&format!("setoption name EvalFile value {name}\nisready\n"));
        assert!(
            out.contains("info string EvalFile <internal>, "),
            "{name}: {out}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Round three, 7: under a memory limit, loading a valid large net through
/// `EvalFile` aborted the engine (51 of 213 limits from 12 to 64 MB). Now
/// a net whose memory cannot be had is refused with an `info string`, the
/// current one stays, and the session goes on, at every limit where the
/// engine starts at all.
#[cfg(unix)]
#[test]
fn a_network_that_does_not_fit_in_memory_is_refused_not_an_abort() {
    let hidden = 2048;
    let big = Network::new(
        hidden,
        vec![0; 768 * hidden],
        vec![0; hidden],
        vec![0; 2 * hidden],
        0,
    )
    .unwrap()
    .to_bytes();
    let path = scratch("big").join("big-2048.nnue");
    std::fs::write(&path, big).unwrap();
    let input = format!(
        "uci\nsetoption name EvalFile value {}\nisready\nquit\n",
        path.display()
    );
    let (mut started, mut refused) = (0, 0);
    for mb in (12..=64).step_by(2) {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {}; exec \"$0\"", mb * 1024))
            .arg(env!("CARGO_BIN_EXE_hashmate"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !stdout.contains("uciok") {
            continue; // Too little memory to start at all.
        }
        started += 1;
        assert!(
            out.status.success() && stdout.contains("readyok"),
            "{mb} MB: {:?}\n{stdout}\n{stderr}",
            out.status
        );
        assert!(!stderr.contains("memory allocation"), "{mb} MB: {stderr}");
        if stdout.contains("memory") && stdout.contains("the network stays as it was") {
            refused += 1;
        }
    }
    assert!(started > 10, "the engine started at only {started} limits");
    assert!(
        refused > 0,
        "no limit made the net too large: the test tested nothing"
    );
}

/// A net with king buckets (16, mirrored) loads through `EvalFile`, is
/// described as such, and searches: this test binary is built with debug
/// assertions, under which every evaluation of the search checks the
/// move-by-move accumulators against a rebuild — here through positions
/// where the kings walk across buckets and wings. `bench --nnue` takes it
/// too.
#[test]
fn a_king_bucketed_network_searches() {
    use hashmate_nnue::KingBuckets;
    let dir = scratch("kings");
    let kings = KingBuckets::preset(16).unwrap();
    let mut s = 7u64;
    let mut next = move |range: i32| {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (((s >> 33) as i32).rem_euclid(2 * range + 1) - range) as i16
    };
    let hidden = 32;
    let ft = (0..kings.inputs() * hidden).map(|_| next(60)).collect();
    let bias = (0..hidden).map(|_| next(100)).collect();
    let out = (0..8 * 2 * hidden).map(|_| next(120)).collect();
    let net = Network::with_king_buckets(kings, hidden, ft, bias, out, vec![0; 8]).unwrap();
    let path = dir.join("kings.nnue");
    std::fs::write(&path, net.to_bytes()).unwrap();
    for position in [
        "startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1",
        "fen 8/5k2/8/2K5/8/8/5P2/8 w - - 0 1",
        "fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ] {
        let out = session(&format!(
            "setoption name EvalFile value {}\nposition {position}\ngo depth 7\n",
            path.display()
        ));
        assert!(
            out.contains("kings.nnue, 32 neurons, 8 output buckets, 16 king buckets (mirrored)"),
            "{out}"
        );
        assert!(out.lines().any(|l| l.starts_with("info depth 7 ")), "{out}");
        assert!(out.contains("bestmove "), "{out}");
    }
    let bench = Command::new(env!("CARGO_BIN_EXE_hashmate"))
        .args(["bench", "5", "--nnue"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(bench.status.success(), "{bench:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
