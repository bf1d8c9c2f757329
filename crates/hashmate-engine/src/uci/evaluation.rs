//! The `eval` command: the static evaluations of a position, each from
//! White's side, as Stockfish's `eval` prints them — so that an engine
//! author can see what the search starts from, and a script that reads
//! Stockfish's `Final evaluation` line reads ours.

use crate::eval::{self, lone_king, wdl, PawnTable};
use hashmate::{Color, Position};
use hashmate_nnue::Network;

/// The report for `pos` (the UCI `eval` command's and `hashmate eval`'s):
/// the classical evaluation, the network's (when there is one) and the one
/// the search uses, with the win/draw/loss model's estimate for it.
/// `network` is the loaded net and its name, `use_nnue` whether it plays.
pub fn report(pos: &Position, network: Option<(&Network, &str)>, use_nnue: bool) -> String {
    let white = |v: i32| {
        if pos.side_to_move() == Color::White {
            v
        } else {
            -v
        }
    };
    let mut out = String::new();
    let mut line = |label: &str, v: i32, note: &str| {
        out.push_str(&format!(
            "{label:<22} {} (white side){note}\n",
            pawns(white(v))
        ));
    };
    let classical = PawnTable::new(1).map(|mut t| eval::evaluate(pos, &mut t));
    if let Ok(v) = classical {
        line("Classical evaluation", v, "");
    }
    let net = network.map(|(net, name)| (net.evaluate(pos), net, name));
    if let Some((v, net, name)) = &net {
        let bucket = net.bucket_of(pos);
        let about = hashmate_data::net::describe(name, net);
        line(
            "NNUE evaluation",
            *v,
            &format!(
                " [output bucket {} of {}; {about}]",
                bucket + 1,
                net.buckets()
            ),
        );
    }
    let dead = pos.is_insufficient_material();
    let (v, why) = match (lone_king::evaluate(pos), &net, classical) {
        _ if dead => (0, "neither side can mate: a draw, as the search scores it"),
        (Some(v), _, _) => (v, "a won ending against a lone king, by rule"),
        (None, Some((v, _, _)), _) if use_nnue => (*v, "the network's (UseNNUE true)"),
        (None, _, Ok(v)) if !use_nnue => (v, "the classical one (UseNNUE false)"),
        (None, _, Ok(v)) => (v, "the classical one (no network could be loaded)"),
        (None, _, Err(_)) => {
            out.push_str("Final evaluation       none (no memory for the pawn table)\n");
            return out;
        }
    };
    line("Final evaluation", v, &format!(" [{why}]"));
    let [w, d, l] = wdl::MODEL.per_mille(f64::from(white(v)), wdl::material(pos));
    out.push_str(&format!(
        "{:<22} {w} {d} {l} per mille (white side), the fitted model's\n",
        "Win/draw/loss"
    ));
    out
}

/// Centipawns as pawns with a sign and two decimals: `+0.34`, `-1.05`.
fn pawns(cp: i32) -> String {
    let sign = if cp < 0 { '-' } else { '+' };
    let cp = cp.unsigned_abs();
    format!("{sign}{}.{:02}", cp / 100, cp % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line of `report` that starts with `label`.
    fn line<'a>(report: &'a str, label: &str) -> &'a str {
        report
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no {label} in {report}"))
    }

    #[test]
    fn pawns_are_signed_with_two_decimals() {
        assert_eq!(pawns(34), "+0.34");
        assert_eq!(pawns(-105), "-1.05");
        assert_eq!(pawns(0), "+0.00");
        assert_eq!(pawns(-7), "-0.07");
    }

    #[test]
    fn the_final_line_is_the_evaluation_that_plays_from_white_side() {
        let net = hashmate_data::net::embedded().unwrap();
        // White a queen up, Black to move: White's side is positive.
        let pos: Position = "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
            .parse()
            .unwrap();
        let with_net = report(&pos, Some((&net, "<internal>")), true);
        let final_line = line(&with_net, "Final evaluation");
        let value = |l: &str| l.split_whitespace().nth(2).unwrap().parse::<f64>().unwrap();
        assert!(value(final_line) > 5.0, "{with_net}");
        assert_eq!(value(final_line), value(line(&with_net, "NNUE evaluation")));
        assert!(
            final_line.contains("(white side) [the network's"),
            "{with_net}"
        );
        let classical = report(&pos, Some((&net, "<internal>")), false);
        let c_final = value(line(&classical, "Final evaluation"));
        assert_eq!(c_final, value(line(&classical, "Classical evaluation")));
        assert!(c_final > 5.0, "{classical}");
        // The win/draw/loss estimate is White's too.
        let wdl: Vec<u32> = line(&with_net, "Win/draw/loss")
            .split_whitespace()
            .skip(1)
            .take(3)
            .map(|x| x.parse().unwrap())
            .collect();
        assert!(
            wdl[0] > 900 && wdl.iter().sum::<u32>() == 1000,
            "{with_net}"
        );
        // Without a network, only the classical evaluation.
        let none = report(&pos, None, true);
        assert!(!none.contains("NNUE"), "{none}");
        assert!(
            none.contains("[the classical one (no network could be loaded)]"),
            "{none}"
        );
    }

    #[test]
    fn a_lone_king_ending_and_a_dead_draw_say_so() {
        let pos: Position = "8/8/4k3/8/8/8/8/KQ6 w - - 0 1".parse().unwrap();
        let r = report(&pos, None, true);
        assert!(r.contains("a won ending against a lone king"), "{r}");
        let net = hashmate_data::net::embedded().unwrap();
        let pos: Position = "8/8/4k3/8/8/2N5/8/4K3 b - - 0 1".parse().unwrap();
        let r = report(&pos, Some((&net, "<internal>")), true);
        assert!(
            r.contains("Final evaluation       +0.00 (white side) [neither side can mate"),
            "{r}"
        );
    }
}
