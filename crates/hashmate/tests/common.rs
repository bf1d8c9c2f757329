//! Helpers shared by the data-driven tests: paths into ../shared/data.
#![allow(dead_code)]

pub fn data(rel: &str) -> String {
    let path = format!("{}/../../../shared/data/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// (FEN, [(depth, count)]) of a perft EPD file.
pub fn perft_file(rel: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    data(rel)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let p = p.trim();
                    let (d, n) = p.split_once(' ').unwrap();
                    (d[1..].parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}
