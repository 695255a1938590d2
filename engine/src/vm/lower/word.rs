//! Lowering of loops gathering moves into word code ([`crate::vm::word`]), from the same
//! checked code as their closures: locals, constants, roles, state variables, the
//! operators, `if`, `match` on names, blocks of `let`s, procedures inlined whole (the
//! larger [`crate::vm::inline::INLINE_NATIVE_NODES`] plan: machine code pays nothing per
//! node) and any primitive without an effect. Anything else, or a program needing more
//! than [`REGS`](crate::vm::word::REGS) registers, is left to the closures (`None`).
//!
//! A `let` inside the expression lives in a register only: nothing reads its frame slot
//! after the expression (it is out of scope there), as with the closures' sunk `let`s.

use super::Lower;
use super::word_build::{Build, R};
use crate::ir::{Block, Node, NodeKind, Op, Pat, Stmt};
use crate::prims::Prim;
use crate::value::{Ty, Value};
use crate::vm::word::{K, W, WOp, WordProg, move_word, word_signature};

/// A constant as a word.
fn const_word(v: &Value, ty: Ty) -> Option<(u64, K)> {
    Some(match v {
        Value::Int(i) => (*i as u64, K::Int),
        Value::Bool(b) => (u64::from(*b), K::Bool),
        Value::Team(t) => (u64::from(*t), K::Team),
        Value::Area(a) => (u64::from(*a), K::Area),
        Value::Areas(s) => (u64::from(s.0), K::Areas),
        Value::Str(s) => (u64::from(*s), K::Name),
        Value::Move(m) => (move_word(*m), K::Move),
        Value::None if ty == Ty::Areas => (0, K::Areas),
        _ => return None,
    })
}

/// A branch's value where the `if`'s is a set: an area read as the set of it (not
/// exact: the stack code's value is the area).
fn widen(b: &mut Build, r: R, k: K) -> Option<R> {
    if r.k != K::Area || k != K::Areas {
        return Some(r);
    }
    let reg = b.reg()?;
    b.code.push(W::ToSet(reg, r.reg));
    Some(R {
        reg,
        k,
        exact: false,
    })
}

impl Lower<'_> {
    /// An operand of kind `want`: an area read as the set of it where a set is wanted.
    pub(super) fn woperand(&mut self, b: &mut Build, n: &Node, want: K) -> Option<R> {
        let r = self.wnode(b, n)?;
        if r.k == want {
            return Some(r);
        }
        if r.k == K::Area && want == K::Areas {
            let reg = b.reg()?;
            b.code.push(W::ToSet(reg, r.reg));
            return Some(R {
                reg,
                k: K::Areas,
                exact: r.exact,
            });
        }
        None
    }

    /// A local of the code being lowered (an inlined call's, a `let` of the expression's,
    /// or the frame's).
    fn wlocal(&mut self, b: &mut Build, slot: u16, ty: Ty) -> Option<R> {
        let want = K::of(ty)?;
        let held = match b.scopes.last() {
            Some(scope) => Some((*scope.get(slot as usize)?)?),
            None => b.lets.iter().rev().find(|l| l.0 == slot).map(|l| l.1),
        };
        if let Some(r) = held {
            return match (r.k, want) {
                (x, y) if x == y => Some(r),
                // An area where a set is read (an argument of a set parameter).
                (K::Area, K::Areas) => {
                    let reg = b.reg()?;
                    b.code.push(W::ToSet(reg, r.reg));
                    Some(R {
                        reg,
                        k: K::Areas,
                        exact: false,
                    })
                }
                _ => None,
            };
        }
        let s = self.slot(slot);
        if self.sunk_at(s).is_some() {
            return None;
        }
        let reg = b.frame_local(s, want)?;
        Some(R {
            reg,
            k: want,
            exact: want != K::Areas,
        })
    }

    /// The node's value in a register.
    pub(super) fn wnode(&mut self, b: &mut Build, n: &Node) -> Option<R> {
        if let Some(r) = self.whoisted(b, n) {
            return r;
        }
        if !matches!(n.kind, NodeKind::Const(_) | NodeKind::Local(_)) {
            let mut calls = Vec::new();
            if let Some(v) = self.fold(n, &mut calls) {
                let (w, k) = const_word(&v, n.ty)?;
                for c in calls.into_iter().filter(|_| !b.quiet) {
                    b.code.push(W::Count(c));
                }
                let r = b.konst(w, k)?;
                return Some(R {
                    exact: !matches!(v, Value::None),
                    ..r
                });
            }
        }
        match &n.kind {
            NodeKind::Const(v) => {
                let (w, k) = const_word(v, n.ty)?;
                let r = b.konst(w, k)?;
                Some(R {
                    exact: !matches!(v, Value::None),
                    ..r
                })
            }
            NodeKind::Local(s) => self.wlocal(b, *s, n.ty),
            NodeKind::Role(role) => {
                let reg = b.reg()?;
                b.code.push(W::Role(reg, *role));
                Some(R {
                    reg,
                    k: K::Team,
                    exact: true,
                })
            }
            NodeKind::Var(v) => {
                let k = K::of(n.ty)?;
                let reg = b.reg()?;
                b.code.push(W::Var(reg, v.scope, v.idx, k));
                Some(R {
                    reg,
                    k,
                    exact: k != K::Areas,
                })
            }
            NodeKind::TeamVar(v, t) => {
                let k = K::of(n.ty)?;
                let t = self.woperand(b, t, K::Team)?;
                let reg = b.reg()?;
                b.code.push(W::TeamVar(reg, v.scope, v.idx, k, t.reg));
                Some(R {
                    reg,
                    k,
                    exact: k != K::Areas,
                })
            }
            NodeKind::Not(x) | NodeKind::Neg(x) => {
                let not = matches!(n.kind, NodeKind::Not(_));
                let x = self.woperand(b, x, if not { K::Bool } else { K::Int })?;
                let reg = b.reg()?;
                b.code.push(if not {
                    W::Not(reg, x.reg)
                } else {
                    W::Neg(reg, x.reg)
                });
                Some(R { reg, ..x })
            }
            NodeKind::And(x, y) | NodeKind::Or(x, y) => {
                let and = matches!(n.kind, NodeKind::And(..));
                let reg = b.reg()?;
                let x = self.woperand(b, x, K::Bool)?;
                b.code.push(W::Copy(reg, x.reg));
                let skip = b.code.len();
                if and {
                    b.code.push(W::JumpIfNot(reg, 0));
                } else {
                    // `or`: on to the second operand only when the first is false.
                    let t = b.reg()?;
                    b.code.push(W::Not(t, reg));
                    b.code.push(W::JumpIfNot(t, 0));
                }
                let skip = if and { skip } else { skip + 1 };
                let y = self.woperand(b, y, K::Bool)?;
                b.code.push(W::Copy(reg, y.reg));
                let end = b.at()?;
                b.patch(skip, end);
                Some(R {
                    reg,
                    k: K::Bool,
                    exact: true,
                })
            }
            NodeKind::Bin(op, x, y) => self.wbin(b, *op, x, y),
            NodeKind::MoveEnd(x, from) => {
                let x = self.woperand(b, x, K::Move)?;
                let reg = b.reg()?;
                b.code.push(W::MoveEnd(reg, x.reg, *from));
                Some(R {
                    reg,
                    k: K::Area,
                    exact: true,
                })
            }
            NodeKind::MoveKeeper(x) => {
                let x = self.woperand(b, x, K::Move)?;
                let reg = b.reg()?;
                b.code.push(W::MoveKeeper(reg, x.reg));
                Some(R {
                    reg,
                    k: K::Bool,
                    exact: true,
                })
            }
            NodeKind::Prim(p, args) => self.wprim(b, *p, args, n.ty),
            NodeKind::If(c, yes, Some(no)) => {
                let k = K::of(n.ty)?;
                let reg = b.reg()?;
                let c = self.woperand(b, c, K::Bool)?;
                let jump = b.code.len();
                b.code.push(W::JumpIfNot(c.reg, 0));
                let y = self.wblock(b, yes)?;
                let y = widen(b, y, k)?;
                b.code.push(W::Copy(reg, y.reg));
                let end = b.code.len();
                b.code.push(W::Jump(0));
                let at = b.at()?;
                b.patch(jump, at);
                let z = self.wnode(b, no)?;
                let z = widen(b, z, k)?;
                b.code.push(W::Copy(reg, z.reg));
                let at = b.at()?;
                b.patch(end, at);
                (y.k == k && z.k == k).then_some(R {
                    reg,
                    k,
                    exact: y.exact && z.exact,
                })
            }
            NodeKind::Block(blk) => self.wblock(b, blk),
            NodeKind::Match(s, arms) => self.wmatch(b, s, arms, n.ty),
            NodeKind::Call(idx, args) => self.wcall(b, *idx, args),
            NodeKind::Modifiers { rows, .. } => self.wmods(b, rows),
            NodeKind::Hook(h, args) if n.ty == Ty::Int => self.whook(b, *h as usize, args),
            _ => None,
        }
    }

    fn wbin(&mut self, b: &mut Build, op: Op, x: &Node, y: &Node) -> Option<R> {
        let (wop, ka, kr) = match op {
            Op::Add => (WOp::Add, K::Int, K::Int),
            Op::Sub => (WOp::Sub, K::Int, K::Int),
            Op::Mul => (WOp::Mul, K::Int, K::Int),
            Op::Div => (WOp::Div, K::Int, K::Int),
            Op::Rem => (WOp::Rem, K::Int, K::Int),
            Op::Lt => (WOp::Lt, K::Int, K::Bool),
            Op::Le => (WOp::Le, K::Int, K::Bool),
            Op::Gt => (WOp::Gt, K::Int, K::Bool),
            Op::Ge => (WOp::Ge, K::Int, K::Bool),
            Op::Union => (WOp::Union, K::Areas, K::Areas),
            Op::Inter => (WOp::Inter, K::Areas, K::Areas),
            Op::Diff => (WOp::Diff, K::Areas, K::Areas),
            Op::InAreas => {
                let a = self.woperand(b, x, K::Area)?;
                let s = self.woperand(b, y, K::Areas)?;
                let reg = b.reg()?;
                b.code.push(W::Bin(WOp::In, reg, a.reg, s.reg));
                return Some(R {
                    reg,
                    k: K::Bool,
                    exact: true,
                });
            }
            // Equality of two operands of one kind read strictly (as the closures do).
            Op::Eq | Op::Ne => {
                let a = self.wnode(b, x)?;
                let c = self.wnode(b, y)?;
                if a.k != c.k || matches!(a.k, K::Areas | K::Move) {
                    return None;
                }
                let reg = b.reg()?;
                let w = if op == Op::Eq { WOp::Eq } else { WOp::Ne };
                b.code.push(W::Bin(w, reg, a.reg, c.reg));
                return Some(R {
                    reg,
                    k: K::Bool,
                    exact: true,
                });
            }
            _ => return None,
        };
        let a = self.woperand(b, x, ka)?;
        let c = self.woperand(b, y, ka)?;
        let reg = b.reg()?;
        b.code.push(W::Bin(wop, reg, a.reg, c.reg));
        Some(R {
            reg,
            k: kr,
            exact: true,
        })
    }

    fn wprim(&mut self, b: &mut Build, p: Prim, args: &[Node], ty: Ty) -> Option<R> {
        if matches!(p, Prim::Max | Prim::Min) {
            let [x, y] = args else { return None };
            let x = self.woperand(b, x, K::Int)?;
            let y = self.woperand(b, y, K::Int)?;
            let reg = b.reg()?;
            let op = if p == Prim::Max { WOp::Max } else { WOp::Min };
            b.code.push(W::Bin(op, reg, x.reg, y.reg));
            return Some(R {
                reg,
                k: K::Int,
                exact: true,
            });
        }
        let mut kinds = [K::Int; 5];
        let (kinds, out) = match word_signature(p) {
            Some(sig) => sig,
            // Any other primitive without an effect, through its values.
            _ if !p.has_effect() && p.arity() <= 5 => {
                for (k, t) in kinds.iter_mut().zip(p.params()) {
                    *k = K::of(*t)?;
                }
                (&kinds[..p.arity()], K::of(p.ret())?)
            }
            _ => return None,
        };
        if kinds.len() != args.len() || K::of(ty) != Some(out) {
            return None;
        }
        let mut ops = [0u8; 5];
        for (i, (a, k)) in args.iter().zip(kinds).enumerate() {
            ops[i] = self.woperand(b, a, *k)?.reg;
        }
        let reg = b.reg()?;
        b.code.push(W::Prim(p, reg, ops));
        Some(R {
            reg,
            k: out,
            exact: true,
        })
    }

    /// A block of `let`s and a last expression.
    fn wblock(&mut self, b: &mut Build, blk: &Block) -> Option<R> {
        let (last, lets) = blk.stmts.split_last()?;
        let Stmt::Expr(last) = last else { return None };
        let mark = b.lets.len();
        for s in lets {
            let Stmt::Let(slot, n) = s else { return None };
            self.wlet(b, *slot, n)?;
        }
        let r = self.wnode(b, last);
        b.lets.truncate(mark);
        r
    }

    /// `let slot = n`, into a register.
    fn wlet(&mut self, b: &mut Build, slot: u16, n: &Node) -> Option<()> {
        let r = self.wnode(b, n)?;
        match b.scopes.last_mut() {
            Some(scope) => *scope.get_mut(slot as usize)? = Some(r),
            None => b.lets.push((slot, r)),
        }
        Some(())
    }

    fn wmatch(
        &mut self,
        b: &mut Build,
        s: &Node,
        arms: &[(Box<[Pat]>, Node)],
        ty: Ty,
    ) -> Option<R> {
        let k = K::of(ty)?;
        let s = self.woperand(b, s, K::Name)?;
        let reg = b.reg()?;
        let mut ends = Vec::new();
        let mut any = false;
        for (pats, value) in arms.iter() {
            let mut names = Vec::new();
            for p in pats.iter() {
                match p {
                    Pat::Value(Value::Str(x)) => names.push(*x),
                    Pat::Any => any = true,
                    _ => return None,
                }
            }
            let test = (!any).then_some(b.code.len());
            if !any {
                let at = u16::try_from(b.names.len()).ok()?;
                let count = u8::try_from(names.len()).ok()?;
                b.names.extend(names);
                b.code.push(W::UnlessName(s.reg, at, count, 0));
            }
            let v = self.wnode(b, value)?;
            if v.k != k || !v.exact {
                return None;
            }
            b.code.push(W::Copy(reg, v.reg));
            ends.push(b.code.len());
            b.code.push(W::Jump(0));
            if let Some(t) = test {
                let at = b.at()?;
                b.patch(t, at);
            }
            if any {
                break;
            }
        }
        if !any {
            // No arm fits: the stack code's error.
            b.code.push(W::GiveUp);
        }
        let end = b.at()?;
        for e in ends {
            b.patch(e, end);
        }
        Some(R {
            reg,
            k,
            exact: true,
        })
    }

    /// An inlined call: counted, its arguments into registers, its body of `let`s and a
    /// last expression lowered in place.
    fn wcall(&mut self, b: &mut Build, idx: u16, args: &[Node]) -> Option<R> {
        // A score inlines what the closures of scores inline (procedures that are quiet
        // there, not only pure ones).
        let plan = if b.quiet {
            &self.inline_scores
        } else {
            &self.inline_native
        };
        if !*plan.get(idx as usize)? {
            return self.wcall_out(b, idx, args);
        }
        let rs = self.rs;
        let p = &rs.procs[idx as usize];
        if !b.quiet {
            b.code.push(W::Count(idx));
        }
        let mut scope = vec![None; p.code.slots as usize];
        for (i, a) in args.iter().enumerate() {
            *scope.get_mut(i)? = Some(self.wnode(b, a)?);
        }
        b.scopes.push(scope);
        let shared = b.enter_call(idx);
        let r = self.wblock(b, &p.code.body);
        b.leave_call(shared);
        b.scopes.pop();
        let r = r?;
        (Some(r.k) == K::of(p.ret)).then_some(r)
    }

    /// A call of a pure procedure that is not inlined (2024's remembered `offside_areas`
    /// in the moves of a reaction): the match runs it ([`W::Call`]). Its arguments must
    /// be words exactly as the stack code passes them (an area where a set is wanted is
    /// not: the callee would see a set); a score's program (nothing counted, and it may
    /// not run the stack machine) makes none.
    fn wcall_out(&mut self, b: &mut Build, idx: u16, args: &[Node]) -> Option<R> {
        let p = &self.rs.procs[idx as usize];
        if b.quiet || !p.pure || args.len() != p.params.len() || args.len() > 5 {
            return None;
        }
        let out = K::of(p.ret)?;
        let mut regs = [0u8; 5];
        for ((reg, a), (_, ty)) in regs.iter_mut().zip(args).zip(&p.params) {
            let r = self.wnode(b, a)?;
            if Some(r.k) != K::of(*ty) || !r.exact {
                return None;
            }
            *reg = r.reg;
        }
        let reg = b.reg()?;
        b.code.push(W::Call(reg, idx, regs));
        Some(R {
            reg,
            k: out,
            // A set may come back as an area or no value, read as a set.
            exact: out != K::Areas,
        })
    }

    /// Word code of a loop gathering moves (its shape checked by `moves_loop.rs`): the
    /// areas taken one by one, the body's `let`s in registers, each addition noted.
    pub(super) fn word_loop(
        &mut self,
        var: u16,
        over: &Node,
        body: &Block,
        accs: &[u16],
    ) -> Option<WordProg> {
        if self.no_direct || self.in_score || self.hoist.is_some() || !self.sunk.is_empty() {
            return None;
        }
        let mut b = Build::default();
        let o = self.woperand(&mut b, over, K::Areas)?;
        let set = b.reg()?;
        b.code.push(W::Copy(set, o.reg));
        let v = b.reg()?;
        b.lets.push((
            var,
            R {
                reg: v,
                k: K::Area,
                exact: true,
            },
        ));
        let top = b.at()?;
        let next = b.code.len();
        b.code.push(W::NextArea(v, set, 0));
        self.wparts(&mut b, body, accs)?;
        b.code.push(W::Jump(top));
        let end = b.at()?;
        b.patch(next, end);
        b.code.push(W::Ret(set));
        b.finish()
    }

    fn wparts(&mut self, b: &mut Build, body: &Block, accs: &[u16]) -> Option<()> {
        let mark = b.lets.len();
        for s in body.stmts.iter() {
            match s {
                Stmt::Let(slot, n) => self.wlet(b, *slot, n)?,
                Stmt::SetLocal(acc, _, n)
                    if !matches!(n.kind, NodeKind::Bin(Op::MovesUnion, ..)) =>
                {
                    // `set s = s - x` or `s | x`: `x` noted, as a move's destinations.
                    let (_, x) = super::moves_loop::gathering(*acc, n)?;
                    let i = u8::try_from(accs.iter().position(|a| a == acc)?).ok()?;
                    let x = self.woperand(b, x, K::Areas)?;
                    let z = b.konst(0, K::Int)?;
                    b.code.push(W::AddMoves(i, [z.reg, z.reg, x.reg]));
                }
                Stmt::SetLocal(acc, _, n) => {
                    let NodeKind::Bin(Op::MovesUnion, _, m) = &n.kind else {
                        return None;
                    };
                    let NodeKind::Prim(Prim::Moves, args) = &m.kind else {
                        return None;
                    };
                    let [t, from, dests] = &args[..] else {
                        return None;
                    };
                    let i = u8::try_from(accs.iter().position(|a| a == acc)?).ok()?;
                    let t = self.woperand(b, t, K::Team)?;
                    let from = self.woperand(b, from, K::Area)?;
                    let dests = self.woperand(b, dests, K::Areas)?;
                    b.code.push(W::AddMoves(i, [t.reg, from.reg, dests.reg]));
                }
                Stmt::Expr(Node {
                    kind: NodeKind::If(c, inner, None),
                    ..
                }) => {
                    let c = self.woperand(b, c, K::Bool)?;
                    let jump = b.code.len();
                    b.code.push(W::JumpIfNot(c.reg, 0));
                    self.wparts(b, inner, accs)?;
                    let at = b.at()?;
                    b.patch(jump, at);
                }
                _ => return None,
            }
        }
        b.lets.truncate(mark);
        Some(())
    }
}
