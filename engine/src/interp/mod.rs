//! The interpreter: runs compiled rules against a match state, asking agents for choices
//! and the dice source for dice, and records events.
//!
//! Every node evaluated costs one operation; a stage that exceeds the budget, a `repeat`
//! over the limit or calls nested too deep stop the match with an error naming the rule.

mod prims;

use std::collections::HashMap;
use std::sync::Arc;

use fuba_grammar::ast::{AssignOp, Keep, Quant};

use crate::agent::{Agent, Decision, Opt, View};
use crate::board::{AreaId, AreaSet};
use crate::dice::DiceSource;
use crate::ir::*;
use crate::log::{Event, EventKind, ModRowLog, team_name, value_json};
use crate::memo::Memo;
use crate::ruleset::{Domain, Ruleset};
use crate::state::MatchState;
use crate::value::{Dice, MoveSet, Sym, Team, Value};

/// Limits on running rules. All in one place.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Operations per stage.
    pub ops_per_stage: u64,
    /// Largest `repeat` count.
    pub max_repeat: i64,
    /// Deepest nesting of procedure calls and hooks.
    pub max_call_depth: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            ops_per_stage: 1_000_000,
            max_repeat: 64,
            max_call_depth: 32,
        }
    }
}

/// A rule failed while running.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}\n  --> {place} (in {rule})")]
pub struct RunError {
    /// What went wrong.
    pub message: String,
    /// The rule running.
    pub rule: String,
    /// `file:line:col` of the code running.
    pub place: String,
}

/// Why evaluation stopped early.
#[derive(Debug)]
pub enum Flow {
    /// `break`.
    Break,
    /// `return` (boxed, like the error: every evaluation result stays small).
    Return(Box<Value>),
    /// `end_turn()`.
    EndTurn,
    /// `end_half()`.
    EndHalf,
    /// A scenario's `stop_at` event happened.
    Stop,
    /// An error (boxed: keeps every evaluation result small).
    Error(Box<RunError>),
}

type R<T> = Result<T, Flow>;

/// Counts kept for every match, logged or not (figures and rules coverage).
#[derive(Debug, Clone, Default)]
pub struct Counters {
    /// Emitted events by kind symbol.
    pub emits: Vec<u32>,
    /// Table rows used: `[table][row]`.
    pub rows: Vec<Vec<u32>>,
    /// Triggers fired.
    pub triggers: Vec<u32>,
    /// Procedures called.
    pub procs: Vec<u32>,
    /// Choices made.
    pub choices: u32,
    /// Dice rolled.
    pub dice: u32,
    /// Operations run (nodes evaluated).
    pub ops: u64,
    /// Times the ball changed hands (`give_ball` to the other team).
    pub control_changes: u32,
    /// Labelled options picked, by decision name and label symbol.
    pub arms: HashMap<(Sym, Sym), u32>,
    /// For each of the ruleset's breakdown figures ([`Ruleset::breakdowns`]): the field
    /// values seen and how often.
    pub by_field: Vec<Vec<(Value, u32)>>,
}

/// Host stack that must remain before a nested call runs on the current stack.
const STACK_RED_ZONE: usize = 256 * 1024;
/// Size of each extra stack segment allocated when it does not.
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// A callback given every event as it is logged.
pub type EventHook<'a> = Box<dyn FnMut(&Ruleset, &Event) + 'a>;

/// A running match: rules, state, dice, agents, log.
pub struct Interp<'a> {
    /// The rules.
    pub rs: &'a Ruleset,
    /// The state.
    pub st: MatchState,
    /// Where dice come from.
    pub dice: Box<dyn DiceSource + 'a>,
    /// Home and away agents.
    pub agents: [Box<dyn Agent + 'a>; 2],
    /// The events, when logging.
    pub log: Option<Vec<Event>>,
    /// Counts for figures and coverage.
    pub counters: Counters,
    /// Limits.
    pub limits: Limits,
    stack: Vec<Value>,
    ops: u64,
    depth: u32,
    /// Code units being run, innermost last.
    units: Vec<u32>,
    /// The stage being run (a procedure index), for the log.
    pub stage: Option<u16>,
    opts: Vec<Opt>,
    /// Set while `prefer` scores are computed: no dice, no choices, no lasting effects.
    hinting: bool,
    /// Stop when an event of this kind is emitted (scenarios).
    pub stop_at: Option<u32>,
    /// Whether `stop_at` was reached.
    pub stopped: bool,
    /// Whether a scenario's run ended the half.
    pub half_ended: bool,
    /// Record every legal option's label in choice events (scenarios).
    pub record_options: bool,
    /// Called with every event as it is logged (live narration for a human player).
    pub on_event: Option<EventHook<'a>>,
    /// Goes up whenever the state may have changed: remembered values of pure procedures
    /// are dropped then.
    version: u64,
    memo: Memo,
}

fn as_int(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        Value::Bool(b) => i64::from(*b),
        _ => 0,
    }
}

fn as_bool(v: &Value) -> bool {
    matches!(v, Value::Bool(true))
}

impl<'a> Interp<'a> {
    /// A match about to start.
    pub fn new(
        rs: &'a Ruleset,
        dice: Box<dyn DiceSource + 'a>,
        agents: [Box<dyn Agent + 'a>; 2],
    ) -> Self {
        Interp {
            rs,
            st: MatchState::new(rs),
            dice,
            agents,
            log: None,
            counters: Counters {
                emits: vec![0; rs.symbols.len()],
                rows: rs.tables.iter().map(|t| vec![0; t.rows.len()]).collect(),
                triggers: vec![0; rs.triggers.len()],
                procs: vec![0; rs.procs.len()],
                choices: 0,
                dice: 0,
                ops: 0,
                control_changes: 0,
                arms: HashMap::new(),
                by_field: vec![Vec::new(); rs.breakdowns.len()],
            },
            limits: Limits::default(),
            stack: Vec::with_capacity(256),
            ops: 0,
            depth: 0,
            units: Vec::with_capacity(16),
            stage: None,
            opts: Vec::with_capacity(64),
            hinting: false,
            stop_at: None,
            stopped: false,
            half_ended: false,
            record_options: false,
            on_event: None,
            version: 0,
            memo: Memo::default(),
        }
    }

    // ------------------------------------------------------------------ errors, log

    fn current_rule(&self) -> String {
        self.units.last().map_or_else(
            || "match".to_string(),
            |u| self.rs.units[*u as usize].rule.clone(),
        )
    }

    /// An error at a node.
    pub fn error(&self, loc: Loc, message: impl Into<String>) -> Flow {
        let rule = self
            .rs
            .units
            .get(loc.unit as usize)
            .map_or_else(|| self.current_rule(), |u| u.rule.clone());
        Flow::Error(Box::new(RunError {
            message: message.into(),
            rule,
            place: self.rs.place(loc.start),
        }))
    }

    /// Records an event when logging.
    pub fn emit_event(&mut self, kind: EventKind) {
        if self.log.is_none() {
            return;
        }
        let (rule, section) = match self.units.last() {
            Some(u) => {
                let unit = &self.rs.units[*u as usize];
                (unit.rule.clone(), unit.section.clone())
            }
            None => ("match".to_string(), String::new()),
        };
        let stage = self
            .stage
            .map_or_else(String::new, |s| self.rs.procs[s as usize].name.clone());
        let st = &self.st;
        if let Some(log) = &mut self.log {
            let e = Event {
                seq: log.len() as u32,
                half: st.clock.half,
                turn: st.turn,
                minute: st.clock.minute,
                added: st.clock.added,
                stage,
                rule,
                section,
                kind,
            };
            if let Some(f) = &mut self.on_event {
                f(self.rs, &e);
            }
            log.push(e);
        }
    }

    /// Counts one operation against the stage's budget.
    #[inline(always)]
    fn tick(&mut self, loc: Loc) -> R<()> {
        self.ops += 1;
        if self.ops > self.limits.ops_per_stage {
            return Err(self.over_budget(loc));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn over_budget(&self, loc: Loc) -> Flow {
        self.error(
            loc,
            format!(
                "operation budget exceeded: more than {} operations in one stage (a runaway rule?)",
                self.limits.ops_per_stage
            ),
        )
    }

    /// Resets the operation budget (done at every stage).
    pub fn reset_budget(&mut self) {
        self.counters.ops += self.ops;
        self.ops = 0;
    }

    // ------------------------------------------------------------------ running code

    /// Whether values of pure procedures are remembered while the state does not change
    /// (on by default; the match is the same either way, only faster).
    pub fn set_memoize(&mut self, on: bool) {
        self.memo.on = on;
    }

    /// Notes that the state may have changed: remembered values are stale.
    fn touch(&mut self) {
        self.version += 1;
    }

    /// Runs a procedure by index with arguments. The state may have been changed directly
    /// (`st` is public) since the last run: remembered values are dropped.
    pub fn call_proc(&mut self, idx: u16, args: Vec<Value>, loc: Loc) -> R<Value> {
        self.touch();
        let base = self.stack.len();
        self.stack.extend(args);
        self.call_at(idx, base, loc)
    }

    /// Runs a procedure whose arguments were pushed on the stack from `base`.
    fn call_at(&mut self, idx: u16, base: usize, loc: Loc) -> R<Value> {
        let rs = self.rs;
        let p = &rs.procs[idx as usize];
        if p.pure && self.memo.on {
            return self.call_pure(idx, base, loc);
        }
        self.counters.procs[idx as usize] += 1;
        self.run_frame(&p.code, p.unit, base, loc)
    }

    /// Runs a pure procedure, or reuses its value for the same arguments when the state
    /// has not changed since it was computed.
    fn call_pure(&mut self, idx: u16, base: usize, loc: Loc) -> R<Value> {
        if let Some((value, calls)) = self.memo.lookup(self.version, idx, &self.stack[base..]) {
            for &c in calls {
                self.counters.procs[c as usize] += 1;
            }
            self.stack.truncate(base);
            return Ok(value);
        }
        let pending = self.memo.begin(idx, &self.stack[base..]);
        self.counters.procs[idx as usize] += 1;
        let p = &self.rs.procs[idx as usize];
        let r = self.run_frame(&p.code, p.unit, base, loc);
        match &r {
            Ok(v) => self.memo.store(pending, self.version, v),
            Err(_) => self.memo.abandon(pending),
        }
        r
    }

    fn run_code(&mut self, code: &'a Code, unit: u32, args: Vec<Value>, loc: Loc) -> R<Value> {
        let base = self.stack.len();
        self.stack.extend(args);
        self.run_frame(code, unit, base, loc)
    }

    /// Runs code whose arguments are on the stack from `base`; pops the frame after.
    fn run_frame(&mut self, code: &'a Code, unit: u32, base: usize, loc: Loc) -> R<Value> {
        if self.depth >= self.limits.max_call_depth {
            self.stack.truncate(base);
            let chain: Vec<&str> = self
                .units
                .iter()
                .map(|u| self.rs.units[*u as usize].rule.as_str())
                .collect();
            return Err(self.error(
                loc,
                format!(
                    "calls nested deeper than {}: {}",
                    self.limits.max_call_depth,
                    chain.join(" -> ")
                ),
            ));
        }
        self.stack.resize(base + code.slots as usize, Value::None);
        self.depth += 1;
        self.units.push(unit);
        // Each nested call takes host stack; grow it on demand rather than trust the
        // caller's thread to have enough (debug builds use far more stack per call).
        let r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
            self.block(&code.body, base)
        });
        self.units.pop();
        self.depth -= 1;
        self.stack.truncate(base);
        match r {
            Ok(v) => Ok(v),
            Err(Flow::Return(v)) => Ok(*v),
            Err(Flow::Break) => Ok(Value::None),
            Err(e) => Err(e),
        }
    }

    fn block(&mut self, b: &'a Block, base: usize) -> R<Value> {
        let mut last = Value::None;
        for s in b.stmts.iter() {
            last = self.stmt(s, base)?;
        }
        Ok(last)
    }

    fn stmt(&mut self, s: &'a Stmt, base: usize) -> R<Value> {
        match s {
            Stmt::Let(slot, n) => {
                let v = self.eval(n, base)?;
                self.stack[base + *slot as usize] = v;
            }
            Stmt::LetPair(a, b, n) => {
                if let Value::Move(m) = self.eval(n, base)? {
                    self.stack[base + *a as usize] = Value::Area(m.from);
                    self.stack[base + *b as usize] = Value::Area(m.to);
                } else {
                    return Err(self.error(n.loc, "`let (a, b)` needs a move"));
                }
            }
            Stmt::SetLocal(slot, AssignOp::Assign, n) if self.is_moves_accumulation(*slot, n) => {
                return self.accumulate_moves(*slot, n, base);
            }
            Stmt::SetLocal(slot, op, n) => {
                let v = self.eval(n, base)?;
                let cur = &mut self.stack[base + *slot as usize];
                *cur = match op {
                    AssignOp::Assign => v,
                    AssignOp::Add => Value::Int(as_int(cur).saturating_add(as_int(&v))),
                    AssignOp::Sub => Value::Int(as_int(cur).saturating_sub(as_int(&v))),
                };
            }
            Stmt::SetVar(var, idx, op, n, _) => {
                let team = match idx {
                    Some(i) => Some(self.team(i, base)?),
                    None => None,
                };
                let v = self.eval(n, base)?;
                let slot = self.var_slot(*var, team);
                *slot = match op {
                    AssignOp::Assign => v,
                    AssignOp::Add => Value::Int(as_int(slot).saturating_add(as_int(&v))),
                    AssignOp::Sub => Value::Int(as_int(slot).saturating_sub(as_int(&v))),
                };
                self.touch();
            }
            Stmt::Repeat(n, body, loc) => {
                let count = as_int(&self.eval(n, base)?);
                if count > self.limits.max_repeat {
                    return Err(self.error(
                        *loc,
                        format!(
                            "`repeat {count}` is over the limit of {}",
                            self.limits.max_repeat
                        ),
                    ));
                }
                for _ in 0..count.max(0) {
                    match self.block(body, base) {
                        Ok(_) => {}
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
            }
            Stmt::For(slot, iter, body) => {
                let coll = self.eval(iter, base)?;
                if let Value::Areas(set) = coll {
                    for a in set.iter() {
                        self.stack[base + *slot as usize] = Value::Area(a);
                        match self.block(body, base) {
                            Ok(_) => {}
                            Err(Flow::Break) => break,
                            Err(e) => return Err(e),
                        }
                    }
                    return Ok(Value::None);
                }
                let items = self.items(&coll);
                for it in items {
                    self.stack[base + *slot as usize] = it;
                    match self.block(body, base) {
                        Ok(_) => {}
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
            }
            Stmt::Break => return Err(Flow::Break),
            Stmt::Return(v) => {
                let v = match v {
                    Some(n) => self.eval(n, base)?,
                    None => Value::None,
                };
                return Err(Flow::Return(Box::new(v)));
            }
            Stmt::Emit(kind, fields) => {
                if let Some(c) = self.counters.emits.get_mut(*kind as usize) {
                    *c += 1;
                }
                // Fields are evaluated even when not logging: they may have effects (a
                // choice, a roll) and breakdown figures count their values.
                let mut map = self.log.is_some().then(serde_json::Map::new);
                for (f, n) in fields.iter() {
                    let v = self.eval(n, base)?;
                    self.count_by_field(*kind, *f, &v);
                    if let Some(map) = &mut map {
                        map.insert(self.rs.symbol(*f).to_string(), value_json(self.rs, &v));
                    }
                }
                if let Some(fields) = map {
                    self.emit_event(EventKind::Emit {
                        kind: self.rs.symbol(*kind).to_string(),
                        fields,
                    });
                }
                if self.stop_at == Some(*kind) {
                    self.stopped = true;
                    return Err(Flow::Stop);
                }
            }
            Stmt::Expr(n) => return self.eval(n, base),
        }
        Ok(Value::None)
    }

    /// Whether `n` is `x | ...` of move sets, `x` being the local `slot`: the move set
    /// can then grow in place (rules build move sets area by area this way).
    fn is_moves_accumulation(&self, slot: u16, n: &Node) -> bool {
        matches!(&n.kind, NodeKind::Bin(Op::MovesUnion, a, _) if matches!(a.kind, NodeKind::Local(s) if s == slot))
    }

    /// `set x = x | e` for move sets: evaluated as usual, but the local's own reference
    /// is released before the union, so the union (see [`Self::binop`]) changes the set in
    /// place instead of copying it.
    fn accumulate_moves(&mut self, slot: u16, n: &'a Node, base: usize) -> R<Value> {
        let NodeKind::Bin(op, a, b) = &n.kind else {
            return Ok(Value::None);
        };
        self.tick(n.loc)?;
        let x = self.eval(a, base)?;
        let y = self.eval(b, base)?;
        // If `e` changed the local, `x` is still the value read first, as in plain
        // evaluation.
        drop(std::mem::take(&mut self.stack[base + slot as usize]));
        self.stack[base + slot as usize] = self.binop(*op, x, y, n.loc)?;
        Ok(Value::None)
    }

    /// Counts a field's value for the breakdown figures of its event kind.
    fn count_by_field(&mut self, kind: Sym, field: Sym, v: &Value) {
        for (b, seen) in self.rs.breakdowns.iter().zip(&mut self.counters.by_field) {
            if b.kind == kind && b.field == field {
                match seen.iter_mut().find(|(x, _)| x == v) {
                    Some((_, n)) => *n += 1,
                    None => seen.push((v.clone(), 1)),
                }
            }
        }
    }

    fn var_slot(&mut self, var: VarRef, team: Option<Team>) -> &mut Value {
        let t = team.unwrap_or(0) as usize;
        let i = var.idx as usize;
        match var.scope {
            Scope::Match => &mut self.st.vars_match[i],
            Scope::Team => &mut self.st.vars_team[i][t],
            Scope::Turn => &mut self.st.vars_turn[i],
            Scope::TeamTurn => &mut self.st.vars_team_turn[i][t],
        }
    }

    fn items(&self, v: &Value) -> Vec<Value> {
        match v {
            Value::Areas(s) => s.iter().map(Value::Area).collect(),
            Value::Area(a) => vec![Value::Area(*a)],
            Value::Dice(d) => d
                .as_slice()
                .iter()
                .map(|x| Value::Int(i64::from(*x)))
                .collect(),
            Value::List(l) => l.iter().map(|x| Value::Int(*x)).collect(),
            Value::Moves(m) => m.iter().map(Value::Move).collect(),
            _ => Vec::new(),
        }
    }

    fn team(&mut self, n: &'a Node, base: usize) -> R<Team> {
        // The common shapes of a team argument, without a round trip through `eval`.
        match &n.kind {
            NodeKind::Role(r) => {
                self.tick(n.loc)?;
                return Ok(self.role(*r));
            }
            NodeKind::Local(s) => {
                if let Value::Team(t) = self.stack[base + *s as usize] {
                    self.tick(n.loc)?;
                    return Ok(t);
                }
            }
            _ => {}
        }
        match self.eval(n, base)? {
            Value::Team(t) => Ok(t),
            other => Err(self.error(n.loc, format!("expected a team, found {other:?}"))),
        }
    }

    fn area(&mut self, n: &'a Node, base: usize) -> R<AreaId> {
        if let NodeKind::Local(s) = &n.kind {
            if let Value::Area(a) = self.stack[base + *s as usize] {
                self.tick(n.loc)?;
                return Ok(a);
            }
        }
        match self.eval(n, base)? {
            Value::Area(a) => Ok(a),
            Value::None => {
                Err(self.error(n.loc, "expected an area, found none (an unset variable?)"))
            }
            other => Err(self.error(n.loc, format!("expected an area, found {other:?}"))),
        }
    }

    fn areas(&mut self, n: &'a Node, base: usize) -> R<AreaSet> {
        if let NodeKind::Local(s) = &n.kind {
            match self.stack[base + *s as usize] {
                Value::Areas(set) => {
                    self.tick(n.loc)?;
                    return Ok(set);
                }
                Value::Area(a) => {
                    self.tick(n.loc)?;
                    return Ok(AreaSet::one(a));
                }
                _ => {}
            }
        }
        match self.eval(n, base)? {
            Value::Areas(s) => Ok(s),
            Value::Area(a) => Ok(AreaSet::one(a)),
            Value::None => Ok(AreaSet::EMPTY),
            other => Err(self.error(n.loc, format!("expected areas, found {other:?}"))),
        }
    }

    fn int(&mut self, n: &'a Node, base: usize) -> R<i64> {
        match &n.kind {
            NodeKind::Const(Value::Int(i)) => {
                self.tick(n.loc)?;
                return Ok(*i);
            }
            NodeKind::Local(s) => {
                if let Value::Int(i) = self.stack[base + *s as usize] {
                    self.tick(n.loc)?;
                    return Ok(i);
                }
            }
            _ => {}
        }
        match self.eval(n, base)? {
            Value::Int(i) => Ok(i),
            other => Err(self.error(n.loc, format!("expected an integer, found {other:?}"))),
        }
    }

    fn dice_of(&mut self, n: &'a Node, base: usize) -> R<Dice> {
        match self.eval(n, base)? {
            Value::Dice(d) => Ok(d),
            Value::Int(i) => Ok(Dice {
                n: 1,
                d: [i.clamp(0, 255) as u8, 0, 0, 0, 0, 0, 0, 0],
            }),
            other => Err(self.error(n.loc, format!("expected dice, found {other:?}"))),
        }
    }

    fn role(&self, r: Role) -> Team {
        match r {
            Role::Controlling => self.st.ball_owner,
            Role::Passive => 1 - self.st.ball_owner,
            Role::Phasing => self.st.phasing,
            Role::NonPhasing => 1 - self.st.phasing,
        }
    }

    /// Evaluates an expression node.
    ///
    /// The frequent, small node kinds are handled here; the rest in [`Self::eval_rare`], so
    /// this function's stack frame stays small in the deep recursion of evaluation.
    pub fn eval(&mut self, n: &'a Node, base: usize) -> R<Value> {
        match &n.kind {
            NodeKind::Const(v) => {
                self.tick(n.loc)?;
                Ok(v.clone())
            }
            NodeKind::Local(s) => {
                self.tick(n.loc)?;
                Ok(self.stack[base + *s as usize].clone())
            }
            NodeKind::Role(r) => {
                self.tick(n.loc)?;
                Ok(Value::Team(self.role(*r)))
            }
            NodeKind::Prim(p, args) => {
                self.tick(n.loc)?;
                self.prim(*p, args, base, n.loc)
            }
            NodeKind::And(a, b) => {
                self.tick(n.loc)?;
                Ok(Value::Bool(
                    as_bool(&self.eval(a, base)?) && as_bool(&self.eval(b, base)?),
                ))
            }
            NodeKind::Or(a, b) => {
                self.tick(n.loc)?;
                Ok(Value::Bool(
                    as_bool(&self.eval(a, base)?) || as_bool(&self.eval(b, base)?),
                ))
            }
            NodeKind::Not(x) => {
                self.tick(n.loc)?;
                Ok(Value::Bool(!as_bool(&self.eval(x, base)?)))
            }
            NodeKind::Bin(op, a, b) => {
                self.tick(n.loc)?;
                let x = self.eval(a, base)?;
                let y = self.eval(b, base)?;
                self.binop(*op, x, y, n.loc)
            }
            _ => self.eval_rare(n, base),
        }
    }

    #[inline(never)]
    fn eval_rare(&mut self, n: &'a Node, base: usize) -> R<Value> {
        self.tick(n.loc)?;
        Ok(match &n.kind {
            NodeKind::Const(v) => v.clone(),
            NodeKind::Local(s) => self.stack[base + *s as usize].clone(),
            NodeKind::Var(v) => self.var_slot(*v, None).clone(),
            NodeKind::TeamVar(v, t) => {
                let t = self.team(t, base)?;
                self.var_slot(*v, Some(t)).clone()
            }
            NodeKind::Role(r) => Value::Team(self.role(*r)),
            NodeKind::Prim(p, args) => return self.prim(*p, args, base, n.loc),
            NodeKind::Call(idx, args) => {
                let frame = self.stack.len();
                for a in args.iter() {
                    match self.eval(a, base) {
                        Ok(v) => self.stack.push(v),
                        Err(e) => {
                            self.stack.truncate(frame);
                            return Err(e);
                        }
                    }
                }
                return self.call_at(*idx, frame, n.loc);
            }
            NodeKind::Table(t, key) => return self.table(*t, key, base, n.loc),
            NodeKind::ListIndex(l, i) => {
                let list = self.eval(l, base)?;
                let i = self.int(i, base)?;
                match list {
                    Value::List(items) => {
                        match usize::try_from(i).ok().and_then(|i| items.get(i)) {
                            Some(x) => Value::Int(*x),
                            None => {
                                return Err(self.error(
                                    n.loc,
                                    format!("index {i} is outside the list of {}", items.len()),
                                ));
                            }
                        }
                    }
                    other => {
                        return Err(self.error(n.loc, format!("expected a list, found {other:?}")));
                    }
                }
            }
            NodeKind::MoveEnd(m, from) => match self.eval(m, base)? {
                Value::Move(m) => Value::Area(if *from { m.from } else { m.to }),
                other => return Err(self.error(n.loc, format!("expected a move, found {other:?}"))),
            },
            NodeKind::MoveKeeper(m) => match self.eval(m, base)? {
                Value::Move(m) => Value::Bool(m.keeper),
                other => return Err(self.error(n.loc, format!("expected a move, found {other:?}"))),
            },
            NodeKind::Not(x) => Value::Bool(!as_bool(&self.eval(x, base)?)),
            NodeKind::Neg(x) => Value::Int(
                self.int(x, base)?
                    .checked_neg()
                    .ok_or_else(|| self.error(n.loc, "integer overflow"))?,
            ),
            NodeKind::And(a, b) => {
                Value::Bool(as_bool(&self.eval(a, base)?) && as_bool(&self.eval(b, base)?))
            }
            NodeKind::Or(a, b) => {
                Value::Bool(as_bool(&self.eval(a, base)?) || as_bool(&self.eval(b, base)?))
            }
            NodeKind::Bin(op, a, b) => {
                let x = self.eval(a, base)?;
                let y = self.eval(b, base)?;
                return self.binop(*op, x, y, n.loc);
            }
            NodeKind::AreaList(items) => {
                let mut s = AreaSet::EMPTY;
                for it in items.iter() {
                    s = s.union(self.areas(it, base)?);
                }
                Value::Areas(s)
            }
            NodeKind::IntList(items) => {
                let mut v = Vec::with_capacity(items.len());
                for it in items.iter() {
                    v.push(self.int(it, base)?);
                }
                Value::List(v.into())
            }
            NodeKind::If(c, then, other) => {
                if as_bool(&self.eval(c, base)?) {
                    return self.block(then, base);
                }
                match other {
                    Some(o) => return self.eval(o, base),
                    None => Value::None,
                }
            }
            NodeKind::Match(s, arms) => {
                let v = self.eval(s, base)?;
                for (pats, value) in arms.iter() {
                    let hit = pats.iter().any(|p| match p {
                        Pat::Any => true,
                        Pat::Range(lo, hi) => matches!(v, Value::Int(i) if *lo <= i && i <= *hi),
                        Pat::Value(x) => *x == v,
                    });
                    if hit {
                        return self.eval(value, base);
                    }
                }
                return Err(self.error(
                    n.loc,
                    format!(
                        "no arm of `match` fits the value {}",
                        value_json(self.rs, &v)
                    ),
                ));
            }
            NodeKind::ChooseFrom {
                kind,
                by,
                secret,
                options,
                skip,
                prefer,
            } => {
                let team = self.team(by, base)?;
                let coll = self.eval(options, base)?;
                self.opts.clear();
                match &coll {
                    Value::Areas(s) => self.opts.extend(s.iter().map(Opt::Area)),
                    Value::Area(a) => self.opts.push(Opt::Area(*a)),
                    Value::Moves(m) => self.opts.extend(m.iter().map(Opt::Move)),
                    Value::None => {}
                    other => {
                        return Err(
                            self.error(options.loc, format!("cannot choose from {other:?}"))
                        );
                    }
                }
                if let Some(s) = skip {
                    self.opts.push(Opt::Skip(*s));
                }
                let hints = match prefer {
                    Some((slot, score))
                        if self.agents[team as usize].wants_hints() && self.opts.len() > 1 =>
                    {
                        let opts = self.opts.clone();
                        self.hints(&opts, base, |me, o| match o {
                            Opt::Area(a) => {
                                me.stack[base + *slot as usize] = Value::Area(*a);
                                me.int(score, base)
                            }
                            Opt::Move(m) => {
                                me.stack[base + *slot as usize] = Value::Move(*m);
                                me.int(score, base)
                            }
                            _ => Ok(0),
                        })?
                    }
                    _ => Vec::new(),
                };
                let picked = self.decide(team, *kind, *secret, &hints, n.loc)?;
                match picked {
                    Opt::Area(a) => Value::Area(a),
                    Opt::Move(m) => Value::Move(m),
                    _ => Value::None,
                }
            }
            NodeKind::ChooseArms {
                kind,
                by,
                secret,
                arms,
            } => {
                let team = self.team(by, base)?;
                let mut legal = Vec::with_capacity(arms.len());
                for (i, arm) in arms.iter().enumerate() {
                    let ok = match &arm.guard {
                        Some(g) => as_bool(&self.eval(g, base)?),
                        None => true,
                    };
                    if ok {
                        legal.push(Opt::Arm(i as u16, arm.label));
                    }
                }
                let hints = if legal.len() > 1
                    && self.agents[team as usize].wants_hints()
                    && arms.iter().any(|a| a.prefer.is_some())
                {
                    self.hints(&legal, base, |me, o| match o {
                        Opt::Arm(i, _) => match &arms[*i as usize].prefer {
                            Some(p) => me.int(p, base),
                            None => Ok(0),
                        },
                        _ => Ok(0),
                    })?
                } else {
                    Vec::new()
                };
                self.opts.clear();
                self.opts.extend(legal);
                match self.decide(team, *kind, *secret, &hints, n.loc)? {
                    Opt::Arm(i, _) => return self.eval(&arms[i as usize].value, base),
                    _ => Value::None,
                }
            }
            NodeKind::Roll {
                count,
                sides,
                keep,
                by,
                label,
            } => {
                if self.hinting {
                    return Err(self.error(n.loc, "a `prefer` score may not roll dice"));
                }
                let team = match by {
                    Some(b) => Some(self.team(b, base)?),
                    None => None,
                };
                let mut d = Dice {
                    n: *count,
                    d: [0; 8],
                };
                let label_text = self.rs.symbol(*label);
                for i in 0..*count as usize {
                    d.d[i] = match self.dice.roll(*sides, label_text) {
                        Ok(x) => x,
                        Err(m) => return Err(self.error(n.loc, m)),
                    };
                }
                self.counters.dice += u32::from(*count);
                let kept = match keep {
                    None => d,
                    Some((k, m)) => {
                        let mut v: Vec<u8> = d.as_slice().to_vec();
                        v.sort_unstable();
                        if *k == Keep::Highest {
                            v.reverse();
                        }
                        let mut out = Dice { n: *m, d: [0; 8] };
                        out.d[..*m as usize].copy_from_slice(&v[..*m as usize]);
                        out
                    }
                };
                if self.log.is_some() {
                    self.emit_event(EventKind::Roll {
                        team: team.map(|t| team_name(t).to_string()),
                        label: label_text.to_string(),
                        dice: d.as_slice().to_vec(),
                        kept: kept.as_slice().to_vec(),
                    });
                }
                if kept.n == 1 {
                    Value::Int(i64::from(kept.d[0]))
                } else {
                    Value::Dice(kept)
                }
            }
            NodeKind::Modifiers { name, rows } => {
                let mut total: i64 = 0;
                let mut logged = Vec::new();
                for (label, value, cond) in rows.iter() {
                    let applies = match cond {
                        Some(c) => as_bool(&self.eval(c, base)?),
                        None => true,
                    };
                    let v = if applies { self.int(value, base)? } else { 0 };
                    total = total
                        .checked_add(v)
                        .ok_or_else(|| self.error(n.loc, "integer overflow"))?;
                    if self.log.is_some() {
                        logged.push(ModRowLog {
                            label: self.rs.symbol(*label).to_string(),
                            applied: applies,
                            value: v,
                        });
                    }
                }
                if self.log.is_some() {
                    self.emit_event(EventKind::Modifiers {
                        name: self.rs.symbol(*name).to_string(),
                        rows: logged,
                        total,
                    });
                }
                Value::Int(total)
            }
            NodeKind::Quant(q, slot, iter, filter) => {
                let coll = self.eval(iter, base)?;
                let items = self.items(&coll);
                let mut count = 0i64;
                for it in items {
                    self.stack[base + *slot as usize] = it;
                    let ok = match filter {
                        Some(f) => as_bool(&self.eval(f, base)?),
                        None => true,
                    };
                    match (q, ok) {
                        (Quant::Any, true) => return Ok(Value::Bool(true)),
                        (Quant::All, false) => return Ok(Value::Bool(false)),
                        (Quant::Count, true) => count += 1,
                        _ => {}
                    }
                }
                match q {
                    Quant::Any => Value::Bool(false),
                    Quant::All => Value::Bool(true),
                    Quant::Count => Value::Int(count),
                }
            }
            NodeKind::Hook(h, args) => {
                let frame = self.stack.len();
                for a in args.iter() {
                    match self.eval(a, base) {
                        Ok(v) => self.stack.push(v),
                        Err(e) => {
                            self.stack.truncate(frame);
                            return Err(e);
                        }
                    }
                }
                let r = self.hook(*h, frame, n.loc);
                self.stack.truncate(frame);
                return r;
            }
            NodeKind::Block(b) => return self.block(b, base),
        })
    }

    fn binop(&self, op: Op, x: Value, y: Value, loc: Loc) -> R<Value> {
        let ovf = || self.error(loc, "integer overflow");
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
                    return Err(self.error(loc, "division by zero"));
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
            Op::MovesUnion => match (x, y) {
                // In place when no one else holds the left set (`accumulate_moves`).
                (Value::Moves(mut a), Value::Moves(b)) => {
                    Arc::make_mut(&mut a).union_with(&b);
                    Value::Moves(a)
                }
                (Value::Moves(a), _) | (_, Value::Moves(a)) => Value::Moves(a),
                _ => Value::Moves(Arc::new(MoveSet::default())),
            },
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

    /// Computes the `prefer` score of every option, with no lasting effect: the state is
    /// restored and nothing is logged; dice and choices are refused.
    fn hints(
        &mut self,
        opts: &[Opt],
        _base: usize,
        mut score: impl FnMut(&mut Self, &Opt) -> R<i64>,
    ) -> R<Vec<i64>> {
        let saved = self.st.clone();
        let counters = self.counters.clone();
        let log = self.log.take();
        let was = self.hinting;
        self.hinting = true;
        let mut out = Vec::with_capacity(opts.len());
        let mut result = Ok(());
        for o in opts {
            match score(self, o) {
                Ok(v) => out.push(v),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.hinting = was;
        self.log = log;
        self.st = saved;
        self.touch();
        self.counters = counters;
        result.map(|()| out)
    }

    /// Asks the team's agent to pick one of `self.opts`.
    fn decide(&mut self, team: Team, kind: u32, secret: bool, hints: &[i64], loc: Loc) -> R<Opt> {
        let rs = self.rs;
        let kind_text = rs.symbol(kind);
        if self.hinting {
            return Err(self.error(
                loc,
                format!("a `prefer` score may not ask for a choice (\"{kind_text}\")"),
            ));
        }
        if self.opts.is_empty() {
            return Err(self.error(
                loc,
                format!(
                    "no legal option for \"{kind_text}\" ({} to choose)",
                    team_name(team)
                ),
            ));
        }
        let opts = std::mem::take(&mut self.opts);
        let idx = if opts.len() == 1 {
            0
        } else {
            let d = Decision {
                team,
                kind: kind_text,
                options: &opts,
                secret,
                hints,
            };
            let view = View {
                rules: rs,
                state: &self.st,
            };
            match self.agents[team as usize].choose(&view, &d) {
                Ok(i) if i < opts.len() => i,
                Ok(i) => {
                    self.opts = opts;
                    return Err(self.error(
                        loc,
                        format!(
                            "agent picked option {i} of {} for \"{kind_text}\"",
                            self.opts.len()
                        ),
                    ));
                }
                Err(m) => {
                    self.opts = opts;
                    return Err(self.error(loc, m));
                }
            }
        };
        let picked = opts[idx];
        self.counters.choices += 1;
        if let Opt::Arm(_, label) = picked {
            *self.counters.arms.entry((kind, label)).or_insert(0) += 1;
        }
        if self.log.is_some() {
            self.emit_event(EventKind::Choice {
                team: team_name(team).to_string(),
                decision: kind_text.to_string(),
                label: picked.label(rs),
                options: opts.len(),
                secret,
                offered: if self.record_options {
                    opts.iter().map(|o| o.label(rs)).collect()
                } else {
                    Vec::new()
                },
            });
        }
        self.opts = opts;
        Ok(picked)
    }

    fn table(&mut self, t: u16, key: &'a Node, base: usize, loc: Loc) -> R<Value> {
        let rs = self.rs;
        let table = &rs.tables[t as usize];
        let k = self.eval(key, base)?;
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
                loc,
                format!(
                    "table `{}` has no row for {}",
                    table.name,
                    value_json(rs, &k)
                ),
            ));
        };
        self.counters.rows[t as usize][ri as usize] += 1;
        let r = &table.rows[ri as usize];
        self.units.push(r.unit);
        if self.log.is_some() {
            let key_text = match &k {
                Value::Dice(d) => d
                    .as_slice()
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join("-"),
                other => crate::log::value_json(rs, other)
                    .to_string()
                    .trim_matches('"')
                    .to_string(),
            };
            self.emit_event(EventKind::Table {
                table: table.name.clone(),
                key: key_text,
                row: r.key.clone(),
                label: r.label.clone(),
            });
        }
        self.units.pop();
        self.run_code(&r.code, r.unit, Vec::new(), loc)
    }

    /// Runs a hook's triggers with the arguments on the stack from `args` (left there).
    fn hook(&mut self, h: u16, args: usize, loc: Loc) -> R<Value> {
        let rs = self.rs;
        let hook = &rs.hooks[h as usize];
        let end = self.stack.len();
        let mut total = 0i64;
        for &ti in &hook.triggers {
            let trig = &rs.triggers[ti as usize];
            if let Some(w) = &trig.when {
                self.stack.extend_from_within(args..end);
                if !as_bool(&self.run_frame(w, trig.unit, end, loc)?) {
                    continue;
                }
            }
            self.counters.triggers[ti as usize] += 1;
            self.stack.extend_from_within(args..end);
            let v = as_int(&self.run_frame(&trig.code, trig.unit, end, loc)?);
            total = total.saturating_add(v);
            if self.log.is_some() {
                self.units.push(trig.unit);
                self.emit_event(EventKind::Trigger {
                    trigger: trig.name.clone(),
                    hook: hook.name.clone(),
                    value: v,
                });
                self.units.pop();
            }
        }
        Ok(Value::Int(total))
    }
}
