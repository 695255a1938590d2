//! Loading a ruleset: TOML → raw structs → checked [`Ruleset`]. Every problem found is
//! reported with its file, line and column; the first error in a piece of code stops
//! that piece, but the other pieces are still checked so one run shows them all.

// A diagnostic is large, but it only travels while a ruleset loads (as in compile.rs).
#![allow(clippy::result_large_err)]

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use fuba_grammar::ast;

use super::diag::{Diagnostic, LoadErrors, SourceFile};
use super::raw::*;
use super::*;
use crate::board::{BoardSpec, LinkKind, Side};
use crate::compile::{Compiler, ProcResolver};
use crate::ir::Code;

use super::expand::Expander;

use super::chain::toml_error;
pub use super::chain::{
    EditionLookup, load_file, load_file_options, load_file_with, options_from_env,
};

/// Loads and checks a ruleset from text; `path` names it in messages.
pub fn load_str(path: &Path, text: &str) -> Result<Ruleset, LoadErrors> {
    load_str_with(path, text, &|_| None)
}

/// [`load_str`], with a fallback for edition names.
pub fn load_str_with(
    path: &Path,
    text: &str,
    editions: EditionLookup<'_>,
) -> Result<Ruleset, LoadErrors> {
    load_str_options(path, text, editions, &[])
}

/// [`load_str_with`], with match options set: `(name, value)` pairs as a player writes
/// them (`weather`, `off`).
pub fn load_str_options(
    path: &Path,
    text: &str,
    editions: EditionLookup<'_>,
    options: &[(String, String)],
) -> Result<Ruleset, LoadErrors> {
    // 1. The chain of layers, top first (chain.rs).
    let mut chain = super::chain::layers(path, text, editions)?;
    chain.reverse();
    // 2. The layers laid end to end: every span is an offset into the whole.
    let mut whole = String::new();
    let mut layers = Vec::new();
    for (p, t) in &chain {
        layers.push((p.clone(), whole.len()));
        whole.push_str(t);
        whole.push('\n');
    }
    let file = SourceFile {
        path: path.to_path_buf(),
        text: Arc::from(whole.as_str()),
        layers: layers.clone(),
    };
    // 3. Each layer parsed in place (its text after blank lines standing for the layers
    // below), so that its spans are offsets into the whole; then merged over the one below.
    let mut merged: Option<RawRuleset> = None;
    let mut removed = HashMap::new();
    for ((_, t), (_, base)) in chain.iter().zip(&layers) {
        let mut padded = "\n".repeat(*base);
        padded.push_str(t);
        let raw: RawRuleset =
            toml::from_str(&padded).map_err(|e| LoadErrors(vec![toml_error(&file, *base, &e)]))?;
        merged = Some(match merged {
            None => raw,
            Some(below) => merge(below, raw, &file, &mut removed).map_err(LoadErrors)?,
        });
    }
    let mut raw = merged.unwrap_or_default();
    let colls = super::collections::prepare(&mut raw, &file);
    build(file, raw, removed, options, colls)
}

/// Lays a layer over the ruleset below it: every named entry it writes replaces or adds;
/// table rows are merged key by key; `remove` takes entries out.
fn merge(
    mut below: RawRuleset,
    top: RawRuleset,
    file: &SourceFile,
    removed: &mut HashMap<String, (usize, usize)>,
) -> Result<RawRuleset, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    for r in &top.remove {
        let path = r.get_ref().as_str();
        let span = (r.span().start, r.span().end);
        let parts: Vec<&str> = path.splitn(2, '.').collect();
        let found = match parts.as_slice() {
            ["procedures", n] => below.procedures.shift_remove(*n).is_some(),
            ["triggers", n] => below.triggers.shift_remove(*n).is_some(),
            ["hooks", n] => below.hooks.shift_remove(*n).is_some(),
            ["constants", n] => below.constants.shift_remove(*n).is_some(),
            ["narration", n] => below.narration.shift_remove(*n).is_some(),
            ["figures", n] => below.figures.shift_remove(*n).is_some(),
            [w @ ("collections" | "entries"), n] => super::collections::remove(&mut below, w, n),
            ["tables", rest] => match rest.split_once(".rows.") {
                Some((t, key)) => below
                    .tables
                    .get_mut(t)
                    .is_some_and(|tb| tb.rows.shift_remove(key).is_some()),
                None => below.tables.shift_remove(*rest).is_some(),
            },
            _ => false,
        };
        if found {
            removed.insert(path.to_string(), span);
        } else {
            errors.push(
                Diagnostic::error(format!("`{path}` is not in the ruleset this file extends"))
                    .at(file, span)
                    .hint("remove takes \"procedures.NAME\", \"tables.NAME\", \"tables.NAME.rows.KEY\", \"triggers.NAME\", \"hooks.NAME\", \"constants.NAME\", \"narration.KIND\", \"figures.NAME\", \"collections.NAME\" or \"entries.COLLECTION.ENTRY\""),
            );
        }
    }
    let m = top.meta;
    if !m.name.is_empty() {
        below.meta.name = m.name;
    }
    if !m.title.is_empty() {
        below.meta.title = m.title;
    }
    if !m.source.is_empty() {
        below.meta.source = m.source;
    }
    let b = top.board;
    if b.halfway != 0 {
        below.board.halfway = b.halfway;
    }
    if !b.areas.is_empty() {
        below.board.areas = b.areas;
    }
    if !b.links.is_empty() {
        below.board.links = b.links;
    }
    below.board.marks.extend(b.marks);
    for (name, values) in b.numbers {
        below.board.numbers.entry(name).or_default().extend(values);
    }
    below.constants.extend(top.constants);
    below.options.extend(top.options);
    below.state.match_.extend(top.state.match_);
    below.state.team.extend(top.state.team);
    below.state.turn.extend(top.state.turn);
    below.state.team_turn.extend(top.state.team_turn);
    let mt = top.match_;
    let bm = &mut below.match_;
    macro_rules! over {
        ($($f:ident),*) => { $( if mt.$f.is_some() { bm.$f = mt.$f; } )* };
    }
    over!(
        halves,
        max_turns_per_half,
        start,
        half_start,
        turn_end,
        ball_values,
        pieces,
        count_cap
    );
    if !mt.turn.is_empty() {
        bm.turn = mt.turn;
    }
    bm.needs.extend(mt.needs);
    if top.scenario.derive.is_some() {
        below.scenario.derive = top.scenario.derive;
    }
    if top.scenario.placement.is_some() {
        below.scenario.placement = top.scenario.placement;
    }
    below.procedures.extend(top.procedures);
    for (name, t) in top.tables {
        match below.tables.get_mut(&name) {
            Some(bt) => {
                if t.dice.is_some() {
                    bt.dice = t.dice;
                }
                if !t.section.is_empty() {
                    bt.section = t.section;
                }
                bt.rows.extend(t.rows);
            }
            None => {
                below.tables.insert(name, t);
            }
        }
    }
    below.hooks.extend(top.hooks);
    below.triggers.extend(top.triggers);
    below.narration.extend(top.narration);
    below.figures.extend(top.figures);
    below.collections.extend(top.collections);
    super::collections::merge_entries(&mut below.entries, top.entries);
    if errors.is_empty() {
        Ok(below)
    } else {
        Err(errors)
    }
}

/// Offset of a code string's first character, from the span of its TOML value.
fn code_offset(file: &SourceFile, span: std::ops::Range<usize>) -> usize {
    let t = &file.text[span.start.min(file.text.len())..];
    let skip = if t.starts_with("'''") || t.starts_with("\"\"\"") {
        3 + if t[3..].starts_with("\r\n") {
            2
        } else if t[3..].starts_with('\n') {
            1
        } else {
            0
        }
    } else {
        1
    };
    span.start + skip
}

fn value_span<T>(s: &toml::Spanned<T>) -> (usize, usize) {
    (s.span().start, s.span().end)
}

fn parse_error(
    file: &SourceFile,
    base: usize,
    rule: &str,
    e: fuba_grammar::ParseError,
) -> Diagnostic {
    let s = e.span();
    let d = Diagnostic::error(format!("in rule: {e}"))
        .at(file, (base + s.start, base + s.end.max(s.start + 1)))
        .in_rule(rule);
    match e {
        fuba_grammar::ParseError::TooDeep { .. } => {
            d.hint("split the rule into smaller procedures")
        }
        _ => d.hint("see docs/effect-language.md for the language"),
    }
}

fn value_of(v: &toml::Value) -> Option<(Value, Ty)> {
    Some(match v {
        toml::Value::Integer(i) => (Value::Int(*i), Ty::Int),
        toml::Value::Boolean(b) => (Value::Bool(*b), Ty::Bool),
        toml::Value::Array(a) => {
            let ints: Option<Vec<i64>> = a.iter().map(|x| x.as_integer()).collect();
            (Value::List(ints?.into()), Ty::List)
        }
        _ => return None,
    })
}

/// Parsed code waiting to be compiled.
struct Pending {
    body: ast::Block,
    offset: usize,
    unit: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Waiting,
    Compiling,
    Done,
    Failed,
}

struct Resolver {
    procs: Vec<Option<Pending>>,
    proc_state: Vec<State>,
    tables: Vec<Vec<Option<Pending>>>,
    table_state: Vec<State>,
    errors: Vec<Diagnostic>,
    stack: Vec<String>,
}

impl ProcResolver for Resolver {
    fn procedure(&mut self, rs: &mut Ruleset, name: &str) -> Option<Result<(u16, Ty), Diagnostic>> {
        let idx = rs.procedure(name)? as usize;
        Some(match self.proc_state[idx] {
            State::Done => Ok((idx as u16, rs.procs[idx].ret)),
            State::Failed => Ok((idx as u16, Ty::Any)),
            State::Compiling => Err(Diagnostic::error(format!(
                "procedure `{name}` reaches itself ({} -> {name}); the language has no recursion",
                self.stack.join(" -> ")
            ))),
            State::Waiting => {
                self.compile_proc(rs, idx);
                Ok((idx as u16, rs.procs[idx].ret))
            }
        })
    }

    fn table(&mut self, rs: &mut Ruleset, name: &str) -> Option<Result<(u16, Ty), Diagnostic>> {
        let idx = rs.table(name)? as usize;
        Some(match self.table_state[idx] {
            State::Done | State::Failed => Ok((idx as u16, rs.tables[idx].ty)),
            State::Compiling => Err(Diagnostic::error(format!(
                "table `{name}` reaches itself ({} -> {name})",
                self.stack.join(" -> ")
            ))),
            State::Waiting => {
                self.compile_table(rs, idx);
                Ok((idx as u16, rs.tables[idx].ty))
            }
        })
    }

    fn also_error(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }
}

impl Resolver {
    fn compile_proc(&mut self, rs: &mut Ruleset, idx: usize) {
        let Some(p) = self.procs[idx].take() else {
            return;
        };
        self.proc_state[idx] = State::Compiling;
        self.stack.push(rs.procs[idx].name.clone());
        let params = rs.procs[idx].params.clone();
        // A procedure compiles the procedures it calls first, so compiling nests as deep as
        // the longest chain of calls: grow the host stack on demand.
        let result = stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, || {
            let mut c = Compiler::new(rs, p.unit, p.offset, self);
            for (n, t) in &params {
                c.declare(n, *t);
            }
            c.body(&p.body)
        });
        self.stack.pop();
        match result {
            Ok((code, ty)) => {
                rs.procs[idx].code = code;
                rs.procs[idx].ret = ty;
                self.proc_state[idx] = State::Done;
            }
            Err(d) => {
                self.errors.push(d);
                self.proc_state[idx] = State::Failed;
            }
        }
    }

    fn compile_table(&mut self, rs: &mut Ruleset, idx: usize) {
        self.table_state[idx] = State::Compiling;
        self.stack.push(format!("tables.{}", rs.tables[idx].name));
        let rows = std::mem::take(&mut self.tables[idx]);
        let mut ty: Option<Ty> = None;
        let mut failed = false;
        for (ri, p) in rows.into_iter().enumerate() {
            let Some(p) = p else { continue };
            let result = stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, || {
                Compiler::new(rs, p.unit, p.offset, self).body(&p.body)
            });
            match result {
                Ok((code, t)) => {
                    rs.tables[idx].rows[ri].code = code;
                    ty = Some(match ty {
                        None => t,
                        Some(x) if x == t => x,
                        Some(_) => Ty::Any,
                    });
                }
                Err(d) => {
                    self.errors.push(d);
                    failed = true;
                }
            }
        }
        self.stack.pop();
        rs.tables[idx].ty = ty.unwrap_or(Ty::None);
        self.table_state[idx] = if failed { State::Failed } else { State::Done };
    }
}

fn parse_side(s: &str) -> Option<Side> {
    match s {
        "south" => Some(Side::South),
        "north" => Some(Side::North),
        _ => None,
    }
}

/// Parses a table key into the domain slots it covers.
fn key_slots(domain: Domain, key: &str) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for part in key.split(',').map(str::trim) {
        match domain {
            Domain::D6 | Domain::TwoD6 => {
                let (lo, hi) = match part.split_once("..") {
                    Some((a, b)) => (a.trim().parse::<i64>(), b.trim().parse::<i64>()),
                    None => (part.parse::<i64>(), part.parse::<i64>()),
                };
                let (Ok(lo), Ok(hi)) = (lo, hi) else {
                    return Err(format!("`{part}` is not a result or a range like `2..4`"));
                };
                let (min, max) = if domain == Domain::D6 {
                    (1, 6)
                } else {
                    (2, 12)
                };
                if lo > hi || lo < min || hi > max {
                    return Err(format!(
                        "`{part}` is outside the results of {} ({min} to {max})",
                        domain.name()
                    ));
                }
                out.extend((lo..=hi).map(|k| (k - min) as usize));
            }
            Domain::D66 => {
                let Some((a, b)) = part.split_once('-') else {
                    return Err(format!("`{part}` is not a pair of dice like `5-5`"));
                };
                let (Ok(a), Ok(b)) = (a.trim().parse::<usize>(), b.trim().parse::<usize>()) else {
                    return Err(format!("`{part}` is not a pair of dice like `5-5`"));
                };
                if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
                    return Err(format!("`{part}`: each die shows 1 to 6"));
                }
                out.push((a - 1) * 6 + (b - 1));
            }
            Domain::Labels => return Err("a labels table has no dice keys".into()),
        }
    }
    Ok(out)
}

fn build(
    file: SourceFile,
    raw: RawRuleset,
    removed: HashMap<String, (usize, usize)>,
    set_options: &[(String, String)],
    (mut colls, mut errors): (super::collections::Collections, Vec<Diagnostic>),
) -> Result<Ruleset, LoadErrors> {
    let at = |span: (usize, usize)| (span.0, span.1);

    // ---- board
    let mut spec = BoardSpec {
        halfway: raw.board.halfway,
        ..Default::default()
    };
    for (name, a) in &raw.board.areas {
        let goal = match a.get_ref().goal_line.as_deref() {
            None => None,
            Some(s) => {
                match parse_side(s) {
                    Some(side) => Some(side),
                    None => {
                        errors.push(
                        Diagnostic::error(format!("area `{name}`: goal_line must be \"south\" or \"north\", found \"{s}\""))
                            .at(&file, value_span(a)),
                    );
                        None
                    }
                }
            }
        };
        let r = a.get_ref();
        spec.areas.push((
            name.clone(),
            r.rows[0],
            r.rows[1],
            goal,
            r.mirror.clone(),
            r.zone.clone(),
        ));
    }
    for l in &raw.board.links {
        let v = l.get_ref();
        let kind = match v.get(2).map(String::as_str) {
            Some("straight") => Some(LinkKind::Straight),
            Some("sideways") => Some(LinkKind::Sideways),
            Some("diagonal") => Some(LinkKind::Diagonal),
            _ => None,
        };
        match (v.len(), kind) {
            (3, Some(k)) => spec.links.push((v[0].clone(), v[1].clone(), k)),
            _ => errors.push(
                Diagnostic::error(
                    "a link is [\"AREA\", \"AREA\", \"straight\" | \"sideways\" | \"diagonal\"]",
                )
                .at(&file, value_span(l)),
            ),
        }
    }
    for (name, m) in &raw.board.marks {
        spec.marks.push((
            name.clone(),
            m.get_ref().south.clone(),
            m.get_ref().north.clone(),
        ));
    }
    for (name, values) in &raw.board.numbers {
        spec.numbers.push((
            name.clone(),
            values.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        ));
    }
    let board = match crate::board::Board::new(&spec) {
        Ok(b) => b,
        Err(e) => {
            // Place the error on the key it concerns.
            let span = locate_board_error(&file, &e.key);
            errors.push(
                Diagnostic::error(format!("board: {}", e.message))
                    .at(&file, span)
                    .in_rule(e.key.clone()),
            );
            return Err(LoadErrors(errors));
        }
    };

    // The fingerprint (FNV-1a): the text of every layer here, then the options set for the
    // match once they are read (below).
    let fnv = |mut h: u64, bytes: &mut dyn Iterator<Item = u8>| {
        for b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100000001b3);
        }
        h
    };
    let text_hash = fnv(0xcbf29ce484222325, &mut file.text.bytes());
    let fingerprint = String::new();

    let m = &raw.match_;
    let nums = super::ranges::match_numbers(m, &file, &mut errors);
    let mut rs = Ruleset {
        name: raw.meta.name.clone(),
        title: raw.meta.title.clone(),
        source: raw.meta.source.clone(),
        file: file.clone(),
        fingerprint,
        board,
        symbols: Symbols::default(),
        lookups: Default::default(),
        compiled: Default::default(),
        constants: Vec::new(),
        options: Vec::new(),
        vars: Default::default(),
        procs: Vec::new(),
        tables: Vec::new(),
        hooks: Vec::new(),
        triggers: Vec::new(),
        units: Vec::new(),
        halves: nums.halves,
        max_turns_per_half: nums.max_turns_per_half,
        start: None,
        half_start: None,
        stages: Vec::new(),
        turn_end: None,
        scenario_derive: None,
        scenario_placement: None,
        ball_values: nums.ball_values,
        pieces: nums.pieces,
        count_cap: nums.count_cap,
        narration: HashMap::new(),
        figures: Vec::new(),
        breakdowns: Vec::new(),
        emit_fields: HashMap::new(),
        removed,
        raw: Arc::default(),
        warnings: Vec::new(),
    };
    if rs.name.is_empty() {
        errors.push(
            Diagnostic::error("the ruleset has no name")
                .at(&file, (0, 0))
                .hint("add [meta] name = \"...\""),
        );
    }

    // Names primitives give back as strings.
    for name in ["forward", "backward", "sideways", "diagonal", "none"] {
        rs.intern(name);
    }
    let zones: Vec<String> = rs.board.areas.iter().flat_map(|a| a.zone.clone()).collect();
    for z in zones {
        rs.intern(&z);
    }

    // ---- constants
    for (name, v) in &raw.constants {
        match v.get_ref() {
            toml::Value::String(s) => {
                let sym = rs.intern(s);
                rs.constants.push((name.clone(), Value::Str(sym), Ty::Str));
            }
            other => match value_of(other) {
                Some((val, ty)) => rs.constants.push((name.clone(), val, ty)),
                None => errors.push(
                    Diagnostic::error(format!("constant `{name}` must be an integer, a boolean, a string or a list of integers"))
                        .at(&file, value_span(v)),
                ),
            },
        }
    }

    // ---- match options: constants whose value the player may set
    for (k, _) in set_options {
        if !raw.options.contains_key(k) {
            let known: Vec<&str> = raw.options.keys().map(String::as_str).collect();
            errors.push(Diagnostic::error(format!(
                "unknown match option `{k}`; {}",
                if known.is_empty() {
                    "this ruleset has no options".to_string()
                } else {
                    format!("its options are: {}", known.join(", "))
                }
            )));
        }
    }
    for (name, o) in &raw.options {
        let span = value_span(&o.default);
        let Some((default, ty)) = (match o.default.get_ref() {
            toml::Value::String(s) => Some((Value::Str(rs.intern(s)), Ty::Str)),
            toml::Value::Integer(i) => Some((Value::Int(*i), Ty::Int)),
            toml::Value::Boolean(b) => Some((Value::Bool(*b), Ty::Bool)),
            _ => None,
        }) else {
            errors.push(
                Diagnostic::error(format!(
                    "option `{name}`: the default must be an integer, a boolean or a string"
                ))
                .at(&file, span),
            );
            continue;
        };
        let value = match set_options.iter().rev().find(|(k, _)| k == name) {
            None => default.clone(),
            Some((_, v)) => match (ty, v.as_str()) {
                (Ty::Bool, "on" | "true" | "yes") => Value::Bool(true),
                (Ty::Bool, "off" | "false" | "no") => Value::Bool(false),
                (Ty::Int, v) if v.parse::<i64>().is_ok() => Value::Int(v.parse().unwrap_or(0)),
                (Ty::Str, v) => Value::Str(rs.intern(v)),
                (_, v) => {
                    errors.push(
                        Diagnostic::error(format!(
                            "option `{name}={v}`: the option takes {}",
                            if ty == Ty::Bool {
                                "on or off".to_string()
                            } else {
                                format!("an {ty}")
                            }
                        ))
                        .at(&file, span)
                        .hint(o.doc.clone()),
                    );
                    default.clone()
                }
            },
        };
        if rs.constant(name).is_some() {
            errors.push(
                Diagnostic::error(format!("option `{name}` has the name of a constant"))
                    .at(&file, span),
            );
        }
        let range = super::ranges::option_range(name, o, ty, &default, &file, &mut errors);
        super::ranges::check_set(name, &value, range, o, &file, &mut errors);
        rs.constants.push((name.clone(), value.clone(), ty));
        rs.options.push(MatchOption {
            name: name.clone(),
            doc: o.doc.clone(),
            default,
            value,
            ty,
            range,
        });
    }

    // The options set to something other than their default, each as `name=value;` in the
    // ruleset's order and spelling (`name=value;`), whatever the order and spelling they were
    // given in (a log's header records them so: `crate::log::options_set`).
    let set: String = crate::log::options_set(&rs)
        .iter()
        .map(|o| format!("{o};"))
        .collect();
    rs.fingerprint = format!("{:016x}", fnv(text_hash, &mut set.bytes()));

    // ---- state variables
    for (si, decls) in [
        &raw.state.match_,
        &raw.state.team,
        &raw.state.turn,
        &raw.state.team_turn,
    ]
    .into_iter()
    .enumerate()
    {
        for (name, v) in decls {
            let decl = match v.get_ref() {
                toml::Value::String(s) => {
                    match s.strip_prefix("type:").map(str::trim).map(Ty::from_name) {
                        Some(Some(ty)) => Some(VarDecl {
                            name: name.clone(),
                            ty,
                            init: Value::None,
                        }),
                        Some(None) => None,
                        None => {
                            let sym = rs.intern(s);
                            Some(VarDecl {
                                name: name.clone(),
                                ty: Ty::Str,
                                init: Value::Str(sym),
                            })
                        }
                    }
                }
                other => value_of(other).map(|(init, ty)| VarDecl {
                    name: name.clone(),
                    ty,
                    init,
                }),
            };
            match decl {
                Some(d) => {
                    if rs.var(name).is_some() || rs.constant(name).is_some() {
                        errors.push(Diagnostic::error(format!("`{name}` is declared twice")).at(&file, value_span(v)));
                    }
                    rs.vars[si].push(d);
                }
                None => errors.push(
                    Diagnostic::error(format!("state variable `{name}`: give an initial value (integer, boolean, string, list) or \"type: area\" (team, areas, move, ...)"))
                        .at(&file, value_span(v)),
                ),
            }
        }
    }

    // ---- hooks
    for (name, h) in &raw.hooks {
        let params = match &h.params {
            None => Vec::new(),
            Some(p) => parse_param_list(&file, p, &format!("hooks.{name}"), &mut errors, &colls),
        };
        rs.hooks.push(Hook {
            name: name.clone(),
            params,
            triggers: Vec::new(),
        });
    }

    // ---- procedures (declared now, compiled on first use)
    let mut resolver = Resolver {
        procs: Vec::new(),
        proc_state: Vec::new(),
        tables: Vec::new(),
        table_state: Vec::new(),
        errors: Vec::new(),
        stack: Vec::new(),
    };
    for (name, p) in &raw.procedures {
        let rule = format!("procedures.{name}");
        let params = match &p.params {
            None => Vec::new(),
            Some(s) => parse_param_list(&file, s, &rule, &mut errors, &colls),
        };
        let unit = rs.units.len() as u32;
        rs.units.push(Unit {
            rule: rule.clone(),
            section: p.section.clone(),
        });
        let offset = code_offset(&file, p.body.span());
        let typed = colls.params_of(name).map(<[_]>::to_vec).unwrap_or_default();
        let mut x = Expander::new(&mut colls, &file, offset, &rule, &typed);
        let pending = match fuba_grammar::parse_body(p.body.get_ref()).map(|b| x.body(b)) {
            Ok(Ok(body)) => Some(Pending { body, offset, unit }),
            Ok(Err(d)) => {
                errors.push(d);
                None
            }
            Err(e) => {
                errors.push(parse_error(&file, offset, &rule, e));
                None
            }
        };
        resolver.proc_state.push(if pending.is_some() {
            State::Waiting
        } else {
            State::Failed
        });
        resolver.procs.push(pending);
        rs.procs.push(Procedure {
            name: name.clone(),
            section: p.section.clone(),
            params,
            ret: Ty::Any,
            code: Code::default(),
            unit,
            pure: false,
        });
    }

    // ---- tables
    for (name, t) in &raw.tables {
        let rule = format!("tables.{name}");
        let header = format!("[tables.{name}]");
        let header_span = file
            .text
            .find(&header)
            .map_or((0, 0), |o| (o, o + header.len()));
        let dice_span = t.dice.as_ref().map_or(header_span, value_span);
        let domain = match t.dice.as_ref().map(|d| d.get_ref().as_str()) {
            Some("d6") => Domain::D6,
            Some("2d6") => Domain::TwoD6,
            Some("d66") => Domain::D66,
            Some("labels") => Domain::Labels,
            other => {
                let msg = match other {
                    Some(o) => format!("table `{name}`: unknown key domain `{o}`"),
                    None => format!("table `{name}`: its key domain is missing (dice = ...)"),
                };
                errors.push(
                    Diagnostic::error(msg)
                        .at(&file, dice_span)
                        .hint("use \"d6\", \"2d6\", \"d66\" (a pair of dice) or \"labels\""),
                );
                Domain::Labels
            }
        };
        let n_slots = match domain {
            Domain::D6 => 6,
            Domain::TwoD6 => 11,
            Domain::D66 => 36,
            Domain::Labels => 0,
        };
        let mut table = Table {
            name: name.clone(),
            section: t.section.clone(),
            domain,
            rows: Vec::new(),
            slots: vec![u16::MAX; n_slots],
            labels: HashMap::new(),
            ty: Ty::Any,
        };
        let mut pend = Vec::new();
        for (key, row) in &t.rows {
            let ri = table.rows.len() as u16;
            let row_rule = format!("{rule}[{key}]");
            let key_at = file
                .find_key(&format!("tables.{name}.rows"), key)
                .map_or(value_span(row), |o| (o, o + key.len() + 2));
            if domain == Domain::Labels {
                let sym = rs.intern(key);
                table.labels.insert(sym, ri);
            } else {
                match key_slots(domain, key) {
                    Ok(slots) => {
                        for s in slots {
                            if table.slots[s] != u16::MAX {
                                // The row being read is not among the rows yet: a key that
                                // names one result twice (`3,3`) meets itself.
                                let message = match table.rows.get(table.slots[s] as usize) {
                                    Some(r) => format!(
                                        "table `{name}`: key `{key}` covers a result that row `{}` already covers",
                                        r.key
                                    ),
                                    None => {
                                        format!("table `{name}`: key `{key}` covers a result twice")
                                    }
                                };
                                errors.push(
                                    Diagnostic::error(message)
                                        .at(&file, at(key_at))
                                        .in_rule(row_rule.clone()),
                                );
                            }
                            table.slots[s] = ri;
                        }
                    }
                    Err(m) => errors.push(
                        Diagnostic::error(format!("table `{name}`: {m}"))
                            .at(&file, at(key_at))
                            .in_rule(row_rule.clone()),
                    ),
                }
            }
            let unit = rs.units.len() as u32;
            rs.units.push(Unit {
                rule: row_rule.clone(),
                section: t.section.clone(),
            });
            let r = row.get_ref();
            let offset = code_offset(&file, r.body.span());
            let mut x = Expander::new(&mut colls, &file, offset, &row_rule, &[]);
            pend.push(
                match fuba_grammar::parse_body(r.body.get_ref()).map(|b| x.body(b)) {
                    Ok(Ok(body)) => Some(Pending { body, offset, unit }),
                    Ok(Err(d)) => {
                        errors.push(d);
                        None
                    }
                    Err(e) => {
                        errors.push(parse_error(&file, offset, &row_rule, e));
                        None
                    }
                },
            );
            table.rows.push(Row {
                key: key.clone(),
                label: r.label.clone(),
                code: Code::default(),
                unit,
            });
        }
        if domain != Domain::Labels {
            let missing: Vec<String> = table
                .slots
                .iter()
                .enumerate()
                .filter(|(_, r)| **r == u16::MAX)
                .map(|(s, _)| match domain {
                    Domain::D6 => (s + 1).to_string(),
                    Domain::TwoD6 => (s + 2).to_string(),
                    _ => format!("{}-{}", s / 6 + 1, s % 6 + 1),
                })
                .collect();
            if !missing.is_empty() {
                let span = file
                    .find_key("tables", name)
                    .map_or(dice_span, |o| (o, o + name.len()));
                let header = format!("[tables.{name}]");
                let span = file
                    .text
                    .find(&header)
                    .map_or(span, |o| (o, o + header.len()));
                errors.push(
                    Diagnostic::error(format!("table `{name}` does not cover every result of {}: missing {}", domain.name(), missing.join(", ")))
                        .at(&file, span)
                        .in_rule(rule.clone())
                        .hint("every result of the dice must have exactly one row (use ranges like \"2..4\" or lists like \"1,6\")"),
                );
            }
        }
        resolver.table_state.push(State::Waiting);
        resolver.tables.push(pend);
        rs.tables.push(table);
    }

    // ---- match structure
    let proc_ref = |rs: &Ruleset,
                    s: &toml::Spanned<String>,
                    what: &str,
                    errors: &mut Vec<Diagnostic>|
     -> Option<u16> {
        match rs.procedure(s.get_ref()) {
            Some(i) => Some(i),
            None => {
                let names = rs.procedure_names();
                let hint = names
                    .iter()
                    .min_by_key(|n| crate::compile::edit_distance(n, s.get_ref()))
                    .map(|n| format!("did you mean `{n}`?"))
                    .unwrap_or_else(|| "declare it under [procedures.NAME]".into());
                errors.push(
                    Diagnostic::error(format!("{what}: unknown procedure `{}`", s.get_ref()))
                        .at(&file, value_span(s))
                        .hint(hint),
                );
                None
            }
        }
    };
    rs.start = m
        .start
        .as_ref()
        .and_then(|s| proc_ref(&rs, s, "match.start", &mut errors));
    rs.half_start = m
        .half_start
        .as_ref()
        .and_then(|s| proc_ref(&rs, s, "match.half_start", &mut errors));
    rs.turn_end = m
        .turn_end
        .as_ref()
        .and_then(|s| proc_ref(&rs, s, "match.turn_end", &mut errors));
    rs.scenario_derive = raw
        .scenario
        .derive
        .as_ref()
        .and_then(|s| proc_ref(&rs, s, "scenario.derive", &mut errors));
    rs.scenario_placement = raw.scenario.placement.as_ref().map(|s| s.get_ref().clone());
    for s in &m.turn {
        if let Some(i) = proc_ref(&rs, s, "match.turn", &mut errors) {
            rs.stages.push(i);
        }
    }
    if m.turn.is_empty() {
        let at = file.text.find("[match]").map_or((0, 0), |o| (o, o + 7));
        errors.push(
            Diagnostic::error("the turn has no stages")
                .at(&file, at)
                .hint("list the stage procedures in [match] turn = [...]"),
        );
    }
    // Stages and match procedures take no parameters.
    for i in rs
        .stages
        .iter()
        .chain(rs.start.iter())
        .chain(rs.half_start.iter())
        .chain(rs.turn_end.iter())
        .chain(rs.scenario_derive.iter())
    {
        let p = &rs.procs[*i as usize];
        if !p.params.is_empty() {
            let span = raw
                .procedures
                .get(&p.name)
                .and_then(|r| r.params.as_ref())
                .map_or((0, 0), value_span);
            errors.push(
                Diagnostic::error(format!(
                    "procedure `{}` is run by the match and must take no parameters",
                    p.name
                ))
                .at(&file, span)
                .in_rule(format!("procedures.{}", p.name))
                .hint("stages and the start, half_start and turn_end procedures take no parameters; read what they need from state variables"),
            );
        }
    }

    // ---- compile every procedure and table (those not reached yet too)
    for i in 0..rs.procs.len() {
        if resolver.proc_state[i] == State::Waiting {
            resolver.compile_proc(&mut rs, i);
        }
    }
    for i in 0..rs.tables.len() {
        if resolver.table_state[i] == State::Waiting {
            resolver.compile_table(&mut rs, i);
        }
    }

    // ---- triggers
    for (name, t) in &raw.triggers {
        let rule = format!("triggers.{name}");
        let Some(h) = rs.hooks.iter().position(|h| h.name == *t.hook.get_ref()) else {
            errors.push(
                Diagnostic::error(format!("trigger `{name}`: unknown hook `{}`", t.hook.get_ref()))
                    .at(&file, value_span(&t.hook))
                    .hint("declare the hook under [hooks.NAME] and reach it with `hook NAME(...)` in a procedure"),
            );
            continue;
        };
        let unit = rs.units.len() as u32;
        rs.units.push(Unit {
            rule: rule.clone(),
            section: t.section.clone(),
        });
        let params = rs.hooks[h].params.clone();
        let when = match &t.when {
            None => None,
            Some(w) => {
                let offset = code_offset(&file, w.span());
                let mut x = Expander::new(&mut colls, &file, offset, &rule, &[]);
                match fuba_grammar::parse_expression(w.get_ref()).map(|e| x.expression(e)) {
                    Ok(Err(d)) => {
                        errors.push(d);
                        continue;
                    }
                    Ok(Ok(e)) => {
                        let mut c = Compiler::new(&mut rs, unit, offset, &mut resolver);
                        for (n, ty) in &params {
                            c.declare(n, *ty);
                        }
                        match c.condition(&e) {
                            Ok(code) => Some(code),
                            Err(d) => {
                                errors.push(d);
                                continue;
                            }
                        }
                    }
                    Err(e) => {
                        errors.push(parse_error(&file, offset, &rule, e));
                        continue;
                    }
                }
            }
        };
        let offset = code_offset(&file, t.body.span());
        let mut x = Expander::new(&mut colls, &file, offset, &rule, &[]);
        let code = match fuba_grammar::parse_body(t.body.get_ref()).map(|b| x.body(b)) {
            Ok(Err(d)) => {
                errors.push(d);
                continue;
            }
            Ok(Ok(b)) => {
                let mut c = Compiler::new(&mut rs, unit, offset, &mut resolver);
                for (n, ty) in &params {
                    c.declare(n, *ty);
                }
                match c.body(&b) {
                    Ok((code, _)) => code,
                    Err(d) => {
                        errors.push(d);
                        continue;
                    }
                }
            }
            Err(e) => {
                errors.push(parse_error(&file, offset, &rule, e));
                continue;
            }
        };
        let ti = rs.triggers.len() as u16;
        rs.triggers.push(Trigger {
            name: name.clone(),
            hook: h as u16,
            section: t.section.clone(),
            when,
            code,
            unit,
        });
        rs.hooks[h].triggers.push(ti);
    }

    // ---- narration and figures
    for (kind, template) in &raw.narration {
        let k = rs.intern(kind);
        rs.narration.insert(k, template.get_ref().clone());
    }
    // Figures last: their tests read the fields every procedure emits.
    super::figures::build(&mut rs, &raw, &mut errors);

    errors.extend(resolver.errors);
    // Keep the order of the file, and drop repeats.
    let mut seen = HashSet::new();
    errors.retain(|d| seen.insert((d.span, d.message.clone())));
    errors.sort_by_key(|d| d.span.map_or(0, |s| s.0));
    if errors.is_empty() {
        rs.lookups = super::lookups::Lookups::build(&rs);
        let pure = crate::purity::pure_procs(&rs);
        for (p, pure) in rs.procs.iter_mut().zip(pure) {
            p.pure = pure;
        }
        rs.warnings = crate::lint::lint(&rs, &raw);
        rs.warnings
            .extend(super::collections::lint(&colls, &rs.file));
        rs.warnings
            .extend(crate::lint_narration::unused_narration(&rs, &raw));
        rs.raw = Arc::new(raw);
        Ok(rs)
    } else {
        Err(LoadErrors(errors))
    }
}

fn parse_param_list(
    file: &SourceFile,
    s: &toml::Spanned<String>,
    rule: &str,
    errors: &mut Vec<Diagnostic>,
    colls: &super::collections::Collections,
) -> Vec<(String, Ty)> {
    let offset = code_offset(file, s.span());
    match fuba_grammar::parse_params(s.get_ref()) {
        Ok(ps) => ps
            .into_iter()
            .map(|p| match Ty::from_name(&p.ty.name)
                // An entry of a collection is its name.
                .or_else(|| colls.get(&p.ty.name).map(|_| Ty::Str))
            {
                Some(t) => (p.name.name, t),
                None => {
                    errors.push(
                        Diagnostic::error(format!("unknown type `{}`", p.ty.name))
                            .at(file, (offset + p.ty.span.start, offset + p.ty.span.end))
                            .in_rule(rule)
                            .hint("types are int, bool, str, team, area, areas, dice, move, moves, list"),
                    );
                    // Keep the parameter (of any type) so its uses raise no further errors.
                    (p.name.name, Ty::Any)
                }
            })
            .collect(),
        Err(e) => {
            errors.push(parse_error(file, offset, rule, e));
            Vec::new()
        }
    }
}

fn locate_board_error(file: &SourceFile, key: &str) -> (usize, usize) {
    // key is like `board.areas.S_BOX.mirror` or `board.links[3]`.
    let parts: Vec<&str> = key.split('.').collect();
    let name = parts.get(2).copied().unwrap_or("");
    if let Some(o) = file.find_key("board.areas", name) {
        if let Some(field) = parts.get(3) {
            if let Some(f) = file.text[o..].find(field) {
                return (o + f, o + f + field.len());
            }
        }
        return (o, o + name.len());
    }
    if let Some(i) = key.find("links[") {
        let n: usize = key[i + 6..].trim_end_matches(']').parse().unwrap_or(0);
        if let Some(o) = file.text.find("links") {
            // The n-th `[` after `links = [`.
            let rest = &file.text[o..];
            if let Some(start) = rest.find('[') {
                let mut count = 0;
                for (j, c) in rest[start + 1..].char_indices() {
                    if c == '[' {
                        if count == n {
                            let s = o + start + 1 + j;
                            let e = file.text[s..].find(']').map_or(s + 1, |x| s + x + 1);
                            return (s, e);
                        }
                        count += 1;
                    }
                }
            }
        }
    }
    file.text.find("[board").map_or((0, 0), |o| (o, o + 7))
}
