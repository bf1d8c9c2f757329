//! Small text helpers shared by the parsers.

#[allow(unused_imports)]
use crate::prelude::*;
/// At most this much of a bad input is quoted back in an error.
pub(crate) fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if s.chars().count() > 24 {
        out.push('…');
    }
    out
}
