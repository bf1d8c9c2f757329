//! The library's modules form layers, never a circle of imports: a module
//! uses only modules below it (square → bitboard, piece → attacks, keys →
//! moves → position → FEN, move generation → notation, perft, tables →
//! games, PGN, EPD, books; see DESIGN.md). This reads the sources and
//! fails on any cycle, naming it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module path (`attacks::fl`) → source text without its test module and
/// comment lines.
fn modules() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path.strip_prefix(&root).unwrap().with_extension("");
            let mut name = rel.to_string_lossy().replace('/', "::");
            if let Some(parent) = name.strip_suffix("::mod") {
                name = parent.to_string();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let code: String = code
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            out.insert(name, code);
        }
    }
    out
}

/// The module a path written in `from` names: `crate::a::b`, `super::b`,
/// or a child `b::` of `from`.
fn edges(mods: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let names: BTreeSet<&String> = mods.keys().collect();
    let resolve = |base: &str, rest: &str| -> Option<String> {
        // The longest module prefix of base::rest.
        let parts: Vec<&str> = rest
            .split("::")
            .take_while(|p| {
                p.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
                    && !p.is_empty()
            })
            .collect();
        let mut best = None;
        let mut path = base.to_string();
        for p in parts {
            path = if path.is_empty() {
                p.to_string()
            } else {
                format!("{path}::{p}")
            };
            if names.contains(&path) {
                best = Some(path.clone());
            }
        }
        best
    };
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, code) in mods {
        let parent = name.rsplit_once("::").map_or("", |(p, _)| p);
        let mut add = |to: Option<String>| {
            if let Some(to) = to.filter(|t| t != name) {
                out.entry(name.clone()).or_default().insert(to);
            }
        };
        for (i, _) in code.match_indices("crate::") {
            add(resolve("", &code[i + 7..]));
        }
        for (i, _) in code.match_indices("super::") {
            add(resolve(parent, &code[i + 7..])
                .or_else(|| (!parent.is_empty()).then(|| parent.to_string())));
        }
        // `child::item` inside a parent module (a `pub use child::…`
        // re-export is the parent's face, not a use of the child).
        let code: String = code
            .lines()
            .filter(|l| !l.trim_start().starts_with("pub use "))
            .collect::<Vec<_>>()
            .join("\n");
        for child in mods
            .keys()
            .filter(|m| m.rsplit_once("::").map(|(p, _)| p) == Some(name.as_str()))
        {
            let short = child.rsplit("::").next().unwrap();
            let pattern = format!("{short}::");
            if code.match_indices(&pattern).any(|(i, _)| {
                i == 0
                    || !code.as_bytes()[i - 1].is_ascii_alphanumeric()
                        && code.as_bytes()[i - 1] != b'_'
                        && code.as_bytes()[i - 1] != b':'
            }) {
                out.entry(name.clone()).or_default().insert(child.clone());
            }
        }
    }
    out
}

#[test]
fn no_module_imports_itself_in_a_circle() {
    let mods = modules();
    assert!(mods.len() > 20, "{} modules found", mods.len());
    let graph = edges(&mods);
    // Depth-first search; a grey node met again closes a cycle.
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = path.iter().position(|p| p == m).unwrap_or(0);
                    let mut cycle = path[start..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for name in mods.keys() {
        if state.get(name.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(cycle) = visit(name, &graph, &mut state, &mut Vec::new()) {
                panic!(
                    "modules import each other in a circle: {}",
                    cycle.join(" → ")
                );
            }
        }
    }
}
