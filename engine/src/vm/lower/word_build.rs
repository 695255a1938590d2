//! A word program being built ([`Build`]): its registers ([`R`]), the loads of frame
//! locals and constants hoisted before the code, and the jumps patched once the code is
//! laid out. The lowering itself is in `word.rs`.

use crate::vm::word::{K, REGS, W, WordProg};

/// A register, the kind of its word, and whether it holds exactly the value the stack
/// code would (an area-set local may hold an area or none, read as a set: not exact).
#[derive(Clone, Copy)]
pub(super) struct R {
    pub(super) reg: u8,
    pub(super) k: K,
    pub(super) exact: bool,
}

/// A program being built.
#[derive(Default)]
pub(super) struct Build {
    pub(super) code: Vec<W>,
    pub(super) consts: Vec<u64>,
    pub(super) names: Vec<crate::value::Sym>,
    pub(super) next: u8,
    /// The `let`s of the expression's own code, by IR slot (outermost scope).
    pub(super) lets: Vec<(u16, R)>,
    /// Inside inlined calls (and a trigger's condition): each one's locals by IR slot.
    pub(super) scopes: Vec<Vec<Option<R>>>,
    /// Loaded once before the code: the frame's locals read and the constants, each
    /// into a register of its own (a loop's rounds then read them in place).
    pro: Vec<W>,
    /// The frame locals loaded: slot, kind, register.
    frame: Vec<(u16, K, u8)>,
    /// The constants loaded: word, kind, register.
    known: Vec<(u64, K, u8)>,
    /// A `prefer` score's program: the calls it inlines are not counted (nothing is while
    /// scores run).
    pub(super) quiet: bool,
    /// A score's hoisted parts, read from their locals (`word_score.rs`).
    pub(super) parts: Option<Parts>,
    /// Whether the code sums a modifier list outside a score ([`WordProg::lists`]).
    pub(super) lists: bool,
}

impl Build {
    /// A score's program: nothing counted, the hoisted parts read as `parts` says.
    pub(super) fn quiet(parts: Parts) -> Build {
        Build {
            quiet: true,
            parts: Some(parts),
            ..Build::default()
        }
    }

    /// A new register (`None`: all [`REGS`] are taken).
    pub(super) fn reg(&mut self) -> Option<u8> {
        let r = self.next;
        if usize::from(r) >= REGS {
            return None;
        }
        self.next += 1;
        Some(r)
    }

    /// Where the next word of code goes (`None`: past what a jump can address).
    pub(super) fn at(&self) -> Option<u16> {
        u16::try_from(self.code.len()).ok()
    }

    /// A register holding the constant `w` of kind `k`, loaded once before the code.
    pub(super) fn konst(&mut self, w: u64, k: K) -> Option<R> {
        let reg = match self.known.iter().find(|c| c.0 == w && c.1 == k) {
            Some(c) => c.2,
            None => {
                let reg = self.reg()?;
                let i = u16::try_from(self.consts.len()).ok()?;
                self.consts.push(w);
                self.pro.push(W::Const(reg, i));
                self.known.push((w, k, reg));
                reg
            }
        };
        Some(R {
            reg,
            k,
            exact: true,
        })
    }

    /// Frame local `slot` read as kind `k`, loaded before the code.
    pub(super) fn frame_local(&mut self, slot: u16, k: K) -> Option<u8> {
        if let Some(l) = self.frame.iter().find(|l| l.0 == slot && l.1 == k) {
            return Some(l.2);
        }
        let reg = self.reg()?;
        self.pro.push(W::Local(reg, slot, k));
        self.frame.push((slot, k, reg));
        Some(reg)
    }

    /// The program: the loads, then the code (its jumps moved past the loads).
    pub(super) fn finish(self) -> Option<WordProg> {
        let shift = u16::try_from(self.pro.len()).ok()?;
        let mut code = self.pro;
        for w in self.code {
            code.push(match w {
                W::Jump(t) => W::Jump(t.checked_add(shift)?),
                W::JumpIfNot(c, t) => W::JumpIfNot(c, t.checked_add(shift)?),
                W::UnlessName(c, i, n, t) => W::UnlessName(c, i, n, t.checked_add(shift)?),
                W::NextArea(v, s, t) => W::NextArea(v, s, t.checked_add(shift)?),
                other => other,
            });
        }
        Some(WordProg {
            code: code.into(),
            consts: self.consts.into(),
            names: self.names.into(),
            lists: self.lists,
        })
    }

    /// Points the jump at `at` to `to`.
    pub(super) fn patch(&mut self, at: usize, to: u16) {
        self.code[at] = match self.code[at] {
            W::Jump(_) => W::Jump(to),
            W::JumpIfNot(c, _) => W::JumpIfNot(c, to),
            W::UnlessName(c, i, n, _) => W::UnlessName(c, i, n, to),
            W::NextArea(v, s, _) => W::NextArea(v, s, to),
            other => other,
        };
    }
}

/// The parts the closures hoisted out of a score, as its word code reads them.
#[derive(Default)]
pub(super) struct Parts {
    /// A hoisted node's address and its local.
    pub(super) nodes: Vec<(usize, u16)>,
    /// A modifier list's rows' address, the local of the sum of those hoisted, and which.
    pub(super) rows: Vec<(usize, u16, Box<[bool]>)>,
    /// Per procedure: called more than once in the score's tree (or not known).
    pub(super) shared: Vec<bool>,
    /// How many calls of such procedures enclose the code being lowered.
    pub(super) depth: u32,
}
