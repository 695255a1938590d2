//! The instruction loop: runs the program from the match's current instruction until the
//! code entered from the host returns, the rules ask for a decision or dice, or a turn or
//! half ends.

use super::binop::fast_bin;
use super::code::Ins;
use super::machine::Match;
use super::seldom::Next;
use fuba_grammar::ast::AssignOp;

use super::checked::{as_bool, as_int};
use super::run_error::{ErrorKind, Halt};
use crate::board::AreaSet;
use crate::ir::{Pat, Scope};
use crate::value::{Team, Value};

/// How a run ended.
pub(crate) enum Exit {
    /// The code entered from the host returned this value.
    Returned(Value),
    /// The match waits for a decision or dice.
    Suspended,
}

impl Match<'_> {
    #[inline]
    pub(crate) fn pop(&mut self) -> Value {
        self.stack.pop().unwrap_or_default()
    }

    /// Pops a team; read in place, its error apart and cold (the loop's per-team variables
    /// call it).
    #[inline]
    pub(crate) fn pop_team(&mut self, at: u32) -> Result<Team, Halt> {
        match self.stack.pop() {
            Some(Value::Team(t)) => Ok(t),
            other => Err(self.not_team(at, other.unwrap_or_default())),
        }
    }

    #[cold]
    #[inline(never)]
    fn not_team(&self, at: u32, other: Value) -> Halt {
        self.error(at, format!("expected a team, found {other:?}"))
    }

    pub(crate) fn pop_int(&mut self, at: u32) -> Result<i64, Halt> {
        match self.pop() {
            Value::Int(i) => Ok(i),
            other => Err(self.error(at, format!("expected an integer, found {other:?}"))),
        }
    }

    pub(crate) fn pop_areas(&mut self, at: u32) -> Result<AreaSet, Halt> {
        match self.pop() {
            Value::Areas(s) => Ok(s),
            Value::Area(a) => Ok(AreaSet::one(a)),
            Value::None => Ok(AreaSet::EMPTY),
            other => Err(self.error(at, format!("expected areas, found {other:?}"))),
        }
    }

    pub(super) fn var(&mut self, scope: Scope, i: u16, team: Team) -> &mut Value {
        let (i, t) = (i as usize, team as usize);
        match scope {
            Scope::Match => &mut self.st.vars_match[i],
            Scope::Team => &mut self.st.vars_team[i][t],
            Scope::Turn => &mut self.st.vars_turn[i],
            Scope::TeamTurn => &mut self.st.vars_team_turn[i][t],
        }
    }

    /// Runs until the host's code returns or the match waits.
    pub(crate) fn run(&mut self) -> Result<Exit, Halt> {
        if self.frames.is_empty() {
            return Ok(Exit::Returned(self.pop()));
        }
        let prog = self.prog;
        let code = &prog.code[..];
        let mut base = self.frames.last().map_or(0, |f| f.base as usize);
        let mut pc = self.pc;
        loop {
            let at = pc;
            let ins = &code[pc as usize];
            #[cfg(feature = "vm-profile")]
            super::vmprof::hit(pc);
            pc += 1;
            match *ins {
                Ins::Const(i) => self.stack.push(prog.consts[i as usize].clone()),
                Ins::Int(i) => self.stack.push(Value::Int(i64::from(i))),
                Ins::Bool(b) => self.stack.push(Value::Bool(b)),
                Ins::Unit => self.stack.push(Value::None),
                Ins::Role(r) => {
                    let t = self.role(r);
                    self.stack.push(Value::Team(t));
                }
                Ins::Local(s) => {
                    let v = self.stack[base + s as usize].clone();
                    self.stack.push(v);
                }
                Ins::Store(s) => {
                    let v = self.pop();
                    self.store(base + s as usize, v);
                }
                Ins::Var(scope, i) => {
                    let v = self.var(scope, i, 0).clone();
                    self.stack.push(v);
                }
                Ins::TeamVar(scope, i) => {
                    let t = self.pop_team(at)?;
                    let v = self.var(scope, i, t).clone();
                    self.stack.push(v);
                }
                Ins::MatchJump(s, tb) => {
                    pc = prog.match_tables[tb as usize].target(&self.stack[base + s as usize]);
                }
                Ins::MatchArm(s, g, t) => {
                    let v = &self.stack[base + s as usize];
                    let hit = prog.pats[g as usize].iter().any(|p| match p {
                        Pat::Any => true,
                        Pat::Range(lo, hi) => matches!(v, Value::Int(i) if lo <= i && i <= hi),
                        Pat::Value(x) => x == v,
                    });
                    if !hit {
                        pc = t;
                    }
                }
                Ins::SetVar(scope, i, op, has_team) => {
                    let v = self.pop();
                    let t = if has_team { self.pop_team(at)? } else { 0 };
                    let slot = self.var(scope, i, t);
                    *slot = match op {
                        AssignOp::Assign => v,
                        AssignOp::Add => Value::Int(as_int(slot).saturating_add(as_int(&v))),
                        AssignOp::Sub => Value::Int(as_int(slot).saturating_sub(as_int(&v))),
                    };
                    self.touch();
                }
                Ins::RepeatNext(h, t) => {
                    let slot = &mut self.stack[base + h as usize];
                    let left = as_int(slot);
                    if left <= 0 {
                        pc = t;
                    } else {
                        *slot = Value::Int(left - 1);
                    }
                }
                Ins::ModRow(_, h, applied) if !self.logging() => {
                    let v = if applied { self.pop_int(at)? } else { 0 };
                    let slot = &mut self.stack[base + h as usize];
                    match as_int(slot).checked_add(v) {
                        Some(t) => *slot = Value::Int(t),
                        None => return Err(self.error(at, "integer overflow")),
                    }
                }
                Ins::Prim(p) => {
                    self.pc = pc;
                    self.prim(p, at)?;
                }
                Ins::CountCall(p) => {
                    if self.counting {
                        self.counters.procs[p as usize] += 1;
                    }
                    self.memo.note_call(p);
                }
                Ins::Call(u) => {
                    self.tick(at)?;
                    self.enter(u, pc, at)?;
                    pc = self.pc;
                    base = self.frames.last().map_or(0, |f| f.base as usize);
                }
                Ins::Bin(op) => {
                    let y = self.pop();
                    let x = self.pop();
                    let r = match fast_bin(op, &x, &y) {
                        Some(r) => r,
                        None => self.binop(op, x, y, at)?,
                    };
                    self.stack.push(r);
                }
                Ins::ToBool => {
                    let v = as_bool(&self.pop());
                    self.stack.push(Value::Bool(v));
                }
                Ins::Jump(t) => {
                    if t < at {
                        self.tick(at)?;
                    }
                    pc = t;
                }
                Ins::JumpIfFalse(t) => {
                    if !as_bool(&self.pop()) {
                        if t < at {
                            self.tick(at)?;
                        }
                        pc = t;
                    }
                }
                Ins::JumpIfTrue(t) => {
                    if as_bool(&self.pop()) {
                        if t < at {
                            self.tick(at)?;
                        }
                        pc = t;
                    }
                }
                Ins::Pop => {
                    self.stack.pop();
                }
                Ins::Direct(d, skip) if self.direct => {
                    let ops = self.ops;
                    if let Some(v) = prog.directs[d as usize].value(self, base) {
                        self.direct_done();
                        self.stack.push(v);
                        pc = skip;
                    } else {
                        self.direct_gave_up(at, ops);
                    }
                }
                Ins::DirectBranch(d, when, skip, t) if self.direct => {
                    let ops = self.ops;
                    let truth = prog.directs[d as usize].truth(self, base);
                    if truth.is_none() {
                        self.direct_gave_up(at, ops);
                    }
                    if let Some(b) = truth {
                        self.direct_done();
                        if b != when {
                            pc = skip;
                        } else {
                            if t < at {
                                self.tick(at)?;
                            }
                            pc = t;
                        }
                    }
                }
                Ins::DirectTo(d, s, next) if self.direct => {
                    let ops = self.ops;
                    if let Some(v) = prog.directs[d as usize].value(self, base) {
                        self.direct_done();
                        self.stack[base + s as usize] = v;
                        pc = next;
                    } else {
                        self.direct_gave_up(at, ops);
                    }
                }
                // Off (`Match::set_direct`): the stack code after it runs.
                Ins::Direct(..) | Ins::DirectBranch(..) | Ins::DirectTo(..) => {}
                Ins::IterNext(h, s, t) => match self.next_item(base + h as usize) {
                    Some(item) => self.stack[base + s as usize] = item,
                    None => pc = t,
                },
                Ins::Ret | Ins::RetUnit | Ins::RetBool(_) => {
                    let v = match *ins {
                        Ins::RetBool(b) => Value::Bool(b),
                        Ins::RetUnit => Value::None,
                        _ => self.pop(),
                    };
                    if let Some(v) = self.leave(v) {
                        return Ok(Exit::Returned(v));
                    }
                    pc = self.pc;
                    base = self.frames.last().map_or(0, |f| f.base as usize);
                }
                Ins::Local2(a, b) => {
                    let x = self.stack[base + a as usize].clone();
                    let y = self.stack[base + b as usize].clone();
                    self.stack.push(x);
                    self.stack.push(y);
                    pc += 1;
                }
                Ins::BinL(op, a) => {
                    let x = self.pop();
                    let r = match fast_bin(op, &x, &self.stack[base + a as usize]) {
                        Some(r) => r,
                        None => {
                            let y = self.stack[base + a as usize].clone();
                            self.binop(op, x, y, at)?
                        }
                    };
                    self.stack.push(r);
                    pc += 1;
                }
                Ins::BinLL(op, a, b) => {
                    let (x, y) = (
                        &self.stack[base + a as usize],
                        &self.stack[base + b as usize],
                    );
                    let r = match fast_bin(op, x, y) {
                        Some(r) => r,
                        None => {
                            let (x, y) = (x.clone(), y.clone());
                            self.binop(op, x, y, at)?
                        }
                    };
                    self.stack.push(r);
                    pc += 2;
                }
                Ins::LocalJumpIfFalse(a, t) => {
                    if as_bool(&self.stack[base + a as usize]) {
                        pc += 1;
                    } else {
                        if t < at {
                            self.tick(at)?;
                        }
                        pc = t;
                    }
                }
                Ins::StoreLocal(a, b) => {
                    let v = self.pop();
                    self.store(base + a as usize, v);
                    let v = self.stack[base + b as usize].clone();
                    self.stack.push(v);
                    pc += 1;
                }
                Ins::BinJumpIfFalse(op, t) => {
                    let y = self.pop();
                    let x = self.pop();
                    let r = match fast_bin(op, &x, &y) {
                        Some(r) => r,
                        None => self.binop(op, x, y, at)?,
                    };
                    if as_bool(&r) {
                        pc += 1;
                    } else {
                        if t < at {
                            self.tick(at)?;
                        }
                        pc = t;
                    }
                }
                Ins::LocalPrim(s, p) => {
                    let v = self.stack[base + s as usize].clone();
                    self.stack.push(v);
                    pc += 1;
                    self.pc = pc;
                    self.prim(p, at + 1)?;
                }
                Ins::LocalInt(s, k) => {
                    let v = self.stack[base + s as usize].clone();
                    self.stack.push(v);
                    self.stack.push(Value::Int(i64::from(k)));
                    pc += 1;
                }
                Ins::LocalRole(s, r) => {
                    let v = self.stack[base + s as usize].clone();
                    self.stack.push(v);
                    let t = self.role(r);
                    self.stack.push(Value::Team(t));
                    pc += 1;
                }
                Ins::RoleLocal(r, s) => {
                    let t = self.role(r);
                    self.stack.push(Value::Team(t));
                    let v = self.stack[base + s as usize].clone();
                    self.stack.push(v);
                    pc += 1;
                }
                Ins::CountCallLocal(p, s) => {
                    if self.counting {
                        self.counters.procs[p as usize] += 1;
                    }
                    self.memo.note_call(p);
                    let v = self.stack[base + s as usize].clone();
                    self.stack.push(v);
                    pc += 1;
                }
                Ins::BinK(op, c) => {
                    let x = self.pop();
                    let k = &prog.consts[c as usize];
                    let r = match fast_bin(op, &x, k) {
                        Some(r) => r,
                        None => self.binop(op, x, k.clone(), at + 1)?,
                    };
                    self.stack.push(r);
                    pc += 1;
                }
                Ins::BinRole(op, r) => {
                    let x = self.pop();
                    let y = Value::Team(self.role(r));
                    let r = match fast_bin(op, &x, &y) {
                        Some(r) => r,
                        None => self.binop(op, x, y, at + 1)?,
                    };
                    self.stack.push(r);
                    pc += 1;
                }
                Ins::IntBinJumpIfFalse(op, k, t) => {
                    let x = self.pop();
                    let y = Value::Int(i64::from(k));
                    let r = match fast_bin(op, &x, &y) {
                        Some(r) => r,
                        None => self.binop(op, x, y, at + 1)?,
                    };
                    if as_bool(&r) {
                        pc += 2;
                    } else {
                        if t < at + 1 {
                            self.tick(at + 1)?;
                        }
                        pc = t;
                    }
                }
                Ins::BinJumpIfTrue(op, t) => {
                    let y = self.pop();
                    let x = self.pop();
                    let r = match fast_bin(op, &x, &y) {
                        Some(r) => r,
                        None => self.binop(op, x, y, at)?,
                    };
                    if as_bool(&r) {
                        if t < at + 1 {
                            self.tick(at + 1)?;
                        }
                        pc = t;
                    } else {
                        pc += 1;
                    }
                }
                Ins::ToBoolJump(t) => {
                    let v = as_bool(&self.pop());
                    self.stack.push(Value::Bool(v));
                    pc = t;
                }
                Ins::Branch(y, n) => {
                    pc = if as_bool(&self.pop()) { y } else { n };
                }
                Ins::BinBranch(op, y, n) => {
                    let b = self.pop();
                    let a = self.pop();
                    let r = match fast_bin(op, &a, &b) {
                        Some(r) => r,
                        None => self.binop(op, a, b, at)?,
                    };
                    pc = if as_bool(&r) { y } else { n };
                }
                Ins::PopJump(t) => {
                    self.stack.pop();
                    if t < at + 1 {
                        self.tick(at + 1)?;
                    }
                    pc = t;
                }
                Ins::UnitPopJump(t) => {
                    if t < at + 2 {
                        self.tick(at + 2)?;
                    }
                    pc = t;
                }
                Ins::NoneJumpIfFalse(eq, t) => {
                    if matches!(self.pop(), Value::None) == eq {
                        pc += 2;
                    } else {
                        if t < at + 1 {
                            self.tick(at + 1)?;
                        }
                        pc = t;
                    }
                }
                Ins::PrimPop(p) => {
                    self.pc = pc;
                    self.prim(p, at)?;
                    self.stack.pop();
                    pc += 1;
                }
                Ins::PrimStore(p, s) => {
                    self.pc = pc;
                    self.prim(p, at)?;
                    let v = self.pop();
                    self.store(base + s as usize, v);
                    pc += 1;
                }
                Ins::JumpIfLK(op, s, k, t) => {
                    if self.cmp_lk(op, base + s as usize, k, at)? {
                        if t < at {
                            self.tick(at)?;
                        }
                        pc = t;
                    }
                }
                Ins::JumpIfLL(op, a, b, t) => {
                    if self.cmp_ll(op, base, a, b, at)? {
                        if t < at {
                            self.tick(at)?;
                        }
                        pc = t;
                    }
                }
                Ins::PrimL(p, a) => {
                    self.pc = pc;
                    self.prim_l(p, base, a, at)?;
                }
                Ins::PrimLL(p, a, b) => {
                    self.pc = pc;
                    self.prim_ll(p, base, a, b, at)?;
                }
                Ins::PrimTo(p, a, b, d) => {
                    self.pc = pc;
                    self.prim_to(p, base, [a, b], d, at)?;
                }
                Ins::EndScore => {
                    let v = self.pop();
                    self.frames.pop();
                    return Ok(Exit::Returned(v));
                }
                // Listed, not `_`: the dispatch's jump table then covers every kind and
                // needs no range check.
                Ins::StoreAdd(..)
                | Ins::StoreSub(..)
                | Ins::MovesInto(..)
                | Ins::AddMoves(..)
                | Ins::LetPair(..)
                | Ins::Table(..)
                | Ins::ListIndex
                | Ins::MoveEnd(..)
                | Ins::MoveKeeper
                | Ins::Not
                | Ins::Neg
                | Ins::AreaList(..)
                | Ins::IntList(..)
                | Ins::NoArm(..)
                | Ins::ChooseFrom(..)
                | Ins::ChooseUnmoved(..)
                | Ins::MovesOfLocal(..)
                | Ins::ChooseArms(..)
                | Ins::ArmJump(..)
                | Ins::Roll(..)
                | Ins::ModStart(..)
                | Ins::ModRow(..)
                | Ins::ModEnd(..)
                | Ins::IterStart(..)
                | Ins::RepeatStart(..)
                | Ins::Break(..)
                | Ins::Incr(..)
                | Ins::TrigFired(..)
                | Ins::TrigDone(..)
                | Ins::MovesLoop(..)
                | Ins::Emit(..)
                | Ins::EmitQuiet(..) => match self.rare(ins, at, pc, base)? {
                    Next::Go => {}
                    Next::Jump(t) => pc = t,
                    Next::Suspend => return Ok(Exit::Suspended),
                    Next::Enter => {
                        pc = self.pc;
                        base = self.frames.last().map_or(0, |f| f.base as usize);
                    }
                },
            }
        }
    }

    /// Writes a local; a move set it held that no one else holds becomes the spare
    /// ([`Match::recycle`]): a loop that builds a set each round reuses the last one's.
    #[inline(always)]
    fn store(&mut self, i: usize, v: Value) {
        let old = std::mem::replace(&mut self.stack[i], v);
        if let Value::Moves(_) = old {
            self.recycle(old);
        }
    }

    /// Counts one operation (a call, a table row, a round of a loop) against the stage's
    /// budget. Straight-line code is bounded by the program's size, so these bound the
    /// work of a stage.
    #[inline(always)]
    pub(super) fn tick(&mut self, at: u32) -> Result<(), Halt> {
        self.ops += 1;
        if self.ops > self.limits.ops_per_stage {
            return Err(self.over_budget(at));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn over_budget(&self, at: u32) -> Halt {
        self.error(
            at,
            format!(
                "operation budget exceeded: more than {} operations in one stage (a runaway rule?)",
                self.limits.ops_per_stage
            ),
        )
        .of_kind(ErrorKind::Limit)
    }
}
