//! Lints: warnings about a ruleset that loads and runs but is likely wrong. Each one is
//! computed from the checked [`Ruleset`] (its compiled code, whose nodes know where they
//! were written) and the merged file as written, and points at the place concerned.
//!
//! A lint never stops a ruleset from loading; `fuba rules check --deny warnings` makes
//! them fail a check. [`LINTS`] lists them with what each one finds.

use std::collections::{HashMap, HashSet};

use crate::ir::{Code, Loc, NodeKind, Op, Pat, Stmt};
use crate::ir_walk::{Item, walk_code};
use crate::prims::Prim;
use crate::ruleset::diag::Diagnostic;
use crate::ruleset::raw::RawRuleset;
use crate::ruleset::{Domain, Ruleset};
use crate::value::Value;

mod places;
mod rolls;

use places::{arm_patterns, header, is_literal_false, row_key, span, text};
use rolls::{always, dice_text, flip, roll_locals, roll_range};

/// Every lint: its name and what it finds.
pub const LINTS: &[(&str, &str)] = &[
    (
        "unused-procedure",
        "a procedure the match never runs: not reached from [match] start, half_start, turn or turn_end, nor from a trigger, a table row or a procedure that is",
    ),
    ("unused-table", "a table no rule the match runs looks up"),
    (
        "unreached-hook",
        "a hook no rule the match runs reaches with `hook NAME(...)`",
    ),
    (
        "trigger-never-fires",
        "a trigger whose hook is never reached, or whose `when` is the literal `false`",
    ),
    (
        "unreachable-row",
        "a row of a labels table whose label no rule ever uses as a key",
    ),
    (
        "unreachable-arm",
        "a `match` arm after a `_` arm, or one matching only numbers the dice matched never show",
    ),
    (
        "option-never-offered",
        "a `choose` option or a modifier row whose `when` is the literal `false`",
    ),
    (
        "out-of-range",
        "a literal ball value outside [match] ball_values, a literal table key outside the table's dice or rows, a roll compared with a number it never shows",
    ),
    (
        "unused-entry",
        "an entry of a collection no rule reads: the collection is never iterated, the entry never named, and it has no trigger",
    ),
    (
        "unused-narration",
        "a [narration] key no rule emits (`emit \"kind\"`)",
    ),
];

/// Runs every lint over a loaded ruleset.
pub fn lint(rs: &Ruleset, raw: &RawRuleset) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let file = &rs.file;
    let rule_of = |l: Loc| {
        rs.units
            .get(l.unit as usize)
            .map_or_else(String::new, |u| u.rule.clone())
    };

    // ---- every piece of code
    let mut units: Vec<&Code> = Vec::new();
    for p in &rs.procs {
        units.push(&p.code);
    }
    for t in &rs.tables {
        for r in &t.rows {
            units.push(&r.code);
        }
    }
    for t in &rs.triggers {
        if let Some(w) = &t.when {
            units.push(w);
        }
        units.push(&t.code);
    }

    // ---- what the match reaches
    let mut proc_seen = vec![false; rs.procs.len()];
    let mut table_seen = vec![false; rs.tables.len()];
    let mut hook_seen = vec![false; rs.hooks.len()];
    let mut trig_seen = vec![false; rs.triggers.len()];
    let mut work: Vec<&Code> = Vec::new();
    let roots = rs
        .start
        .iter()
        .chain(rs.half_start.iter())
        .chain(rs.stages.iter())
        .chain(rs.turn_end.iter())
        .chain(rs.scenario_derive.iter());
    for &p in roots {
        if !proc_seen[p as usize] {
            proc_seen[p as usize] = true;
            work.push(&rs.procs[p as usize].code);
        }
    }
    while let Some(code) = work.pop() {
        let mut found: Vec<&Code> = Vec::new();
        walk_code(code, &mut |it| {
            let Item::Node(n) = it else { return };
            match &n.kind {
                NodeKind::Call(p, _) => {
                    let p = *p as usize;
                    if !proc_seen[p] {
                        proc_seen[p] = true;
                        found.push(&rs.procs[p].code);
                    }
                }
                NodeKind::Table(t, _) => {
                    let t = *t as usize;
                    if !table_seen[t] {
                        table_seen[t] = true;
                        found.extend(rs.tables[t].rows.iter().map(|r| &r.code));
                    }
                }
                NodeKind::Hook(h, _) => {
                    let h = *h as usize;
                    if !hook_seen[h] {
                        hook_seen[h] = true;
                        for &ti in &rs.hooks[h].triggers {
                            trig_seen[ti as usize] = true;
                            let t = &rs.triggers[ti as usize];
                            found.extend(t.when.iter());
                            found.push(&t.code);
                        }
                    }
                }
                _ => {}
            }
        });
        work.extend(found);
    }

    for (i, p) in rs.procs.iter().enumerate() {
        if proc_seen[i] {
            continue;
        }
        let fallback = raw
            .procedures
            .get(&p.name)
            .map_or((0, 0), |r| (r.body.span().start, r.body.span().start));
        out.push(
            Diagnostic::warning(
                "unused-procedure",
                format!("procedure `{}` is never run", p.name),
            )
            .at(file, header(rs, "procedures", &p.name, fallback))
            .in_rule(format!("procedures.{}", p.name))
            .hint("no stage of [match], no trigger and no procedure the match runs calls it; call it, or take it out (`remove = [\"procedures.NAME\"]` in a layer)"),
        );
    }
    for (i, t) in rs.tables.iter().enumerate() {
        if table_seen[i] {
            continue;
        }
        out.push(
            Diagnostic::warning(
                "unused-table",
                format!("table `{}` is never looked up", t.name),
            )
            .at(file, header(rs, "tables", &t.name, (0, 0)))
            .in_rule(format!("tables.{}", t.name))
            .hint(format!("no rule the match runs says `{}[...]`", t.name)),
        );
    }
    for (i, h) in rs.hooks.iter().enumerate() {
        if hook_seen[i] {
            continue;
        }
        let also = if h.triggers.is_empty() {
            String::from(" and nothing is attached to it")
        } else {
            format!(
                ", so its trigger{} never fire{}",
                if h.triggers.len() == 1 { "" } else { "s" },
                if h.triggers.len() == 1 { "s" } else { "" }
            )
        };
        out.push(
            Diagnostic::warning(
                "unreached-hook",
                format!("hook `{}` is never reached{also}", h.name),
            )
            .at(file, header(rs, "hooks", &h.name, (0, 0)))
            .in_rule(format!("hooks.{}", h.name))
            .hint(format!(
                "reach it with `hook {}(...)` in a procedure the match runs, or take it out",
                h.name
            )),
        );
    }
    for (i, t) in rs.triggers.iter().enumerate() {
        let hook_at = raw
            .triggers
            .get(&t.name)
            .map_or((0, 0), |r| (r.hook.span().start, r.hook.span().end));
        let hook = &rs.hooks[t.hook as usize].name;
        if !trig_seen[i] {
            out.push(
                Diagnostic::warning(
                    "trigger-never-fires",
                    format!("trigger `{}` never fires: its hook `{hook}` is never reached", t.name),
                )
                .at(file, hook_at)
                .in_rule(format!("triggers.{}", t.name))
                .hint(format!("no rule the match runs says `hook {hook}(...)`; attach the trigger to a hook that is reached")),
            );
        } else if let Some(w) = &t.when {
            if let [Stmt::Expr(n)] = &*w.body.stmts {
                if is_literal_false(rs, n) {
                    out.push(
                        Diagnostic::warning(
                            "trigger-never-fires",
                            format!("trigger `{}` never fires: its condition is `false`", t.name),
                        )
                        .at(file, span(n.loc))
                        .in_rule(format!("triggers.{}", t.name))
                        .hint(
                            "to switch a trigger off, take it out: `remove = [\"triggers.NAME\"]`",
                        ),
                    );
                }
            }
        }
    }

    // ---- labels tables: the keys written in code, and every string the code holds
    let mut const_keys: HashMap<u16, HashSet<u32>> = HashMap::new();
    let mut dynamic: HashSet<u16> = HashSet::new();
    let mut strings: HashSet<u32> = HashSet::new();
    for (_, v, _) in &rs.constants {
        if let Value::Str(s) = v {
            strings.insert(*s);
        }
    }
    for v in rs.vars.iter().flatten() {
        if let Value::Str(s) = v.init {
            strings.insert(s);
        }
    }
    for u in &units {
        walk_code(u, &mut |it| {
            let Item::Node(n) = it else { return };
            match &n.kind {
                NodeKind::Table(t, k) => match &k.kind {
                    NodeKind::Const(Value::Str(s)) => {
                        const_keys.entry(*t).or_default().insert(*s);
                    }
                    NodeKind::Const(_) => {}
                    _ => {
                        dynamic.insert(*t);
                    }
                },
                NodeKind::Const(Value::Str(s)) => {
                    strings.insert(*s);
                }
                NodeKind::ChooseArms { arms, .. } => {
                    strings.extend(arms.iter().map(|a| a.label));
                }
                NodeKind::ChooseFrom { skip: Some(s), .. } => {
                    strings.insert(*s);
                }
                _ => {}
            }
        });
    }
    for (ti, t) in rs.tables.iter().enumerate() {
        if t.domain != Domain::Labels || !table_seen[ti] {
            continue;
        }
        let ti = ti as u16;
        let keys = const_keys.get(&ti);
        for row in &t.rows {
            let sym = rs.sym(&row.key);
            let used = sym.is_some_and(|s| {
                keys.is_some_and(|k| k.contains(&s))
                    || dynamic.contains(&ti) && strings.contains(&s)
            });
            if used {
                continue;
            }
            let value = raw
                .tables
                .get(&t.name)
                .and_then(|rt| rt.rows.get(&row.key))
                .map_or((0, 0), |r| (r.span().start, r.span().end));
            out.push(
                Diagnostic::warning(
                    "unreachable-row",
                    format!("row `{}` of table `{}` is never looked up", row.key, t.name),
                )
                .at(file, row_key(rs, value, &row.key))
                .in_rule(format!("tables.{}[{}]", t.name, row.key))
                .hint(format!(
                    "no rule uses \"{}\" as a key of `{}`{}",
                    row.key,
                    t.name,
                    if dynamic.contains(&ti) {
                        " or holds it as a string"
                    } else {
                        ""
                    }
                )),
            );
        }
    }

    // ---- inside each piece of code
    for u in &units {
        let locals = roll_locals(u);
        walk_code(u, &mut |it| {
            let Item::Node(n) = it else { return };
            match &n.kind {
                NodeKind::Match(scrut, arms) => {
                    let range = roll_range(scrut, &locals);
                    let mut after_wild = false;
                    for (i, (pats, value)) in arms.iter().enumerate() {
                        let prev = if i == 0 {
                            scrut.loc.end
                        } else {
                            arms[i - 1].1.loc.end
                        };
                        let at = arm_patterns(rs, prev, value.loc.start);
                        if after_wild {
                            out.push(
                                Diagnostic::warning("unreachable-arm", "this arm is never reached: an arm before it matches anything (`_`)")
                                    .at(file, at)
                                    .in_rule(rule_of(value.loc))
                                    .hint("put the `_` arm last"),
                            );
                            continue;
                        }
                        if let Some((lo, hi)) = range {
                            let outside = pats.iter().all(|p| match p {
                                Pat::Range(a, b) => *b < lo || *a > hi,
                                _ => false,
                            });
                            if outside {
                                out.push(
                                    Diagnostic::warning(
                                        "unreachable-arm",
                                        format!(
                                            "this arm is never reached: the dice matched show {}",
                                            dice_text((lo, hi))
                                        ),
                                    )
                                    .at(file, at)
                                    .in_rule(rule_of(value.loc))
                                    .hint("match only results the dice can show"),
                                );
                            }
                        }
                        if pats.contains(&Pat::Any) {
                            after_wild = true;
                        }
                    }
                }
                NodeKind::ChooseArms { arms, .. } => {
                    for a in arms.iter() {
                        if let Some(g) = &a.guard {
                            if is_literal_false(rs, g) {
                                out.push(
                                    Diagnostic::warning("option-never-offered", format!("option \"{}\" is never offered: its condition is `false`", rs.symbol(a.label)))
                                        .at(file, span(g.loc))
                                        .in_rule(rule_of(g.loc))
                                        .hint("take the option out, or give it a condition that can hold"),
                                );
                            }
                        }
                    }
                }
                NodeKind::Modifiers { rows, .. } => {
                    for (label, _, w) in rows.iter() {
                        if let Some(w) = w {
                            if is_literal_false(rs, w) {
                                out.push(
                                    Diagnostic::warning("option-never-offered", format!("modifier \"{}\" never applies: its condition is `false`", rs.symbol(*label)))
                                        .at(file, span(w.loc))
                                        .in_rule(rule_of(w.loc))
                                        .hint("take the row out, or give it a condition that can hold"),
                                );
                            }
                        }
                    }
                }
                NodeKind::Prim(Prim::SetBallValue, args) => {
                    if let Some(a) = args.first() {
                        if let NodeKind::Const(Value::Int(v)) = a.kind {
                            let (lo, hi) = rs.ball_values;
                            if v < lo || v > hi {
                                // A constant: point at its value, where a layer sets it.
                                let name = text(rs, a.loc).trim();
                                let d = match raw.constants.get(name) {
                                    Some(c) => Diagnostic::warning("out-of-range", format!("constant `{name}` = {v} is set as the ball value, outside [match] ball_values ({lo} to {hi})"))
                                        .at(file, (c.span().start, c.span().end))
                                        .in_rule(format!("constants.{name}"))
                                        .hint(format!("`set_ball_value({name})` at {} ({}) stops the match with an error; use a value from {lo} to {hi}", rs.place(a.loc.start), rule_of(a.loc))),
                                    None => Diagnostic::warning("out-of-range", format!("ball value {v} is outside [match] ball_values ({lo} to {hi})"))
                                        .at(file, span(a.loc))
                                        .in_rule(rule_of(a.loc))
                                        .hint(format!("the match stops with an error when this runs; use a value from {lo} to {hi}, or widen ball_values")),
                                };
                                out.push(d);
                            }
                        }
                    }
                }
                NodeKind::Table(t, k) => {
                    let table = &rs.tables[*t as usize];
                    let bad = match (&k.kind, table.domain) {
                        (NodeKind::Const(Value::Int(v)), Domain::D6) => (!(1..=6).contains(v))
                            .then(|| format!("key {v} is outside the results of d6 (1 to 6)")),
                        (NodeKind::Const(Value::Int(v)), Domain::TwoD6) => (!(2..=12).contains(v))
                            .then(|| format!("key {v} is outside the results of 2d6 (2 to 12)")),
                        (NodeKind::Const(Value::Str(s)), Domain::Labels) => {
                            (!table.labels.contains_key(s)).then(|| {
                                format!("table `{}` has no row \"{}\"", table.name, rs.symbol(*s))
                            })
                        }
                        _ => None,
                    };
                    if let Some(m) = bad {
                        out.push(
                            Diagnostic::warning("out-of-range", m)
                                .at(file, span(k.loc))
                                .in_rule(rule_of(k.loc))
                                .hint(format!("the match stops with an error when this runs; the rows of `{}` are: {}", table.name, table.rows.iter().map(|r| r.key.as_str()).collect::<Vec<_>>().join(", "))),
                        );
                    }
                }
                NodeKind::Bin(op, l, r) => {
                    let (range, v, op) = match (
                        roll_range(l, &locals),
                        roll_range(r, &locals),
                        &l.kind,
                        &r.kind,
                    ) {
                        (Some(rg), _, _, NodeKind::Const(Value::Int(v))) => (rg, *v, *op),
                        (_, Some(rg), NodeKind::Const(Value::Int(v)), _) => (rg, *v, flip(*op)),
                        _ => return,
                    };
                    let (lo, hi) = range;
                    let never = match op {
                        Op::Eq | Op::Ne => v < lo || v > hi,
                        Op::Gt => v >= hi || v < lo,
                        Op::Ge => v > hi || v < lo,
                        Op::Lt => v <= lo || v > hi,
                        Op::Le => v < lo || v > hi,
                        _ => false,
                    };
                    if never {
                        out.push(
                            Diagnostic::warning(
                                "out-of-range",
                                format!(
                                    "this comparison is always {}: the dice show {}",
                                    always(op, v, range),
                                    dice_text(range)
                                ),
                            )
                            .at(file, span(n.loc))
                            .in_rule(rule_of(n.loc))
                            .hint(format!("compare with a result from {lo} to {hi}")),
                        );
                    }
                }
                _ => {}
            }
        });
    }

    let mut seen = HashSet::new();
    out.retain(|d| seen.insert((d.span, d.message.clone())));
    out.sort_by_key(|d| d.span.map_or(0, |s| s.0));
    out
}
