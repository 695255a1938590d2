//! The instruction loop: runs the program from the match's current instruction until the
//! code entered from the host returns, the rules ask for a decision or dice, or a turn or
//! half ends.

use std::sync::Arc;

use fuba_grammar::ast::AssignOp;

use super::code::Ins;
use super::machine::{Match, Wait};
use super::{ErrorKind, Halt, as_bool, as_int};
use crate::agent::Opt;
use crate::board::{AreaId, AreaSet};
use crate::ir::{Op, Pat, Scope};
use crate::log::{EventKind, ModRowLog, team_name, value_json};
use crate::ruleset::Domain;
use crate::value::{MoveSet, Team, Value};

/// What the loop does after a seldom instruction.
enum Next {
    /// Go on with the next instruction.
    Go,
    /// Jump.
    Jump(u32),
    /// The match waits.
    Suspend,
    /// A frame was entered: its first instruction is next.
    Enter,
}

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

    pub(crate) fn pop_team(&mut self, at: u32) -> Result<Team, Halt> {
        match self.pop() {
            Value::Team(t) => Ok(t),
            other => Err(self.error(at, format!("expected a team, found {other:?}"))),
        }
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

    fn var(&mut self, scope: Scope, i: u16, team: Team) -> &mut Value {
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
            let ins = code[pc as usize];
            pc += 1;
            match ins {
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
                    self.stack[base + s as usize] = v;
                }
                Ins::Var(scope, i) => {
                    let v = self.var(scope, i, 0).clone();
                    self.stack.push(v);
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
                Ins::IterNext(h, s, t) => match self.next_item(base + h as usize) {
                    Some(item) => self.stack[base + s as usize] = item,
                    None => pc = t,
                },
                Ins::Ret => {
                    let v = self.pop();
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
                    self.stack[base + a as usize] = v;
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

                Ins::EndScore => {
                    let v = self.pop();
                    self.frames.pop();
                    return Ok(Exit::Returned(v));
                }
                _ => match self.rare(ins, at, pc, base)? {
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

    /// The instructions that run seldom, apart so the loop over the frequent ones stays
    /// small.
    #[inline(never)]
    fn rare(&mut self, ins: Ins, at: u32, pc: u32, base: usize) -> Result<Next, Halt> {
        let prog = self.prog;
        match ins {
            Ins::StoreAdd(s) | Ins::StoreSub(s) => {
                let v = as_int(&self.pop());
                let cur = &mut self.stack[base + s as usize];
                let c = as_int(cur);
                *cur = Value::Int(if matches!(ins, Ins::StoreAdd(_)) {
                    c.saturating_add(v)
                } else {
                    c.saturating_sub(v)
                });
            }
            Ins::MovesInto(s) => {
                let y = self.pop();
                let x = self.pop();
                // Release the local's reference so the union changes the set in place.
                drop(std::mem::take(&mut self.stack[base + s as usize]));
                self.stack[base + s as usize] = moves_union(x, y);
            }
            Ins::AddMoves(s) => {
                let to = self.pop_areas(at)?;
                let from = match self.pop() {
                    Value::Area(a) => a,
                    other => {
                        return Err(self.error(at, format!("expected an area, found {other:?}")));
                    }
                };
                let t = self.pop_team(at)?;
                let dests = if self.st.pieces[t as usize].field_areas(true).has(from) {
                    to.minus(AreaSet::one(from))
                } else {
                    AreaSet::EMPTY
                };
                match &mut self.stack[base + s as usize] {
                    Value::Moves(ms) => {
                        let ms = Arc::make_mut(ms);
                        ms.field[from as usize] = ms.field[from as usize].union(dests);
                    }
                    slot => {
                        let mut ms = MoveSet::default();
                        ms.field[from as usize] = dests;
                        *slot = Value::Moves(Arc::new(ms));
                    }
                }
            }
            Ins::LetPair(a, b) => match self.pop() {
                Value::Move(m) => {
                    self.stack[base + a as usize] = Value::Area(m.from);
                    self.stack[base + b as usize] = Value::Area(m.to);
                }
                _ => return Err(self.error(at, "`let (a, b)` needs a move")),
            },
            Ins::TeamVar(scope, i) => {
                let t = self.pop_team(at)?;
                let v = self.var(scope, i, t).clone();
                self.stack.push(v);
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
            Ins::Table(t) => {
                self.tick(at)?;
                self.table(t, pc, at)?;
                return Ok(Next::Enter);
            }
            Ins::ListIndex => {
                let i = self.pop_int(at)?;
                match self.pop() {
                    Value::List(items) => {
                        match usize::try_from(i).ok().and_then(|i| items.get(i)) {
                            Some(x) => self.stack.push(Value::Int(*x)),
                            None => {
                                return Err(self.error(
                                    at,
                                    format!("index {i} is outside the list of {}", items.len()),
                                ));
                            }
                        }
                    }
                    other => {
                        return Err(self.error(at, format!("expected a list, found {other:?}")));
                    }
                }
            }
            Ins::MoveEnd(from) => match self.pop() {
                Value::Move(m) => self
                    .stack
                    .push(Value::Area(if from { m.from } else { m.to })),
                other => {
                    return Err(self.error(at, format!("expected a move, found {other:?}")));
                }
            },
            Ins::MoveKeeper => match self.pop() {
                Value::Move(m) => self.stack.push(Value::Bool(m.keeper)),
                other => {
                    return Err(self.error(at, format!("expected a move, found {other:?}")));
                }
            },
            Ins::Not => {
                let v = as_bool(&self.pop());
                self.stack.push(Value::Bool(!v));
            }
            Ins::Neg => {
                let v = self.pop_int(at)?;
                match v.checked_neg() {
                    Some(n) => self.stack.push(Value::Int(n)),
                    None => return Err(self.error(at, "integer overflow")),
                }
            }
            Ins::AreaList(n) => {
                let mut s = AreaSet::EMPTY;
                for _ in 0..n {
                    s = s.union(self.pop_areas(at)?);
                }
                self.stack.push(Value::Areas(s));
            }
            Ins::IntList(n) => {
                let from = self.stack.len() - n as usize;
                let mut v = Vec::with_capacity(n as usize);
                for x in &self.stack[from..] {
                    match x {
                        Value::Int(i) => v.push(*i),
                        other => {
                            return Err(
                                self.error(at, format!("expected an integer, found {other:?}"))
                            );
                        }
                    }
                }
                self.stack.truncate(from);
                self.stack.push(Value::List(v.into()));
            }
            Ins::MatchArm(s, g, t) => {
                let v = &self.stack[base + s as usize];
                let hit = prog.pats[g as usize].iter().any(|p| match p {
                    Pat::Any => true,
                    Pat::Range(lo, hi) => matches!(v, Value::Int(i) if lo <= i && i <= hi),
                    Pat::Value(x) => x == v,
                });
                if !hit {
                    return Ok(Next::Jump(t));
                }
            }
            Ins::NoArm(s) => {
                let v = value_json(self.rs, &self.stack[base + s as usize]);
                return Err(self.error(at, format!("no arm of `match` fits the value {v}")));
            }
            Ins::ChooseFrom(site) => {
                self.pc = pc;
                if self.choose_from(site, at)? {
                    return Ok(Next::Suspend);
                }
            }
            Ins::ChooseArms(site) => {
                self.pc = pc;
                if self.choose_arms(site, at)? {
                    return Ok(Next::Suspend);
                }
            }
            Ins::ArmJump(j) => {
                let i = as_int(&self.pop()) as usize;
                return Ok(Next::Jump(prog.jumps[j as usize][i]));
            }
            Ins::Roll(site) => {
                let r = &prog.rolls[site as usize];
                let team = if r.by { Some(self.pop_team(at)?) } else { None };
                if self.scoring {
                    return Err(self.error(at, "a `prefer` score may not roll dice"));
                }
                self.pc = pc;
                self.wait = Wait::Chance { site, team, at };
                return Ok(Next::Suspend);
            }
            Ins::ModStart(h) => {
                self.stack[base + h as usize] = Value::Int(0);
                self.stack[base + h as usize + 1] = Value::Int(self.mod_rows.len() as i64);
            }
            Ins::ModRow(label, h, applied) => {
                let v = if applied { self.pop_int(at)? } else { 0 };
                let total = as_int(&self.stack[base + h as usize]);
                match total.checked_add(v) {
                    Some(t) => self.stack[base + h as usize] = Value::Int(t),
                    None => return Err(self.error(at, "integer overflow")),
                }
                if self.logging() {
                    self.mod_rows.push(ModRowLog {
                        label: self.rs.symbol(label).to_string(),
                        applied,
                        value: v,
                    });
                }
            }
            Ins::ModEnd(name, h) => {
                let total = as_int(&self.stack[base + h as usize]);
                let mark = as_int(&self.stack[base + h as usize + 1]) as usize;
                if self.logging() {
                    let rows = self.mod_rows.split_off(mark.min(self.mod_rows.len()));
                    self.emit_event(EventKind::Modifiers {
                        name: self.rs.symbol(name).to_string(),
                        rows,
                        total,
                    });
                }
                self.stack.push(Value::Int(total));
            }
            Ins::IterStart(h) => {
                let coll = self.pop();
                let h = base + h as usize;
                self.stack[h] = coll;
                self.stack[h + 1] = Value::Int(0);
                self.stack[h + 2] = Value::Int(self.stack.len() as i64);
            }
            Ins::RepeatStart(h) => {
                let count = as_int(&self.pop());
                if count > self.limits.max_repeat {
                    return Err(self
                        .error(
                            at,
                            format!(
                                "`repeat {count}` is over the limit of {}",
                                self.limits.max_repeat
                            ),
                        )
                        .of_kind(ErrorKind::Limit));
                }
                let h = base + h as usize;
                self.stack[h] = Value::Int(count.max(0));
                self.stack[h + 1] = Value::Int(self.stack.len() as i64);
            }
            Ins::RepeatNext(h, t) => {
                let slot = &mut self.stack[base + h as usize];
                let left = as_int(slot);
                if left <= 0 {
                    return Ok(Next::Jump(t));
                } else {
                    *slot = Value::Int(left - 1);
                }
            }
            Ins::Break(sp, t) => {
                let sp = as_int(&self.stack[base + sp as usize]) as usize;
                self.stack.truncate(sp);
                return Ok(Next::Jump(t));
            }
            Ins::Incr(s) => {
                let slot = &mut self.stack[base + s as usize];
                *slot = Value::Int(as_int(slot) + 1);
            }
            Ins::TrigFired(ti) if self.counting => {
                self.counters.triggers[ti as usize] += 1;
            }
            Ins::TrigDone(ti, acc) => {
                let v = as_int(&self.pop());
                let slot = &mut self.stack[base + acc as usize];
                *slot = Value::Int(as_int(slot).saturating_add(v));
                if self.logging() {
                    let rs = self.rs;
                    let trig = &rs.triggers[ti as usize];
                    self.emit_event_by(
                        Some(trig.unit),
                        EventKind::Trigger {
                            trigger: trig.name.clone(),
                            hook: rs.hooks[trig.hook as usize].name.clone(),
                            value: v,
                        },
                    );
                }
            }
            Ins::Emit(site) => {
                self.pc = pc;
                self.emit_site(site, at)?;
            }
            _ => {}
        }
        Ok(Next::Go)
    }

    /// Counts one operation (a call, a table row, a round of a loop) against the stage's
    /// budget. Straight-line code is bounded by the program's size, so these bound the
    /// work of a stage.
    #[inline(always)]
    fn tick(&mut self, at: u32) -> Result<(), Halt> {
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

    /// The next item of an iteration whose state is in the locals from `h`.
    fn next_item(&mut self, h: usize) -> Option<Value> {
        let idx = as_int(&self.stack[h + 1]) as usize;
        match &mut self.stack[h] {
            Value::Areas(s) => {
                if s.is_empty() {
                    return None;
                }
                let a = s.0.trailing_zeros() as AreaId;
                s.0 &= s.0 - 1;
                Some(Value::Area(a))
            }
            slot @ Value::Area(_) => match std::mem::take(slot) {
                Value::Area(a) => Some(Value::Area(a)),
                _ => None,
            },
            Value::Dice(d) => {
                let x = *d.as_slice().get(idx)?;
                self.stack[h + 1] = Value::Int(idx as i64 + 1);
                Some(Value::Int(i64::from(x)))
            }
            Value::List(l) => {
                let x = *l.get(idx)?;
                self.stack[h + 1] = Value::Int(idx as i64 + 1);
                Some(Value::Int(x))
            }
            Value::Moves(m) => {
                let m = Arc::make_mut(m);
                if let Some((from, to)) = &mut m.keeper {
                    if !to.is_empty() {
                        let t = to.0.trailing_zeros() as AreaId;
                        to.0 &= to.0 - 1;
                        return Some(Value::Move(crate::value::Move {
                            from: *from,
                            to: t,
                            keeper: true,
                        }));
                    }
                }
                let mut from = idx;
                while from < m.field.len() && m.field[from].is_empty() {
                    from += 1;
                }
                let to = m.field.get_mut(from)?;
                let t = to.0.trailing_zeros() as AreaId;
                to.0 &= to.0 - 1;
                self.stack[h + 1] = Value::Int(from as i64);
                Some(Value::Move(crate::value::Move {
                    from: from as AreaId,
                    to: t,
                    keeper: false,
                }))
            }
            _ => None,
        }
    }

    /// A table look-up: the row's rule is entered.
    fn table(&mut self, t: u16, ret: u32, at: u32) -> Result<(), Halt> {
        let rs = self.rs;
        let table = &rs.tables[t as usize];
        let k = self.pop();
        let row = match (table.domain, &k) {
            (Domain::D6, Value::Int(i)) if (1..=6).contains(i) => {
                Some(table.slots[(*i - 1) as usize])
            }
            (Domain::TwoD6, Value::Int(i)) if (2..=12).contains(i) => {
                Some(table.slots[(*i - 2) as usize])
            }
            (Domain::TwoD6, Value::Dice(d)) if d.n == 2 => {
                Some(table.slots[(d.sum() - 2) as usize])
            }
            (Domain::D66, Value::Dice(d)) if d.n >= 2 => {
                Some(table.slots[(d.d[0] as usize - 1) * 6 + d.d[1] as usize - 1])
            }
            (Domain::Labels, Value::Str(s)) => table.labels.get(s).copied(),
            _ => None,
        };
        let Some(ri) = row.filter(|r| *r != u16::MAX) else {
            return Err(self.error(
                at,
                format!(
                    "table `{}` has no row for {}",
                    table.name,
                    value_json(rs, &k)
                ),
            ));
        };
        if self.counting {
            self.counters.rows[t as usize][ri as usize] += 1;
        }
        let r = &table.rows[ri as usize];
        if self.logging() {
            let key = match &k {
                Value::Dice(d) => d
                    .as_slice()
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join("-"),
                other => value_json(rs, other)
                    .to_string()
                    .trim_matches('"')
                    .to_string(),
            };
            self.emit_event_by(
                Some(r.unit),
                EventKind::Table {
                    table: table.name.clone(),
                    key,
                    row: r.key.clone(),
                    label: r.label.clone(),
                },
            );
        }
        let u = self.prog.rows[t as usize][ri as usize];
        self.enter(u, ret, at)
    }

    fn emit_site(&mut self, site: u32, at: u32) -> Result<(), Halt> {
        let rs = self.rs;
        let e = &self.prog.emits[site as usize];
        let n = e.fields.len();
        let from = self.stack.len() - n;
        if self.counting {
            if let Some(c) = self.counters.emits.get_mut(e.kind as usize) {
                *c += 1;
            }
            for (f, v) in e.fields.iter().zip(&self.stack[from..]) {
                for (b, seen) in rs.breakdowns.iter().zip(&mut self.counters.by_field) {
                    if b.kind == e.kind && b.field == *f {
                        match seen.iter_mut().find(|(x, _)| x == v) {
                            Some((_, c)) => *c += 1,
                            None => seen.push((v.clone(), 1)),
                        }
                    }
                }
            }
        }
        if self.logging() {
            let mut map = serde_json::Map::new();
            for (f, v) in e.fields.iter().zip(&self.stack[from..]) {
                map.insert(rs.symbol(*f).to_string(), value_json(rs, v));
            }
            self.emit_event(EventKind::Emit {
                kind: rs.symbol(e.kind).to_string(),
                fields: map,
            });
        }
        self.stack.truncate(from);
        if self.stop_at == Some(e.kind) && !self.scoring {
            self.stopped = true;
            return Err(Halt::Stop);
        }
        let _ = at;
        Ok(())
    }

    /// `choose ... from`: the options; whether the match now waits (more than one).
    fn choose_from(&mut self, site: u32, at: u32) -> Result<bool, Halt> {
        let d = &self.prog.decisions[site as usize];
        let coll = self.pop();
        let team = self.pop_team(at)?;
        self.opts.clear();
        match &coll {
            Value::Areas(s) => self.opts.extend(s.iter().map(Opt::Area)),
            Value::Area(a) => self.opts.push(Opt::Area(*a)),
            Value::Moves(m) => self.opts.extend(m.iter().map(Opt::Move)),
            Value::None => {}
            other => return Err(self.error(at, format!("cannot choose from {other:?}"))),
        }
        if let Some(s) = d.skip {
            self.opts.push(Opt::Skip(s));
        }
        self.offer(site, team, at)
    }

    /// `choose { arms }`: the legal arms; whether the match now waits.
    fn choose_arms(&mut self, site: u32, at: u32) -> Result<bool, Halt> {
        let d = &self.prog.decisions[site as usize];
        let n = d.arms.len();
        let from = self.stack.len() - n;
        self.opts.clear();
        for (i, g) in self.stack[from..].iter().enumerate() {
            if as_bool(g) {
                self.opts.push(Opt::Arm(i as u16, d.arms[i]));
            }
        }
        self.stack.truncate(from);
        let team = self.pop_team(at)?;
        self.offer(site, team, at)
    }

    /// Offers `self.opts`: none is an error, one is taken at once, more wait.
    fn offer(&mut self, site: u32, team: Team, at: u32) -> Result<bool, Halt> {
        let kind = self.prog.decisions[site as usize].kind;
        if self.scoring {
            return Err(self.error(
                at,
                format!(
                    "a `prefer` score may not ask for a choice (\"{}\")",
                    self.rs.symbol(kind)
                ),
            ));
        }
        if self.opts.is_empty() {
            return Err(self.error(
                at,
                format!(
                    "no legal option for \"{}\" ({} to choose)",
                    self.rs.symbol(kind),
                    team_name(team)
                ),
            ));
        }
        self.wait = Wait::Decision { site, team, at };
        if self.opts.len() == 1 {
            self.picked(0);
            return Ok(false);
        }
        Ok(true)
    }

    /// Takes option `i` of the waiting decision: counts, logs, pushes its value.
    pub(crate) fn picked(&mut self, i: usize) {
        let Wait::Decision { site, team, .. } = self.wait else {
            return;
        };
        self.wait = Wait::Run;
        let rs = self.rs;
        let d = &self.prog.decisions[site as usize];
        let picked = self.opts[i];
        self.counters.choices += 1;
        if let Opt::Arm(_, label) = picked {
            *self.counters.arms.entry((d.kind, label)).or_insert(0) += 1;
        }
        if self.logging() {
            let offered = if self.record_options {
                self.opts.iter().map(|o| o.label(rs)).collect()
            } else {
                Vec::new()
            };
            self.emit_event(EventKind::Choice {
                team: team_name(team).to_string(),
                decision: rs.symbol(d.kind).to_string(),
                label: picked.label(rs),
                options: self.opts.len(),
                secret: d.secret,
                offered,
            });
        }
        self.stack.push(match picked {
            Opt::Area(a) => Value::Area(a),
            Opt::Move(m) => Value::Move(m),
            Opt::Arm(i, _) => Value::Int(i64::from(i)),
            Opt::Skip(_) => Value::None,
        });
    }

    /// A binary operation.
    pub(crate) fn binop(&self, op: Op, x: Value, y: Value, at: u32) -> Result<Value, Halt> {
        let ovf = || self.error(at, "integer overflow");
        let set = |v: &Value| match v {
            Value::Areas(s) => *s,
            Value::Area(a) => AreaSet::one(*a),
            _ => AreaSet::EMPTY,
        };
        Ok(match op {
            Op::Add => Value::Int(as_int(&x).checked_add(as_int(&y)).ok_or_else(ovf)?),
            Op::Sub => Value::Int(as_int(&x).checked_sub(as_int(&y)).ok_or_else(ovf)?),
            Op::Mul => Value::Int(as_int(&x).checked_mul(as_int(&y)).ok_or_else(ovf)?),
            Op::Div | Op::Rem => {
                let (a, b) = (as_int(&x), as_int(&y));
                if b == 0 {
                    return Err(self.error(at, "division by zero"));
                }
                Value::Int(
                    if op == Op::Div {
                        a.checked_div(b)
                    } else {
                        a.checked_rem(b)
                    }
                    .ok_or_else(ovf)?,
                )
            }
            Op::Union => Value::Areas(set(&x).union(set(&y))),
            Op::Inter => Value::Areas(set(&x).inter(set(&y))),
            Op::Diff => Value::Areas(set(&x).minus(set(&y))),
            Op::MovesUnion => moves_union(x, y),
            Op::Eq | Op::Ne => {
                let eq = match (&x, &y) {
                    (Value::Area(a), Value::Areas(s)) | (Value::Areas(s), Value::Area(a)) => {
                        AreaSet::one(*a) == *s
                    }
                    _ => x == y,
                };
                Value::Bool(if op == Op::Eq { eq } else { !eq })
            }
            Op::Lt => Value::Bool(as_int(&x) < as_int(&y)),
            Op::Le => Value::Bool(as_int(&x) <= as_int(&y)),
            Op::Gt => Value::Bool(as_int(&x) > as_int(&y)),
            Op::Ge => Value::Bool(as_int(&x) >= as_int(&y)),
            Op::InAreas => Value::Bool(matches!(x, Value::Area(a) if set(&y).has(a))),
            Op::InList => {
                Value::Bool(matches!((&x, &y), (Value::Int(i), Value::List(l)) if l.contains(i)))
            }
            Op::InDice => Value::Bool(
                matches!((&x, &y), (Value::Int(i), Value::Dice(d)) if d.as_slice().iter().any(|v| i64::from(*v) == *i)),
            ),
            Op::InMoves => {
                Value::Bool(matches!((&x, &y), (Value::Move(m), Value::Moves(s)) if s.has(*m)))
            }
        })
    }
}

/// A binary operation on plain operands without copying them: integers, flags, teams,
/// areas and area sets (`None`: use [`Match::binop`]).
#[inline(always)]
fn fast_bin(op: Op, x: &Value, y: &Value) -> Option<Value> {
    Some(match (x, y) {
        (Value::Int(a), Value::Int(b)) => match op {
            Op::Add => Value::Int(a.checked_add(*b)?),
            Op::Sub => Value::Int(a.checked_sub(*b)?),
            Op::Mul => Value::Int(a.checked_mul(*b)?),
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            Op::Lt => Value::Bool(a < b),
            Op::Le => Value::Bool(a <= b),
            Op::Gt => Value::Bool(a > b),
            Op::Ge => Value::Bool(a >= b),
            _ => return None,
        },
        (Value::Areas(a), Value::Areas(b)) => match op {
            Op::Union => Value::Areas(a.union(*b)),
            Op::Inter => Value::Areas(a.inter(*b)),
            Op::Diff => Value::Areas(a.minus(*b)),
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            _ => return None,
        },
        (Value::Area(a), Value::Areas(b)) if op == Op::InAreas => Value::Bool(b.has(*a)),
        (Value::Area(a), Value::Area(b)) => match op {
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            _ => return None,
        },
        (Value::Team(a), Value::Team(b)) => match op {
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            _ => return None,
        },
        (Value::Str(a), Value::Str(b)) => match op {
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            _ => return None,
        },
        _ => return None,
    })
}

/// The union of two move sets, in place when no one else holds the left one.
fn moves_union(x: Value, y: Value) -> Value {
    match (x, y) {
        (Value::Moves(mut a), Value::Moves(b)) => {
            Arc::make_mut(&mut a).union_with(&b);
            Value::Moves(a)
        }
        (Value::Moves(a), _) | (_, Value::Moves(a)) => Value::Moves(a),
        _ => Value::Moves(Arc::new(MoveSet::default())),
    }
}
