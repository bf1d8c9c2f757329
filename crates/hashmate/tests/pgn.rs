//! PGN out and in: games written by `Game::to_pgn` / `PgnGame::to_pgn` read
//! back the same (moves, tags, comments, NAGs, variations), in export
//! format (Seven Tag Roster first, lines under 80 characters, escaped tag
//! values); and against python-chess both ways (`pgn_oracle.py`).

mod common;
use hashmate::pgn::{GameResult, PgnReader};
use hashmate::{CastlingMode, Game, Position};

/// A seeded random game of up to `plies` plies from `start`.
fn random_game(start: Position, plies: usize, seed: &mut u64) -> Game {
    let mut game = Game::new(start);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mv = moves[(*seed >> 33) as usize % moves.len()];
        game.try_play(mv).unwrap();
    }
    game
}

fn check_export_format(pgn: &str) {
    for line in pgn.lines() {
        assert!(
            line.chars().count() < 80,
            "line of {} chars: {line}",
            line.len()
        );
    }
    let names: Vec<&str> = pgn
        .lines()
        .take(7)
        .map(|l| l.trim_start_matches('[').split(' ').next().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    );
}

#[test]
fn written_games_read_back_the_same() {
    let mut seed = 7;
    let starts = [
        Position::startpos(),
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 20")
            .unwrap(),
        Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap(),
    ];
    let tags = [
        ("White", "Anna \"the Rook\" O\\Brien"),
        ("Black", "Bo"),
        ("Event", "Round-trip"),
        ("Opening", "Random"),
    ];
    let mut text = String::new();
    let mut games = Vec::new();
    for i in 0..60 {
        let game = random_game(starts[i % 3].clone(), 30 + i * 7, &mut seed);
        let pgn = game.to_pgn(&tags);
        check_export_format(&pgn);
        text += &pgn;
        games.push(game);
    }
    let read: Vec<_> = PgnReader::new(&text).map(Result::unwrap).collect();
    assert_eq!(read.len(), games.len());
    for (game, back) in games.iter().zip(&read) {
        assert_eq!(back.moves, game.moves());
        assert_eq!(&back.start, game.start());
        assert_eq!(back.tag("White"), Some(tags[0].1));
        assert_eq!(back.tag("Opening"), Some("Random"));
        let standard = *game.start() == Position::startpos();
        assert_eq!(back.tag("SetUp").is_some(), !standard);
        assert_eq!(Game::from_pgn(back).unwrap(), *game);
        let expected = match game.outcome() {
            Some(hashmate::Outcome::Checkmate {
                winner: hashmate::Color::White,
            }) => GameResult::WhiteWins,
            Some(hashmate::Outcome::Checkmate { .. }) => GameResult::BlackWins,
            Some(hashmate::Outcome::Draw(_)) => GameResult::Draw,
            None => GameResult::Unknown,
        };
        assert_eq!(back.result, expected);
        // Written again: the same text.
        assert_eq!(back.to_pgn(), game.to_pgn(&tags));
    }
}

#[test]
fn annotations_survive_a_round_trip() {
    let text = r#"[Event "Annotated"]
[Site "?"]
[Date "2026.11.26"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]
[ECO "C50"]

{The Italian} 1. e4 e5 2. Nf3 $1 {developing} (2. f4 exf4 (2... d5) 3. Nf3)
2... Nc6 3. Bc4!? Bc5 ; a line comment
4. c3 Nf6?? 5. d4 exd4 6. cxd4 Bb4+ 7. Nc3 $14 1-0
"#;
    let game = PgnReader::new(text)
        .with_annotations()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(game.comment, ["The Italian"]);
    assert_eq!(game.notes[2].nags, [1]);
    assert_eq!(game.notes[2].comments, ["developing"]);
    let v = &game.notes[2].variations[0];
    assert_eq!(v.moves.len(), 3);
    assert_eq!(v.notes[1].variations[0].moves.len(), 1, "nested variation");
    assert_eq!(game.notes[4].nags, [5], "!? is NAG 5");
    assert_eq!(game.notes[5].comments, ["a line comment"]);
    assert_eq!(game.notes[7].nags, [4], "?? is NAG 4");
    assert_eq!(game.notes[12].nags, [14]);
    let written = game.to_pgn();
    check_export_format(&written);
    let again = PgnReader::new(&written)
        .with_annotations()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(again.moves, game.moves);
    assert_eq!(again.notes, game.notes);
    assert_eq!(again.comment, game.comment);
    assert_eq!(again.tags, game.tags);
    assert_eq!(again.to_pgn(), written, "writing is a fixed point");
    // Without annotations the same text gives the same main line.
    let plain = PgnReader::new(text).next().unwrap().unwrap();
    assert_eq!(plain.moves, game.moves);
    assert!(plain.notes.is_empty() && plain.comment.is_empty());
}

#[test]
fn illegal_moves_in_variations_are_errors_only_when_kept() {
    let text = "1. e4 (1. d4 Ke7) e5 *\n";
    assert!(PgnReader::new(text).next().unwrap().is_ok());
    let err = PgnReader::new(text)
        .with_annotations()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(err.to_string().contains("variation"), "{err}");
    let err = PgnReader::new("(1. e4) e5 *\n")
        .with_annotations()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(err.to_string().contains("before any move"), "{err}");
}

#[test]
fn play_san_and_from_pgn() {
    let mut game = Game::new(Position::startpos());
    for san in [
        "e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "d4", "c6", "Nf3", "Bg4",
    ] {
        game.play_san(san).unwrap();
    }
    assert!(game.play_san("Bb5+").is_ok());
    assert!(game.play_san("O-O").is_err(), "in check");
    assert_eq!(game.moves().len(), 11);
    let mut pgn = PgnReader::new(&game.to_pgn(&[])).next().unwrap().unwrap();
    assert_eq!(Game::from_pgn(&pgn).unwrap(), game);
    // A hand-made record with an illegal move names its ply.
    let e2e4 = Position::startpos().parse_uci("e2e4").unwrap();
    pgn.moves.insert(3, e2e4);
    let err = Game::from_pgn(&pgn).unwrap_err();
    assert_eq!(err.ply, 4);
}

/// One game of the oracle's description.
#[derive(Debug, Default, PartialEq)]
struct Described {
    headers: Vec<(String, String)>,
    comment: String,
    /// (uci, comment, nags, alternatives)
    plies: Vec<(String, String, String, String)>,
}

fn parse_described(text: &str) -> Vec<Described> {
    let mut out: Vec<Described> = Vec::new();
    for line in text.lines() {
        let (kind, rest) = line.split_at(1);
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        match kind {
            "G" => out.push(Described::default()),
            "H" => {
                let (k, v) = rest.split_once('\t').unwrap();
                out.last_mut().unwrap().headers.push((k.into(), v.into()));
            }
            "C" => out.last_mut().unwrap().comment = rest.into(),
            "P" => {
                let f: Vec<&str> = rest.split('\t').collect();
                out.last_mut().unwrap().plies.push((
                    f[0].into(),
                    f[1].into(),
                    f[2].into(),
                    f[3].into(),
                ));
            }
            "E" => panic!("python-chess could not read a game: {rest}"),
            _ => panic!("oracle line {line}"),
        }
    }
    out
}

/// What we read, described as the oracle describes.
fn describe(game: &hashmate::pgn::PgnGame) -> Described {
    let mut plies = Vec::new();
    for (i, &mv) in game.moves.iter().enumerate() {
        let notes = &game.notes[i];
        let mut nags = notes.nags.clone();
        nags.sort_unstable();
        let alternatives: Vec<String> = notes
            .variations
            .iter()
            .map(|v| v.moves[0].to_uci(CastlingMode::Standard).to_string())
            .collect();
        plies.push((
            mv.to_uci(CastlingMode::Standard).to_string(),
            notes
                .comments
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            nags.iter().map(u8::to_string).collect::<Vec<_>>().join(" "),
            alternatives.join(" "),
        ));
    }
    Described {
        headers: game.tags.clone(),
        comment: game.comment.join(" "),
        plies,
    }
}

fn oracle(args: &[&str]) -> Option<String> {
    common::python_chess_oracle(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pgn_oracle.py"),
        args,
    )
}

/// python-chess writes 200 random annotated games (comments, NAGs,
/// variations, set-up positions); we read the same.
#[test]
fn we_read_what_python_chess_writes() {
    let Some(out) = oracle(&["write", "200", "20261126"]) else {
        return;
    };
    let (pgn, described) = out.split_once("\n%%\n").unwrap();
    let expected = parse_described(described);
    let games: Vec<_> = PgnReader::new(pgn)
        .with_annotations()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(games.len(), expected.len());
    for (g, e) in games.iter().zip(&expected) {
        assert_eq!(&describe(g), e);
    }
}

/// We write 200 games (random, from several starts, annotated by reading
/// them through python-chess's export first); python-chess reads the same.
#[test]
fn python_chess_reads_what_we_write() {
    let Some(out) = oracle(&["write", "200", "11"]) else {
        return;
    };
    let (pgn, _) = out.split_once("\n%%\n").unwrap();
    let mut ours = String::new();
    let mut games = Vec::new();
    for g in PgnReader::new(pgn).with_annotations() {
        let mut g = g.unwrap();
        // A tag of ours. (Not one with `"` or `\`: python-chess 1.11
        // neither escapes them when writing nor unescapes them when
        // reading, as the PGN standard asks; our escaping is checked by
        // `written_games_read_back_the_same`.)
        g.tags.push(("Remark".into(), "a (paren) word".into()));
        let text = g.to_pgn();
        check_export_format(&text);
        ours += &text;
        games.push(g);
    }
    let dir = std::env::temp_dir().join(format!("hm-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ours.pgn");
    std::fs::write(&file, &ours).unwrap();
    let read = parse_described(&oracle(&["read", file.to_str().unwrap()]).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(read.len(), games.len());
    for (g, r) in games.iter().zip(&read) {
        let mut mine = describe(g);
        // python-chess lists SetUp/FEN where we put them; compare as sets.
        mine.headers.sort();
        let mut theirs = r.headers.clone();
        theirs.sort();
        assert_eq!(mine.plies, r.plies);
        assert_eq!(mine.comment, r.comment);
        for h in &mine.headers {
            assert!(theirs.contains(h), "{h:?} not in {theirs:?}");
        }
    }
}

/// A comment that mentions tag pairs (`[FEN "…"]`) is written so that no
/// line of it starts with `[`: the reader takes a line of tag pairs inside
/// a comment left open for the next game's tags (found by the `pgn` fuzz
/// target when that recovery came in). Wherever the line breaks fall, the
/// game reads back the same.
#[test]
fn comments_that_mention_tags_read_back_wherever_the_lines_break() {
    for filler in 0..90 {
        let words = "x ".repeat(filler);
        let text = format!("1. e4 {{{words}[FEN \"8/8\"] [Event \"e\"] end}} e5 *\n");
        let game = PgnReader::new(&text)
            .with_annotations()
            .next()
            .unwrap()
            .unwrap();
        let written = game.to_pgn();
        let body = written.split("\n\n").nth(1).unwrap();
        assert!(
            body.lines().all(|l| !l.trim_start().starts_with('[')),
            "{filler}: {written}"
        );
        let again = PgnReader::new(&written)
            .with_annotations()
            .next()
            .unwrap()
            .unwrap_or_else(|e| panic!("{filler}: {e}\n{written}"));
        assert_eq!(again.notes, game.notes, "{filler}");
    }
}
