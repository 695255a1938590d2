//! Layers merged: each layer of a ruleset parsed in place in the text of them all, and
//! laid over the one below.

// A diagnostic is large, but it only travels while a ruleset loads.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::ruleset::diag::{Diagnostic, LoadErrors, SourceFile};
use crate::ruleset::raw::RawRuleset;

use super::chain::toml_error;

/// The layers laid end to end ([`merged`]): the whole file, the ruleset they make, and
/// where each entry a layer removed was removed (its `remove` entry's span).
pub(super) type Merged = (SourceFile, RawRuleset, HashMap<String, (usize, usize)>);

/// The layers of a ruleset, bottom first, laid end to end into one file (every span is an
/// offset into the whole), each parsed in place and merged over the one below; with the
/// entries the layers removed.
pub(super) fn merged(path: &Path, chain: &[(PathBuf, String)]) -> Result<Merged, LoadErrors> {
    let mut whole = String::new();
    let mut layers = Vec::new();
    for (p, t) in chain {
        layers.push((p.clone(), whole.len()));
        whole.push_str(t);
        whole.push('\n');
    }
    let file = SourceFile {
        path: path.to_path_buf(),
        text: Arc::from(whole.as_str()),
        layers: layers.clone(),
    };
    // Each layer parsed in place (its text after blank lines standing for the layers
    // below), so that its spans are offsets into the whole; then merged over the one below.
    let mut merged: Option<RawRuleset> = None;
    let mut removed = HashMap::new();
    for ((_, t), (_, base)) in chain.iter().zip(&layers) {
        let mut padded = "\n".repeat(*base);
        padded.push_str(t);
        let raw: RawRuleset =
            toml::from_str(&padded).map_err(|e| LoadErrors(vec![toml_error(&file, *base, &e)]))?;
        merged = Some(match merged {
            None => raw,
            Some(below) => merge(below, raw, &file, &mut removed).map_err(LoadErrors)?,
        });
    }
    Ok((file, merged.unwrap_or_default(), removed))
}

/// Lays a layer over the ruleset below it: every named entry it writes replaces or adds;
/// table rows are merged key by key; `remove` takes entries out.
fn merge(
    mut below: RawRuleset,
    top: RawRuleset,
    file: &SourceFile,
    removed: &mut HashMap<String, (usize, usize)>,
) -> Result<RawRuleset, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    for r in &top.remove {
        let path = r.get_ref().as_str();
        let span = (r.span().start, r.span().end);
        let parts: Vec<&str> = path.splitn(2, '.').collect();
        let found = match parts.as_slice() {
            ["procedures", n] => below.procedures.shift_remove(*n).is_some(),
            ["triggers", n] => below.triggers.shift_remove(*n).is_some(),
            ["hooks", n] => below.hooks.shift_remove(*n).is_some(),
            ["constants", n] => below.constants.shift_remove(*n).is_some(),
            ["narration", n] => below.narration.shift_remove(*n).is_some(),
            ["figures", n] => below.figures.shift_remove(*n).is_some(),
            [w @ ("collections" | "entries"), n] => super::collections::remove(&mut below, w, n),
            ["tables", rest] => match rest.split_once(".rows.") {
                Some((t, key)) => below
                    .tables
                    .get_mut(t)
                    .is_some_and(|tb| tb.rows.shift_remove(key).is_some()),
                None => below.tables.shift_remove(*rest).is_some(),
            },
            _ => false,
        };
        if found {
            removed.insert(path.to_string(), span);
        } else {
            errors.push(
                Diagnostic::error(format!("`{path}` is not in the ruleset this file extends"))
                    .at(file, span)
                    .hint("remove takes \"procedures.NAME\", \"tables.NAME\", \"tables.NAME.rows.KEY\", \"triggers.NAME\", \"hooks.NAME\", \"constants.NAME\", \"narration.KIND\", \"figures.NAME\", \"collections.NAME\" or \"entries.COLLECTION.ENTRY\""),
            );
        }
    }
    let m = top.meta;
    if !m.name.is_empty() {
        below.meta.name = m.name;
    }
    if !m.title.is_empty() {
        below.meta.title = m.title;
    }
    if !m.source.is_empty() {
        below.meta.source = m.source;
    }
    let b = top.board;
    if b.halfway != 0 {
        below.board.halfway = b.halfway;
    }
    if !b.areas.is_empty() {
        below.board.areas = b.areas;
    }
    if !b.links.is_empty() {
        below.board.links = b.links;
    }
    below.board.marks.extend(b.marks);
    for (name, values) in b.numbers {
        below.board.numbers.entry(name).or_default().extend(values);
    }
    below.constants.extend(top.constants);
    below.options.extend(top.options);
    below.state.match_.extend(top.state.match_);
    below.state.team.extend(top.state.team);
    below.state.turn.extend(top.state.turn);
    below.state.team_turn.extend(top.state.team_turn);
    let mt = top.match_;
    let bm = &mut below.match_;
    macro_rules! over {
        ($($f:ident),*) => { $( if mt.$f.is_some() { bm.$f = mt.$f; } )* };
    }
    over!(
        halves,
        max_turns_per_half,
        start,
        half_start,
        turn_end,
        ball_values,
        pieces,
        count_cap
    );
    if !mt.turn.is_empty() {
        bm.turn = mt.turn;
    }
    bm.needs.extend(mt.needs);
    if top.scenario.derive.is_some() {
        below.scenario.derive = top.scenario.derive;
    }
    if top.scenario.placement.is_some() {
        below.scenario.placement = top.scenario.placement;
    }
    below.procedures.extend(top.procedures);
    for (name, t) in top.tables {
        match below.tables.get_mut(&name) {
            Some(bt) => {
                if t.dice.is_some() {
                    bt.dice = t.dice;
                }
                if !t.section.is_empty() {
                    bt.section = t.section;
                }
                bt.rows.extend(t.rows);
            }
            None => {
                below.tables.insert(name, t);
            }
        }
    }
    below.hooks.extend(top.hooks);
    below.triggers.extend(top.triggers);
    below.narration.extend(top.narration);
    below.figures.extend(top.figures);
    below.collections.extend(top.collections);
    super::collections::merge_entries(&mut below.entries, top.entries);
    if errors.is_empty() {
        Ok(below)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests;
