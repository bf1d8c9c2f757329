//! Rays and lines on a rectangular board packed into a `u128`.
//!
//! A board `files` wide and `ranks` high numbers its squares
//! `rank × files + file`, bit 0 being the lower-left corner, as chess
//! bitboards do on 8×8. These `const fn`s are the slow, obviously correct
//! reference that every slider table, on any board size, is built from and
//! checked against. They are `const` so that 8×8 tables can be built at
//! compile time from the same code the wide boards use at run time.

/// Squares reached from `sq` stepping `(df, dr)` until a blocker in `occ`
/// (included) or the edge.
///
/// ```
/// use hashmate_hash::geometry::ray;
/// // On 8×8, from a1 (0) north with a blocker on a3 (16): a2 and a3.
/// assert_eq!(ray(8, 8, 0, 0, 1, 1 << 16), (1 << 8) | (1 << 16));
/// ```
pub const fn ray(files: u8, ranks: u8, sq: usize, df: i32, dr: i32, occ: u128) -> u128 {
    let (w, h) = (files as i32, ranks as i32);
    if w == 0 {
        return 0;
    }
    let mut f = (sq as i32 % w) + df;
    let mut r = (sq as i32 / w) + dr;
    let mut out = 0u128;
    while f >= 0 && f < w && r >= 0 && r < h && (df != 0 || dr != 0) {
        let bit = 1u128 << (r * w + f) as u32;
        out |= bit;
        if occ & bit != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    out
}

/// The whole line through `sq` in direction `(df, dr)` and its opposite,
/// without `sq` itself.
pub const fn line_through(files: u8, ranks: u8, sq: usize, df: i32, dr: i32) -> u128 {
    ray(files, ranks, sq, df, dr, 0) | ray(files, ranks, sq, -df, -dr, 0)
}

/// [`line_through`] without its two end squares, which never block anything
/// beyond themselves: the "relevant occupancy" a slider table is indexed by.
///
/// ```
/// use hashmate_hash::geometry::inner_line;
/// // The a-file seen from a1 on 8×8: a2 … a7.
/// assert_eq!(inner_line(8, 8, 0, 0, 1), 0x0001_0101_0101_0100);
/// ```
pub const fn inner_line(files: u8, ranks: u8, sq: usize, df: i32, dr: i32) -> u128 {
    strip_end(ray(files, ranks, sq, df, dr, 0), df, dr)
        | strip_end(ray(files, ranks, sq, -df, -dr, 0), -df, -dr)
}

/// A ray without its far end: the highest bit when the ray runs upwards in
/// square numbers, the lowest otherwise.
const fn strip_end(r: u128, df: i32, dr: i32) -> u128 {
    if r == 0 {
        return 0;
    }
    let up = dr > 0 || (dr == 0 && df > 0);
    let end = if up {
        127 - r.leading_zeros()
    } else {
        r.trailing_zeros()
    };
    r & !(1u128 << end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_on_eight_by_eight_and_ten_by_eight() {
        // e4 (28) east on 8×8: f4 g4 h4.
        assert_eq!(ray(8, 8, 28, 1, 0, 0), 0b1110_0000 << 24);
        // The same square index on 10×8 is i3 (28 = 2 × 10 + 8): east is j3.
        assert_eq!(ray(10, 8, 28, 1, 0, 0), 1 << 29);
        // A zero step or a zero-width board gives nothing (no endless loop).
        assert_eq!(ray(8, 8, 0, 0, 0, 0), 0);
        assert_eq!(ray(0, 8, 0, 1, 0, 0), 0);
        // Inner lines drop both ends: the first rank from d1 is b1..g1 minus d1.
        assert_eq!(inner_line(8, 8, 3, 1, 0), 0b0111_0110);
    }
}
