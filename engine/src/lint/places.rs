//! Where a lint points: the text a node was written as, a table's header, a row's key,
//! a `match` arm's patterns, in the merged ruleset file.

use crate::ir::{Loc, Node, NodeKind};
use crate::ruleset::Ruleset;
use crate::value::Value;

/// A node's place as a span of the file.
pub(super) fn span(l: Loc) -> (usize, usize) {
    (l.start as usize, l.end as usize)
}

/// The text a node was written as.
pub(super) fn text(rs: &Ruleset, l: Loc) -> &str {
    rs.file
        .text
        .get(l.start as usize..l.end as usize)
        .unwrap_or("")
}

/// Where `[KIND.NAME]` is written (in the topmost layer that writes it), else `fallback`.
pub(super) fn header(
    rs: &Ruleset,
    kind: &str,
    name: &str,
    fallback: (usize, usize),
) -> (usize, usize) {
    for h in [format!("[{kind}.{name}]"), format!("[{kind}.\"{name}\"]")] {
        if let Some(o) = rs.file.text.rfind(&h) {
            return (o, o + h.len());
        }
    }
    fallback
}

/// Where a table row's key is written: `"KEY"` on the line of its value.
pub(super) fn row_key(rs: &Ruleset, value: (usize, usize), key: &str) -> (usize, usize) {
    let (line, start) = rs.file.line_at(value.0);
    let quoted = format!("\"{key}\"");
    match line.find(&quoted) {
        Some(i) if start + i < value.0 => (start + i, start + i + quoted.len()),
        _ => value,
    }
}

/// Where the patterns of a `match` arm are written, between the end of what comes before
/// the arm and the arm's `=>`.
pub(super) fn arm_patterns(rs: &Ruleset, prev_end: u32, value_start: u32) -> (usize, usize) {
    let (a, b) = (prev_end as usize, value_start as usize);
    let Some(region) = rs.file.text.get(a..b) else {
        return (b, b);
    };
    let Some(arrow) = region.rfind("=>") else {
        return (b, b);
    };
    let mut i = 0;
    let bytes = region.as_bytes();
    while i < arrow {
        match bytes[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b'{' => i += 1,
            b'#' => {
                while i < arrow && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    let pat = region[i..arrow].trim_end();
    (a + i, a + i + pat.len())
}

/// Whether a condition is written as the literal `false` (a constant that happens to be
/// false is a setting, not a mistake).
pub(super) fn is_literal_false(rs: &Ruleset, n: &Node) -> bool {
    matches!(n.kind, NodeKind::Const(Value::Bool(false))) && text(rs, n.loc).trim() == "false"
}
