//! Tests against other programs that play or drive the engine in real
//! time — clocked games against phalanx, python-chess's UCI client, GNU Go
//! over GTP — in a suite of their own (`cargo test -p hashmate-cli --test
//! peers`), so that a timing-sensitive game is never mistaken for a unit
//! failure. Every test is in `mod peers`, so `cargo test -- --skip peers::`
//! leaves them out (.ci/run runs them as a step of their own). Each is
//! skipped with a printed reason where its peer is missing, unless
//! HASHMATE_REQUIRE_PEERS=1 (CI).

mod common;

mod peers {

    /// Clocked games against a real opponent, as a GUI tournament would run
    /// them: 6 games at 2 s + 0.05 s against Debian's phalanx (xboard), driven
    /// by python-chess (tests/clock_games.py). Asserted: no crash, no time loss,
    /// no illegal move — not the result. Skipped with a reason where phalanx or
    /// python-chess is missing (CI requires them).
    mod phalanx {
        use super::super::common;
        use std::process::Command;

        #[test]
        fn six_games_against_phalanx_without_faults() {
            let phalanx = common::find(&["/usr/games/phalanx", "/usr/bin/phalanx"]);
            if !common::peer_available("phalanx", phalanx.is_some())
                || !common::peer_available("python-chess", common::python_chess())
            {
                return;
            }
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clock_games.py");
            let out = Command::new("python3")
                .args([
                    script,
                    env!("CARGO_BIN_EXE_hashmate"),
                    phalanx.unwrap(),
                    "6",
                    "2",
                    "0.05",
                ])
                .output()
                .expect("python3 runs");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{text}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(
                text.lines().filter(|l| l.starts_with("game ")).count(),
                6,
                "{text}"
            );
            let faults = text
                .lines()
                .find(|l| l.starts_with("faults:"))
                .unwrap_or_else(|| panic!("no fault line in:\n{text}"));
            assert_eq!(
                faults, "faults: crashes 0, time losses 0, illegal moves 0",
                "{text}"
            );
        }
    }

    /// The binary under a real UCI client: python-chess's `chess.engine`
    /// (installed by .ci/run) analyses, plays under a clock, changes options,
    /// stops an infinite search, ponders, finds mates, sees repetitions and
    /// stalemate. The script asserts; this test checks it ran to the end.
    /// Skipped with a reason where python-chess is missing (CI requires it).
    mod python_chess {
        use super::super::common;
        use std::process::Command;

        #[test]
        fn python_chess_client() {
            if !common::peer_available("python-chess", common::python_chess()) {
                return;
            }
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci_client.py");
            let out = Command::new("python3")
                .args([script, env!("CARGO_BIN_EXE_hashmate")])
                .output()
                .expect("python3 must be installed (see .ci/run)");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "python-chess client failed:\n{stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(stdout.contains("ok syzygy"), "{stdout}");
        }
    }

    /// `is_legal` against GNU Go (Debian's gnugo, over GTP), under each ko and
    /// suicide rule both programs support. Random games on small boards (where
    /// captures, kos and long cycles are frequent) are played into both
    /// engines; at every position each empty point is asked of both, for the
    /// side to move, and the answers must agree. Thousands of positions per
    /// rule. Skipped with a reason where GNU Go is not installed (CI requires
    /// it).
    mod gnugo {
        use super::super::common;
        use hashmate_hash::rng::SplitMix64;
        use std::io::{BufRead, BufReader, Write};
        use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

        struct Gtp {
            child: Child,
            stdin: ChildStdin,
            stdout: BufReader<ChildStdout>,
        }

        impl Gtp {
            fn new(cmd: &str, args: &[&str]) -> Gtp {
                let mut child = Command::new(cmd)
                    .args(args)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap_or_else(|e| panic!("{cmd}: {e} (apt-get install gnugo; see .ci/run)"));
                let stdin = child.stdin.take().unwrap();
                let stdout = BufReader::new(child.stdout.take().unwrap());
                Gtp {
                    child,
                    stdin,
                    stdout,
                }
            }

            /// Send a command; `Ok(answer)` for `=`, `Err(answer)` for `?`.
            fn ask(&mut self, cmd: &str) -> Result<String, String> {
                writeln!(self.stdin, "{cmd}").unwrap();
                self.stdin.flush().unwrap();
                let mut answer = String::new();
                loop {
                    let mut line = String::new();
                    assert!(
                        self.stdout.read_line(&mut line).unwrap() > 0,
                        "engine died on '{cmd}'"
                    );
                    if line.trim().is_empty() {
                        if answer.is_empty() {
                            continue;
                        }
                        break;
                    }
                    answer.push_str(&line);
                }
                let body = answer[1..].trim().to_string();
                if answer.starts_with('=') {
                    Ok(body)
                } else {
                    Err(body)
                }
            }
        }

        impl Drop for Gtp {
            fn drop(&mut self) {
                let _ = writeln!(self.stdin, "quit");
                let _ = self.child.wait();
            }
        }

        fn vertex(size: usize, p: usize) -> String {
            let col = p % size;
            let letter = (b'A' + col as u8 + u8::from(col >= 8)) as char;
            format!("{letter}{}", p / size + 1)
        }

        fn agree(ours_args: &[&str], gnugo_args: &[&str], seed: u64) -> (usize, usize) {
            let Some(gnugo_path) = common::find(&["/usr/games/gnugo", "/usr/bin/gnugo"]) else {
                common::peer_available("GNU Go (gnugo)", false);
                return (usize::MAX, usize::MAX);
            };
            let mut ours = Gtp::new(env!("CARGO_BIN_EXE_hashmate"), ours_args);
            let mut args = vec!["--mode", "gtp"];
            args.extend_from_slice(gnugo_args);
            let mut gnugo = Gtp::new(gnugo_path, &args);
            let mut rng = SplitMix64::new(seed);
            let (mut positions, mut queries) = (0, 0);
            let mut game = 0;
            while positions < 1200 {
                let size = [5, 5, 7][game % 3];
                game += 1;
                for e in [&mut ours, &mut gnugo] {
                    e.ask(&format!("boardsize {size}")).unwrap();
                    e.ask("clear_board").unwrap();
                }
                let mut color = "black";
                for _ in 0..150 {
                    let mut legal = Vec::new();
                    for p in 0..size * size {
                        let v = vertex(size, p);
                        let q = format!("is_legal {color} {v}");
                        let a = ours.ask(&q).unwrap();
                        let b = gnugo.ask(&q).unwrap();
                        queries += 1;
                        assert_eq!(
                            a,
                            b,
                            "{ours_args:?} game {game}: {q}\n{}",
                            ours.ask("showboard").unwrap()
                        );
                        if a == "1" {
                            legal.push(v);
                        }
                    }
                    positions += 1;
                    if legal.is_empty() {
                        break;
                    }
                    let mv = &legal[rng.below(legal.len() as u64) as usize];
                    for e in [&mut ours, &mut gnugo] {
                        e.ask(&format!("play {color} {mv}")).unwrap();
                    }
                    color = if color == "black" { "white" } else { "black" };
                }
            }
            (positions, queries)
        }

        #[test]
        fn simple_ko() {
            let (p, q) = agree(
                &["go", "--ko", "simple"],
                &["--simple-ko", "--forbid-suicide"],
                1,
            );
            assert!(p >= 1000 && q > 20_000);
        }

        #[test]
        fn positional_superko() {
            agree(
                &["go", "--ko", "positional"],
                &["--positional-superko", "--forbid-suicide"],
                2,
            );
        }

        #[test]
        fn situational_superko() {
            agree(
                &["go", "--ko", "situational"],
                &["--situational-superko", "--forbid-suicide"],
                3,
            );
        }

        #[test]
        fn positional_superko_with_suicide() {
            agree(
                &["go", "--ko", "positional", "--suicide"],
                &["--positional-superko", "--allow-all-suicide"],
                4,
            );
        }

        /// `final_score` and `undo` against GNU Go under Chinese (area)
        /// rules: random games on 5×5, 7×7 and 9×9 played by our
        /// `genmove` for both colours, mirrored into GNU Go, to two passes
        /// in a row; at the end every dead stone has been captured, so
        /// GNU Go's score, which judges life and death, must equal ours,
        /// which counts every stone as alive (Tromp–Taylor). Every tenth
        /// move or so is taken back by `undo` in both programs and their
        /// `is_legal` answers compared on every point after it.
        #[test]
        fn final_score_and_undo() {
            let Some(gnugo_path) = common::find(&["/usr/games/gnugo", "/usr/bin/gnugo"]) else {
                common::peer_available("GNU Go (gnugo)", false);
                return;
            };
            let mut ours = Gtp::new(env!("CARGO_BIN_EXE_hashmate"), &["go", "--seed", "7"]);
            let mut gnugo = Gtp::new(
                gnugo_path,
                &[
                    "--mode",
                    "gtp",
                    "--chinese-rules",
                    "--positional-superko",
                    "--forbid-suicide",
                ],
            );
            let mut rng = SplitMix64::new(77);
            let (mut undos, mut results) = (0, std::collections::BTreeSet::new());
            for game in 0..24 {
                let size = [5, 7, 9][game % 3];
                let komi = ["0", "6.5", "7.5", "-3"][game % 4];
                for e in [&mut ours, &mut gnugo] {
                    e.ask(&format!("boardsize {size}")).unwrap();
                    e.ask("clear_board").unwrap();
                    e.ask(&format!("komi {komi}")).unwrap();
                }
                let (mut color, mut passes) = ("black", 0);
                while passes < 2 {
                    let mv = ours.ask(&format!("genmove {color}")).unwrap();
                    let mv = mv.to_ascii_uppercase();
                    gnugo
                        .ask(&format!("play {color} {mv}"))
                        .unwrap_or_else(|e| {
                            panic!("game {game}: GNU Go refused {color} {mv}: {e}")
                        });
                    passes = if mv == "PASS" { passes + 1 } else { 0 };
                    color = if color == "black" { "white" } else { "black" };
                    if mv != "PASS" && rng.below(10) == 0 {
                        for e in [&mut ours, &mut gnugo] {
                            e.ask("undo").unwrap();
                        }
                        undos += 1;
                        color = if color == "black" { "white" } else { "black" };
                        for p in 0..size * size {
                            for c in ["black", "white"] {
                                let q = format!("is_legal {c} {}", vertex(size, p));
                                assert_eq!(
                                    ours.ask(&q),
                                    gnugo.ask(&q),
                                    "game {game}, after undo: {q}\n{}",
                                    ours.ask("showboard").unwrap()
                                );
                            }
                        }
                    }
                }
                let a = ours.ask("final_score").unwrap();
                let b = gnugo.ask("final_score").unwrap();
                assert_eq!(
                    a,
                    b,
                    "game {game}, komi {komi}:\n{}",
                    ours.ask("showboard").unwrap()
                );
                results.insert(a);
            }
            eprintln!("24 games, {undos} undos, scores {results:?}");
            assert!(undos >= 20, "{undos} undos");
            // Wins for both colours, and at least one game where komi
            // decided the sign.
            assert!(results.iter().any(|r| r.starts_with('B')), "{results:?}");
            assert!(results.iter().any(|r| r.starts_with('W')), "{results:?}");
        }

        #[test]
        fn no_ko_rule() {
            agree(&["go", "--ko", "none"], &["--no-ko", "--forbid-suicide"], 5);
        }
    }
}
