//! The board's tests: captures, suicide, simple ko and both superkos on
//! hand-made sequences and random games, keys against a recomputation.

use super::*;

use hashmate_hash::rng::SplitMix64;

fn board(size: usize, ko: KoRule) -> GoBoard {
    GoBoard::new(size, Rules { ko, suicide: false }).unwrap()
}

/// A point from a vertex like `C3` (letters skip I), `None` for `pass`.
fn v(b: &GoBoard, s: &str) -> Option<usize> {
    if s == "pass" {
        return None;
    }
    let letter = s.as_bytes()[0];
    let col = (letter - b'A') as usize - usize::from(letter > b'I');
    let row: usize = s[1..].parse().unwrap();
    Some(b.point(col, row - 1).unwrap())
}

fn play(b: &mut GoBoard, moves: &[&str]) {
    for m in moves {
        let color = b.to_move();
        match v(b, m) {
            Some(p) => b.try_play(color, p).unwrap_or_else(|e| panic!("{m}: {e}")),
            None => b.pass(),
        }
    }
}

/// A random legal move, or `None` when there is none.
fn random_move(b: &GoBoard, color: Stone, rng: &mut SplitMix64) -> Option<usize> {
    let n = b.size() * b.size();
    let start = rng.below(n as u64) as usize;
    (0..n)
        .map(|i| (start + i) % n)
        .find(|&p| b.is_legal(color, p))
}

#[test]
fn captures_and_keys() {
    let mut b = board(5, KoRule::Simple);
    play(&mut b, &["B2", "A2", "C1", "B1", "A1"]);
    // Black's A1 captures nothing: White B1? B1 has liberties? B1 is
    // surrounded by A1 (black), C1 (black), B2 (black): captured.
    assert_eq!(b.at(v(&b, "B1").unwrap()), None);
    assert_eq!(b.captures(Stone::Black), 1);
    assert_eq!(b.key(), b.compute_key());
}

#[test]
fn simple_ko_and_superko() {
    // A ko on a 4x4 board: Black takes at B2... use a classic shape.
    let mut b = board(5, KoRule::Simple);
    play(
        &mut b,
        &["B1", "C1", "A2", "D2", "B3", "C3", "pass", "B2", "C2"],
    );
    // Black C2 captured White B2; White may not retake at B2 at once.
    let b2 = v(&b, "B2").unwrap();
    assert_eq!(b.check(Stone::White, b2), Err(IllegalMoveError::Ko));
    play(&mut b, &["E5", "E4"]);
    assert!(
        b.is_legal(Stone::White, b2),
        "after a ko threat exchange the ko may be retaken"
    );
    let mut p = board(5, KoRule::PositionalSuperko);
    play(
        &mut p,
        &["B1", "C1", "A2", "D2", "B3", "C3", "pass", "B2", "C2"],
    );
    assert_eq!(
        p.check(Stone::White, b2),
        Err(IllegalMoveError::PositionalSuperko)
    );
}

/// Three kos side by side on a 13×13 board (rows 1–3, 5–7, 9–11).
/// Each is the shape: Black B1 A2 B3, White C1 D2 C3, plus either a
/// White stone on B2 (Black may take at C2) or a Black stone on C2
/// (White may take at B2).
fn triple_ko(ko: KoRule) -> (GoBoard, [usize; 3], [usize; 3]) {
    let mut b = board(13, ko);
    let at = |b: &GoBoard, col: usize, row: usize| b.point(col, row).unwrap();
    let mut b2 = [0; 3];
    let mut c2 = [0; 3];
    for (i, o) in [0usize, 4, 8].into_iter().enumerate() {
        for (c, r) in [(1, 0), (0, 1), (1, 2)] {
            let p = at(&b, c, o + r);
            b.try_play(Stone::Black, p).unwrap();
        }
        for (c, r) in [(2, 0), (3, 1), (2, 2)] {
            let p = at(&b, c, o + r);
            b.try_play(Stone::White, p).unwrap();
        }
        b2[i] = at(&b, 1, o + 1);
        c2[i] = at(&b, 2, o + 1);
    }
    // Start: kos 1 and 3 hold a White stone, ko 2 a Black stone.
    b.try_play(Stone::White, b2[0]).unwrap();
    b.try_play(Stone::Black, c2[1]).unwrap();
    b.try_play(Stone::White, b2[2]).unwrap();
    b.set_to_move(Stone::Black);
    (b, b2, c2)
}

#[test]
fn triple_ko_cycle() {
    // B takes ko 1, W ko 2, B ko 3, W ko 1, B ko 2, W ko 3: the sixth
    // capture recreates the start with Black to move.
    for ko in [
        KoRule::Simple,
        KoRule::PositionalSuperko,
        KoRule::SituationalSuperko,
    ] {
        let (mut b, b2, c2) = triple_ko(ko);
        let start = b.key();
        let cycle = [
            (Stone::Black, c2[0]),
            (Stone::White, b2[1]),
            (Stone::Black, c2[2]),
            (Stone::White, b2[0]),
            (Stone::Black, c2[1]),
        ];
        for (c, p) in cycle {
            b.try_play(c, p).unwrap_or_else(|e| panic!("{ko:?}: {e}"));
        }
        let last = b.check(Stone::White, b2[2]);
        match ko {
            // Not an immediate recapture: simple ko allows the cycle.
            KoRule::Simple => {
                b.try_play(Stone::White, b2[2]).unwrap();
                assert_eq!(b.key(), start);
            }
            KoRule::PositionalSuperko => {
                assert_eq!(last, Err(IllegalMoveError::PositionalSuperko))
            }
            _ => assert_eq!(last, Err(IllegalMoveError::SituationalSuperko)),
        }
    }
}

/// Plays `moves` (Black first) under `ko` and returns the verdict on
/// the last one.
fn last_move_verdict(size: usize, ko: KoRule, moves: &str) -> Result<(), IllegalMoveError> {
    let mut b = board(size, ko);
    let list: Vec<&str> = moves.split(' ').collect();
    let (last, prefix) = list.split_last().unwrap();
    play(&mut b, prefix);
    let p = v(&b, last).unwrap();
    let verdict = b.check(b.to_move(), p);
    if verdict.is_ok() {
        b.try_play(b.to_move(), p).unwrap();
        assert_eq!(b.key(), b.compute_key());
    }
    verdict
}

/// Sending two, returning one (found by searching random 4×4 games for
/// three-move cycles with captures 0, 2, 1): Black throws in (D4),
/// White captures two (D2), Black retakes one (D3) and the board is as
/// three moves earlier — with the other player to move. Simple ko does
/// not apply (the retake captures one stone that had captured two);
/// positional superko forbids it; situational superko allows it, since
/// that board was seen only with Black to move.
#[test]
fn sending_two_returning_one() {
    let moves = "D1 D2 A3 A2 D4 B4 C2 B2 B1 B3 C1 C3 D3 A4 C4 D2 D3 C4 D4 D2 D3";
    let positional = Err(IllegalMoveError::PositionalSuperko);
    assert_eq!(verdicts(moves), [Ok(()), Ok(()), positional, Ok(())]);
}

/// The last move's verdict under each rule of [`KoRule::ALL`], on 4×4.
fn verdicts(moves: &str) -> Vec<Result<(), IllegalMoveError>> {
    KoRule::ALL
        .iter()
        .map(|&ko| last_move_verdict(4, ko, moves))
        .collect()
}

/// A four-move cycle of mutual two-stone captures, the eternal-life
/// pattern (found by searching random 4×4 games for four-move cycles
/// with no single-stone capture): each side throws in and captures
/// two. No move is a ko recapture, so simple ko allows the cycle
/// forever; both superko rules stop it at the repetition.
#[test]
fn mutual_two_stone_capture_cycle() {
    let moves = "D2 B4 D1 C3 C4 D3 A4 A2 B2 C2 B1 D4 A3 B3 A4 A1 A3 A2";
    let positional = Err(IllegalMoveError::PositionalSuperko);
    let situational = Err(IllegalMoveError::SituationalSuperko);
    assert_eq!(verdicts(moves), [Ok(()), Ok(()), positional, situational]);
}

#[test]
fn suicide_rules() {
    let mut b = board(3, KoRule::Simple);
    play(&mut b, &["B1", "pass", "A2"]);
    let a1 = v(&b, "A1").unwrap();
    assert_eq!(b.check(Stone::White, a1), Err(IllegalMoveError::Suicide));
    let mut s = GoBoard::new(
        3,
        Rules {
            ko: KoRule::Simple,
            suicide: true,
        },
    )
    .unwrap();
    play(&mut s, &["B1", "pass", "A2"]);
    s.try_play(Stone::White, a1).unwrap();
    assert_eq!(s.at(a1), None);
    assert_eq!(s.key(), s.compute_key());
}

#[test]
fn sizes_and_points() {
    let b = board(19, KoRule::Simple);
    assert_eq!(b.point(18, 18), Some(360));
    assert_eq!(b.point(19, 0), None);
    assert_eq!(b.at(361), None);
    assert_eq!(b.check(Stone::Black, 361), Err(IllegalMoveError::OffBoard));
    assert_eq!(GoBoard::new(1, Rules::default()).err(), Some(SizeError(1)));
    assert_eq!(
        GoBoard::new(26, Rules::default()).err(),
        Some(SizeError(26))
    );
    assert_eq!(
        GoBoard::new(usize::MAX, Rules::default()).err(),
        Some(SizeError(usize::MAX))
    );
}

/// The capturer may fill its own ko point at once; only the captured
/// colour's immediate retake is forbidden — whoever the board thinks is
/// to move (GTP lets either colour play or ask).
#[test]
fn the_capturer_may_fill_its_ko_point() {
    let mut b = board(5, KoRule::Simple);
    for (c, m) in [
        (Stone::Black, "B3"),
        (Stone::Black, "A2"),
        (Stone::Black, "B1"),
        (Stone::White, "C3"),
        (Stone::White, "D2"),
        (Stone::White, "C1"),
        (Stone::White, "B2"),
        (Stone::Black, "C2"),
    ] {
        b.try_play(c, v(&b, m).unwrap()).unwrap();
    }
    let b2 = v(&b, "B2").unwrap();
    assert_eq!(b.check(Stone::White, b2), Err(IllegalMoveError::Ko));
    assert_eq!(b.check(Stone::Black, b2), Ok(()));
    b.set_to_move(Stone::Black);
    assert_eq!(b.check(Stone::Black, b2), Ok(()));
    assert_eq!(b.check(Stone::White, b2), Err(IllegalMoveError::Ko));
}

#[test]
fn random_games_keep_keys_exact() {
    let mut rng = SplitMix64::new(3);
    for ko in [
        KoRule::Simple,
        KoRule::PositionalSuperko,
        KoRule::SituationalSuperko,
    ] {
        let mut b = board(9, ko);
        for _ in 0..300 {
            let c = b.to_move();
            match random_move(&b, c, &mut rng) {
                Some(p) => b.try_play(c, p).unwrap(),
                None => b.pass(),
            }
            assert_eq!(b.key(), b.compute_key());
        }
    }
}

#[test]
fn area_score_counts_stones_and_single_coloured_regions() {
    // Alternating moves (Black first), no capture:
    //   4  X X O .        X: 6 stones, a3 and a1 enclosed: 8
    //   3  . X O O        O: 6 stones, d4 and d2 enclosed: 8
    //   2  X X O .
    //   1  . X O O
    let mut b = board(4, KoRule::PositionalSuperko);
    play(
        &mut b,
        &[
            "A4", "C4", "B4", "C3", "B3", "D3", "A2", "C2", "B2", "C1", "B1", "D1",
        ],
    );
    assert_eq!(b.area_score(), [8, 8]);
    // An empty file between the colours belongs to nobody (dame):
    //   4  X . O O        X: 4 stones, nothing enclosed: 4
    //   3  X . O .        O: 6 stones, d3 and d1 enclosed: 8
    //   2  X . O O
    //   1  X . O .
    let mut b = board(4, KoRule::PositionalSuperko);
    play(
        &mut b,
        &[
            "A4", "C4", "A3", "D4", "A2", "C3", "A1", "C2", "pass", "D2", "pass", "C1",
        ],
    );
    assert_eq!(b.area_score(), [4, 8]);
    // The empty board: one region touching no stone, nobody's.
    assert_eq!(board(9, KoRule::None).area_score(), [0, 0]);
    // Captured stones leave the count with the board.
    let mut b = board(3, KoRule::None);
    play(&mut b, &["B2", "A1", "A2", "pass", "B1"]);
    assert_eq!(b.at(v(&b, "A1").unwrap()), None);
    assert_eq!(b.area_score(), [9, 0]);
}
