//! Materials: how many pieces of each kind each side has, the key a table
//! is found by, and the table names (`KRPvKR`: the pieces of one side,
//! kings first and pawns last, `v`, the other's).

use hashmate::{Color, Position, Role};

/// Piece letters in the order of a table name.
const LETTERS: [(char, Role); 6] = [
    ('K', Role::King),
    ('Q', Role::Queen),
    ('R', Role::Rook),
    ('B', Role::Bishop),
    ('N', Role::Knight),
    ('P', Role::Pawn),
];

/// The number of pieces of each role, per colour (White first).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Material {
    counts: [[u8; 6]; 2],
}

impl Material {
    /// The material of `pos`.
    pub fn of(pos: &Position) -> Material {
        let mut m = Material::default();
        for color in Color::ALL {
            for role in Role::ALL {
                m.counts[color.index()][role.index()] = pos.pieces(color, role).count() as u8;
            }
        }
        m
    }

    /// The material of a table name's sides (`KQvKR`: White has a king and
    /// a queen), or `None` for a name that is not one: letters other than
    /// `KQRBNP`, not one king a side, more than 7 pieces.
    pub fn from_name(name: &str) -> Option<Material> {
        let (w, b) = name.split_once('v')?;
        let mut m = Material::default();
        for (side, text) in [w, b].into_iter().enumerate() {
            for c in text.chars() {
                let (_, role) = LETTERS.iter().find(|(l, _)| *l == c)?;
                m.counts[side][role.index()] += 1;
            }
            if m.counts[side][Role::King.index()] != 1 {
                return None;
            }
        }
        (m.pieces() <= 7).then_some(m)
    }

    /// The material of a table's piece codes (`colour × 8 + kind`, kinds 1
    /// pawn … 6 king), as the file stores them.
    pub(crate) fn from_codes(codes: &[u8]) -> Option<Material> {
        let mut m = Material::default();
        for &c in codes {
            let role = role_of_code(c)?;
            m.counts[usize::from(c >> 3 & 1)][role.index()] += 1;
        }
        Some(m)
    }

    /// Pieces on the board, kings included.
    pub fn pieces(&self) -> u32 {
        self.counts.iter().flatten().map(|&n| u32::from(n)).sum()
    }

    /// Pieces of `role` of `color`.
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role.index()]
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// Whether both sides have the same pieces.
    pub fn is_symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// Whether only the kings are left.
    pub fn kings_only(&self) -> bool {
        self.pieces() == 2
    }

    /// Whether there are pawns.
    pub fn has_pawns(&self) -> bool {
        self.counts[0][0] + self.counts[1][0] > 0
    }

    /// The name of this material, White's pieces first (`KQvKR`).
    pub fn name(&self) -> String {
        let side = |i: usize| -> String {
            LETTERS
                .iter()
                .flat_map(|&(c, role)| {
                    std::iter::repeat_n(c, usize::from(self.counts[i][role.index()]))
                })
                .collect()
        };
        format!("{}v{}", side(0), side(1))
    }

    /// The name of the file that holds this material: the stronger side
    /// first (more pieces, then the more valuable ones), as the tables are
    /// named.
    pub fn table_name(&self) -> String {
        let rank = |c: &[u8; 6]| {
            let total: u8 = c.iter().sum();
            let by_value: Vec<u8> = [5, 4, 3, 2, 1, 0].iter().map(|&r| c[r]).collect();
            (total, by_value)
        };
        if rank(&self.counts[1]) > rank(&self.counts[0]) {
            self.flipped().name()
        } else {
            self.name()
        }
    }
}

/// The role of a piece code of a table (kinds 1 pawn … 6 king).
pub(crate) fn role_of_code(code: u8) -> Option<Role> {
    Some(match code & 7 {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        6 => Role::King,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_and_write() {
        let m = Material::from_name("KRPvKR").unwrap();
        assert_eq!(m.name(), "KRPvKR");
        assert_eq!(m.pieces(), 5);
        assert!(m.has_pawns() && !m.is_symmetric());
        assert_eq!(m.flipped().name(), "KRvKRP");
        assert_eq!(m.flipped().table_name(), "KRPvKR");
        assert_eq!(Material::from_name("KvKR").unwrap().table_name(), "KRvK");
        for bad in ["KQK", "KQvQ", "KKvK", "KQvKx", "KQQQQQQvK", ""] {
            assert!(Material::from_name(bad).is_none(), "{bad}");
        }
        let pos: Position = "8/8/4k3/8/8/3QK3/8/8 w - - 0 1".parse().unwrap();
        assert_eq!(Material::of(&pos).name(), "KQvK");
    }
}
