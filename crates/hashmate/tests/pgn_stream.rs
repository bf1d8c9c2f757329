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
    // Indented tags: the reader takes tags after any whitespace before the
    // movetext (a fuzz find: the stream once cut a game at the second).
    " [Event \"Indented\"]\n\t[Site \"tab\"]  [Round \"1\"]\n1. a4 *\n",
    " [\"?\"]\n[te \"?\"]3\n",
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
        // Line breaks as `\n`, `\r\n` or a lone `\r` (old Mac files).
        let breaks: &[u8] = [&b"\n"[..], b"\r\n", b"\r"][case % 3];
        let bytes: Vec<u8> = bytes
            .iter()
            .flat_map(|&b| match b {
                0xc3 => vec![0xe9],
                b'\n' => breaks.to_vec(),
                b => vec![b],
            })
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

#[test]
fn every_kind_of_line_break_reads_the_same_games() {
    let lf = PIECES.concat();
    let expected = describe(PgnStream::new(lf.as_bytes()));
    assert!(expected.len() > 10);
    for breaks in ["\r\n", "\r"] {
        let text = lf.replace('\n', breaks);
        assert_eq!(
            describe(PgnStream::new(text.as_bytes())),
            expected,
            "{breaks:?}"
        );
        assert_eq!(describe(PgnReader::new(&text)), expected, "{breaks:?}");
    }
    // Mixed in one file, a lone `\r` at a buffer's end included.
    let mixed = "[Event \"A\"]\r\r1. e4 e5 1-0\r\n\r\n[Event \"B\"]\n\n1. d4 d5 0-1\r";
    let games: Vec<_> = PgnStream::new(BufReader::with_capacity(1, mixed.as_bytes()))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!((games[0].line, games[1].line), (1, 5));
}

/// `len` bytes of `fill` after `head` and before `tail`, made as they are
/// read (nothing held in memory).
struct Generated {
    parts: Vec<(Vec<u8>, u64)>,
    at: usize,
    done: u64,
}

impl std::io::Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while let Some((bytes, times)) = self.parts.get(self.at) {
            let total = bytes.len() as u64 * times;
            if self.done == total {
                self.at += 1;
                self.done = 0;
                continue;
            }
            let mut n = 0;
            while n < buf.len() && self.done < total {
                buf[n] = bytes[(self.done % bytes.len() as u64) as usize];
                n += 1;
                self.done += 1;
            }
            return Ok(n);
        }
        Ok(0)
    }
}

#[test]
fn a_huge_comment_is_skipped_in_bounded_memory() {
    // 96 MiB of comment, once on one line and once over many lines, in the
    // second of three games: more than the 64 MiB a game may hold, so that
    // game is reported and skipped, and the games around it are read.
    use hashmate::pgn::stream::{MAX_GAME_BYTES, MAX_PIECE_BYTES};
    let size: u64 = 96 << 20;
    for filler in [
        &b"abcdefgh"[..],
        b"a line of comment text [with a bracket]\n",
    ] {
        let parts = vec![
            (
                b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"Huge\"]\n\n1. d4 {".to_vec(),
                1,
            ),
            (filler.to_vec(), size / filler.len() as u64),
            (b"} d5 0-1\n\n[Event \"C\"]\n\n1. c4 *\n".to_vec(), 1),
        ];
        let input = BufReader::new(Generated {
            parts,
            at: 0,
            done: 0,
        });
        let mut stream = PgnStream::new(input);
        let mut seen = Vec::new();
        for game in stream.by_ref() {
            seen.push(match game {
                Ok(g) => g.tag("Event").unwrap_or("").to_string(),
                Err(e) => e.to_string(),
            });
        }
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert_eq!(seen[0], "A");
        assert!(seen[1].contains("game longer than 64 MiB"), "{seen:?}");
        assert_eq!(seen[2], "C");
        assert!(
            stream.bytes_read() > size,
            "{} bytes read",
            stream.bytes_read()
        );
        assert!(stream.peak_buffer_bytes() <= MAX_GAME_BYTES + 2 * MAX_PIECE_BYTES);
    }
}
