//! Loops that only gather moves, run in one instruction ([`super::code::Ins::MovesLoop`]):
//! `for a in areas { let ...; if c { set ms = ms | moves(t, a, dests) } }`, the shape in
//! which the rules build a team's legal moves area by area — or areas: `set s = s - a`
//! (2024's pass targets, each tested and the barred ones taken out), machine code only. The loop's variable, its
//! `let`s, its conditions and each `moves(...)`'s operands are direct closures
//! ([`super::direct`]); the moves found are kept aside and added to the move-set locals
//! only once every round has run, so a closure that gives up (`None`) leaves the frame as
//! the stack code expects it, and the stack code of the loop, which follows the
//! instruction, runs instead. What the loop's rounds would have counted (its operations,
//! the calls of inlined procedures) is counted the same way. Where the loop has machine
//! code ([`super::native`]), that runs instead of the closures, with the same contract; a
//! loop may have machine code and no closures (one of its expressions is not a direct
//! one), and then its stack code runs where the machine code does not.

use std::sync::Arc;

use super::found::{Found, add_moves_of, push_found};
use super::machine::{Match, MovesLoop, Part};
use crate::board::{AreaId, AreaSet};
use crate::value::Value;

impl MovesLoop {
    /// Runs the loop; `None` when a closure gave up (nothing but the loop's own locals
    /// changed then) or the stage's operation budget would be crossed.
    pub(crate) fn run(&self, m: &mut Match<'_>, base: usize) -> Option<()> {
        for &a in self.accs.iter() {
            if !matches!(m.stack.get(base + a as usize)?, Value::Moves(_)) {
                return None;
            }
        }
        for &(a, _) in self.sets.iter() {
            if !matches!(
                m.stack.get(base + a as usize)?,
                Value::Areas(_) | Value::Area(_) | Value::None
            ) {
                return None;
            }
        }
        // The buffer is the match's, taken for the run (a 1 KiB array zeroed per loop
        // instead cost 2.0% of an original match's instructions).
        let mut found = std::mem::take(&mut m.found);
        found.clear();
        let ran = self.find(m, base, &mut found);
        if ran.is_some() {
            self.add_found(m, base, &found);
        }
        m.found = found;
        ran
    }

    /// Runs the rounds, by machine code where there is some, the moves found pushed onto
    /// `found`; `None` when they gave up.
    fn find(&self, m: &mut Match<'_>, base: usize, found: &mut Vec<Found>) -> Option<()> {
        if let (Some(f), Some(n), true) = (&self.native, &m.prog.native, m.native) {
            if self.lists && m.logging() {
                return None;
            }
            return f.run(n, m, base, found);
        }
        let (over, body) = self.closures.as_ref()?;
        let mut over = over.get(m, base)?;
        // The stack code counts an operation for every round (its jump back).
        m.ops += u64::from(over.0.count_ones());
        if m.ops > m.limits.ops_per_stage {
            return None;
        }
        let var = base + self.var as usize;
        while over.0 != 0 {
            let a = over.0.trailing_zeros() as AreaId;
            over.0 &= over.0 - 1;
            *m.stack.get_mut(var)? = Value::Area(a);
            run_parts(body, m, base, found)?;
        }
        Some(())
    }

    /// The moves found, added to their sets. Nothing gives up here: the sets were found
    /// to be move sets before the loop ran, and its body binds none of them (the
    /// lowering checks). Each set is made unique once, not once per move found (the
    /// adding commutes).
    fn add_found(&self, m: &mut Match<'_>, base: usize, found: &[Found]) {
        for (i, &slot) in self.accs.iter().enumerate() {
            let mut mine = found.iter().filter(|f| usize::from(f.0) == i).peekable();
            if mine.peek().is_none() {
                continue;
            }
            if let Value::Moves(ms) = &mut m.stack[base + slot as usize] {
                let ms = Arc::make_mut(ms);
                let mut unmoved: [Option<AreaSet>; 2] = [None; 2];
                for &(_, t, from, to) in mine {
                    let pieces = &m.st.pieces[t as usize];
                    let u =
                        *unmoved[usize::from(t)].get_or_insert_with(|| pieces.field_areas(true));
                    add_moves_of(u, ms, from, to);
                }
            }
        }
        // An area set gathered into: its areas taken out or added once, as the rounds'
        // `set`s would have (each of them makes it a set).
        for (i, &(slot, minus)) in self.sets.iter().enumerate() {
            let i = self.accs.len() + i;
            let mut mine = found.iter().filter(|f| usize::from(f.0) == i).peekable();
            if mine.peek().is_none() {
                continue;
            }
            let x = mine.fold(AreaSet::EMPTY, |x, f| x.union(f.3));
            let cur = &mut m.stack[base + slot as usize];
            let s = match cur {
                Value::Areas(s) => *s,
                Value::Area(a) => AreaSet::one(*a),
                _ => AreaSet::EMPTY,
            };
            *cur = Value::Areas(if minus { s.minus(x) } else { s.union(x) });
        }
    }
}

/// The body's parts for one round; the moves found pushed onto `found` (at most
/// [`MAX_FOUND`]).
fn run_parts(parts: &[Part], m: &mut Match<'_>, base: usize, found: &mut Vec<Found>) -> Option<()> {
    for p in parts {
        match p {
            Part::Let(step) => step(m, base)?,
            Part::Add {
                acc,
                team,
                from,
                dests,
            } => {
                let t = team.get(m, base)?.0;
                let from = from.get(m, base)?.0;
                let to = dests.get(m, base)?;
                push_found(found, (*acc, t, from, to))?;
            }
            Part::If(c, inner) => {
                if c.get(m, base)? {
                    run_parts(inner, m, base, found)?;
                }
            }
        }
    }
    Some(())
}
