//! Lowering: the checked IR ([`crate::ir`]) of every procedure, table row, trigger and hook
//! becomes stack-machine code ([`Ins`]) in one [`Program`].
//!
//! Control flow becomes jumps; loops keep their state in hidden locals of the frame (so a
//! match can stop in the middle of one and be cloned); `choose`, rolls and `prefer` scores
//! become sites the machine suspends at or runs on request.

use fuba_grammar::ast::{AssignOp, Quant};

use super::as_bool;
use super::code::*;
use super::quiet::Quiet;
use crate::ir::*;
use crate::prims::Prim;
use crate::ruleset::Ruleset;
use crate::value::Value;

/// Compiles a checked ruleset.
pub fn compile(rs: &Ruleset) -> Program {
    let mut p = Program::default();
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
        inline: super::inline::plan(rs),
        map: Vec::new(),
        quiet: &quiet,
        loc: Loc::default(),
        next_hidden: 0,
        max_slot: 0,
        loops: Vec::new(),
        scores: Vec::new(),
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
    l.p
}

struct Lower<'r> {
    p: Program,
    rs: &'r Ruleset,
    /// Procedures whose calls are inlined ([`super::inline`]).
    inline: Vec<bool>,
    /// Where the IR's local slots are in the frame (empty: where they say): an inlined
    /// body's locals live above its caller's, or are the caller's locals it was given.
    map: Vec<u16>,
    quiet: &'r Quiet,
    loc: Loc,
    next_hidden: u16,
    max_slot: u16,
    /// Enclosing loops of the unit: the local holding the stack height, the jumps to
    /// patch to the loop's end.
    loops: Vec<(u16, Vec<usize>)>,
    /// `prefer` scores to place after the unit's code: where to write their entry.
    scores: Vec<(&'r Node, usize, usize, u16)>,
}

impl<'r> Lower<'r> {
    fn emit(&mut self, i: Ins) -> usize {
        self.p.code.push(i);
        self.p.locs.push(self.loc);
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
            Ins::MatchArm(s, g, _) => Ins::MatchArm(s, g, to),
            Ins::IterNext(h, s, _) => Ins::IterNext(h, s, to),
            Ins::RepeatNext(h, _) => Ins::RepeatNext(h, to),
            Ins::Break(h, _) => Ins::Break(h, to),
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
        while let Some((n, site, idx, live)) = self.scores.pop() {
            let at = self.here();
            self.loops.clear();
            // The score runs while the frame waits at its `choose`: the hidden locals in use
            // there (loop state, inlined calls) stay as they are.
            self.next_hidden = live;
            self.expr(n);
            self.emit(Ins::EndScore);
            if let Some(Some((_, e))) = self.p.decisions[site].prefer.get_mut(idx) {
                *e = at;
            }
        }
        let u = &mut self.p.units[id as usize];
        u.entry = entry;
        u.slots = self.max_slot;
    }

    fn hook(&mut self, h: usize, hook: &crate::ruleset::Hook) {
        let rs = self.rs;
        let id = self.p.hooks[h];
        let params = hook.params.len() as u16;
        let acc = params;
        self.loc = Loc::default();
        let entry = self.here();
        self.emit(Ins::Int(0));
        self.emit(Ins::Store(acc));
        for &ti in &hook.triggers {
            let (when, body) = self.p.triggers[ti as usize];
            let mut skip = None;
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
            } else if let Some(w) = when {
                for a in 0..params {
                    self.emit(Ins::Local(a));
                }
                self.emit(Ins::Call(w));
                skip = Some(self.emit(Ins::JumpIfFalse(0)));
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
        }
        self.emit(Ins::Local(acc));
        self.emit(Ins::Ret);
        self.p.units[id as usize].entry = entry;
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
                self.emit(Ins::Ret);
            }
            Stmt::Emit(kind, fields) => {
                for (_, n) in fields.iter() {
                    self.expr(n);
                }
                let site = self.p.emits.len() as u32;
                self.p.emits.push(EmitSite {
                    kind: *kind,
                    fields: fields.iter().map(|(f, _)| *f).collect(),
                });
                self.emit(Ins::Emit(site));
            }
            Stmt::Expr(n) => self.effect(n),
        }
    }

    /// The frame slot of an IR local slot.
    fn slot(&self, s: u16) -> u16 {
        self.map.get(s as usize).copied().unwrap_or(s)
    }

    /// A call of procedure `idx` lowered into the caller: an argument that is a local of
    /// the caller (and that the body never assigns) is used where it is; the others are
    /// evaluated in order into fresh locals above the caller's.
    fn inlined(&mut self, idx: u16, args: &'r [Node]) {
        let rs = self.rs;
        let p = &rs.procs[idx as usize];
        let saved = self.next_hidden;
        let base = self.hidden(p.code.slots);
        let mut map: Vec<u16> = (0..p.code.slots).map(|i| base + i).collect();
        let all_plain = args.iter().all(plain);
        let mut stores = Vec::new();
        for (i, a) in args.iter().enumerate() {
            match &a.kind {
                NodeKind::Local(s) if all_plain && !assigns(&p.code.body, i as u16) => {
                    map[i] = self.slot(*s);
                }
                _ => {
                    self.expr(a);
                    stores.push(base + i as u16);
                }
            }
        }
        for s in stores.into_iter().rev() {
            self.emit(Ins::Store(s));
        }
        self.emit(Ins::CountCall(idx));
        let outer = std::mem::replace(&mut self.map, map);
        self.block_value(&p.code.body);
        self.map = outer;
        self.next_hidden = saved;
    }

    /// Code for a node whose value is not used: an `if` leaves nothing.
    fn effect(&mut self, n: &'r Node) {
        match &n.kind {
            NodeKind::If(c, then, other) => {
                let js = self.branch(c, false);
                self.stmts(then);
                match other {
                    Some(o) => {
                        let end = self.emit(Ins::Jump(0));
                        let to = self.here();
                        self.patch_all(js, to);
                        self.effect(o);
                        let to = self.here();
                        self.patch(end, to);
                    }
                    None => {
                        let to = self.here();
                        self.patch_all(js, to);
                    }
                }
            }
            NodeKind::Block(b) => self.stmts(b),
            _ => {
                self.expr(n);
                self.emit(Ins::Pop);
            }
        }
    }

    /// Code that jumps when the condition's truth is `when` (the jumps returned, to
    /// patch) and falls through otherwise; `and`, `or` and `not` become jumps.
    fn branch(&mut self, n: &'r Node, when: bool) -> Vec<usize> {
        let mut calls = Vec::new();
        if let Some(v) = self.fold(n, &mut calls) {
            for c in calls {
                self.emit(Ins::CountCall(c));
            }
            return if as_bool(&v) == when {
                vec![self.emit(Ins::Jump(0))]
            } else {
                Vec::new()
            };
        }
        match &n.kind {
            NodeKind::Not(x) => self.branch(x, !when),
            NodeKind::And(a, b) | NodeKind::Or(a, b) => {
                // `and` jumps on false at its first false operand, `or` on true at its
                // first true one; otherwise the first operand decides whether to go on.
                let and = matches!(n.kind, NodeKind::And(..));
                if when != and {
                    let mut js = self.branch(a, when);
                    js.extend(self.branch(b, when));
                    js
                } else {
                    let skip = self.branch(a, !when);
                    let js = self.branch(b, when);
                    let to = self.here();
                    self.patch_all(skip, to);
                    js
                }
            }
            _ => {
                self.expr(n);
                self.loc = n.loc;
                vec![self.emit(if when {
                    Ins::JumpIfTrue(0)
                } else {
                    Ins::JumpIfFalse(0)
                })]
            }
        }
    }

    fn patch_all(&mut self, at: Vec<usize>, to: u32) {
        for a in at {
            self.patch(a, to);
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

    fn konst(&mut self, v: &Value) {
        match v {
            Value::Int(i) if i32::try_from(*i).is_ok() => {
                self.emit(Ins::Int(*i as i32));
            }
            Value::Bool(b) => {
                self.emit(Ins::Bool(*b));
            }
            Value::None => {
                self.emit(Ins::Unit);
            }
            other => {
                let i = match self.p.consts.iter().position(|c| c == other) {
                    Some(i) => i,
                    None => {
                        self.p.consts.push(other.clone());
                        self.p.consts.len() - 1
                    }
                };
                self.emit(Ins::Const(i as u32));
            }
        }
    }

    fn exprs(&mut self, ns: &'r [Node]) {
        for n in ns {
            self.expr(n);
        }
    }

    /// The node's value when it is known at compile time ([`super::fold`]), with the
    /// procedures it counts as called.
    fn fold(&self, n: &Node, calls: &mut Vec<u16>) -> Option<Value> {
        // Inside an inlined body the locals are not known here.
        super::fold::Fold {
            rs: self.rs,
            inline: &self.inline,
        }
        .value(n, &[], calls)
    }

    /// Code that leaves the node's value.
    fn expr(&mut self, n: &'r Node) {
        let loc = n.loc;
        self.loc = loc;
        if !matches!(n.kind, NodeKind::Const(_) | NodeKind::Local(_)) {
            let mut calls = Vec::new();
            if let Some(v) = self.fold(n, &mut calls) {
                for c in calls {
                    self.emit(Ins::CountCall(c));
                }
                self.konst(&v);
                return;
            }
        }
        match &n.kind {
            NodeKind::Const(v) => self.konst(v),
            NodeKind::Local(s) => {
                self.emit(Ins::Local(self.slot(*s)));
            }
            NodeKind::Var(v) => {
                self.emit(Ins::Var(v.scope, v.idx));
            }
            NodeKind::TeamVar(v, t) => {
                self.expr(t);
                self.loc = loc;
                self.emit(Ins::TeamVar(v.scope, v.idx));
            }
            NodeKind::Role(r) => {
                self.emit(Ins::Role(*r));
            }
            NodeKind::Prim(p, args) => {
                self.exprs(args);
                self.loc = loc;
                self.emit(Ins::Prim(*p));
            }
            NodeKind::Call(idx, args) => {
                if self.inline[*idx as usize] {
                    self.inlined(*idx, args);
                } else {
                    self.exprs(args);
                    self.loc = loc;
                    let u = self.p.procs[*idx as usize];
                    self.emit(Ins::Call(u));
                }
            }
            NodeKind::Table(t, key) => {
                self.expr(key);
                self.loc = loc;
                self.emit(Ins::Table(*t));
            }
            NodeKind::ListIndex(l, i) => {
                self.expr(l);
                self.expr(i);
                self.loc = loc;
                self.emit(Ins::ListIndex);
            }
            NodeKind::MoveEnd(m, from) => {
                self.expr(m);
                self.loc = loc;
                self.emit(Ins::MoveEnd(*from));
            }
            NodeKind::MoveKeeper(m) => {
                self.expr(m);
                self.loc = loc;
                self.emit(Ins::MoveKeeper);
            }
            NodeKind::Not(x) => {
                self.expr(x);
                self.loc = loc;
                self.emit(Ins::Not);
            }
            NodeKind::Neg(x) => {
                self.expr(x);
                self.loc = loc;
                self.emit(Ins::Neg);
            }
            NodeKind::And(a, b) | NodeKind::Or(a, b) => {
                let and = matches!(n.kind, NodeKind::And(..));
                self.expr(a);
                self.loc = loc;
                let j = self.emit(if and {
                    Ins::JumpIfFalse(0)
                } else {
                    Ins::JumpIfTrue(0)
                });
                self.expr(b);
                self.loc = loc;
                self.emit(Ins::ToBool);
                let end = self.emit(Ins::Jump(0));
                let short = self.here();
                self.patch(j, short);
                self.emit(Ins::Bool(!and));
                let to = self.here();
                self.patch(end, to);
            }
            NodeKind::Bin(op, a, b) => {
                self.expr(a);
                self.expr(b);
                self.loc = loc;
                self.emit(Ins::Bin(*op));
            }
            NodeKind::AreaList(items) => {
                self.exprs(items);
                self.loc = loc;
                self.emit(Ins::AreaList(items.len() as u16));
            }
            NodeKind::IntList(items) => {
                self.exprs(items);
                self.loc = loc;
                self.emit(Ins::IntList(items.len() as u16));
            }
            NodeKind::If(c, then, other) => {
                let js = self.branch(c, false);
                self.loc = loc;
                self.block_value(then);
                let end = self.emit(Ins::Jump(0));
                let to = self.here();
                self.patch_all(js, to);
                match other {
                    Some(o) => self.expr(o),
                    None => {
                        self.emit(Ins::Unit);
                    }
                }
                let to = self.here();
                self.patch(end, to);
            }
            NodeKind::Match(s, arms) => {
                self.expr(s);
                self.loc = loc;
                let saved = self.next_hidden;
                let h = self.hidden(1);
                self.emit(Ins::Store(h));
                let mut ends = Vec::with_capacity(arms.len());
                for (pats, value) in arms.iter() {
                    let g = self.p.pats.len() as u32;
                    self.p.pats.push(pats.clone());
                    self.loc = loc;
                    let next = self.emit(Ins::MatchArm(h, g, 0));
                    self.expr(value);
                    ends.push(self.emit(Ins::Jump(0)));
                    let to = self.here();
                    self.patch(next, to);
                }
                self.loc = loc;
                self.emit(Ins::NoArm(h));
                let to = self.here();
                for e in ends {
                    self.patch(e, to);
                }
                self.next_hidden = saved;
            }
            NodeKind::ChooseFrom {
                kind,
                by,
                secret,
                options,
                skip,
                prefer,
            } => {
                self.expr(by);
                self.expr(options);
                self.loc = loc;
                let site = self.p.decisions.len();
                let pure_prefer = prefer.as_ref().is_none_or(|(_, s)| self.quiet.node(s));
                self.p.decisions.push(DecisionSite {
                    kind: *kind,
                    secret: *secret,
                    skip: *skip,
                    arms: Box::new([]),
                    prefer: Box::new([prefer.as_ref().map(|(slot, _)| (*slot, 0))]),
                    pure_prefer,
                });
                if let Some((_, score)) = prefer {
                    self.scores.push((score, site, 0, self.next_hidden));
                }
                self.emit(Ins::ChooseFrom(site as u32));
            }
            NodeKind::ChooseArms {
                kind,
                by,
                secret,
                arms,
            } => {
                self.expr(by);
                for arm in arms.iter() {
                    match &arm.guard {
                        Some(g) => {
                            self.expr(g);
                            self.loc = loc;
                            self.emit(Ins::ToBool);
                        }
                        None => {
                            self.emit(Ins::Bool(true));
                        }
                    }
                }
                self.loc = loc;
                let site = self.p.decisions.len();
                let pure_prefer = arms
                    .iter()
                    .all(|a| a.prefer.as_ref().is_none_or(|p| self.quiet.node(p)));
                self.p.decisions.push(DecisionSite {
                    kind: *kind,
                    secret: *secret,
                    skip: None,
                    arms: arms.iter().map(|a| a.label).collect(),
                    prefer: arms
                        .iter()
                        .map(|a| a.prefer.as_ref().map(|_| (0, 0)))
                        .collect(),
                    pure_prefer,
                });
                for (i, a) in arms.iter().enumerate() {
                    if let Some(p) = &a.prefer {
                        self.scores.push((p, site, i, self.next_hidden));
                    }
                }
                self.emit(Ins::ChooseArms(site as u32));
                let table = self.p.jumps.len() as u32;
                self.p.jumps.push(Box::new([]));
                self.emit(Ins::ArmJump(table));
                let mut targets = Vec::with_capacity(arms.len());
                let mut ends = Vec::with_capacity(arms.len());
                for a in arms.iter() {
                    targets.push(self.here());
                    self.expr(&a.value);
                    ends.push(self.emit(Ins::Jump(0)));
                }
                let to = self.here();
                for e in ends {
                    self.patch(e, to);
                }
                self.p.jumps[table as usize] = targets.into_boxed_slice();
            }
            NodeKind::Roll {
                count,
                sides,
                keep,
                by,
                label,
            } => {
                if let Some(b) = by {
                    self.expr(b);
                }
                self.loc = loc;
                let site = self.p.rolls.len() as u32;
                self.p.rolls.push(RollSite {
                    count: *count,
                    sides: *sides,
                    keep: *keep,
                    by: by.is_some(),
                    label: *label,
                });
                self.emit(Ins::Roll(site));
            }
            NodeKind::Modifiers { name, rows } => {
                let saved = self.next_hidden;
                let h = self.hidden(MOD_SLOTS);
                self.emit(Ins::ModStart(h));
                for (label, value, cond) in rows.iter() {
                    match cond {
                        Some(c) => {
                            let skip = self.branch(c, false);
                            self.expr(value);
                            self.loc = value.loc;
                            self.emit(Ins::ModRow(*label, h, true));
                            let end = self.emit(Ins::Jump(0));
                            let to = self.here();
                            self.patch_all(skip, to);
                            self.emit(Ins::ModRow(*label, h, false));
                            let to = self.here();
                            self.patch(end, to);
                        }
                        None => {
                            self.expr(value);
                            self.loc = value.loc;
                            self.emit(Ins::ModRow(*label, h, true));
                        }
                    }
                }
                self.loc = loc;
                self.emit(Ins::ModEnd(*name, h));
                self.next_hidden = saved;
            }
            NodeKind::Quant(q, slot, iter, filter) => {
                self.expr(iter);
                self.loc = loc;
                let saved = self.next_hidden;
                let h = self.hidden(ITER_SLOTS + 1);
                let count = h + ITER_SLOTS;
                self.emit(Ins::IterStart(h));
                if *q == Quant::Count {
                    self.emit(Ins::Int(0));
                    self.emit(Ins::Store(count));
                }
                let top = self.here();
                let exit = self.emit(Ins::IterNext(h, self.slot(*slot), 0));
                // Jumps to the early answer (`any`: true, `all`: false).
                let mut early = Vec::new();
                match (q, filter) {
                    (Quant::Any, Some(f)) => early = self.branch(f, true),
                    (Quant::Any, None) => early.push(self.emit(Ins::Jump(0))),
                    (Quant::All, Some(f)) => early = self.branch(f, false),
                    (Quant::All, None) => {}
                    (Quant::Count, Some(f)) => {
                        let js = self.branch(f, false);
                        self.patch_all(js, top);
                        self.emit(Ins::Incr(count));
                    }
                    (Quant::Count, None) => {
                        self.emit(Ins::Incr(count));
                    }
                }
                self.loc = loc;
                self.emit(Ins::Jump(top));
                let done = self.here();
                self.patch(exit, done);
                match q {
                    Quant::Count => {
                        self.emit(Ins::Local(count));
                    }
                    Quant::Any | Quant::All => {
                        self.emit(Ins::Bool(*q == Quant::All));
                        let end = self.emit(Ins::Jump(0));
                        let to = self.here();
                        self.patch_all(early, to);
                        self.emit(Ins::Bool(*q == Quant::Any));
                        let to = self.here();
                        self.patch(end, to);
                    }
                }
                self.next_hidden = saved;
            }
            NodeKind::Hook(h, args) => {
                self.exprs(args);
                self.loc = loc;
                let u = self.p.hooks[*h as usize];
                self.emit(Ins::Call(u));
            }
            NodeKind::Block(b) => self.block_value(b),
        }
    }
}

/// Whether evaluating the node cannot assign a local (no block in it).
fn plain(n: &Node) -> bool {
    match &n.kind {
        NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => true,
        NodeKind::Prim(_, args) | NodeKind::Call(_, args) => args.iter().all(plain),
        NodeKind::TeamVar(_, x) | NodeKind::Not(x) | NodeKind::Neg(x) => plain(x),
        NodeKind::Bin(_, a, b) | NodeKind::And(a, b) | NodeKind::Or(a, b) => plain(a) && plain(b),
        _ => false,
    }
}

/// Whether the code assigns local `slot` anywhere (`set`, `let`, a loop's variable).
fn assigns(b: &Block, slot: u16) -> bool {
    fn node(n: &Node, slot: u16) -> bool {
        match &n.kind {
            NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => false,
            NodeKind::TeamVar(_, x)
            | NodeKind::MoveEnd(x, _)
            | NodeKind::MoveKeeper(x)
            | NodeKind::Not(x)
            | NodeKind::Neg(x)
            | NodeKind::Table(_, x) => node(x, slot),
            NodeKind::Prim(_, xs)
            | NodeKind::Call(_, xs)
            | NodeKind::Hook(_, xs)
            | NodeKind::AreaList(xs)
            | NodeKind::IntList(xs) => xs.iter().any(|x| node(x, slot)),
            NodeKind::ListIndex(a, b)
            | NodeKind::And(a, b)
            | NodeKind::Or(a, b)
            | NodeKind::Bin(_, a, b) => node(a, slot) || node(b, slot),
            NodeKind::If(c, then, other) => {
                node(c, slot)
                    || assigns(then, slot)
                    || other.as_ref().is_some_and(|o| node(o, slot))
            }
            NodeKind::Match(x, arms) => node(x, slot) || arms.iter().any(|(_, v)| node(v, slot)),
            NodeKind::Quant(_, s, coll, filter) => {
                *s == slot || node(coll, slot) || filter.as_ref().is_some_and(|f| node(f, slot))
            }
            NodeKind::Block(b) => assigns(b, slot),
            // Not in an inlined body.
            NodeKind::ChooseFrom { .. }
            | NodeKind::ChooseArms { .. }
            | NodeKind::Roll { .. }
            | NodeKind::Modifiers { .. } => true,
        }
    }
    b.stmts.iter().any(|s| match s {
        Stmt::Let(x, n) | Stmt::SetLocal(x, _, n) => *x == slot || node(n, slot),
        Stmt::LetPair(a, c, n) => *a == slot || *c == slot || node(n, slot),
        Stmt::For(x, n, body) => *x == slot || node(n, slot) || assigns(body, slot),
        Stmt::Repeat(n, body, _) => node(n, slot) || assigns(body, slot),
        Stmt::Expr(n) => node(n, slot),
        Stmt::SetVar(_, t, _, n, _) => node(n, slot) || t.as_ref().is_some_and(|t| node(t, slot)),
        Stmt::Return(n) => n.as_ref().is_some_and(|n| node(n, slot)),
        Stmt::Emit(_, fields) => fields.iter().any(|(_, n)| node(n, slot)),
        Stmt::Break => false,
    })
}
