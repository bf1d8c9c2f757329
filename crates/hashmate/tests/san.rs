//! `Position::parse_san` tries only the pieces that can reach the target
//! square; this checks it against the plain definition — generate every
//! legal move and keep those the SAN describes — on the positions of random
//! games, for every legal move's SAN, its lenient spellings and a stream of
//! near-miss tokens (wrong piece, wrong square, missing or extra
//! disambiguation, promotions on the wrong rank, garbage).

use hashmate::{CastlingSide, File, Move, MoveParseError, Position, Rank, Role, Square};

/// The definition: filter the full legal move list.
fn parse_by_generation(pos: &Position, san: &str) -> Result<Move, &'static str> {
    let mut t = san.trim_end_matches(['+', '#', '!', '?', '-', '=']);
    while let Some(rest) = t.strip_suffix("e.p.") {
        t = rest;
    }
    let t = t.trim_end().trim_end_matches(['+', '#', '!', '?']);
    let legal = pos.legal_moves();
    if matches!(t, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
        let side = if t.len() == 5 {
            CastlingSide::Long
        } else {
            CastlingSide::Short
        };
        return legal
            .iter()
            .copied()
            .find(|&m| m.castling_side() == Some(side))
            .ok_or("illegal");
    }
    if !t.is_ascii() || t.len() < 2 {
        return Err("syntax");
    }
    let mut body = t.replace(['x', '-', ':'], "");
    if body.len() > 12 {
        return Err("syntax");
    }
    let mut promotion = None;
    if let Some(last) = body.chars().last() {
        if let Some(r) = Role::from_char(last).filter(|_| last.is_ascii_uppercase()) {
            if body.len() >= 3 && r != Role::Pawn && r != Role::King {
                promotion = Some(r);
                body.pop();
                if body.ends_with('=') {
                    body.pop();
                }
            }
        }
    }
    let (role, rest) = match body.chars().next() {
        Some(c @ ('N' | 'B' | 'R' | 'Q' | 'K')) => (Role::from_char(c).unwrap(), &body[1..]),
        _ => (Role::Pawn, &body[..]),
    };
    if rest.len() < 2 {
        return Err("syntax");
    }
    let to: Square = rest[rest.len() - 2..].parse().map_err(|_| "syntax")?;
    let (mut hf, mut hr) = (None, None);
    for c in rest[..rest.len() - 2].chars() {
        if let Some(f) = File::from_char(c) {
            hf = Some(f);
        } else if let Some(r) = Rank::from_char(c) {
            hr = Some(r);
        } else {
            return Err("syntax");
        }
    }
    let mut found = None;
    for &m in legal.iter() {
        if m.is_castling()
            || m.to() != to
            || m.promotion() != promotion
            || pos.role_at(m.from()) != Some(role)
            || hf.is_some_and(|f| m.from().file() != f)
            || hr.is_some_and(|r| m.from().rank() != r)
        {
            continue;
        }
        if found.replace(m).is_some() {
            return Err("ambiguous");
        }
    }
    found.ok_or("illegal")
}

fn kind(r: Result<Move, MoveParseError>) -> Result<Move, &'static str> {
    r.map_err(|e| match e {
        MoveParseError::Syntax(_) => "syntax",
        MoveParseError::Illegal(_) => "illegal",
        MoveParseError::Ambiguous(_) => "ambiguous",
    })
}

#[test]
fn parse_san_agrees_with_filtering_every_legal_move() {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "7Q/8/8/8/1k6/8/8/Q3K2Q w - - 0 1",
        "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
    ];
    let mut seed = 0x5a4e_2026u64;
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    };
    let alphabet: Vec<char> = "NBRQKPabcdefgh12345678x=+#O-0 ".chars().collect();
    let mut tokens_checked = 0;
    for fen in starts {
        for _ in 0..12 {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..60 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mut tokens: Vec<String> = Vec::new();
                for &m in legal.iter() {
                    let san = pos.to_san(m).unwrap();
                    tokens.push(san.replace('x', ""));
                    tokens.push(san.replace('=', ""));
                    tokens.push(format!("{san}!?"));
                    // Full disambiguation and a wrong one.
                    let from = m.from().to_string();
                    if let Some(role) = pos.role_at(m.from()).filter(|&r| r != Role::Pawn) {
                        let letter = role.char().to_ascii_uppercase();
                        tokens.push(format!("{letter}{from}{}", m.to()));
                        tokens.push(format!("{letter}h1{}", m.to()));
                    }
                    tokens.push(san);
                }
                for _ in 0..40 {
                    let len = 1 + next(7);
                    tokens.push((0..len).map(|_| alphabet[next(alphabet.len())]).collect());
                }
                for t in &tokens {
                    assert_eq!(
                        kind(pos.parse_san(t)),
                        parse_by_generation(&pos, t),
                        "{t:?} in {}",
                        pos
                    );
                    tokens_checked += 1;
                }
                pos.play_unchecked(legal[next(legal.len())]);
            }
        }
    }
    assert!(tokens_checked > 100_000, "{tokens_checked}");
}
