//! A modifier list as a direct expression: its total, worked out while the match is not
//! logging (a logged list records its rows: the stack code does that).
//!
//! In a `prefer` score whose option-independent parts are hoisted (`hoist.rs`), the rows
//! whose condition and value are the same for every option (a control check's start-area
//! rows in a pass target's score) are summed once per offer into a hoisted part of their
//! own; the closures of each option add the other rows to it. The order of the sum differs
//! from the list's: every row's value is at most [`LIMIT`] in size, or the closures give up
//! (and the stack code sums the list in its order), so no order overflows and every order
//! gives the same total.

use std::sync::Arc;

use super::super::machine::{Direct, F, Src};
use super::Lower;
use super::built::{Built, built};
use super::direct_ops::{flag, int};
use crate::ir::Node;
use crate::value::Sym;

/// A modifier row: its value and its condition.
type ModRow = (Src<i64>, Option<Src<bool>>);

/// The largest size of a row's value added out of the list's order (with fewer than
/// 2^20 rows, no partial sum of such values leaves an `i64`).
pub(super) const LIMIT: u64 = 1 << 40;

/// The most rows a list may have to be summed out of order.
const MAX_ROWS: usize = 1 << 20;

/// Rows' total in the list's order (checked: an overflow gives up, as the stack code
/// fails), or, `bounded`, with every value at most [`LIMIT`] in size.
fn total(
    rows: &[ModRow],
    m: &mut crate::vm::Match<'_>,
    base: usize,
    mut sum: i64,
    bounded: bool,
) -> Option<i64> {
    for (v, cond) in rows {
        if let Some(c) = cond
            && !c.get(m, base)?
        {
            continue;
        }
        let x = v.get(m, base)?;
        if bounded && x.unsigned_abs() > LIMIT {
            return None;
        }
        sum = sum.checked_add(x)?;
    }
    Some(sum)
}

impl Lower<'_> {
    /// The closures of a modifier list's total (`None`: a row is not plain).
    pub(super) fn modifiers(&mut self, rows: &[(Sym, Node, Option<Node>)]) -> Option<Built> {
        let hoisting = self.hoist.is_some() && rows.len() < MAX_ROWS;
        let fixed: Vec<bool> = rows
            .iter()
            .map(|(_, v, c)| {
                hoisting && self.invariant(v) && c.as_ref().is_none_or(|c| self.invariant(c))
            })
            .collect();
        let hoisted = if fixed.contains(&true) {
            self.hoist_rows(rows, &fixed)
        } else {
            None
        };
        let mut parts = Vec::with_capacity(rows.len());
        let mut k = 1;
        for (i, (_, value, cond)) in rows.iter().enumerate() {
            if hoisted.is_some() && fixed[i] {
                continue;
            }
            let (row, kr) = self.mod_row(value, cond.as_ref())?;
            parts.push(row);
            k += kr;
        }
        let parts: Arc<[ModRow]> = parts.into();
        // The hoisted rows' total, where there is one, starts the sum.
        let start = hoisted.map(|(slot, kh)| {
            k += kh;
            Src::<i64>::Local(slot)
        });
        let f: F<i64> = Arc::new(move |m, base| {
            if m.logging() {
                return None;
            }
            let sum = match &start {
                Some(s) => s.get(m, base)?,
                None => 0,
            };
            total(&parts, m, base, sum, start.is_some())
        });
        built(Direct::Int(Src::Fn(f)), k)
    }

    /// The closures of a row: its value and its condition, and their size in nodes.
    fn mod_row(&mut self, value: &Node, cond: Option<&Node>) -> Option<(ModRow, u32)> {
        let mut k = 0;
        let cond = match cond {
            Some(c) => {
                let c = self.direct(c)?;
                k += c.k;
                Some(flag(c.d)?)
            }
            None => None,
        };
        let v = self.direct(value)?;
        k += v.k;
        Some(((int(v.d)?, cond), k))
    }

    /// The total of the rows marked `fixed` as a hoisted part (built outside the hoisting
    /// context, as [`Lower::hoisted`] builds a part): its hidden local and its size in
    /// nodes (`None`: not hoisted; the rows are worked out with the others).
    fn hoist_rows(
        &mut self,
        rows: &[(Sym, Node, Option<Node>)],
        fixed: &[bool],
    ) -> Option<(u16, u32)> {
        if !self.hoist_free() {
            return None;
        }
        let outer = self.hoist.take();
        let mut parts = Vec::new();
        let mut k = 1;
        let mut ok = true;
        for (i, (_, value, cond)) in rows.iter().enumerate() {
            if !fixed[i] {
                continue;
            }
            match self.mod_row(value, cond.as_ref()) {
                Some((row, kr)) => {
                    parts.push(row);
                    k += kr;
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        self.hoist = outer;
        if !ok {
            return None;
        }
        let ticks = (rows.iter().zip(fixed).filter(|r| *r.1)).any(|((_, v, c), _)| {
            self.reaches_hook(v) || c.as_ref().is_some_and(|c| self.reaches_hook(c))
        });
        let parts: Arc<[ModRow]> = parts.into();
        let f: F<i64> = Arc::new(move |m, base| total(&parts, m, base, 0, true));
        let i = self.add_direct(Direct::Int(Src::Fn(f)))?;
        let slot = self.hoist_part(i)?;
        if let Some(h) = self.hoist.as_mut() {
            h.ticks |= ticks;
            h.rows.push((rows.as_ptr() as usize, slot, fixed.into()));
        }
        Some((slot, k))
    }
}
