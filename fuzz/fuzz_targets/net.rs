//! Network files (`EvalFile`, `hashmate eval --net`, `hashmate-train
//! --init`): any bytes are a network or an error naming the problem, never
//! a panic. The checksum is set right first, so that the fuzzer reaches
//! what lies behind it (the header's architecture, the king-bucket map,
//! the lengths); a network that reads writes a file that reads back the
//! same, and evaluates a position by refresh and by a move's update alike.
#![no_main]
use hashmate::Position;
use hashmate_nnue::{checksum, AccumulatorStack, Network};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    if bytes.len() >= 40 {
        let n = bytes.len() - 8;
        let sum = checksum(&bytes[..n]);
        bytes[n..].copy_from_slice(&sum.to_le_bytes());
    }
    let Ok(net) = Network::from_bytes(&bytes) else {
        return;
    };
    assert_eq!(Network::from_bytes(&net.to_bytes()).as_ref(), Ok(&net));
    let before = Position::startpos();
    let mut after = before.clone();
    let mv = before.legal_moves()[0];
    after.play_unchecked(mv);
    let mut stack = AccumulatorStack::new(&net, 2).expect("a small stack");
    stack.refresh(&net, 0, &before);
    stack.update(&net, 0, &before, &after);
    assert_eq!(stack.evaluate(&net, 1, &after), net.evaluate(&after));
});
