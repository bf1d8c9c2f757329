//! A WDL or DTZ table file, parsed, and the lookup of a position in it.

use crate::file::{align, FileError, Header, Pairs, PairsSizes, Source, DTZ_MAGIC, WDL_MAGIC};
use crate::index::{
    encode_pawns, encode_pieces, factors_pawns, factors_pieces, norm_pawns, norm_pieces, pawn_file,
};
use crate::material::{role_of_code, Material};
use hashmate::{Color, Position, Role};
use std::path::Path;

/// Which of the two kinds of file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// Win/draw/loss (`.rtbw`).
    Wdl,
    /// Distance to zeroing (`.rtbz`).
    Dtz,
}

/// DTZ flags: the side to move the table is for; values mapped through a
/// table; wins or losses counted in plies, not moves; 16-bit map values.
const STM: u8 = 1;
const MAPPED: u8 = 2;
const WIN_PLIES: u8 = 4;
const LOSS_PLIES: u8 = 8;
const WIDE: u8 = 16;

/// One compressed table: the pieces in the order the index takes them,
/// its grouping and factors, its code; for DTZ its flags and value maps.
struct Part {
    pieces: Vec<u8>,
    norm: Vec<u8>,
    factor: Vec<u64>,
    pairs: Pairs,
    flags: u8,
    map_idx: [usize; 4],
}

/// A parsed table file.
pub(crate) struct Table {
    src: Source,
    kind: Kind,
    /// The material the table is stored for (White as the file's side 0).
    key: Material,
    symmetric: bool,
    pawns: Option<[u8; 2]>,
    enc_type: u8,
    /// Per leading-pawn file (one without pawns), per side (DTZ: one).
    parts: Vec<[Option<Part>; 2]>,
    /// DTZ value maps.
    map: Vec<u8>,
}

/// A part's pieces, grouping, factors and number of entries.
type Layout = (Vec<u8>, Vec<u8>, Vec<u64>, u64);

/// Where an entry of a part is: its side and the squares in its order.
struct Lookup {
    file: usize,
    side: usize,
    squares: Vec<usize>,
}

impl Table {
    /// Open and parse `path`, a table of `material` (from its name).
    pub(crate) fn open(path: &Path, kind: Kind, material: Material) -> Result<Table, FileError> {
        let src = Source::open(path)?;
        if src.len() % 64 != 16 {
            return Err(src.corrupt("its length is not that of a Syzygy file"));
        }
        let mut h = Header::new(&src);
        let magic = match kind {
            Kind::Wdl => WDL_MAGIC,
            Kind::Dtz => DTZ_MAGIC,
        };
        if h.slice(0, 4)? != magic {
            return Err(h.corrupt(match kind {
                Kind::Wdl => "no WDL magic number at its start",
                Kind::Dtz => "no DTZ magic number at its start",
            }));
        }
        let flags = h.u8(4)?;
        let split = flags & 1 != 0;
        let has_pawns = flags & 2 != 0;
        if has_pawns != material.has_pawns() {
            return Err(h.corrupt("its header and its name disagree about pawns"));
        }
        let num = material.pieces() as usize;
        let mut key = material;
        let mut table_pawns = None;
        let mut enc_type = 0;
        let mut table_parts = Vec::new();
        let mut map = Vec::new();
        let sides = if kind == Kind::Wdl { 2 } else { 1 };
        let stored_sides = if kind == Kind::Wdl && split { 2 } else { 1 };
        let mut at = 5;
        // Pieces, grouping and factors of each part.
        let mut layouts: Vec<[Option<Layout>; 2]> = Vec::new();
        if !has_pawns {
            let unique = (0..2)
                .flat_map(|c| (0..6).map(move |r| (c, r)))
                .filter(|&(c, r)| material.count(color(c), role(r)) == 1)
                .count();
            enc_type = if unique >= 3 { 0 } else { 2 };
            let order = h.u8(at)?;
            let codes = h.copy(at + 1, num)?;
            let mut row = [None, None];
            for (side, slot) in row.iter_mut().enumerate().take(sides) {
                let pieces: Vec<u8> = codes.iter().map(|&c| nibble(c, side)).collect();
                check_codes(&h, &pieces, material)?;
                let norm = norm_pieces(&pieces, enc_type);
                let (factor, size) = factors_pieces(&norm, nibble(order, side), enc_type);
                *slot = Some((pieces, norm, factor, size));
            }
            layouts.push(row);
            at += num + 1;
            // Some pawnless tables are stored with the colours the other
            // way round from their name: their key is their pieces'.
            let (pieces, ..) = layouts[0][0]
                .as_ref()
                .ok_or_else(|| h.corrupt("no pieces"))?;
            key = Material::from_codes(pieces)
                .ok_or_else(|| h.corrupt("a piece code out of range"))?;
        } else {
            let (w, b) = (
                material.count(Color::White, Role::Pawn),
                material.count(Color::Black, Role::Pawn),
            );
            let pawns = if b > 0 && (w == 0 || b < w) {
                [b, w]
            } else {
                [w, b]
            };
            table_pawns = Some(pawns);
            let skip = 1 + usize::from(pawns[1] > 0);
            for file in 0..4 {
                let o1 = h.u8(at)?;
                let o2 = if pawns[1] > 0 { h.u8(at + 1)? } else { 0xff };
                let codes = h.copy(at + skip, num)?;
                let mut row = [None, None];
                for (side, slot) in row.iter_mut().enumerate().take(sides) {
                    let pieces: Vec<u8> = codes.iter().map(|&c| nibble(c, side)).collect();
                    check_codes(&h, &pieces, material)?;
                    if role_of_code(pieces[0]) != Some(Role::Pawn) {
                        return Err(h.corrupt("a pawn table whose leading piece is not a pawn"));
                    }
                    let norm = norm_pawns(&pieces, pawns);
                    let (factor, size) =
                        factors_pawns(&norm, nibble(o1, side), nibble(o2, side), file);
                    *slot = Some((pieces, norm, factor, size));
                }
                layouts.push(row);
                at += num + skip;
            }
        }
        at += at & 1;
        let files = if has_pawns { 4 } else { 1 };
        // The compression of each part, in the file's order.
        let mut pairs: Vec<[Option<(Pairs, u8, PairsSizes)>; 2]> = Vec::new();
        for layout in layouts.iter().take(files) {
            let mut row = [None, None];
            for (side, slot) in row.iter_mut().enumerate().take(stored_sides) {
                let size = layout[side].as_ref().map_or(0, |l| l.3);
                let (p, fl, next, sizes) = Pairs::parse(&mut h, at, size, kind == Kind::Wdl)?;
                *slot = Some((p, fl, sizes));
                at = next;
            }
            pairs.push(row);
        }
        // DTZ value maps.
        let mut map_idx = vec![[0usize; 4]; files];
        if kind == Kind::Dtz {
            let map_at = at;
            for (f, row) in pairs.iter().enumerate() {
                let fl = row[0].as_ref().map_or(0, |p| p.1);
                if fl & MAPPED == 0 {
                    continue;
                }
                if fl & WIDE != 0 {
                    at += at & 1;
                    for slot in map_idx[f].iter_mut() {
                        *slot = (at - map_at) / 2 + 1;
                        at += 2 + 2 * h.u16(at)? as usize;
                    }
                } else {
                    for slot in map_idx[f].iter_mut() {
                        *slot = at - map_at + 1;
                        at += 1 + h.u8(at)? as usize;
                    }
                }
            }
            map = h.copy(map_at, at - map_at)?;
            at += at & 1;
        }
        // Index tables, then size tables, then the blocks.
        let mut index_at = vec![[0usize; 2]; files];
        for (f, row) in pairs.iter().enumerate() {
            for side in 0..2 {
                if let Some((_, _, s)) = &row[side] {
                    index_at[f][side] = at;
                    at += s.index;
                }
            }
        }
        let mut size_at = vec![[0usize; 2]; files];
        for (f, row) in pairs.iter().enumerate() {
            for side in 0..2 {
                if let Some((_, _, s)) = &row[side] {
                    size_at[f][side] = at;
                    at += s.size;
                }
            }
        }
        let mut data = at as u64;
        for (f, row) in pairs.into_iter().enumerate() {
            let mut parts = [None, None];
            for (side, slot) in row.into_iter().enumerate() {
                let Some((mut p, fl, s)) = slot else { continue };
                data = align(data as usize, 64) as u64;
                p.place(index_at[f][side], &s, size_at[f][side], data);
                data = p.data_end();
                if data > src.len() {
                    return Err(h.corrupt("its blocks run past the end of the file"));
                }
                p.load(&mut h)?;
                let (pieces, norm, factor, _) = layouts[f][side]
                    .clone()
                    .ok_or_else(|| h.corrupt("a side without pieces"))?;
                parts[side] = Some(Part {
                    pieces,
                    norm,
                    factor,
                    pairs: p,
                    flags: fl,
                    map_idx: map_idx[f],
                });
            }
            table_parts.push(parts);
        }
        drop(h);
        Ok(Table {
            src,
            kind,
            key,
            symmetric: material.is_symmetric(),
            pawns: table_pawns,
            enc_type,
            parts: table_parts,
            map,
        })
    }

    /// The colour-dependent mirroring for `pos`: the colour of the table's
    /// White, whether squares are flipped, and which stored side to read.
    fn orientation(&self, pos: &Position, material: Material) -> (Color, bool, usize) {
        let white = pos.side_to_move() == Color::White;
        if self.symmetric {
            // One side is stored: Black to move is White to move flipped.
            (if white { Color::White } else { Color::Black }, !white, 0)
        } else if material != self.key {
            (Color::Black, true, usize::from(white))
        } else {
            (Color::White, false, usize::from(!white))
        }
    }

    /// The squares of `pos`'s pieces in the part's order.
    fn lookup(&self, pos: &Position, material: Material) -> Result<Lookup, FileError> {
        let stored_side = |side: usize| if self.kind == Kind::Dtz { 0 } else { side };
        let (table_white, flip, side) = self.orientation(pos, material);
        let mirror = if flip { 0x38 } else { 0 };
        let color_of = |code: u8| {
            if code & 8 == 0 {
                table_white
            } else {
                !table_white
            }
        };
        let bad = || self.src.corrupt("its pieces do not match the position");
        let squares_of = |code: u8| -> Result<Vec<usize>, FileError> {
            let role = role_of_code(code).ok_or_else(bad)?;
            Ok(pos
                .pieces(color_of(code), role)
                .iter()
                .map(|sq| sq.index() ^ mirror)
                .collect())
        };
        let mut squares = Vec::with_capacity(7);
        let mut file = 0;
        if let Some(pawns) = self.pawns {
            let lead = self.parts[0][0].as_ref().ok_or_else(bad)?.pieces[0];
            squares.extend(squares_of(lead)?);
            if squares.len() != usize::from(pawns[0]) {
                return Err(bad());
            }
            file = pawn_file(&mut squares, pawns[0] as usize);
        }
        let part = self.part(file, stored_side(side))?;
        while squares.len() < part.pieces.len() {
            let code = part.pieces[squares.len()];
            let found = squares_of(code)?;
            // A corrupt piece code can name pieces the position lacks: with
            // nothing added, this loop would never end.
            if found.is_empty() {
                return Err(bad());
            }
            squares.extend(found);
        }
        if squares.len() != part.pieces.len() {
            return Err(bad());
        }
        Ok(Lookup {
            file,
            side,
            squares,
        })
    }

    fn part(&self, file: usize, side: usize) -> Result<&Part, FileError> {
        self.parts
            .get(file)
            .and_then(|p| p[side].as_ref())
            .ok_or_else(|| {
                self.src
                    .corrupt("the side a probe needs is not in the file")
            })
    }

    fn index(&self, part: &Part, squares: &mut [usize]) -> u64 {
        match self.pawns {
            None => encode_pieces(squares, &part.norm, &part.factor, self.enc_type),
            Some(pawns) => encode_pawns(squares, &part.norm, &part.factor, pawns),
        }
    }

    /// The WDL value of `pos` (material `material`) as stored: −2 … 2.
    pub(crate) fn wdl(&self, pos: &Position, material: Material) -> Result<i32, FileError> {
        let mut l = self.lookup(pos, material)?;
        let part = self.part(l.file, l.side)?;
        let idx = self.index(part, &mut l.squares);
        let v = part.pairs.value(&self.src, true, idx)?;
        if v > 4 {
            return Err(self.src.corrupt("a WDL value out of range"));
        }
        Ok(i32::from(v) - 2)
    }

    /// The DTZ of `pos` as stored, in plies, for a position whose WDL is
    /// `wdl`; `None` when the table is for the other side to move.
    pub(crate) fn dtz(
        &self,
        pos: &Position,
        material: Material,
        wdl: i32,
    ) -> Result<Option<i32>, FileError> {
        let mut l = self.lookup(pos, material)?;
        let part = self.part(l.file, 0)?;
        if (part.flags & STM) as usize != l.side && !(self.symmetric && self.pawns.is_none()) {
            return Ok(None);
        }
        let idx = self.index(part, &mut l.squares);
        let mut v = u32::from(part.pairs.value(&self.src, false, idx)?);
        if part.flags & MAPPED != 0 {
            const WDL_TO_MAP: [usize; 5] = [1, 3, 0, 2, 0];
            let i = part.map_idx[WDL_TO_MAP[(wdl + 2) as usize]] + v as usize;
            let bad = || self.src.corrupt("a DTZ value beyond its map");
            v = if part.flags & WIDE != 0 {
                let b = self.map.get(2 * i..2 * i + 2).ok_or_else(bad)?;
                u32::from(u16::from_le_bytes([b[0], b[1]]))
            } else {
                u32::from(*self.map.get(i).ok_or_else(bad)?)
            };
        }
        let plies = match wdl {
            2 => part.flags & WIN_PLIES != 0,
            -2 => part.flags & LOSS_PLIES != 0,
            _ => false,
        };
        if !plies {
            v *= 2;
        }
        Ok(Some(v as i32))
    }
}

fn color(c: usize) -> Color {
    if c == 0 {
        Color::White
    } else {
        Color::Black
    }
}

fn role(r: usize) -> Role {
    Role::ALL[r]
}

/// A side's piece code from its nibble in a header byte.
fn nibble(byte: u8, side: usize) -> u8 {
    if side == 0 {
        byte & 0x0f
    } else {
        byte >> 4
    }
}

/// The pieces of a side must be the table's material (either colouring).
fn check_codes(h: &Header<'_>, pieces: &[u8], material: Material) -> Result<(), FileError> {
    let m = Material::from_codes(pieces).ok_or_else(|| h.corrupt("a piece code out of range"))?;
    if m != material && m != material.flipped() {
        return Err(h.corrupt("its pieces are not those of its name"));
    }
    Ok(())
}
