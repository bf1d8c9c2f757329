//! The Syzygy index: how a position's squares become the number of its
//! entry in a table.
//!
//! Pawnless tables use the board's eight symmetries: the leading piece is
//! brought into the triangle a1–d1–d4, and a position with its leading
//! pieces on the a1–h8 diagonal is reflected so that the first piece off
//! that diagonal is below it. The leading group is one of two encodings:
//! the two kings together (462 placements, `KK`), or three unique pieces
//! (31,332 placements). Tables with pawns use the left–right symmetry only:
//! the leading pawn is brought to files a–d, and each of those four files
//! has a table of its own. The remaining pieces of each kind are counted
//! as combinations of the squares left. Every table here is derived from
//! these definitions, not transcribed.

use std::sync::OnceLock;

/// Rank minus file: positive above the a1–h8 diagonal, 0 on it.
pub(crate) fn offdiag(sq: usize) -> i32 {
    (sq >> 3) as i32 - (sq & 7) as i32
}

/// The square reflected in the a1–h8 diagonal.
pub(crate) fn flipdiag(sq: usize) -> usize {
    ((sq >> 3) | (sq << 3)) & 63
}

/// `n` choose `k` (0 when `k > n`).
pub(crate) fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k as u64 {
        r = r * (n as u64 - i) / (i + 1);
    }
    r
}

/// The derived tables.
pub(crate) struct Tables {
    /// Each square's place in the a1–d1–d4 triangle (0–5 off the
    /// diagonal, 6–9 on it), through the symmetry that brings it there.
    pub triangle: [u8; 64],
    /// Off-diagonal squares of one side of the diagonal numbered 0–27
    /// (the other side mirrors them), the diagonal 28–35.
    pub lower: [u8; 64],
    /// The a1–h8 diagonal numbered 0–7 and the h1–a8 one 8–15.
    pub diag: [u8; 64],
    /// The two kings: the first in the triangle (its place), the second
    /// anywhere legal; 462 placements in all (`None`: not legal).
    pub kk: [[Option<u16>; 64]; 10],
    /// A pawn square's place among the 24 of files a–d, file by file.
    pub flap: [u8; 64],
    /// A pawn square's order for the pawns after the leading one.
    pub ptwist: [u8; 64],
    /// The leading pawns' index of the place of the first: per number of
    /// leading pawns less one and place.
    pub pawnidx: [[u64; 24]; 6],
    /// Leading pawn placements per number of leading pawns less one and
    /// file a–d.
    pub pfactor: [[u64; 4]; 6],
}

/// The file a pawn of file `file` is mirrored to (a–d).
pub(crate) fn file_group(file: usize) -> usize {
    file.min(7 - file)
}

fn build() -> Tables {
    // The triangle's squares in the order their places are numbered:
    // off the diagonal rank by rank (b1 c1 d1 c2 d2 d3), then a1 b2 c3 d4.
    let off: Vec<usize> = (0..4)
        .flat_map(|r| (r + 1..4).map(move |f| r * 8 + f))
        .collect();
    let on: Vec<usize> = (0..4).map(|i| i * 9).collect();
    let mut triangle = [0u8; 64];
    for (sq, t) in triangle.iter_mut().enumerate() {
        let (mut f, mut r) = (sq & 7, sq >> 3);
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        if r > f {
            std::mem::swap(&mut r, &mut f);
        }
        let canon = r * 8 + f;
        *t = match off.iter().position(|&s| s == canon) {
            Some(i) => i as u8,
            None => 6 + on.iter().position(|&s| s == canon).unwrap_or(0) as u8,
        };
    }
    let mut lower = [0u8; 64];
    let mut n = 0;
    for r in 0..8 {
        for f in r + 1..8 {
            lower[r * 8 + f] = n;
            lower[f * 8 + r] = n;
            n += 1;
        }
    }
    for i in 0..8 {
        lower[i * 9] = 28 + i as u8;
    }
    let mut diag = [0u8; 64];
    for i in 0..8 {
        diag[i * 9] = i as u8;
        diag[(7 - i) * 8 + i] = 8 + (7 - i) as u8;
    }
    // The kings: for a first king off the diagonal every legal square of
    // the second; for one on it, first the second's squares below the
    // diagonal, then (after those of every first king) those on it.
    let first_king: Vec<usize> = off.iter().chain(&on).copied().collect();
    let legal = |a: usize, b: usize| {
        let (df, dr) = ((a & 7).abs_diff(b & 7), (a >> 3).abs_diff(b >> 3));
        df > 1 || dr > 1
    };
    let mut kk = [[None; 64]; 10];
    let mut n = 0u16;
    // Number the placements of the first kings `from..to` whose second
    // king's square passes `keep`, in square order.
    let mut number =
        |from: usize, to: usize, keep: &dyn Fn(usize) -> bool, kk: &mut [[Option<u16>; 64]; 10]| {
            for (t, row) in kk.iter_mut().enumerate().take(to).skip(from) {
                for (k2, slot) in row.iter_mut().enumerate() {
                    if legal(first_king[t], k2) && keep(k2) {
                        *slot = Some(n);
                        n += 1;
                    }
                }
            }
        };
    number(0, 6, &|_| true, &mut kk);
    number(6, 10, &|k2| offdiag(k2) < 0, &mut kk);
    number(6, 10, &|k2| offdiag(k2) == 0, &mut kk);
    debug_assert_eq!(n, 462);
    // Pawns on ranks 2–7; files a–d numbered file by file.
    let mut flap = [0u8; 64];
    let mut ptwist = [0u8; 64];
    let mut invflap = [0u8; 24];
    for sq in 8..56 {
        let (f, r) = (sq & 7, sq >> 3);
        let g = file_group(f);
        flap[sq] = (g * 6 + r - 1) as u8;
        ptwist[sq] = (2 * (6 * (3 - g) + 6 - r) + usize::from(f < 4)) as u8;
        if f < 4 {
            invflap[f * 6 + r - 1] = sq as u8;
        }
    }
    let mut pawnidx = [[0u64; 24]; 6];
    let mut pfactor = [[0u64; 4]; 6];
    for (lead, (idx, factor)) in pawnidx.iter_mut().zip(&mut pfactor).enumerate() {
        for (file, total) in factor.iter_mut().enumerate() {
            let mut s = 0;
            for j in file * 6..file * 6 + 6 {
                idx[j] = s;
                s += if lead == 0 {
                    1
                } else {
                    binomial(ptwist[invflap[j] as usize] as usize, lead)
                };
            }
            *total = s;
        }
    }
    Tables {
        triangle,
        lower,
        diag,
        kk,
        flap,
        ptwist,
        pawnidx,
        pfactor,
    }
}

/// The derived tables, built once.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// Placements of the leading group of a pawnless table per encoding: three
/// unique pieces, (not used in chess), the two kings.
const PIVOT: [u64; 3] = [31_332, 28_056, 462];

/// The grouping of a table side's pieces: `norm[i]` is the size of the
/// group of like pieces that starts at `i` (0 inside a group).
pub(crate) fn norm_pieces(pieces: &[u8], enc_type: u8) -> Vec<u8> {
    let n = pieces.len();
    let mut norm = vec![0u8; n];
    norm[0] = if enc_type == 0 { 3 } else { 2 };
    let first = norm[0] as usize;
    group_like_pieces(pieces, &mut norm, first);
    norm
}

/// From `i` on, mark in `norm` the size of each run of like pieces at its
/// first index.
fn group_like_pieces(pieces: &[u8], norm: &mut [u8], mut i: usize) {
    let n = pieces.len();
    while i < n {
        let mut j = i;
        while j < n && pieces[j] == pieces[i] {
            norm[i] += 1;
            j += 1;
        }
        i += norm[i] as usize;
    }
}

/// The grouping of a pawn table side: the leading pawns, the other side's
/// pawns, then groups of like pieces.
pub(crate) fn norm_pawns(pieces: &[u8], pawns: [u8; 2]) -> Vec<u8> {
    let n = pieces.len();
    let mut norm = vec![0u8; n];
    norm[0] = pawns[0];
    if pawns[1] > 0 {
        norm[pawns[0] as usize] = pawns[1];
    }
    group_like_pieces(pieces, &mut norm, (pawns[0] + pawns[1]) as usize);
    norm
}

/// The factors of a pawnless side (`order` says where the leading group's
/// factor falls among the others) and its number of entries.
pub(crate) fn factors_pieces(norm: &[u8], order: u8, enc_type: u8) -> (Vec<u64>, u64) {
    let n = norm.len();
    let mut factor = vec![0u64; n];
    let mut free = 64 - norm[0] as usize;
    let mut f = 1u64;
    let (mut i, mut k) = (norm[0] as usize, 0u8);
    while i < n || k == order {
        if k == order {
            factor[0] = f;
            f = f.saturating_mul(PIVOT[usize::from(enc_type).min(2)]);
        } else {
            place_group(norm, &mut factor, &mut i, &mut f, &mut free);
        }
        k += 1;
    }
    (factor, f)
}

/// Give the group at `i` the factor `f`, then step past it: `f` grows by
/// the placements of the group among the `free` squares left.
fn place_group(norm: &[u8], factor: &mut [u64], i: &mut usize, f: &mut u64, free: &mut usize) {
    let size = norm[*i] as usize;
    factor[*i] = *f;
    *f = f.saturating_mul(binomial(*free, size));
    *free = free.saturating_sub(size);
    *i += size.max(1);
}

/// The factors of a pawn table side for leading-pawn file `file` (a–d),
/// with the orders of the leading pawns and of the other side's pawns
/// (`0x0f`: none), and its number of entries.
pub(crate) fn factors_pawns(norm: &[u8], order: u8, order2: u8, file: usize) -> (Vec<u64>, u64) {
    let t = tables();
    let n = norm.len();
    let mut factor = vec![0u64; n];
    let lead = norm[0] as usize;
    let mut i = lead;
    if order2 < 0x0f {
        i += norm[i] as usize;
    }
    let mut free = 64usize.saturating_sub(i);
    let mut f = 1u64;
    let mut k = 0u8;
    while i < n || k == order || k == order2 {
        if k == order {
            factor[0] = f;
            f = f.saturating_mul(t.pfactor[lead.saturating_sub(1).min(5)][file]);
        } else if k == order2 {
            factor[lead] = f;
            f = f.saturating_mul(binomial(48 - lead, norm[lead] as usize));
        } else {
            place_group(norm, &mut factor, &mut i, &mut f, &mut free);
        }
        k += 1;
    }
    (factor, f)
}

/// The combinations index of the groups from `start` on: each group's
/// squares, sorted, counted among the squares the pieces before it leave
/// (`skip` squares fewer for pawns, whose ranks 1 and 8 do not count).
fn groups(pos: &mut [usize], norm: &[u8], factor: &[u64], start: usize, idx: &mut u64) {
    let n = pos.len();
    let mut i = start;
    while i < n {
        let t = (norm[i] as usize).max(1);
        let end = (i + t).min(n);
        pos[i..end].sort_unstable();
        let mut s = 0u64;
        for (m, &p) in pos[i..end].iter().enumerate() {
            let below = pos[..i].iter().filter(|&&q| p > q).count();
            s += binomial(p - below, m + 1);
        }
        *idx = idx.wrapping_add(s.wrapping_mul(factor[i]));
        i = end;
    }
}

/// The index of a pawnless position: `pos` the squares in the table's
/// piece order (changed in place by the symmetries), `enc_type` 0 (three
/// unique pieces lead) or 2 (the kings lead).
pub(crate) fn encode_pieces(pos: &mut [usize], norm: &[u8], factor: &[u64], enc_type: u8) -> u64 {
    let t = tables();
    let n = pos.len();
    if pos[0] & 0x04 != 0 {
        pos.iter_mut().for_each(|p| *p ^= 0x07);
    }
    if pos[0] & 0x20 != 0 {
        pos.iter_mut().for_each(|p| *p ^= 0x38);
    }
    let lead = if enc_type == 0 { 3 } else { 2 };
    if let Some(i) = pos.iter().position(|&p| offdiag(p) != 0) {
        if i < lead && offdiag(pos[i]) > 0 {
            pos.iter_mut().for_each(|p| *p = flipdiag(*p));
        }
    }
    let mut idx: u64;
    if enc_type == 0 {
        let i = usize::from(pos[1] > pos[0]);
        let j = usize::from(pos[2] > pos[0]) + usize::from(pos[2] > pos[1]);
        let (tri, low, dia) = (&t.triangle, &t.lower, &t.diag);
        idx = if offdiag(pos[0]) != 0 {
            tri[pos[0]] as u64 * 63 * 62 + (pos[1] - i) as u64 * 62 + (pos[2] - j) as u64
        } else if offdiag(pos[1]) != 0 {
            6 * 63 * 62
                + dia[pos[0]] as u64 * 28 * 62
                + low[pos[1]] as u64 * 62
                + (pos[2] - j) as u64
        } else if offdiag(pos[2]) != 0 {
            6 * 63 * 62
                + 4 * 28 * 62
                + dia[pos[0]] as u64 * 7 * 28
                + (dia[pos[1]] as u64 - i as u64) * 28
                + low[pos[2]] as u64
        } else {
            6 * 63 * 62
                + 4 * 28 * 62
                + 4 * 7 * 28
                + dia[pos[0]] as u64 * 7 * 6
                + (dia[pos[1]] as u64 - i as u64) * 6
                + (dia[pos[2]] as u64 - j as u64)
        };
    } else {
        idx = t.kk[t.triangle[pos[0]] as usize][pos[1]].map_or(0, u64::from);
    }
    idx = idx.wrapping_mul(factor[0]);
    groups(&mut pos[..n], norm, factor, lead, &mut idx);
    idx
}

/// The leading pawn's file group (a–d): the leading pawn with the lowest
/// `flap` place is moved to `pos[0]`.
pub(crate) fn pawn_file(pos: &mut [usize], lead: usize) -> usize {
    let t = tables();
    for i in 1..lead {
        if t.flap[pos[0]] > t.flap[pos[i]] {
            pos.swap(0, i);
        }
    }
    file_group(pos[0] & 7)
}

/// The index of a position with pawns: `pos` in the table's order, the
/// leading pawn first ([`pawn_file`]), `pawns` the numbers of leading and
/// other pawns.
pub(crate) fn encode_pawns(pos: &mut [usize], norm: &[u8], factor: &[u64], pawns: [u8; 2]) -> u64 {
    let t = tables();
    if pos[0] & 0x04 != 0 {
        pos.iter_mut().for_each(|p| *p ^= 0x07);
    }
    let lead = pawns[0] as usize;
    // The other leading pawns, in decreasing twist order.
    for i in 1..lead {
        for j in i + 1..lead {
            if t.ptwist[pos[i]] < t.ptwist[pos[j]] {
                pos.swap(i, j);
            }
        }
    }
    let k = lead - 1;
    let mut idx = t.pawnidx[k][t.flap[pos[0]] as usize];
    for i in (1..=k).rev() {
        idx += binomial(t.ptwist[pos[i]] as usize, k - i + 1);
    }
    idx = idx.wrapping_mul(factor[0]);
    let mut i = lead;
    let end = lead + pawns[1] as usize;
    if end > i {
        pos[i..end].sort_unstable();
        let mut s = 0u64;
        for (m, &p) in pos[i..end].iter().enumerate() {
            let below = pos[..i].iter().filter(|&&q| p > q).count();
            s += binomial(p - below - 8, m + 1);
        }
        idx = idx.wrapping_add(s.wrapping_mul(factor[i]));
        i = end;
    }
    groups(pos, norm, factor, i, &mut idx);
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_triangle_and_the_kings_are_the_format_s() {
        let t = tables();
        // Spot values of the format: b1 c1 d1 c2 d2 d3 are 0–5, a1 b2 c3 d4
        // 6–9, and every square maps through its symmetry.
        assert_eq!(&t.triangle[..8], &[6, 0, 1, 2, 2, 1, 0, 6]);
        assert_eq!(t.triangle[27], 9);
        assert_eq!(t.triangle[63], 6);
        // 462 king placements, the last ones with both kings on the diagonal.
        let all: Vec<u16> = t.kk.iter().flatten().filter_map(|&x| x).collect();
        assert_eq!(all.len(), 462);
        assert_eq!(t.kk[0][3], Some(0));
        assert_eq!(t.kk[6][18], Some(441));
        assert_eq!(t.kk[9][63], Some(461));
        assert_eq!(t.kk[0][0], None);
        // Pawns: the first rank and the eighth have no place.
        assert_eq!(t.flap[8], 0);
        assert_eq!(t.ptwist[8], 47);
        assert_eq!(t.ptwist[52], 0);
        assert_eq!(t.pfactor[0], [6, 6, 6, 6]);
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(63, 1), 63);
        assert_eq!(binomial(2, 3), 0);
        assert_eq!(binomial(48, 0), 1);
    }
}
