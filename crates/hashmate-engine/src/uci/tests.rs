//! The UCI engine's unit tests: positions, options, the history's keys.

use super::*;

#[test]
fn bad_position_keeps_state() {
    let mut e = Engine::new().unwrap();
    e.set_position(None, &["e2e4".into()]).unwrap();
    let before = e.position.clone();
    assert!(e
        .set_position(None, &["e2e4".into(), "e2e4".into()])
        .is_err());
    assert!(e
        .set_position(Some("8/8/8/8/8/8/8/8 w - - 0 1"), &[])
        .is_err());
    assert_eq!(e.position, before);
    assert_eq!(e.history.len(), 2);
}

/// The history holds repetition keys: after ...d5 the e5 pawn is
/// pinned and may not take en passant, so the position four plies
/// later is the same (FIDE 9.2), though its Polyglot key differs.
#[test]
fn history_holds_repetition_keys() {
    let mut e = Engine::new().unwrap();
    let moves = ["d7d5", "a5a4", "h8g8", "a4a5", "g8h8"].map(String::from);
    e.set_position(Some("7k/3p4/8/K3P2r/8/8/1R6/1Q6 b - - 0 1"), &moves)
        .unwrap();
    assert_eq!(e.history.len(), 6);
    assert_eq!(e.history[1], e.history[5]);
    let after_push = Position::from_fen("7k/8/8/K2pP2r/8/8/1R6/1Q6 w - d6 0 2").unwrap();
    assert_ne!(after_push.key(), e.position.key());
    assert_eq!(e.history[1], after_push.repetition_key());
}

/// `Skill Level` limits the strength while `UCI_LimitStrength` is off;
/// with it on, `UCI_Elo` decides, as in Stockfish.
#[test]
fn skill_level_and_uci_elo() {
    let mut e = Engine::new().unwrap();
    assert_eq!(e.options.strength(), None);
    e.set_option("Skill Level", Some("0")).unwrap();
    assert_eq!(e.options.strength().map(Strength::elo), Some(1320));
    e.set_option("Skill Level", Some("10")).unwrap();
    assert_eq!(e.options.strength().map(Strength::elo), Some(2160));
    e.set_option("UCI_LimitStrength", Some("true")).unwrap();
    e.set_option("UCI_Elo", Some("2500")).unwrap();
    assert_eq!(e.options.strength().map(Strength::elo), Some(2500));
    e.set_option("UCI_Elo", Some("3000")).unwrap();
    assert_eq!(e.options.strength(), None);
    e.set_option("UCI_LimitStrength", Some("false")).unwrap();
    e.set_option("Skill Level", Some("20")).unwrap();
    assert_eq!(e.options.strength(), None);
    assert!(e.set_option("Skill Level", Some("21")).is_err());
    assert!(e.set_option("Skill Level", Some("-1")).is_err());
}

#[test]
fn options_validate() {
    let mut e = Engine::new().unwrap();
    assert!(e.set_option("Hash", Some("0")).is_err());
    assert!(e.set_option("Hash", Some("lots")).is_err());
    assert!(e.set_option("Hash", Some("32")).is_ok());
    assert_eq!(e.shared.tt.bytes(), 32 << 20);
    assert!(e.set_option("Threads", Some("257")).is_err());
    assert!(e.set_option("threads", Some("2")).is_ok());
    assert!(e.set_option("UCI_Chess960", Some("maybe")).is_err());
    assert!(e.set_option("Nonsense", Some("1")).is_err());
    assert_eq!(e.options.threads, 2);
}

#[test]
fn the_version_names_the_backend() {
    assert!(VERSION.contains(hashmate::DEFAULT_BACKEND), "{VERSION}");
}
