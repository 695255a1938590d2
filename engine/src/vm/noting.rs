//! Noting, beside the log, the arguments of the code unit that computed each modifier list
//! ([`ModifierArgs`], `notes.rs`).

use super::code::UnitKind;
use super::machine::Match;
use super::notes::{ModifierArgs, value_text};

impl Match<'_> {
    /// Keeps, from now on, the arguments of the code unit of every modifier list the log
    /// records ([`Match::modifier_args`]). Nothing else changes: not the log, not the
    /// play. Only a logged match records lists.
    pub fn keep_modifier_args(&mut self) {
        self.book.notes.get_or_insert_with(Vec::new);
    }

    /// The arguments noted so far, in the order of the log (empty unless
    /// [`Match::keep_modifier_args`] was called).
    pub fn modifier_args(&self) -> &[ModifierArgs] {
        self.book.notes.as_deref().unwrap_or_default()
    }

    /// Notes the running frame's parameters for the modifier list just recorded at
    /// instruction `at`, when notes are kept and the event was recorded (`before`: the
    /// count before it).
    pub(super) fn note_modifier_args(&mut self, before: u64, at: u32) {
        if self.book.notes.is_none() || self.recorded_events() == before {
            return;
        }
        let Some(f) = self.frames.last().copied() else {
            return;
        };
        let base = f.base as usize;
        // In a procedure inlined into its caller, its parameters are where the rule mark
        // says; otherwise the frame's first slots.
        let inlined =
            (self.prog.rule_marks.get(self.mark_at(at) as usize)).and_then(|m| m.params.as_ref());
        let (names, slots): (Vec<String>, Vec<usize>) = match inlined {
            Some((p, slots)) => (
                (self.rs.procs[*p as usize].params.iter())
                    .map(|(n, _)| n.clone())
                    .collect(),
                slots.iter().map(|&s| base + s as usize).collect(),
            ),
            None => {
                let names = self.param_names(f.unit);
                let slots = (base..base + names.len()).collect();
                (names, slots)
            }
        };
        let args = names
            .iter()
            .zip(slots)
            .filter_map(|(n, s)| {
                let v = self.stack.get(s)?;
                Some((n.clone(), value_text(self.rs, v)))
            })
            .collect();
        let rule = self
            .rule_chain(at)
            .next_back()
            .and_then(|u| self.rs.units.get(u as usize))
            .map(|u| u.rule.clone())
            .unwrap_or_default();
        if let Some(notes) = &mut self.book.notes {
            notes.push(ModifierArgs {
                seq: before as u32,
                rule,
                args,
            });
        }
    }

    /// The parameter names of a code unit: a procedure's, or the hook's for a trigger.
    fn param_names(&self, unit: u32) -> Vec<String> {
        let prog = self.prog;
        let Some(cu) = prog.units.get(unit as usize) else {
            return Vec::new();
        };
        let params = match cu.kind {
            UnitKind::Proc(p) => self.rs.procs.get(p as usize).map(|p| &p.params),
            UnitKind::Rule => prog
                .triggers
                .iter()
                .position(|(when, body)| *body == unit || *when == Some(unit))
                .and_then(|ti| self.rs.triggers.get(ti))
                .and_then(|t| self.rs.hooks.get(t.hook as usize))
                .map(|h| &h.params),
            UnitKind::Hook => None,
        };
        params
            .map(|ps| {
                ps.iter()
                    .take(cu.params as usize)
                    .map(|(n, _)| n.clone())
                    .collect()
            })
            .unwrap_or_default()
    }
}
