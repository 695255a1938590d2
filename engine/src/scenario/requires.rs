//! What a position must set: the state variables the run reads that, in a match, only the
//! procedures the run skips would have set (the match start's formations, the turn's
//! earlier stages). Worked out from the rules' code, for any ruleset: a position without
//! them is refused, naming them, instead of running on their defaults.

use std::collections::BTreeSet;

use crate::ir::{Block, NodeKind, Scope, Search, Stmt, VarRef};
use crate::ruleset::Ruleset;
use crate::value::Value;
use crate::vm::Schedule;

use super::spans::Step::{self, Key};
use super::{Scenario, ScenarioError};

/// The variables code reads and writes, through every procedure, table and hook it calls.
#[derive(Debug, Default)]
struct Access {
    reads: BTreeSet<(u8, u16)>,
    writes: BTreeSet<(u8, u16)>,
}

fn key(v: &VarRef) -> (u8, u16) {
    let s = match v.scope {
        Scope::Match => 0,
        Scope::Team => 1,
        Scope::Turn => 2,
        Scope::TeamTurn => 3,
    };
    (s, v.idx)
}

/// A code unit of the rules: a procedure, a table, or a hook (its triggers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Unit {
    Proc(u16),
    Table(u16),
    Hook(u16),
}

impl Access {
    /// What `roots` (procedures) read and write, transitively.
    fn of(rs: &Ruleset, roots: &[u16]) -> Access {
        let mut acc = Access::default();
        let mut seen: BTreeSet<Unit> = BTreeSet::new();
        let mut todo: Vec<Unit> = roots.iter().map(|p| Unit::Proc(*p)).collect();
        while let Some(u) = todo.pop() {
            if !seen.insert(u) {
                continue;
            }
            let blocks: Vec<&Block> = match u {
                Unit::Proc(p) => rs
                    .procs
                    .get(p as usize)
                    .map(|p| &p.code.body)
                    .into_iter()
                    .collect(),
                Unit::Table(t) => rs
                    .tables
                    .get(t as usize)
                    .map(|t| t.rows.iter().map(|r| &r.code.body).collect())
                    .unwrap_or_default(),
                Unit::Hook(h) => rs
                    .hooks
                    .get(h as usize)
                    .map(|h| {
                        h.triggers
                            .iter()
                            .filter_map(|t| rs.triggers.get(*t as usize))
                            .filter(|t| !t.when.as_ref().is_some_and(never))
                            .flat_map(|t| {
                                std::iter::once(&t.code.body)
                                    .chain(t.when.as_ref().map(|w| &w.body))
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            for b in blocks {
                let mut stmt = |s: &Stmt| {
                    if let Stmt::SetVar(v, ..) = s {
                        acc.writes.insert(key(v));
                    }
                    false
                };
                let mut node = |n: &crate::ir::Node| {
                    match &n.kind {
                        NodeKind::Var(v) | NodeKind::TeamVar(v, _) => {
                            acc.reads.insert(key(v));
                        }
                        NodeKind::Call(p, _) => todo.push(Unit::Proc(*p)),
                        NodeKind::Table(t, _) => todo.push(Unit::Table(*t)),
                        NodeKind::Hook(h, _) => todo.push(Unit::Hook(*h)),
                        _ => {}
                    }
                    false
                };
                Search {
                    stmt: &mut stmt,
                    node: &mut node,
                }
                .block(b);
            }
        }
        acc
    }
}

/// Whether a trigger's `when` is false whatever the state: a match option switched off
/// (a constant `false`) in a conjunction.
fn never(when: &crate::ir::Code) -> bool {
    fn false_node(n: &crate::ir::Node) -> bool {
        match &n.kind {
            NodeKind::Const(Value::Bool(false)) => true,
            NodeKind::And(a, b) => false_node(a) || false_node(b),
            NodeKind::Block(b) => b.stmts.last().is_some_and(false_stmt),
            _ => false,
        }
    }
    fn false_stmt(s: &Stmt) -> bool {
        match s {
            Stmt::Expr(n) | Stmt::Return(Some(n)) => false_node(n),
            _ => false,
        }
    }
    when.body.stmts.len() == 1 && when.body.stmts.iter().all(false_stmt)
}

impl Scenario {
    /// The procedures a match would have run before the run starts, and the run's own.
    fn skipped_and_run(&self, rs: &Ruleset, plan: &Schedule) -> (Vec<u16>, Vec<u16>) {
        let mut skipped: Vec<u16> = rs.start.into_iter().chain(rs.half_start).collect();
        let run: Vec<u16> = match plan {
            Schedule::Procs(list) => {
                // The turn's stages before the first one listed.
                if let Some(i) = list
                    .first()
                    .and_then(|p| rs.stages.iter().position(|s| s == p))
                {
                    skipped.extend(&rs.stages[..i]);
                }
                list.clone()
            }
            Schedule::Turns(_) => rs.stages.iter().copied().chain(rs.turn_end).collect(),
            Schedule::Call(p, _) => vec![*p],
            Schedule::Match => Vec::new(),
        };
        (skipped, run)
    }

    /// Refuses a position that leaves unset a variable the run reads and only a skipped
    /// procedure (the match start, the half start, the turn's earlier stages) sets.
    pub(super) fn check_required(
        &self,
        rs: &Ruleset,
        plan: &Schedule,
    ) -> Result<(), ScenarioError> {
        let (skipped, run) = self.skipped_and_run(rs, plan);
        let before = Access::of(rs, &skipped);
        let during = Access::of(rs, &run);
        let given: BTreeSet<&str> = self.position.vars.keys().map(String::as_str).collect();
        let mut missing: Vec<(String, Vec<String>)> = Vec::new();
        for k in during.reads.intersection(&before.writes) {
            // The turn's own state (turn and team-turn scopes): what the turn's earlier
            // stages leave for the later ones.
            if k.0 < 2 || during.writes.contains(k) {
                continue;
            }
            let Some(decl) = rs.vars.get(k.0 as usize).and_then(|v| v.get(k.1 as usize)) else {
                continue;
            };
            // A variable with an initial value has a state to start from; one declared by
            // its type only ("type: area") has none until a rule sets it.
            if decl.init != Value::None || given.contains(decl.name.as_str()) {
                continue;
            }
            let setters: Vec<String> = skipped
                .iter()
                .filter(|p| Access::of(rs, &[**p]).writes.contains(k))
                .map(|p| rs.procs[*p as usize].name.clone())
                .collect();
            missing.push((decl.name.clone(), setters));
        }
        if missing.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = missing
            .iter()
            .map(|(v, by)| format!("`{v}` (set by {})", by.join(", ")))
            .collect();
        // At `vars` of the position, or at the position when it has none.
        let vars = [Key("position"), Key("vars")];
        let path: &[Step<'_>] = if self.spans.at(&vars, true).is_some() {
            &vars
        } else {
            &vars[..1]
        };
        Err(self.err_at(
            path,
            true,
            format!(
                "position.vars: the run reads {} that only procedures it does not run set; give {} \
             in position.vars",
                list.join(", "),
                if missing.len() == 1 { "it" } else { "them" }
            ),
        ))
    }
}
