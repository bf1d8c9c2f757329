//! `SyzygyPath`: the tables the option names, loaded with every problem
//! reported.

use crate::output;

/// The tables of `SyzygyPath`: directories separated by `:` (`;` on
/// Windows), `<empty>` or nothing for none. Every directory that cannot
/// be read, every file refused and (up to five pieces, where opening them
/// all is quick) every table that cannot be used is named in an
/// `info string`; the others are kept, and a last line says what was
/// found.
pub(super) fn load_tablebase(path: &str) -> Option<hashmate_syzygy::Tablebase> {
    let path = path.trim();
    if path.is_empty() || path == "<empty>" {
        return None;
    }
    let sep = if cfg!(windows) { ';' } else { ':' };
    let mut tb = hashmate_syzygy::Tablebase::new();
    let mut files = 0;
    for dir in path.split(sep).filter(|d| !d.is_empty()) {
        match tb.add_directory(dir) {
            Ok(added) => {
                files += added.tables;
                for e in added.refused {
                    output::emit(&format!("info string SyzygyPath: {e}; skipped"));
                }
            }
            Err(e) => output::emit(&format!("info string SyzygyPath: {e}; skipped")),
        }
    }
    if tb.max_pieces() <= 5 {
        let bad = tb.open_all();
        files -= bad.len();
        for e in bad {
            output::emit(&format!("info string SyzygyPath: {e}; skipped"));
        }
    }
    if tb.max_pieces() == 0 {
        output::emit(&format!(
            "info string SyzygyPath: no usable WDL tables (.rtbw) in '{path}'; \
             the search plays without tablebases"
        ));
        return None;
    }
    output::emit(&format!(
        "info string SyzygyPath: {files} table files, up to {} pieces",
        tb.max_pieces()
    ));
    Some(tb)
}
