//! The instructions that run seldom (tables, events, loops' set-up, modifier lists, the
//! rolls and choices that stop the match), kept out of the instruction loop so the loop
//! over the frequent ones stays small.

use std::sync::Arc;

use super::binop::moves_union;
use super::checked::{as_bool, as_int};
use super::code::Ins;
use super::found::add_moves;
use super::machine::{Match, Wait};
use super::run_error::{ErrorKind, Halt};
use crate::board::{AreaId, AreaSet};
use crate::log::{EventKind, ModRowLog, value_json};
use crate::ruleset::{Domain, FigureTest};
use crate::value::{MoveSet, Sym, Value};

/// What the loop does after a seldom instruction.
pub(super) enum Next {
    /// Go on with the next instruction.
    Go,
    /// Jump.
    Jump(u32),
    /// The match waits.
    Suspend,
    /// A frame was entered: its first instruction is next.
    Enter,
}

impl Match<'_> {
    /// The instructions that run seldom, apart so the loop over the frequent ones stays
    /// small.
    #[inline(never)]
    pub(super) fn rare(&mut self, ins: &Ins, at: u32, pc: u32, base: usize) -> Result<Next, Halt> {
        let prog = self.prog;
        match *ins {
            Ins::MovesLoop(l, skip) if self.direct => {
                let ops = self.ops;
                if prog.moves_loops[l as usize].run(self, base).is_some() {
                    self.direct_done();
                    return Ok(Next::Jump(skip));
                }
                self.direct_gave_up(at, ops);
            }
            // Off (`Match::set_direct`): the loop's stack code after it runs.
            Ins::MovesLoop(..) => {}
            Ins::StoreAdd(s) | Ins::StoreSub(s) => {
                let v = as_int(&self.pop());
                let cur = &mut self.stack[base + s as usize];
                let c = as_int(cur);
                *cur = Value::Int(if matches!(*ins, Ins::StoreAdd(_)) {
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
                match (x, y) {
                    (Value::Moves(mut a), Value::Moves(b)) => {
                        Arc::make_mut(&mut a).union_with(&b);
                        self.stack[base + s as usize] = Value::Moves(a);
                        // The set added is most often a primitive's, held by no one now.
                        self.recycle(Value::Moves(b));
                    }
                    (x, y) => self.stack[base + s as usize] = moves_union(x, y),
                }
            }
            Ins::AddMoves(s) => {
                // The operands read in place when they have the kinds expected (the pops
                // below report a wrong one).
                let n = self.stack.len();
                let opds = match self.stack.get(n.wrapping_sub(3)..) {
                    Some([Value::Team(t), Value::Area(from), to]) => match to {
                        Value::Areas(x) => Some((*t, *from, *x)),
                        Value::Area(a) => Some((*t, *from, AreaSet::one(*a))),
                        Value::None => Some((*t, *from, AreaSet::EMPTY)),
                        _ => None,
                    },
                    _ => None,
                };
                let (t, from, to) = match opds {
                    Some(o) => {
                        self.stack.truncate(n - 3);
                        o
                    }
                    None => {
                        let to = self.pop_areas(at)?;
                        let from = match self.pop() {
                            Value::Area(a) => a,
                            other => {
                                return Err(
                                    self.error(at, format!("expected an area, found {other:?}"))
                                );
                            }
                        };
                        (self.pop_team(at)?, from, to)
                    }
                };
                let pieces = &self.st.pieces[t as usize];
                match &mut self.stack[base + s as usize] {
                    Value::Moves(ms) => add_moves(pieces, Arc::make_mut(ms), from, to),
                    _ => {
                        let mut ms = MoveSet::default();
                        add_moves(pieces, &mut ms, from, to);
                        self.stack[base + s as usize] = self.new_moves(ms);
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
            Ins::ChooseUnmoved(site, set) => {
                self.pc = pc;
                if self.choose_unmoved(site, set, at)? {
                    return Ok(Next::Suspend);
                }
            }
            Ins::MovesOfLocal(p, s) => {
                let rest = self.stack.len() - 1;
                let v = self.moves_of(p, base + s as usize, rest, at)?;
                self.stack[rest] = v;
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
                if self.pilot_rolls(at)? {
                    return Ok(Next::Suspend);
                }
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
                    let before = self.recorded_events();
                    self.emit_event_at(
                        at,
                        EventKind::Modifiers {
                            name: self.rs.symbol(name).to_string(),
                            rows,
                            total,
                        },
                    );
                    self.note_modifier_args(before, at);
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
                // The checker lets a trigger end on an integer or on nothing (a body that
                // only acts, an `if` without `else` not taken), which adds 0.
                let v = match self.pop() {
                    Value::None => 0,
                    v => as_int(&v),
                };
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
            Ins::EmitQuiet(site, skip) if !self.logging() => {
                let e = &prog.emits[site as usize];
                let moves = e.quiet.as_deref().unwrap_or_default();
                let holds =
                    |s: &u16| matches!(self.stack.get(base + *s as usize), Some(Value::Move(_)));
                if moves.iter().all(holds) {
                    if self.counting
                        && let Some(c) = self.counters.emits.get_mut(e.kind as usize)
                    {
                        *c += 1;
                    }
                    return Ok(Next::Jump(skip));
                }
            }
            _ => {}
        }
        Ok(Next::Go)
    }

    /// The next item of an iteration whose state is in the locals from `h`.
    pub(super) fn next_item(&mut self, h: usize) -> Option<Value> {
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
    pub(super) fn table(&mut self, t: u16, ret: u32, at: u32) -> Result<(), Halt> {
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

    /// Whether the event being emitted — its `fields`, their values on the stack from
    /// `from` — passes a figure's test. A field the event lacks fails it.
    fn figure_test(&mut self, t: &FigureTest, fields: &[Sym], from: usize) -> bool {
        let env: Vec<Option<Value>> = t
            .fields
            .iter()
            .map(|f| {
                let i = fields.iter().position(|x| x == f)?;
                Some(self.stack[from + i].clone())
            })
            .collect();
        let fold = super::fold::Fold {
            rs: self.rs,
            inline: &[],
        };
        matches!(
            fold.value_on(self, &t.cond, &env, &mut Vec::new()),
            Some(Value::Bool(true))
        )
    }

    pub(super) fn emit_site(&mut self, site: u32, at: u32) -> Result<(), Halt> {
        let (rs, prog) = (self.rs, self.prog);
        let e = &prog.emits[site as usize];
        let n = e.fields.len();
        let from = self.stack.len() - n;
        if self.counting {
            if let Some(c) = self.counters.emits.get_mut(e.kind as usize) {
                *c += 1;
            }
            for &i in e.tests.iter() {
                let i = i as usize;
                if let Some(t) = &rs.figures[i].test
                    && self.figure_test(t, &e.fields, from)
                {
                    self.counters.tested[i] += 1;
                }
            }
            for &(i, at) in e.breakdowns.iter() {
                let (i, at) = (i as usize, at as usize);
                let b = &rs.breakdowns[i];
                if b.test
                    .as_ref()
                    .is_some_and(|t| !self.figure_test(t, &e.fields, from))
                {
                    continue;
                }
                let v = &self.stack[from + at];
                let seen = &mut self.counters.by_field[i];
                match seen.iter_mut().find(|(x, _)| x == v) {
                    Some((_, c)) => *c += 1,
                    None => seen.push((v.clone(), 1)),
                }
            }
        }
        if self.logging() {
            let mut map = serde_json::Map::new();
            for (f, v) in e.fields.iter().zip(&self.stack[from..]) {
                map.insert(rs.symbol(*f).to_string(), value_json(rs, v));
            }
            self.emit_event_at(
                at,
                EventKind::Emit {
                    kind: rs.symbol(e.kind).to_string(),
                    fields: map,
                },
            );
        }
        self.stack.truncate(from);
        if self.stop_at == Some(e.kind) && !self.scoring {
            self.stopped = true;
            return Err(Halt::Stop);
        }
        let _ = at;
        Ok(())
    }
}
