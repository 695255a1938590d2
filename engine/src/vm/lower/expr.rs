//! Lowering of expressions: every kind of IR node into the instructions that leave its
//! value, after trying to fold it into a constant.

use fuba_grammar::ast::Quant;

use super::super::code::*;
use super::Lower;
use crate::ir::*;
use crate::prims::Prim;
use crate::value::{Sym, Value};

impl<'r> Lower<'r> {
    pub(super) fn konst(&mut self, v: &Value) {
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

    pub(super) fn exprs(&mut self, ns: &'r [Node]) {
        for n in ns {
            self.expr(n);
        }
    }

    /// The node's value when it is known at compile time ([`crate::vm::fold`]), with the
    /// procedures it counts as called.
    pub(super) fn fold(&self, n: &Node, calls: &mut Vec<u16>) -> Option<Value> {
        // Inside an inlined body the locals are not known here.
        super::super::fold::Fold {
            rs: self.rs,
            inline: &self.inline,
        }
        .value(n, &[], calls)
    }

    /// Code that leaves the node's value.
    pub(super) fn expr(&mut self, n: &'r Node) {
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
            if self.direct_expr(n) {
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
                if self.typed_prim(*p, args) {
                    return;
                }
                if let Some((s, rest)) = set_in_local(*p, args) {
                    self.expr(rest);
                    self.loc = loc;
                    let slot = self.slot(s);
                    self.emit(Ins::MovesOfLocal(*p, slot));
                    return;
                }
                self.exprs(args);
                self.loc = loc;
                self.emit(Ins::Prim(*p));
            }
            NodeKind::Call(idx, args) => {
                let inline = if self.in_score {
                    self.inline_scores[*idx as usize]
                } else {
                    self.inline[*idx as usize]
                };
                if inline {
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
                let saved = self.next_hidden;
                // A local is tested where it is (an arm's pattern is tested before any
                // arm's value runs, so nothing can change it in between); any other
                // value is kept in a hidden local first.
                let h = if let NodeKind::Local(slot) = s.kind {
                    self.slot(slot)
                } else {
                    self.expr(s);
                    let h = self.hidden(1);
                    self.emit(Ins::Store(h));
                    h
                };
                self.loc = loc;
                let mut ends = Vec::with_capacity(arms.len());
                if let Some((names, arm_of, other)) = name_table(arms) {
                    // Many names: one look-up jumps to the arm.
                    let tb = self.p.match_tables.len();
                    self.p.match_tables.push(MatchTable::default());
                    self.emit(Ins::MatchJump(h, tb as u32));
                    let mut starts = Vec::with_capacity(arms.len());
                    for (_, value) in arms.iter() {
                        starts.push(self.here());
                        self.expr(value);
                        ends.push(self.emit(Ins::Jump(0)));
                    }
                    self.loc = loc;
                    let no_arm = self.emit(Ins::NoArm(h)) as u32;
                    self.p.match_tables[tb] = MatchTable {
                        names,
                        targets: arm_of.iter().map(|&a| starts[a]).collect(),
                        other: other.map_or(no_arm, |a| starts[a]),
                    };
                } else {
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
                }
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
                prompt,
                note,
            } => {
                self.expr(by);
                // `unmoved_moves(set, t)` offered at once: its operands only (the narrowed
                // set is never made, `Ins::ChooseUnmoved`), a set in a local read in place.
                let unmoved = match &options.kind {
                    NodeKind::Prim(Prim::UnmovedMoves, args) if args.len() == 2 => {
                        let set = match args[0].kind {
                            NodeKind::Local(s) => self.slot(s),
                            _ => {
                                self.expr(&args[0]);
                                NO_OPD
                            }
                        };
                        self.expr(&args[1]);
                        Some(set)
                    }
                    _ => {
                        self.expr(options);
                        None
                    }
                };
                self.loc = loc;
                let site = self.p.decisions.len();
                let pure_prefer = prefer.as_ref().is_none_or(|(_, s)| self.quiet.node(s));
                let prompt = self.prompt_site(prompt.as_deref(), site, false);
                let note = note
                    .as_ref()
                    .map(|(slot, n)| (self.slot(*slot), self.prompt_site(Some(n), site, true)));
                self.p.decisions.push(DecisionSite {
                    note,
                    kind: *kind,
                    secret: *secret,
                    skip: *skip,
                    arms: Box::new([]),
                    prefer: Box::new([prefer.as_ref().map(|(slot, _)| (self.slot(*slot), 0))]),
                    pure_prefer,
                    prompt,
                    hoist: Box::new([]),
                    keep: None,
                    word: None,
                    word_own: None,
                });
                if let Some((_, score)) = prefer {
                    let place = self.place_of();
                    self.scores.push((score, site, 0, self.next_hidden, place));
                }
                self.emit(match unmoved {
                    Some(set) => Ins::ChooseUnmoved(site as u32, set),
                    None => Ins::ChooseFrom(site as u32),
                });
            }
            NodeKind::ChooseArms {
                kind,
                by,
                secret,
                arms,
                prompt,
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
                let prompt = self.prompt_site(prompt.as_deref(), site, false);
                self.p.decisions.push(DecisionSite {
                    note: None,
                    prompt,
                    kind: *kind,
                    secret: *secret,
                    skip: None,
                    arms: arms.iter().map(|a| a.label).collect(),
                    prefer: arms
                        .iter()
                        .map(|a| a.prefer.as_ref().map(|_| (0, 0)))
                        .collect(),
                    pure_prefer,
                    hoist: Box::new([]),
                    keep: None,
                    word: None,
                    word_own: None,
                });
                for (i, a) in arms.iter().enumerate() {
                    if let Some(p) = &a.prefer {
                        let place = self.place_of();
                        self.scores.push((p, site, i, self.next_hidden, place));
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

/// The fewest arms a `match` on names has to have to be worth a table: fewer are tested in
/// turn.
const MATCH_TABLE_ARMS: usize = 6;

/// A `match` whose patterns are all names (an arm matching anything allowed) as a table:
/// the names sorted, the arm each goes to (the first naming it, as testing in order finds),
/// and the arm matching anything, if any (the arms after it are never reached). `None`:
/// too few arms, or another kind of pattern: tested arm by arm.
type NameTable = (Box<[Sym]>, Vec<usize>, Option<usize>);

fn name_table(arms: &[(Box<[Pat]>, Node)]) -> Option<NameTable> {
    if arms.len() < MATCH_TABLE_ARMS {
        return None;
    }
    let mut map: Vec<(Sym, usize)> = Vec::new();
    let mut other = None;
    'arms: for (i, (pats, _)) in arms.iter().enumerate() {
        for p in pats.iter() {
            match p {
                Pat::Value(Value::Str(s)) => {
                    if !map.iter().any(|(x, _)| x == s) {
                        map.push((*s, i));
                    }
                }
                Pat::Any => {
                    other = Some(i);
                    break 'arms;
                }
                _ => return None,
            }
        }
    }
    map.sort_unstable();
    let names = map.iter().map(|(s, _)| *s).collect();
    Some((names, map.into_iter().map(|(_, a)| a).collect(), other))
}

/// The local and the other operand of `unmoved_moves`, `moves_from` or `moves_to` whose
/// move set is a local, when the other operand cannot assign a local
/// ([`super::walk::plain`]): the set is then read in place after the operand is worked
/// out ([`Ins::MovesOfLocal`]).
fn set_in_local(p: Prim, args: &[Node]) -> Option<(u16, &Node)> {
    let (Prim::UnmovedMoves | Prim::MovesFrom | Prim::MovesTo, [set, rest]) = (p, args) else {
        return None;
    };
    match set.kind {
        NodeKind::Local(s) if super::walk::plain(rest) => Some((s, rest)),
        _ => None,
    }
}
