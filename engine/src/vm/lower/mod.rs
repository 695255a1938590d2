//! Lowering: the checked IR ([`crate::ir`]) of every procedure, table row, trigger and hook
//! becomes stack-machine code ([`Ins`]) in one [`Program`].
//!
//! Control flow becomes jumps; loops keep their state in hidden locals of the frame (so a
//! match can stop in the middle of one and be cloned); `choose`, rolls and `prefer` scores
//! become sites the machine suspends at or runs on request.

use fuba_grammar::ast::AssignOp;

use super::checked::as_bool;
use super::code::*;
use super::inline::{
    INLINE_EFFECT_NODES, INLINE_NATIVE_NODES, INLINE_NODES, INLINE_SCORE_NODES, Scope, plan,
};
use super::machine::Program;
use super::quiet::Quiet;
use crate::ir::*;
use crate::prims::Prim;
use crate::ruleset::Ruleset;
use emits::emit_site;
use marks::Place;
use walk::plain;

/// Compiles a checked ruleset.
pub fn compile(rs: &Ruleset) -> Program {
    compile_with(rs, true, true)
}

/// Compiles a checked ruleset with every procedure with effects called, none inlined
/// ([`super::inline::Scope::effects`]): its matches play as [`compile`]'s do, event for
/// event, with the same counters but for the operations (a call is one, an inlined call
/// none). Tests compare the two.
pub fn compile_calling_effects(rs: &Ruleset) -> Program {
    compile_with(rs, true, false)
}

/// Compiles a checked ruleset, with or without direct expressions ([`super::direct`]):
/// without them every expression is stack code (tests compare the two); with or without
/// the procedures with effects inlined.
pub(crate) fn compile_with(rs: &Ruleset, direct: bool, inline_effects: bool) -> Program {
    let mut p = Program::default();
    // Rule mark 0: no procedure with effects inlined around an instruction.
    p.rule_marks.push(RuleMark::default());
    // Every unit's id is known before any code refers to it.
    for (i, pr) in rs.procs.iter().enumerate() {
        p.procs.push(p.units.len() as u32);
        p.units.push(CodeUnit {
            entry: 0,
            params: pr.params.len() as u16,
            slots: pr.code.slots,
            rule: pr.unit,
            kind: UnitKind::Proc(i as u16),
            // Remembered only when a loop makes it dear: for a short body the memo's
            // bookkeeping costs more than it saves.
            pure: pr.pure && super::inline::has_loop(&pr.code.body),
        });
    }
    for t in &rs.tables {
        let mut ids = Vec::with_capacity(t.rows.len());
        for r in &t.rows {
            ids.push(p.units.len() as u32);
            p.units.push(CodeUnit {
                entry: 0,
                params: 0,
                slots: r.code.slots,
                rule: r.unit,
                kind: UnitKind::Rule,
                pure: false,
            });
        }
        p.rows.push(ids);
    }
    for tr in &rs.triggers {
        let params = rs.hooks[tr.hook as usize].params.len() as u16;
        let when = tr.when.as_ref().map(|w| {
            p.units.push(CodeUnit {
                entry: 0,
                params,
                slots: w.slots,
                rule: tr.unit,
                kind: UnitKind::Rule,
                pure: false,
            });
            p.units.len() as u32 - 1
        });
        p.units.push(CodeUnit {
            entry: 0,
            params,
            slots: tr.code.slots,
            rule: tr.unit,
            kind: UnitKind::Rule,
            pure: false,
        });
        p.triggers.push((when, p.units.len() as u32 - 1));
    }
    for h in &rs.hooks {
        let params = h.params.len() as u16;
        p.hooks.push(p.units.len() as u32);
        p.units.push(CodeUnit {
            entry: 0,
            params,
            slots: params + 1,
            rule: u32::MAX,
            kind: UnitKind::Hook,
            pure: false,
        });
    }
    let quiet = Quiet::of(rs);
    let mut l = Lower {
        p,
        rs,
        inline: plan(
            rs,
            Scope {
                limit: INLINE_NODES,
                remembered: false,
                scores: None,
                effects: inline_effects.then_some(INLINE_EFFECT_NODES),
            },
        ),
        // Quiet procedures too (2024's `pass_modifiers` in the pass targets' loop): their
        // modifier lists summed only while the match is not logging
        // (`MovesLoop::lists`), their hooks only where no trigger answers, their tables
        // not at all (the word code has none).
        inline_native: plan(
            rs,
            Scope {
                limit: INLINE_NATIVE_NODES,
                remembered: false,
                scores: Some(&quiet),
                effects: None,
            },
        ),
        inline_scores: plan(
            rs,
            Scope {
                limit: INLINE_SCORE_NODES,
                remembered: true,
                scores: Some(&quiet),
                effects: None,
            },
        ),
        in_score: false,
        counted_known: false,
        gathering: false,
        map: Vec::new(),
        quiet: &quiet,
        loc: Loc::default(),
        mark: 0,
        exits: None,
        next_hidden: 0,
        max_slot: 0,
        loops: Vec::new(),
        scores: Vec::new(),
        no_direct: !direct,
        prompts: Vec::new(),
        sunk: Vec::new(),
        hoist: None,
    };
    for (i, pr) in rs.procs.iter().enumerate() {
        let u = l.p.procs[i];
        l.unit(u, &pr.code);
    }
    for (t, table) in rs.tables.iter().enumerate() {
        for (r, row) in table.rows.iter().enumerate() {
            let u = l.p.rows[t][r];
            l.unit(u, &row.code);
        }
    }
    for (i, tr) in rs.triggers.iter().enumerate() {
        let (w, c) = l.p.triggers[i];
        if let (Some(w), Some(code)) = (w, &tr.when) {
            l.unit(w, code);
        }
        l.unit(c, &tr.code);
    }
    for (h, hook) in rs.hooks.iter().enumerate() {
        l.hook(h, hook);
    }
    super::fuse::fuse(&mut l.p);
    super::native::attach(&mut l.p, rs);
    l.p
}

mod built;
mod direct;
mod direct_hook;
mod direct_match;
mod direct_ops;
mod direct_sites;
mod emits;
mod expr;
mod flow;
mod fused;
mod hoist;
mod hook_when;
mod marks;
mod mods;
mod moves_loop;
mod prompt;
mod sink;
mod typed;
mod walk;
mod word;
mod word_build;
mod word_score;

struct Lower<'r> {
    p: Program,
    rs: &'r Ruleset,
    /// Procedures whose calls are inlined ([`super::inline`]).
    inline: Vec<bool>,
    /// The procedures inlined into machine code ([`super::native`]): larger bodies than
    /// [`Lower::inline`]'s, since machine code pays no cost per node.
    inline_native: Vec<bool>,
    /// Procedures whose calls are inlined into `prefer` scores (a larger limit: a score
    /// runs once for every option).
    inline_scores: Vec<bool>,
    /// Whether a `prefer` score is being lowered.
    in_score: bool,
    /// Whether the body of a loop that only gathers moves is lowered (`moves_loop.rs`):
    /// it is closures or nothing, so blocks and longer inlined bodies are closures too.
    gathering: bool,
    /// Whether a known value that counts calls may be a direct operand (a hook's trigger
    /// conditions worked out at its call, `direct_hook.rs`).
    counted_known: bool,
    /// Where the IR's local slots are in the frame (empty: where they say): an inlined
    /// body's locals live above its caller's, or are the caller's locals it was given.
    map: Vec<u16>,
    quiet: &'r Quiet,
    loc: Loc,
    /// The rule mark of the instructions being emitted ([`Program::rule_marks`]): the
    /// procedures with effects whose inlined bodies are being lowered.
    mark: u32,
    /// While an inlined body with effects is lowered: its `return`s, jumps to patch to its
    /// end.
    exits: Option<Vec<usize>>,
    next_hidden: u16,
    max_slot: u16,
    /// Enclosing loops of the unit: the local holding the stack height, the jumps to
    /// patch to the loop's end.
    loops: Vec<(u16, Vec<usize>)>,
    /// `prefer` scores to place after the unit's code: where to write their entry, and
    /// where they were met ([`Lower::place_of`]).
    scores: Vec<(&'r Node, usize, usize, u16, Place)>,
    /// Set while the stack code of a direct expression is lowered (no direct expression
    /// inside it).
    no_direct: bool,
    /// Values of prompts (`false`) and notes (`true`) to place after the unit's code,
    /// like scores (`prompt.rs`).
    prompts: Vec<(&'r Node, usize, bool, usize, u16, Place)>,
    /// Sunk `let`s of the direct blocks being built (`sink.rs`): a frame slot and the
    /// closures standing for it.
    sunk: Vec<(u16, super::machine::Direct, u32)>,
    /// While a score whose option-independent parts are hoisted is lowered (`hoist.rs`).
    hoist: Option<hoist::Hoist>,
}

impl<'r> Lower<'r> {
    fn emit(&mut self, i: Ins) -> usize {
        self.p.code.push(i);
        self.p.locs.push(self.loc);
        self.p.marks.push(self.mark);
        self.p.code.len() - 1
    }

    fn here(&self) -> u32 {
        self.p.code.len() as u32
    }

    fn patch(&mut self, at: usize, to: u32) {
        self.p.code[at] = match self.p.code[at] {
            Ins::Jump(_) => Ins::Jump(to),
            Ins::JumpIfFalse(_) => Ins::JumpIfFalse(to),
            Ins::JumpIfTrue(_) => Ins::JumpIfTrue(to),
            Ins::JumpIfLK(op, s, k, _) => Ins::JumpIfLK(op, s, k, to),
            Ins::JumpIfLL(op, a, b, _) => Ins::JumpIfLL(op, a, b, to),
            Ins::MatchArm(s, g, _) => Ins::MatchArm(s, g, to),
            Ins::IterNext(h, s, _) => Ins::IterNext(h, s, to),
            Ins::RepeatNext(h, _) => Ins::RepeatNext(h, to),
            Ins::Break(h, _) => Ins::Break(h, to),
            Ins::DirectBranch(d, w, skip, _) => Ins::DirectBranch(d, w, skip, to),
            Ins::MovesLoop(l, _) => Ins::MovesLoop(l, to),
            other => other,
        };
    }

    fn hidden(&mut self, n: u16) -> u16 {
        let s = self.next_hidden;
        self.next_hidden += n;
        self.max_slot = self.max_slot.max(self.next_hidden);
        s
    }

    fn unit(&mut self, id: u32, code: &'r Code) {
        self.next_hidden = code.slots;
        self.max_slot = code.slots;
        self.loops.clear();
        let entry = self.here();
        self.block_value(&code.body);
        self.emit(Ins::Ret);
        // `prefer` scores run in this unit's frame: placed after it, with its locals.
        while let Some((n, site, idx, live, place)) = self.scores.pop() {
            let at = self.at_place(place, |l| l.score_value(n, site, live));
            if let Some(Some((_, e))) = self.p.decisions[site].prefer.get_mut(idx) {
                *e = at;
            }
        }
        self.prompt_values();
        let u = &mut self.p.units[id as usize];
        u.entry = entry;
        u.slots = self.max_slot;
    }

    /// Code of a value worked out while the frame waits at a `choose` (a `prefer` score, a
    /// prompt's value), placed after the unit's code and ended by `EndScore`: the hidden
    /// locals in use at the `choose` (loop state, inlined calls) stay as they are. Returns
    /// its first instruction.
    fn waiting_value(&mut self, n: &'r Node, live: u16) -> u32 {
        let at = self.here();
        self.loops.clear();
        self.next_hidden = live;
        self.in_score = true;
        self.expr(n);
        self.in_score = false;
        self.emit(Ins::EndScore);
        at
    }

    fn hook(&mut self, h: usize, hook: &crate::ruleset::Hook) {
        let rs = self.rs;
        let id = self.p.hooks[h];
        let params = hook.params.len() as u16;
        let acc = params;
        self.loc = Loc::default();
        // Direct trigger conditions may keep an inlined call's arguments above the
        // dispatch's own locals.
        self.next_hidden = params + 1;
        self.max_slot = params + 1;
        let entry = self.here();
        self.emit(Ins::Int(0));
        self.emit(Ins::Store(acc));
        for &ti in &hook.triggers {
            let (when, body) = self.p.triggers[ti as usize];
            let (mut skip, mut direct_skip) = (None, None);
            let mut skips = Vec::new();
            let cond = rs.triggers[ti as usize].when.as_ref();
            let mut calls = Vec::new();
            let known = cond.and_then(|c| match &c.body.stmts[..] {
                [Stmt::Expr(e)] => self.fold(e, &mut calls),
                _ => None,
            });
            if let Some(v) = known {
                // A condition known now: counted as evaluated, never called.
                for c in calls {
                    self.emit(Ins::CountCall(c));
                }
                if !as_bool(&v) {
                    continue;
                }
            } else if let Some(js) = cond.and_then(|c| self.inline_when(c, params)) {
                // A condition of one expression: tested where the dispatch stands.
                skips = js;
            } else if let Some(w) = when {
                let direct = cond
                    .and_then(|c| self.trigger_when(c))
                    .map(|d| (d, self.emit(Ins::DirectBranch(d, false, 0, 0))));
                for a in 0..params {
                    self.emit(Ins::Local(a));
                }
                self.emit(Ins::Call(w));
                skip = Some(self.emit(Ins::JumpIfFalse(0)));
                if let Some((d, at)) = direct {
                    let to = self.here();
                    self.p.code[at] = Ins::DirectBranch(d, false, to, 0);
                    direct_skip = Some(at);
                }
            }
            self.emit(Ins::TrigFired(ti));
            for a in 0..params {
                self.emit(Ins::Local(a));
            }
            self.emit(Ins::Call(body));
            self.emit(Ins::TrigDone(ti, acc));
            if let Some(s) = skip {
                let to = self.here();
                self.patch(s, to);
            }
            if let Some(s) = direct_skip {
                let to = self.here();
                self.patch(s, to);
            }
            let to = self.here();
            self.patch_all(skips, to);
        }
        self.emit(Ins::Local(acc));
        self.emit(Ins::Ret);
        let u = &mut self.p.units[id as usize];
        u.entry = entry;
        u.slots = self.max_slot;
    }

    /// Code that leaves the block's value (its last expression's, or none).
    fn block_value(&mut self, b: &'r Block) {
        let n = b.stmts.len();
        for (i, s) in b.stmts.iter().enumerate() {
            if i + 1 == n {
                if let Stmt::Expr(e) = s {
                    self.expr(e);
                    return;
                }
                self.stmt(s);
            } else {
                self.stmt(s);
            }
        }
        self.emit(Ins::Unit);
    }

    fn stmts(&mut self, b: &'r Block) {
        for s in b.stmts.iter() {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &'r Stmt) {
        match s {
            Stmt::Let(slot, n) => {
                if self.typed_store(*slot, n) {
                    return;
                }
                self.expr(n);
                self.emit(Ins::Store(self.slot(*slot)));
            }
            Stmt::LetPair(a, b, n) => {
                self.expr(n);
                self.emit(Ins::LetPair(self.slot(*a), self.slot(*b)));
            }
            Stmt::SetLocal(slot, op, n) => match (op, &n.kind) {
                (AssignOp::Assign, NodeKind::Bin(Op::MovesUnion, a, b))
                    if matches!(a.kind, NodeKind::Local(x) if x == *slot)
                        && matches!(&b.kind, NodeKind::Prim(Prim::Moves, args) if args.iter().all(plain)) =>
                {
                    // `set x = x | moves(t, a, dests)`: the moves go straight into `x`.
                    if let NodeKind::Prim(_, args) = &b.kind {
                        self.exprs(args);
                    }
                    self.loc = n.loc;
                    self.emit(Ins::AddMoves(self.slot(*slot)));
                }
                (AssignOp::Assign, NodeKind::Bin(Op::MovesUnion, a, b)) if matches!(a.kind, NodeKind::Local(x) if x == *slot) =>
                {
                    self.expr(a);
                    self.expr(b);
                    self.loc = n.loc;
                    self.emit(Ins::MovesInto(self.slot(*slot)));
                }
                (AssignOp::Assign, _) if self.typed_store(*slot, n) => {}
                _ => {
                    self.expr(n);
                    self.emit(match op {
                        AssignOp::Assign => Ins::Store(self.slot(*slot)),
                        AssignOp::Add => Ins::StoreAdd(self.slot(*slot)),
                        AssignOp::Sub => Ins::StoreSub(self.slot(*slot)),
                    });
                }
            },
            Stmt::SetVar(var, team, op, n, loc) => {
                if let Some(t) = team {
                    self.expr(t);
                }
                self.expr(n);
                self.loc = *loc;
                self.emit(Ins::SetVar(var.scope, var.idx, *op, team.is_some()));
            }
            Stmt::Repeat(n, body, loc) => {
                self.expr(n);
                self.loc = *loc;
                let saved = self.next_hidden;
                let h = self.hidden(REPEAT_SLOTS);
                self.emit(Ins::RepeatStart(h));
                let top = self.here();
                let exit = self.emit(Ins::RepeatNext(h, 0));
                self.loops.push((h + 1, vec![exit]));
                self.stmts(body);
                self.emit(Ins::Jump(top));
                self.end_loop();
                self.next_hidden = saved;
            }
            Stmt::For(slot, iter, body) => {
                // A loop that only gathers moves runs whole in one instruction; its
                // stack code follows, for when it gives up.
                let whole = self
                    .moves_loop(*slot, iter, body)
                    .map(|l| self.emit(Ins::MovesLoop(l, 0)));
                self.expr(iter);
                let saved = self.next_hidden;
                let h = self.hidden(ITER_SLOTS);
                self.emit(Ins::IterStart(h));
                let top = self.here();
                let exit = self.emit(Ins::IterNext(h, self.slot(*slot), 0));
                self.loops.push((h + 2, vec![exit]));
                self.stmts(body);
                self.emit(Ins::Jump(top));
                self.end_loop();
                self.next_hidden = saved;
                if let Some(at) = whole {
                    let to = self.here();
                    self.patch(at, to);
                }
            }
            Stmt::Break => match self.loops.last() {
                Some(&(sp, _)) => {
                    let j = self.emit(Ins::Break(sp, 0));
                    if let Some(l) = self.loops.last_mut() {
                        l.1.push(j);
                    }
                }
                None => {
                    // Outside a loop, `break` leaves the code unit with no value.
                    self.emit(Ins::Unit);
                    self.emit(Ins::Ret);
                }
            },
            Stmt::Return(v) => {
                match v {
                    Some(n) => self.expr(n),
                    None => {
                        self.emit(Ins::Unit);
                    }
                }
                // In an inlined body, `return` jumps to the body's end with its value
                // (`inline.rs` inlines only bodies whose returns stand where the stack
                // holds nothing else of theirs).
                if self.exits.is_some() {
                    let j = self.emit(Ins::Jump(0));
                    if let Some(exits) = &mut self.exits {
                        exits.push(j);
                    }
                } else {
                    self.emit(Ins::Ret);
                }
            }
            Stmt::Emit(kind, fields) => {
                let site = self.p.emits.len() as u32;
                let mut e = emit_site(self.rs, *kind, fields);
                e.quiet = self.quiet_fields(&e, fields);
                let quiet = e
                    .quiet
                    .is_some()
                    .then(|| self.emit(Ins::EmitQuiet(site, 0)));
                for (_, n) in fields.iter() {
                    self.expr(n);
                }
                self.p.emits.push(e);
                self.emit(Ins::Emit(site));
                if let Some(at) = quiet {
                    self.p.code[at] = Ins::EmitQuiet(site, self.here());
                }
            }
            Stmt::Expr(n) => self.effect(n),
        }
    }

    fn end_loop(&mut self) {
        if let Some((_, exits)) = self.loops.pop() {
            let to = self.here();
            for e in exits {
                self.patch(e, to);
            }
        }
    }
}
