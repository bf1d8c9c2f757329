//! The streaming reader (`PgnStream`) gives exactly what the text reader
//! (`PgnReader`) gives on the whole input — the same games, the same
//! errors on the same lines — over random concatenations of tricky pieces
//! of PGN, read through buffers as small as one byte.

use hashmate::pgn::{PgnReader, PgnStream};
use std::io::BufReader;

const PIECES: &[&str] = &[
    "[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n",
    "[Event \"B\"]\n\n1. d4 {a comment\n[that looks like a tag] still the comment} d5 *\n\n",
    "1. c4 e5 2. Nc3 1/2-1/2\n",
    "junk line that is not a game\n",
    "[Event \"Broken\"]\n\n1. e4 e5 2. Ke3 *\n\n",
    "[Event \"Open\"]\n\n1. e4 (1. d4 d5\n\n",
    "[Event \"Semi\"]\n\n1. e4 ; a [comment {\n1... e5 *\n",
    "[Event \"NoResult\"]\n\n1. f4 e5\n",
    "[Event \"Latin é\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 *\n",
    "[BadTag without quote]\n\n1. e4 *\n",
    "\n\n   \n",
    "% an escape line\n[Event \"Esc\"]\n\n1. g4 $2 e5?? 2. f3?? Qh4# 0-1\n\n",
    "[Event \"Two\"] [Site \"same line\"]\n1. e4 *\n",
    "{lead comment} 1. b3 *\n",
    ")\n",
];

fn describe<E: std::fmt::Debug, G: std::fmt::Debug>(
    items: impl Iterator<Item = Result<G, E>>,
) -> Vec<String> {
    items.map(|r| format!("{r:?}")).collect()
}

#[test]
fn the_stream_reads_as_the_text_reader_does() {
    let mut seed = 20_261_126u64;
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    };
    for case in 0..400 {
        let mut bytes: Vec<u8> = Vec::new();
        if case % 7 == 0 {
            bytes.extend_from_slice("\u{feff}".as_bytes());
        }
        for _ in 0..1 + next(8) {
            bytes.extend_from_slice(PIECES[next(PIECES.len())].as_bytes());
        }
        // Latin-1 bytes are not UTF-8: both readers see replacement
        // characters.
        let bytes: Vec<u8> = bytes
            .iter()
            .flat_map(|&b| if b == 0xc3 { vec![0xe9] } else { vec![b] })
            .collect();
        let text = String::from_utf8_lossy(&bytes);
        for annotations in [false, true] {
            let whole = if annotations {
                describe(PgnReader::new(&text).with_annotations())
            } else {
                describe(PgnReader::new(&text))
            };
            for capacity in [1, 3, 64, 8192] {
                let input = BufReader::with_capacity(capacity, &bytes[..]);
                let streamed = if annotations {
                    describe(PgnStream::new(input).with_annotations())
                } else {
                    describe(PgnStream::new(input))
                };
                assert_eq!(streamed, whole, "case {case}, capacity {capacity}:\n{text}");
            }
        }
    }
}

#[test]
fn bytes_read_reaches_the_input_length() {
    let text = PIECES.concat();
    let mut stream = PgnStream::new(text.as_bytes());
    let n = stream.by_ref().count();
    assert!(n > 10);
    assert_eq!(stream.bytes_read(), text.len() as u64);
}
