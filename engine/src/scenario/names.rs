//! The names a ruleset knows, gathered from its code: event kinds and their fields,
//! decisions and their labels, modifier lists. A scenario's names are checked against them
//! before anything runs ([`super::check`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{NodeKind, Search, Stmt};
use crate::ruleset::Ruleset;

/// The event kinds the machine logs itself, whatever the rules (`goal`).
pub(super) const ENGINE_KINDS: [&str; 1] = ["goal"];

/// Everything a scenario may name, as the ruleset writes it.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// Event kinds the rules `emit`, with the fields each emit sets.
    pub emits: BTreeMap<String, BTreeSet<String>>,
    /// Decision names, with the labels of their `choose { ... }` arms and `none` options.
    pub decisions: BTreeMap<String, BTreeSet<String>>,
    /// Decisions that choose among areas or moves (`choose ... from`): any area or move
    /// label can be legal there.
    pub open: BTreeSet<String>,
    /// Modifier list names.
    pub modifiers: BTreeSet<String>,
    /// The `skip` labels of the decisions that choose among areas or moves.
    pub skips: BTreeMap<String, BTreeSet<String>>,
}

impl Names {
    /// The names in every procedure, table row and trigger of `rs`.
    pub fn of(rs: &Ruleset) -> Names {
        let mut names = Names::default();
        let mut blocks: Vec<&crate::ir::Block> = Vec::new();
        blocks.extend(rs.procs.iter().map(|p| &p.code.body));
        blocks.extend(
            rs.tables
                .iter()
                .flat_map(|t| t.rows.iter().map(|r| &r.code.body)),
        );
        for t in &rs.triggers {
            blocks.push(&t.code.body);
            if let Some(w) = &t.when {
                blocks.push(&w.body);
            }
        }
        let sym = |s| rs.symbol(s).to_string();
        let mut emits: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut decisions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut open = BTreeSet::new();
        let mut modifiers = BTreeSet::new();
        let mut skips: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for b in blocks {
            let mut stmt = |s: &Stmt| {
                if let Stmt::Emit(kind, fields) = s {
                    emits
                        .entry(sym(*kind))
                        .or_default()
                        .extend(fields.iter().map(|(f, _)| sym(*f)));
                }
                false
            };
            let mut node = |n: &crate::ir::Node| {
                match &n.kind {
                    NodeKind::ChooseFrom { kind, skip, .. } => {
                        let labels = decisions.entry(sym(*kind)).or_default();
                        labels.extend(skip.map(sym));
                        skips.entry(sym(*kind)).or_default().extend(skip.map(sym));
                        open.insert(sym(*kind));
                    }
                    NodeKind::ChooseArms { kind, arms, .. } => {
                        decisions
                            .entry(sym(*kind))
                            .or_default()
                            .extend(arms.iter().map(|a| sym(a.label)));
                    }
                    NodeKind::Modifiers { name, .. } => {
                        modifiers.insert(sym(*name));
                    }
                    _ => {}
                }
                false
            };
            Search {
                stmt: &mut stmt,
                node: &mut node,
            }
            .block(b);
        }
        names.emits = emits;
        names.decisions = decisions;
        names.open = open;
        names.modifiers = modifiers;
        names.skips = skips;
        names
    }

    /// Every event kind a scenario can name in `events`, `no_events` and `stop_at`.
    pub fn kinds(&self) -> impl Iterator<Item = &str> {
        self.emits
            .keys()
            .map(String::as_str)
            .chain(ENGINE_KINDS.iter().copied())
    }

    /// Whether `label` can be legal for decision `kind` (an arm's or `none` option's label,
    /// or, for a choice among areas or moves, an area or a move of the board).
    pub fn label_fits(&self, rs: &Ruleset, kind: &str, label: &str) -> bool {
        self.decisions.get(kind).is_some_and(|l| l.contains(label))
            || (self.open.contains(kind) && is_board_label(rs, label))
    }

    /// Whether `label` can be legal for some decision.
    pub fn any_label_fits(&self, rs: &Ruleset, label: &str) -> bool {
        is_board_label(rs, label) || self.decisions.values().any(|l| l.contains(label))
    }

    /// Every label the rules' decisions name (not the board's areas and moves).
    pub fn labels(&self) -> BTreeSet<&str> {
        self.decisions
            .values()
            .flatten()
            .map(String::as_str)
            .collect()
    }
}

/// Whether `label` is an area (`CENTRE`), a field piece's move (`A->B`) or the goalkeeper's
/// (`GK A->B`) on the board of `rs`.
pub(super) fn is_board_label(rs: &Ruleset, label: &str) -> bool {
    let mv = label.strip_prefix("GK ").unwrap_or(label);
    match mv.split_once("->") {
        Some((a, b)) => rs.board.find(a).is_some() && rs.board.find(b).is_some(),
        None => rs.board.find(label).is_some(),
    }
}

/// The name among `names` closest to `want`, if one is close enough to be a misspelling.
pub(super) fn closest<'a>(want: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    names
        .into_iter()
        .map(|n| (crate::compile::edit_distance(want, n), n))
        .filter(|(d, n)| *d <= 2.max(want.chars().count() / 3) && *d < n.chars().count())
        .min()
        .map(|(_, n)| n)
}

/// `; did you mean `X`?` when one of `names` is close to `want`, else nothing.
pub(super) fn hint<'a>(want: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    closest(want, names).map_or(String::new(), |h| format!("; did you mean `{h}`?"))
}

/// A deserializer's message for a misspelt key (`unknown field `bal`, expected one of
/// `ball`, ...`) with the closest expected key named first; other messages unchanged.
pub(super) fn unknown_key_hint(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_string();
    };
    let Some((key, expected)) = rest.split_once('`') else {
        return message.to_string();
    };
    let keys = expected.split('`').skip(1).step_by(2);
    match closest(key, keys) {
        Some(h) => format!("{message}; did you mean `{h}`?"),
        None => message.to_string(),
    }
}
