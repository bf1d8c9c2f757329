//! The input features: colour × piece type × square, seen from each
//! side's perspective (the board flipped vertically for Black), and the
//! output bucket of a position's material.

use hashmate::{Color, Position, Role, Square};

/// Number of input features: 2 colours × 6 piece types × 64 squares.
pub const INPUTS: usize = 768;

/// The input feature of a `color` `role` on `sq`, seen from `perspective`.
///
/// ```
/// use hashmate::{Color, Role, Square};
/// use hashmate_nnue::feature;
/// let e2 = Square::new(12).unwrap();
/// let e7 = Square::new(52).unwrap();
/// // A white pawn on e2 seen by White is a black pawn on e7 seen by Black.
/// assert_eq!(
///     feature(Color::White, Color::White, Role::Pawn, e2),
///     feature(Color::Black, Color::Black, Role::Pawn, e7),
/// );
/// ```
#[inline]
pub fn feature(perspective: Color, color: Color, role: Role, sq: Square) -> usize {
    let theirs = usize::from(color != perspective);
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    theirs * 384 + role.index() * 64 + sq
}

/// The output bucket of a position with `pieces` pieces on the board
/// (kings included) in a net of `buckets` buckets: the material range
/// 2–32 cut into `buckets` equal parts, so that with 8 buckets it is
/// `(pieces − 2) / 4`, and with one always 0.
///
/// ```
/// use hashmate_nnue::output_bucket;
/// assert_eq!(output_bucket(32, 8), 7);
/// assert_eq!(output_bucket(10, 8), 2);
/// assert_eq!(output_bucket(3, 8), 0);
/// assert_eq!(output_bucket(32, 1), 0);
/// ```
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize * buckets / 32).min(buckets.max(1) - 1)
}

/// Call `f(white_feature, black_feature)` for every piece of `pos`: the
/// active features of both perspectives.
#[inline]
pub fn for_each_feature(pos: &Position, mut f: impl FnMut(usize, usize)) {
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in pos.pieces(color, role).iter() {
                f(
                    feature(Color::White, color, role, sq),
                    feature(Color::Black, color, role, sq),
                );
            }
        }
    }
}

/// The most king buckets a net may have.
pub const MAX_KING_BUCKETS: usize = 32;

/// How a net's inputs depend on where each perspective's own king stands:
/// the *king buckets* of the engines that learned from their own games.
///
/// A net with king buckets has `768 × count` inputs: one block of 768 (the
/// plain features of [`feature`]) per bucket, and a perspective uses the
/// block of its own king's bucket. The layouts here are all *mirrored*: a
/// perspective whose king stands on files e–h sees the board mirrored left
/// to right as well (a-file ↔ h-file), so that its king is always on files
/// a–d; the bucket is then read from a map of those 32 squares. A
/// perspective's accumulator is rebuilt when its king changes bucket or
/// crosses between files d and e; every other move updates it as before.
///
/// [`KingBuckets::PLAIN`] is the net without either: 768 inputs, nothing
/// mirrored, which every net of the format's first two versions is.
///
/// ```
/// use hashmate_nnue::KingBuckets;
/// // One bucket per half of the board's ranks 1-2 and one for the rest.
/// let mut map = [2u8; 32];
/// map[..4].copy_from_slice(&[0, 0, 1, 1]);
/// let kb = KingBuckets::mirrored(&map).unwrap();
/// assert_eq!(kb.count(), 3);
/// assert_eq!(kb.inputs(), 3 * 768);
/// // A king on g1 (square 6) sees the board mirrored: its bucket is b1's.
/// assert_eq!(kb.transform(6), (0, 7));
/// assert_eq!(kb.transform(2), (768, 0));
/// assert_eq!(KingBuckets::PLAIN.transform(6), (0, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    /// Bucket of the own king's square (the perspective's view), for all
    /// 64 squares: a mirrored layout repeats files a–d on h–e.
    map: [u8; 64],
    count: u8,
    mirrored: bool,
}

/// Why a king-bucket map is not one a net can have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KingBucketError {
    /// More than [`MAX_KING_BUCKETS`] buckets.
    TooMany(usize),
    /// A bucket number no square of the map uses, below the largest one:
    /// its weights would never be trained nor read.
    Unused(u8),
}

impl std::fmt::Display for KingBucketError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KingBucketError::TooMany(n) => {
                write!(f, "{n} king buckets (at most {MAX_KING_BUCKETS})")
            }
            KingBucketError::Unused(b) => write!(
                f,
                "king bucket {b} is on no square (buckets must be numbered 0, 1, … without gaps)"
            ),
        }
    }
}

impl std::error::Error for KingBucketError {}

impl KingBuckets {
    /// No king buckets and no mirroring: the 768 plain inputs.
    pub const PLAIN: KingBuckets = KingBuckets {
        map: [0; 64],
        count: 1,
        mirrored: false,
    };

    /// A mirrored layout from the buckets of the own king's squares on
    /// files a–d, rank by rank from the perspective's own side: `half[4 ×
    /// rank + file]` (a1 b1 c1 d1 a2 … d8). The buckets are numbered from
    /// 0 without gaps; their number is the largest plus one.
    ///
    /// # Errors
    /// [`KingBucketError`] for too many buckets or a gap in their numbers.
    pub fn mirrored(half: &[u8; 32]) -> Result<KingBuckets, KingBucketError> {
        let count = usize::from(half.iter().copied().max().unwrap_or(0)) + 1;
        if count > MAX_KING_BUCKETS {
            return Err(KingBucketError::TooMany(count));
        }
        if let Some(b) = (0..count as u8).find(|b| !half.contains(b)) {
            return Err(KingBucketError::Unused(b));
        }
        let mut map = [0; 64];
        for (sq, m) in map.iter_mut().enumerate() {
            let file = sq & 7;
            let file = if file >= 4 { 7 - file } else { file };
            *m = half[4 * (sq >> 3) + file];
        }
        Ok(KingBuckets {
            map,
            count: count as u8,
            mirrored: true,
        })
    }

    /// One of the usual mirrored layouts by its number of buckets: 1 (mirroring
    /// alone), 2 (the king on its first rank or not), 4 (first rank, files
    /// a–b and c–d; second rank; the rest), 8 (each first-rank square; the
    /// second rank's two halves; the third rank; the rest) or 16 (each
    /// first- and second-rank square; the third to fifth ranks by halves;
    /// the sixth rank; the last two ranks). `None` for another number.
    pub fn preset(count: usize) -> Option<KingBuckets> {
        #[rustfmt::skip]
        let half: [u8; 32] = match count {
            1 => [0; 32],
            2 => [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            4 => [0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
                  3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
            8 => [0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7,
                  7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7],
            16 => [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 9, 10, 10, 11, 11,
                   12, 12, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15],
            _ => return None,
        };
        KingBuckets::mirrored(&half).ok()
    }

    /// Number of buckets.
    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    /// Whether a perspective whose king is on files e–h sees the board
    /// mirrored: true for every layout but [`KingBuckets::PLAIN`].
    pub fn is_mirrored(&self) -> bool {
        self.mirrored
    }

    /// Inputs of a net with these buckets: `768 × count`.
    pub fn inputs(&self) -> usize {
        INPUTS * self.count()
    }

    /// The buckets of the own king's squares on files a–d, rank by rank
    /// (the argument of [`KingBuckets::mirrored`]).
    pub fn half_map(&self) -> [u8; 32] {
        let mut half = [0; 32];
        for (i, h) in half.iter_mut().enumerate() {
            *h = self.map[8 * (i / 4) + i % 4];
        }
        half
    }

    /// Where a perspective whose own king stands on `king` (its own view,
    /// as [`feature`] numbers squares: flipped vertically for Black) finds
    /// its inputs: input `offset + (feature ^ flip)` for each plain
    /// `feature`, where `offset` is its bucket's block and `flip` is 7
    /// when it sees the board mirrored (the low three bits of a feature
    /// are the file).
    #[inline]
    pub fn transform(&self, king: usize) -> (usize, usize) {
        let flip = if self.mirrored && king & 7 >= 4 { 7 } else { 0 };
        (usize::from(self.map[king & 63]) * INPUTS, flip)
    }

    /// [`KingBuckets::transform`] of `perspective` in `pos`.
    #[inline]
    pub fn transform_of(&self, pos: &Position, perspective: Color) -> (usize, usize) {
        let king = pos.king(perspective).index();
        self.transform(match perspective {
            Color::White => king,
            Color::Black => king ^ 56,
        })
    }
}

/// Call `f(white_input, black_input)` for every piece of `pos`: the active
/// inputs of both perspectives of a net with king buckets `kings`.
#[inline]
pub fn for_each_input(pos: &Position, kings: &KingBuckets, mut f: impl FnMut(usize, usize)) {
    let (ow, xw) = kings.transform_of(pos, Color::White);
    let (ob, xb) = kings.transform_of(pos, Color::Black);
    for_each_feature(pos, |w, b| f(ow + (w ^ xw), ob + (b ^ xb)));
}
