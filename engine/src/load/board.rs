//! The board of a ruleset: `[board]` read into a [`BoardSpec`] and built, an error placed
//! on the key it concerns.

use crate::board::{Board, BoardSpec, LinkKind, Side};
use crate::ruleset::diag::{Diagnostic, SourceFile};
use crate::ruleset::raw::RawRuleset;

use super::code::value_span;

/// The board `[board]` describes; `None` when it cannot be built (the errors say why).
pub(super) fn board(
    raw: &RawRuleset,
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) -> Option<Board> {
    let mut spec = BoardSpec {
        halfway: raw.board.halfway,
        ..Default::default()
    };
    for (name, a) in &raw.board.areas {
        let goal = match a.get_ref().goal_line.as_deref() {
            None => None,
            Some(s) => {
                match parse_side(s) {
                    Some(side) => Some(side),
                    None => {
                        errors.push(
                        Diagnostic::error(format!("area `{name}`: goal_line must be \"south\" or \"north\", found \"{s}\""))
                            .at(file, value_span(a)),
                    );
                        None
                    }
                }
            }
        };
        let r = a.get_ref();
        spec.areas.push((
            name.clone(),
            r.rows[0],
            r.rows[1],
            goal,
            r.mirror.clone(),
            r.zone.clone(),
        ));
    }
    for l in &raw.board.links {
        let v = l.get_ref();
        let kind = match v.get(2).map(String::as_str) {
            Some("straight") => Some(LinkKind::Straight),
            Some("sideways") => Some(LinkKind::Sideways),
            Some("diagonal") => Some(LinkKind::Diagonal),
            _ => None,
        };
        match (v.len(), kind) {
            (3, Some(k)) => spec.links.push((v[0].clone(), v[1].clone(), k)),
            _ => errors.push(
                Diagnostic::error(
                    "a link is [\"AREA\", \"AREA\", \"straight\" | \"sideways\" | \"diagonal\"]",
                )
                .at(file, value_span(l)),
            ),
        }
    }
    for (name, m) in &raw.board.marks {
        spec.marks.push((
            name.clone(),
            m.get_ref().south.clone(),
            m.get_ref().north.clone(),
        ));
    }
    for (name, values) in &raw.board.numbers {
        spec.numbers.push((
            name.clone(),
            values.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        ));
    }
    match Board::new(&spec) {
        Ok(b) => Some(b),
        Err(e) => {
            // Place the error on the key it concerns.
            let span = locate_board_error(file, &e.key);
            errors.push(
                Diagnostic::error(format!("board: {}", e.message))
                    .at(file, span)
                    .in_rule(e.key.clone()),
            );
            None
        }
    }
}

/// A side as a ruleset writes it (`south`, `north`).
fn parse_side(s: &str) -> Option<Side> {
    match s {
        "south" => Some(Side::South),
        "north" => Some(Side::North),
        _ => None,
    }
}

/// Where an error of the board lies: the key it names (`board.areas.S_BOX.mirror`,
/// `board.links[3]`), else the `[board]` header.
fn locate_board_error(file: &SourceFile, key: &str) -> (usize, usize) {
    let parts: Vec<&str> = key.split('.').collect();
    // A key of `[board]` itself (`board.halfway`), where the top-most layer writes it.
    if let ["board", own] = parts[..] {
        if let Some(o) = file.find_key_top_down("board", own) {
            return (o, o + own.len());
        }
    }
    let name = parts.get(2).copied().unwrap_or("");
    if let Some(o) = file.find_key_top_down("board.areas", name) {
        if let Some(field) = parts.get(3) {
            if let Some(f) = file.text[o..].find(field) {
                return (o + f, o + f + field.len());
            }
        }
        return (o, o + name.len());
    }
    if let Some(i) = key.find("links[") {
        let n: usize = key[i + 6..].trim_end_matches(']').parse().unwrap_or(0);
        if let Some(o) = file.text.find("links") {
            // The n-th `[` after `links = [`.
            let rest = &file.text[o..];
            if let Some(start) = rest.find('[') {
                let mut count = 0;
                for (j, c) in rest[start + 1..].char_indices() {
                    if c == '[' {
                        if count == n {
                            let s = o + start + 1 + j;
                            let e = file.text[s..].find(']').map_or(s + 1, |x| s + x + 1);
                            return (s, e);
                        }
                        count += 1;
                    }
                }
            }
        }
    }
    file.text.find("[board").map_or((0, 0), |o| (o, o + 7))
}
