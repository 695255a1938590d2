//! An `emit`'s site: what counting its event needs (the figures that test it, the
//! breakdowns that read one of its fields), worked out once when the rules are lowered
//! instead of at every event, and whether its fields may go unworked while the match does
//! not log ([`Ins::EmitQuiet`]).

use super::super::code::EmitSite;
use super::Lower;
use crate::ir::{Node, NodeKind};
use crate::ruleset::Ruleset;
use crate::value::Sym;

/// The site of an event of `kind` with these fields, its figures found (not yet known to
/// be quiet).
pub(super) fn emit_site(rs: &Ruleset, kind: Sym, fields: &[(Sym, Node)]) -> EmitSite {
    let names: Box<[Sym]> = fields.iter().map(|(f, _)| *f).collect();
    let tests = (rs.figures.iter().enumerate())
        .filter(|(_, f)| f.test.is_some() && f.kinds.first() == Some(&kind))
        .map(|(i, _)| i as u32)
        .collect();
    let breakdowns = (rs.breakdowns.iter().enumerate())
        .filter(|(_, b)| b.kind == kind)
        .filter_map(|(i, b)| {
            let at = names.iter().position(|f| *f == b.field)?;
            Some((i as u32, at as u32))
        })
        .collect();
    EmitSite {
        kind,
        fields: names,
        tests,
        breakdowns,
        quiet: None,
    }
}

impl Lower<'_> {
    /// [`EmitSite::quiet`] of a site: the frame slots of the locals whose moves its fields
    /// read, when no figure reads its fields and every field cannot fail but by a local
    /// that does not hold a move.
    pub(super) fn quiet_fields(&self, e: &EmitSite, fields: &[(Sym, Node)]) -> Option<Box<[u16]>> {
        if !e.tests.is_empty() || !e.breakdowns.is_empty() {
            return None;
        }
        let mut moves = Vec::new();
        for (_, n) in fields {
            match &n.kind {
                NodeKind::Local(_) | NodeKind::Const(_) | NodeKind::Role(_) => {}
                NodeKind::MoveEnd(x, _) | NodeKind::MoveKeeper(x) => {
                    let NodeKind::Local(s) = x.kind else {
                        return None;
                    };
                    moves.push(self.slot(s));
                }
                _ => return None,
            }
        }
        Some(moves.into())
    }
}
