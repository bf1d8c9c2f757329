//! Syzygy table bytes: the first byte picks the table the rest of the input
//! stands in for (WDL or DTZ, pawnless or with pawns); the file is added
//! and probed in positions of its material. Every probe is a value the
//! format can hold (WDL −2 to 2; DTZ at most twice a 16-bit value) or an
//! error naming the file — never a panic, a hang or an allocation beyond
//! the limit. (A damaged file can still give a wrong value in range: the
//! files carry no checksum a probe could check cheaply.)
#![no_main]
use hashmate::Position;
use hashmate_syzygy::Tablebase;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

/// (file name, positions of its material).
const TABLES: [(&str, &[&str]); 6] = [
    (
        "KRvK.rtbw",
        &[
            "8/8/4k3/8/8/8/8/R3K3 w - - 0 1",
            "8/8/4k3/8/8/8/8/R3K3 b - - 0 1",
            "R7/8/8/8/8/8/2k5/K7 b - - 0 1",
        ],
    ),
    (
        "KRvK.rtbz",
        &[
            "8/8/4k3/8/8/8/8/R3K3 w - - 0 1",
            "8/8/4k3/8/8/8/8/R3K3 b - - 0 1",
            "7k/8/8/8/8/8/8/KR6 w - - 0 1",
        ],
    ),
    (
        "KQvK.rtbw",
        &[
            "8/8/4k3/8/8/8/8/Q3K3 w - - 0 1",
            "8/8/4k3/8/8/8/8/Q3K3 b - - 0 1",
        ],
    ),
    (
        "KPvK.rtbw",
        &[
            "8/8/4k3/8/8/8/4P3/4K3 w - - 0 1",
            "8/8/4k3/8/8/8/P7/4K3 b - - 0 1",
            "8/4k3/8/8/3P4/8/8/3K4 w - - 0 1",
        ],
    ),
    (
        "KPvK.rtbz",
        &[
            "8/8/4k3/8/8/8/4P3/4K3 w - - 0 1",
            "8/8/4k3/8/8/8/P7/4K3 b - - 0 1",
            "8/4k3/8/8/3P4/8/8/3K4 b - - 0 1",
        ],
    ),
    (
        "KBvKN.rtbw",
        &[
            "8/8/4k3/2n5/8/8/8/B3K3 w - - 0 1",
            "8/8/4k3/2n5/8/8/8/B3K3 b - - 0 1",
        ],
    ),
];

/// The real WDL table beside a fuzzed DTZ one, which a DTZ probe needs.
const KRVK_WDL: &[u8] = include_bytes!("../../crates/hashmate-syzygy/tests/data/syzygy/KRvK.rtbw");
const KPVK_WDL: &[u8] = include_bytes!("../../crates/hashmate-syzygy/tests/data/syzygy/KPvK.rtbw");

/// This process's folder for table `i`, made anew for each input.
fn scratch(i: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hashmate-fuzz-syzygy-{}-{i}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let (name, fens) = TABLES[pick as usize % TABLES.len()];
    let dir = scratch(pick as usize % TABLES.len());
    std::fs::write(dir.join(name), bytes).expect("the scratch file");
    match name {
        "KRvK.rtbz" => std::fs::write(dir.join("KRvK.rtbw"), KRVK_WDL),
        "KPvK.rtbz" => std::fs::write(dir.join("KPvK.rtbw"), KPVK_WDL),
        _ => Ok(()),
    }
    .expect("the partner file");
    let mut tb = Tablebase::new();
    let added = tb.add_directory(&dir).expect("the scratch folder lists");
    for e in &added.refused {
        assert!(e.to_string().contains(name), "{e}");
    }
    for fen in fens {
        let pos: Position = fen.parse().expect("a test position");
        let probe = if name.ends_with("rtbw") {
            tb.wdl(&pos).map(|w| {
                let v = w.to_i32();
                assert!((-2..=2).contains(&v));
            })
        } else {
            tb.dtz(&pos).map(|d| assert!(d.abs() <= 1 << 18, "dtz {d}"))
        };
        if let Err(e) = probe {
            // The fuzzed file, named (a DTZ probe may also need a table of
            // the material its captures lead to: not there, said so).
            let text = e.to_string();
            assert!(text.contains(name) || text.contains("no table"), "{text}");
        }
    }
    // Gone after each input, so that fuzzing leaves no folders behind
    // (only a crashing input's, which is evidence).
    drop(tb);
    let _ = std::fs::remove_dir_all(&dir);
});
