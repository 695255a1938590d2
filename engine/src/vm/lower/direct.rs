//! Lowering of plain expressions into closures evaluated directly ([`crate::vm::direct`]):
//! an expression of at least [`MIN_NODES`] nodes made only of locals, constants, roles,
//! state variables, light primitives and operators becomes one
//! [`Ins::Direct`](crate::vm::code::Ins::Direct) (or, as a condition, one
//! [`Ins::DirectBranch`](crate::vm::code::Ins::DirectBranch)) followed by its stack code,
//! which runs only when a closure gives up. Where they go in the code: `direct_sites.rs`.

use std::sync::Arc;

use super::super::kinds::{Ar, Kind, Tm};
use super::super::machine::{Direct, F, Src, Step};
use super::Lower;
use super::built::{Built, built};
use super::direct_ops::{binary, flag, int, konst, prim, read, team, typed_var, un};
use crate::board::AreaSet;
use crate::ir::*;
use crate::value::{Move, Ty, Value};

/// The fewest nodes an expression has to be worth a closure tree: smaller ones are one
/// or two typed instructions already.
pub(super) const MIN_NODES: u32 = 4;

/// The same closures of every kind, with `f` applied to the operand.
macro_rules! each {
    ($d:expr, $s:ident => $e:expr) => {
        match $d {
            Direct::Int($s) => Direct::Int($e),
            Direct::Bool($s) => Direct::Bool($e),
            Direct::Team($s) => Direct::Team($e),
            Direct::Area($s) => Direct::Area($e),
            Direct::Areas($s) => Direct::Areas($e),
            Direct::Name($s) => Direct::Name($e),
            Direct::Move($s) => Direct::Move($e),
        }
    };
}

/// The steps run first, then the value.
fn then<T: Kind>(steps: Arc<[Step]>, last: Src<T>) -> Src<T> {
    Src::Fn(Arc::new(move |m, base| {
        for s in steps.iter() {
            s(m, base)?;
        }
        last.get(m, base)
    }))
}

/// `if c { a } else { b }`.
fn pick<T: Kind>(c: Src<bool>, a: Src<T>, b: Src<T>) -> Src<T> {
    Src::Fn(Arc::new(move |m, base| {
        if c.get(m, base)? {
            a.get(m, base)
        } else {
            b.get(m, base)
        }
    }))
}

impl Lower<'_> {
    /// The closures of a plain expression (`None`: not plain).
    pub(super) fn direct(&mut self, n: &Node) -> Option<Built> {
        if let Some(b) = self.hoisted(n) {
            return b;
        }
        if !matches!(n.kind, NodeKind::Const(_) | NodeKind::Local(_)) {
            let mut calls = Vec::new();
            if let Some(v) = self.fold(n, &mut calls) {
                let d = konst(&v, n.ty)?;
                let exact = !matches!(v, Value::None);
                // While scores run nothing is counted and no memo computation is under
                // way (a decision never waits inside one): a score's calls go unrecorded.
                if calls.is_empty() || self.in_score {
                    return Some(Built { d, k: 1, exact });
                }
                // Outside scores and hooks' conditions the stack code's counted constant is
                // cheaper than a closure tree around it (2024 with every option: +1.3%).
                if !self.in_score && !self.counted_known && !self.gathering {
                    return None;
                }
                // Known now, but the inlined procedures it calls are counted as called.
                let calls: Arc<[u16]> = calls.into();
                let step: Step = Arc::new(move |m, _| {
                    m.direct_calls.extend_from_slice(&calls);
                    Some(())
                });
                let steps: Arc<[Step]> = Arc::new([step]);
                let d = each!(d, s => then(steps.clone(), s));
                return Some(Built { d, k: 1, exact });
            }
        }
        match &n.kind {
            NodeKind::Const(v) => Some(Built {
                d: konst(v, n.ty)?,
                k: 1,
                exact: !matches!(v, Value::None),
            }),
            NodeKind::Local(s) => {
                let s = self.slot(*s);
                if let Some((_, d, k)) = self.sunk_at(s) {
                    return built(d.clone(), *k);
                }
                let d = match n.ty {
                    Ty::Int => Direct::Int(Src::Local(s)),
                    Ty::Bool => Direct::Bool(Src::Local(s)),
                    Ty::Team => Direct::Team(Src::Local(s)),
                    Ty::Area => Direct::Area(Src::Local(s)),
                    Ty::Areas => Direct::Areas(Src::Local(s)),
                    Ty::Str => Direct::Name(Src::Local(s)),
                    Ty::Move => Direct::Move(Src::Local(s)),
                    _ => return None,
                };
                Some(Built {
                    d,
                    k: 1,
                    exact: n.ty != Ty::Areas,
                })
            }
            NodeKind::Role(r) => {
                self.reads_match();
                let r = *r;
                built(Direct::Team(read(move |m, _| Some(Tm(m.role(r))))), 1)
            }
            NodeKind::Var(v) => {
                self.reads_match();
                let v = *v;
                let d = typed_var(n.ty, v.scope, v.idx, None)?;
                Some(Built {
                    d,
                    k: 1,
                    exact: n.ty != Ty::Areas,
                })
            }
            NodeKind::TeamVar(v, t) => {
                self.reads_match();
                let v = *v;
                let t = self.direct(t)?;
                let team = team(t.d)?;
                let d = typed_var(n.ty, v.scope, v.idx, Some(team))?;
                Some(Built {
                    d,
                    k: t.k + 1,
                    exact: n.ty != Ty::Areas,
                })
            }
            NodeKind::Not(x) => {
                let x = self.direct(x)?;
                built(Direct::Bool(un(flag(x.d)?, |_, b: bool| Some(!b))), x.k + 1)
            }
            NodeKind::Neg(x) => {
                let x = self.direct(x)?;
                built(
                    Direct::Int(un(int(x.d)?, |_, i: i64| i.checked_neg())),
                    x.k + 1,
                )
            }
            NodeKind::And(a, b) | NodeKind::Or(a, b) => {
                let and = matches!(n.kind, NodeKind::And(..));
                let (an, a_mark) = (&**a, self.hoist_mark());
                let a = self.direct(a)?;
                let b_mark = self.hoist_mark();
                let b = self.direct(b)?;
                if and {
                    self.guard_hoisted(an, a_mark, b_mark);
                }
                let k = a.k + b.k + 1;
                let (a, b) = (flag(a.d)?, flag(b.d)?);
                let f: F<bool> = if and {
                    Arc::new(move |m, base| Some(a.get(m, base)? && b.get(m, base)?))
                } else {
                    Arc::new(move |m, base| Some(a.get(m, base)? || b.get(m, base)?))
                };
                built(Direct::Bool(Src::Fn(f)), k)
            }
            NodeKind::MoveEnd(x, from) => {
                let x = self.move_operand(x)?;
                let Direct::Move(mv) = x.d else { return None };
                let d = if *from {
                    un(mv, |_, mv: Move| Some(Ar(mv.from)))
                } else {
                    un(mv, |_, mv: Move| Some(Ar(mv.to)))
                };
                built(Direct::Area(d), x.k + 1)
            }
            NodeKind::MoveKeeper(x) => {
                let x = self.move_operand(x)?;
                let Direct::Move(mv) = x.d else { return None };
                built(Direct::Bool(un(mv, |_, mv: Move| Some(mv.keeper))), x.k + 1)
            }
            NodeKind::Bin(op, a, b) if super::fused::shape(*op, a, b) => self.fused(*op, a, b),
            NodeKind::Bin(op, a, b) => {
                let a = self.direct(a)?;
                let b = self.direct(b)?;
                built(binary(*op, a.d, b.d)?, a.k + b.k + 1)
            }
            NodeKind::Prim(p, args) => {
                if !super::super::fold::constant_prim(*p) {
                    self.reads_match();
                }
                let mut ds = Vec::with_capacity(args.len());
                let mut k = 1;
                for a in args.iter() {
                    let a = self.direct(a)?;
                    ds.push(a.d);
                    k += a.k;
                }
                built(prim(*p, ds, n.ty)?, k)
            }
            NodeKind::If(c, yes, Some(no)) => {
                let c = self.direct(c)?;
                let yes = self.block(yes)?;
                let no = self.direct(no)?;
                if !yes.exact || !no.exact {
                    return None;
                }
                let k = c.k + yes.k + no.k + 1;
                let c = flag(c.d)?;
                // An area in one branch and a set in the other (`if ... { ball_area() }
                // else { [] }`): the area as the set of it. The stack code leaves the area
                // itself, which an operand reads as that set: not exact on its own.
                let set = |a: Src<Ar>| un(a, |_, a: Ar| Some(AreaSet::one(a.0)));
                let wide = |d| {
                    Some(Built {
                        d: Direct::Areas(d),
                        k,
                        exact: false,
                    })
                };
                let d = match (yes.d, no.d) {
                    (Direct::Area(a), Direct::Areas(b)) => return wide(pick(c, set(a), b)),
                    (Direct::Areas(a), Direct::Area(b)) => return wide(pick(c, a, set(b))),
                    (Direct::Int(a), Direct::Int(b)) => Direct::Int(pick(c, a, b)),
                    (Direct::Bool(a), Direct::Bool(b)) => Direct::Bool(pick(c, a, b)),
                    (Direct::Team(a), Direct::Team(b)) => Direct::Team(pick(c, a, b)),
                    (Direct::Area(a), Direct::Area(b)) => Direct::Area(pick(c, a, b)),
                    (Direct::Areas(a), Direct::Areas(b)) => Direct::Areas(pick(c, a, b)),
                    (Direct::Name(a), Direct::Name(b)) => Direct::Name(pick(c, a, b)),
                    (Direct::Move(a), Direct::Move(b)) => Direct::Move(pick(c, a, b)),
                    _ => return None,
                };
                built(d, k)
            }
            NodeKind::Modifiers { rows, .. } => self.modifiers(rows),
            NodeKind::Hook(h, args) => {
                self.reads_match();
                self.hook_call(*h as usize, args)
            }
            NodeKind::Block(b) if self.in_score || self.gathering => self.block(b),
            // A block of one expression is that expression (an `if`'s `else { [] }`).
            NodeKind::Block(b) if matches!(&b.stmts[..], [Stmt::Expr(_)]) => self.block(b),
            NodeKind::Match(s, arms) => self.direct_match(s, arms),
            NodeKind::Call(idx, args) => {
                let inline = if self.in_score {
                    self.inline_scores[*idx as usize]
                } else {
                    // Outside scores only a procedure of one expression: a longer body's
                    // `let`s cost more as closures than as stack code (but not in a loop
                    // that is closures or nothing, `moves_loop.rs`). Closures have no
                    // effects: a procedure with effects is inlined as stack code only.
                    self.inline[*idx as usize]
                        && self.rs.procs[*idx as usize].pure
                        && (self.gathering
                            || self.rs.procs[*idx as usize].code.body.stmts.len() == 1)
                };
                if inline { self.call(*idx, args) } else { None }
            }
            _ => None,
        }
    }

    /// The operand of a move's end or goalkeeper flag. A local the checker could only
    /// type as any value (the answer of a `choose ... skip`: a move or none) is read as a
    /// move: where it holds none the read gives up and the stack code runs, which does
    /// what it does with none. (The rules read a move's parts after testing for none.)
    fn move_operand(&mut self, x: &Node) -> Option<Built> {
        match x.kind {
            NodeKind::Local(s) if x.ty == Ty::Any => {
                let s = self.slot(s);
                if self.sunk_at(s).is_some() {
                    return None;
                }
                built(Direct::Move(Src::Local(s)), 1)
            }
            _ => self.direct(x),
        }
    }

    /// A block of `let`s ending in an expression: its value. A `let` that can be sunk
    /// (`sink.rs`) is not bound: its closures stand where it is read, and a guard of the
    /// locals they read runs after the bound ones.
    fn block(&mut self, b: &Block) -> Option<Built> {
        let mark = self.sunk.len();
        let built = self.block_in(b);
        self.sunk.truncate(mark);
        built
    }

    fn block_in(&mut self, b: &Block) -> Option<Built> {
        let (last, lets) = b.stmts.split_last()?;
        let Stmt::Expr(last) = last else {
            return None;
        };
        let mut steps = Vec::with_capacity(lets.len());
        let mut guards = Vec::new();
        let mut k = 0;
        for (i, s) in lets.iter().enumerate() {
            let Stmt::Let(slot, n) = s else {
                return None;
            };
            let dst = self.slot(*slot);
            // The same for every option of a decision: read from its hoisted local.
            if self.invariant(n) {
                let d = self.direct(n)?;
                if self.is_hoisted(&d.d) {
                    k += d.k + 1;
                    self.sunk.push((dst, d.d, d.k));
                    continue;
                }
            }
            let mut gs = Vec::new();
            if self.sure(n, &mut gs) {
                let d = self.direct(n)?;
                if !d.exact {
                    return None;
                }
                // Read more than twice, a larger expression costs more worked out at
                // each read than bound once.
                if d.k > 2 && super::sink::uses(&b.stmts[i + 1..], *slot) > 2 {
                    let (step, ks) = self.bind_built(dst, d);
                    steps.push(step);
                    k += ks;
                    continue;
                }
                for g in gs {
                    if !guards.contains(&g) {
                        guards.push(g);
                    }
                }
                k += d.k + 1;
                self.sunk.push((dst, d.d, d.k));
                continue;
            }
            // In a score, read once where the block's value always works it out: its
            // closures stand there (worked out once either way; nothing is counted in a
            // score but a hook's operation, and a closure that gives up gives up the
            // whole value wherever it stands).
            if self.in_score
                && super::sink::uses(&b.stmts[i + 1..], *slot) == 1
                && super::sink::read_surely(last, *slot)
            {
                let d = self.direct(n)?;
                if !d.exact {
                    return None;
                }
                k += d.k + 1;
                self.sunk.push((dst, d.d, d.k));
                continue;
            }
            let (step, ks) = self.bind(dst, n)?;
            steps.push(step);
            k += ks;
        }
        if !guards.is_empty() {
            steps.push(super::sink::guard(guards));
        }
        let last = self.direct(last)?;
        if steps.is_empty() {
            return Some(Built {
                k: k + last.k,
                ..last
            });
        }
        let steps: Arc<[Step]> = steps.into();
        Some(Built {
            d: each!(last.d, s => then(steps.clone(), s)),
            k: k + last.k,
            exact: last.exact,
        })
    }

    /// A step putting the node's value in frame slot `dst` (a local is copied as it is).
    pub(super) fn bind(&mut self, dst: u16, n: &Node) -> Option<(Step, u32)> {
        let dst = dst as usize;
        if let NodeKind::Local(src) = n.kind
            && self.sunk_at(self.slot(src)).is_none()
        {
            let src = self.slot(src) as usize;
            let step: Step = Arc::new(move |m, base| {
                let v = m.stack.get(base + src)?.clone();
                *m.stack.get_mut(base + dst)? = v;
                Some(())
            });
            return Some((step, 1));
        }
        let b = self.direct(n)?;
        if !b.exact {
            return None;
        }
        Some(self.bind_built(dst as u16, b))
    }

    /// A step putting the value of built closures in frame slot `dst`.
    fn bind_built(&self, dst: u16, b: Built) -> (Step, u32) {
        let dst = dst as usize;
        // An integer (a count, a score's part) written as one, not through a `Value` made
        // by kind.
        let step: Step = match b.d {
            Direct::Int(s) => Arc::new(move |m, base| {
                let x = s.get(m, base)?;
                *m.stack.get_mut(base + dst)? = Value::Int(x);
                Some(())
            }),
            d => Arc::new(move |m, base| {
                let v = d.value(m, base)?;
                *m.stack.get_mut(base + dst)? = v;
                Some(())
            }),
        };
        (step, b.k + 1)
    }

    /// An inlined call of procedure `idx`, as [`Lower::inlined`] lays it out: its
    /// locals above the caller's, an argument that is a local the body never binds used
    /// where it is.
    fn call(&mut self, idx: u16, args: &[Node]) -> Option<Built> {
        let rs = self.rs;
        let p = &rs.procs[idx as usize];
        let saved = self.next_hidden;
        let at = self.hidden(p.code.slots);
        let mut map: Vec<u16> = (0..p.code.slots).map(|i| at + i).collect();
        let count: Step = Arc::new(move |m, _| {
            m.direct_calls.push(idx);
            Some(())
        });
        // Not in a score: nothing is counted or recorded while scores run.
        let mut steps = if self.in_score {
            Vec::new()
        } else {
            vec![count]
        };
        let mut k = 1;
        let mut ok = true;
        for (i, a) in args.iter().enumerate() {
            match &a.kind {
                // The closures write a parameter only where the body binds it (a modifier
                // list's closures write no local: `walk::assigns` is the stack code's test).
                NodeKind::Local(s) if !super::walk::binds(&p.code.body, i as u16) => {
                    map[i] = self.slot(*s);
                }
                // The same for every option: its hoisted local is used where it is.
                _ if self.invariant(a) && !super::walk::binds(&p.code.body, i as u16) => {
                    match self.direct(a) {
                        Some(d) if self.is_hoisted(&d.d) => {
                            map[i] = super::hoist::local_slot(&d.d).unwrap_or(at + i as u16);
                        }
                        Some(d) if d.exact => {
                            let (step, ka) = self.bind_built(at + i as u16, d);
                            steps.push(step);
                            k += ka;
                        }
                        _ => ok = false,
                    }
                }
                _ => match self.bind(at + i as u16, a) {
                    Some((step, ka)) => {
                        steps.push(step);
                        k += ka;
                    }
                    None => ok = false,
                },
            }
        }
        let body = if ok {
            let outer = std::mem::replace(&mut self.map, map);
            let body = self.block(&p.code.body);
            self.map = outer;
            body
        } else {
            None
        };
        self.next_hidden = saved;
        let body = body?;
        if steps.is_empty() {
            return Some(Built {
                k: k + body.k,
                ..body
            });
        }
        let steps: Arc<[Step]> = steps.into();
        Some(Built {
            d: each!(body.d, s => then(steps.clone(), s)),
            k: k + body.k,
            exact: body.exact,
        })
    }
}
