//! Rule marks in the lowering: the procedures with effects whose inlined bodies are being
//! lowered ([`crate::vm::Program::rule_marks`], `vm/inline.rs`), and where a value placed
//! after its unit's code (a `prefer` score, a prompt's value) was met.

use super::Lower;
use crate::vm::code::RuleMark;

/// Where code was met: the slot map of the inlined bodies around it and its rule mark.
pub(super) struct Place {
    map: Vec<u16>,
    mark: u32,
}

impl Lower<'_> {
    /// Where code is being lowered: the slot map and the rule mark, for a value placed
    /// after the unit's code that runs where it was met (a `prefer` score, a prompt's
    /// value inside an inlined body).
    pub(super) fn place_of(&self) -> Place {
        Place {
            map: self.map.clone(),
            mark: self.mark,
        }
    }

    /// Lowers `f` where `place` was taken.
    pub(super) fn at_place<T>(&mut self, place: Place, f: impl FnOnce(&mut Self) -> T) -> T {
        let map = std::mem::replace(&mut self.map, place.map);
        let mark = std::mem::replace(&mut self.mark, place.mark);
        let r = f(self);
        self.map = map;
        self.mark = mark;
        r
    }

    /// The rule mark of an inlined body of procedure `idx` with effects inside the
    /// present one, its parameters in frame slots `params`.
    pub(super) fn mark_for(&mut self, idx: u16, params: Box<[u16]>) -> u32 {
        let rule = self.rs.procs[idx as usize].unit;
        let outer = &self.p.rule_marks[self.mark as usize];
        let mark = RuleMark {
            rules: outer.rules.iter().copied().chain([rule]).collect(),
            params: Some((idx, params)),
        };
        match self.p.rule_marks.iter().position(|m| *m == mark) {
            Some(i) => i as u32,
            None => {
                self.p.rule_marks.push(mark);
                self.p.rule_marks.len() as u32 - 1
            }
        }
    }
}
