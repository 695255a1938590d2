//! Declared collections (`[collections.NAME]`, `[entries.NAME."Entry"]`): typed records
//! a rule iterates over, filters and looks up. They exist only while a ruleset loads:
//! [`prepare`] checks them, declares the per-team state of every entry as ordinary team
//! state variables and turns an entry's own trigger into an ordinary trigger; the code
//! expander (`expand.rs`) then resolves every use to what the compiler already knows
//! (constants, `match`es over the entry names, unrolled loops), so nothing of a collection
//! reaches the compiled code. docs/ruleset-format.md, "Collections", describes the format.

// A diagnostic is large, but it only travels while a ruleset loads.
#![allow(clippy::result_large_err)]

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use toml::Spanned;

use crate::ruleset::diag::{Diagnostic, SourceFile};
use crate::ruleset::raw::{RawEntry, RawRuleset, RawTrigger};

/// The keys of an entry that make its trigger rather than fields.
const TRIGGER_KEYS: [&str; 4] = ["hook", "when", "do", "section"];

/// A field's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldTy {
    /// An integer.
    Int,
    /// A string.
    Str,
    /// A boolean.
    Bool,
}

/// A field value: a literal the expander writes into code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lit {
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
}

impl Lit {
    fn of(v: &toml::Value) -> Option<Lit> {
        match v {
            toml::Value::Integer(i) => Some(Lit::Int(*i)),
            toml::Value::String(s) => Some(Lit::Str(s.clone())),
            toml::Value::Boolean(b) => Some(Lit::Bool(*b)),
            _ => None,
        }
    }

    fn ty(&self) -> FieldTy {
        match self {
            Lit::Int(_) => FieldTy::Int,
            Lit::Str(_) => FieldTy::Str,
            Lit::Bool(_) => FieldTy::Bool,
        }
    }

    /// The value a field of this type has when the entry is not known (`_` arm).
    pub fn zero(ty: FieldTy) -> Lit {
        match ty {
            FieldTy::Int => Lit::Int(0),
            FieldTy::Str => Lit::Str(String::new()),
            FieldTy::Bool => Lit::Bool(false),
        }
    }
}

/// One entry: its name, where it was written and its field values (every declared
/// field, defaults filled in).
#[derive(Clone, Debug)]
pub struct Entry {
    /// The entry's name, its value in code.
    pub name: String,
    /// Where the entry was written (its table).
    pub span: (usize, usize),
    /// Field values by field name.
    pub values: HashMap<String, Lit>,
    /// Whether the entry carries its own trigger.
    pub has_trigger: bool,
}

/// A checked collection.
#[derive(Clone, Debug)]
pub struct Collection {
    /// Its name in code.
    pub name: String,
    /// The declared fields, in order: name, type.
    pub fields: Vec<(String, FieldTy)>,
    /// The per-team state of every entry: key and initial value.
    pub team_state: Vec<(String, Lit)>,
    /// The entries, in declaration order (a layer's new entries last).
    pub entries: Vec<Entry>,
    /// Where `[collections.NAME]` was written.
    pub span: (usize, usize),
}

impl Collection {
    /// The entry named `name`.
    pub fn entry(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.name == name)
    }

    /// The type of field `f`.
    pub fn field(&self, f: &str) -> Option<FieldTy> {
        self.fields.iter().find(|(n, _)| n == f).map(|(_, t)| *t)
    }

    /// The initial value of the per-team state `key`.
    pub fn state(&self, key: &str) -> Option<&Lit> {
        self.team_state
            .iter()
            .find(|(n, _)| n == key)
            .map(|(_, v)| v)
    }
}

/// Every collection of a ruleset, the procedure parameters typed by one, and what the
/// rules use (for the `unused-entry` lint).
#[derive(Clone, Debug, Default)]
pub struct Collections {
    /// The collections, in declaration order.
    pub list: Vec<Collection>,
    /// For each procedure with a parameter typed by a collection: every parameter's name
    /// and collection.
    pub params: HashMap<String, Vec<(String, Option<usize>)>>,
    /// Collections some rule iterates over or looks up by a computed key.
    pub iterated: HashSet<usize>,
    /// Entries some rule names: (collection, entry).
    pub named: HashSet<(usize, usize)>,
}

impl Collections {
    /// The collection named `name`.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.list.iter().position(|c| c.name == name)
    }

    /// The collections of the parameters of procedure `proc`, if any is typed by one.
    pub fn params_of(&self, proc: &str) -> Option<&[(String, Option<usize>)]> {
        self.params.get(proc).map(Vec::as_slice)
    }
}

fn span<T>(s: &Spanned<T>) -> (usize, usize) {
    (s.span().start, s.span().end)
}

fn field_type(v: &toml::Value) -> Option<(FieldTy, Option<&toml::Value>)> {
    let ty = |s: &str| match s {
        "int" => Some(FieldTy::Int),
        "str" => Some(FieldTy::Str),
        "bool" => Some(FieldTy::Bool),
        _ => None,
    };
    match v {
        toml::Value::String(s) => Some((ty(s)?, None)),
        toml::Value::Table(t) => {
            if t.keys().any(|k| k != "type" && k != "default") {
                return None;
            }
            Some((ty(t.get("type")?.as_str()?)?, t.get("default")))
        }
        _ => None,
    }
}

/// Checks the collections of a merged ruleset, declares the per-team state of their
/// entries in `raw.state.team`, and adds each entry's own trigger to `raw.triggers`
/// (named `COLLECTION.ENTRY`, after the triggers declared in `[triggers]`).
pub fn prepare(raw: &mut RawRuleset, file: &SourceFile) -> (Collections, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let mut out = Collections::default();
    for (name, entries) in &raw.entries {
        if !raw.collections.contains_key(name) {
            let at = entries.values().next().map_or((0, 0), span);
            errors.push(
                Diagnostic::error(format!(
                    "entries of `{name}`, which is not a declared collection"
                ))
                .at(file, at)
                .hint(format!(
                    "declare it with [collections.{name}] and its fields"
                )),
            );
        }
    }
    let taken = |n: &str| {
        raw.constants.contains_key(n)
            || raw.options.contains_key(n)
            || raw.procedures.contains_key(n)
            || raw.tables.contains_key(n)
            || raw.state.match_.contains_key(n)
            || raw.state.team.contains_key(n)
            || raw.state.turn.contains_key(n)
            || raw.state.team_turn.contains_key(n)
    };
    let mut new_state = IndexMap::new();
    let mut new_triggers = IndexMap::new();
    for (name, decl) in &raw.collections {
        let header = format!("[collections.{name}]");
        let at = file
            .text
            .find(&header)
            .map_or((0, 0), |o| (o, o + header.len()));
        if taken(name) {
            errors.push(
                Diagnostic::error(format!(
                    "collection `{name}` has the name of a constant, option, state variable, procedure or table"
                ))
                .at(file, at),
            );
            continue;
        }
        let mut c = Collection {
            name: name.clone(),
            fields: Vec::new(),
            team_state: Vec::new(),
            entries: Vec::new(),
            span: at,
        };
        let mut defaults = HashMap::new();
        for (f, v) in &decl.fields {
            match field_type(v.get_ref()) {
                Some((ty, d)) if !["name", "index"].contains(&f.as_str()) => {
                    if let Some(d) = d {
                        match Lit::of(d).filter(|l| l.ty() == ty) {
                            Some(l) => {
                                defaults.insert(f.clone(), l);
                            }
                            None => errors.push(
                                Diagnostic::error(format!("field `{f}`: the default is not of its type"))
                                    .at(file, span(v)),
                            ),
                        }
                    }
                    c.fields.push((f.clone(), ty));
                }
                _ => errors.push(
                    Diagnostic::error(format!("collection `{name}`: field `{f}` must be \"int\", \"str\" or \"bool\", or {{ type = ..., default = ... }} (and not `name` or `index`, which every entry has)"))
                        .at(file, span(v)),
                ),
            }
        }
        for (k, v) in &decl.team_state {
            match Lit::of(v.get_ref()) {
                Some(l) => c.team_state.push((k.clone(), l)),
                None => errors.push(
                    Diagnostic::error(format!(
                        "collection `{name}`: the team state `{k}` starts as an integer, a string or a boolean"
                    ))
                    .at(file, span(v)),
                ),
            }
        }
        let empty = IndexMap::new();
        let entries = raw.entries.get(name).unwrap_or(&empty);
        for (i, (ename, e)) in entries.iter().enumerate() {
            let entry = check_entry(&c, ename, e, &defaults, file, &mut errors);
            if entry.has_trigger {
                match trigger_of(name, ename, e, &decl.section, file) {
                    Ok(t) => {
                        new_triggers.insert(format!("{name}.{ename}"), t);
                    }
                    Err(d) => errors.push(d),
                }
            }
            for (k, v) in &decl.team_state {
                new_state.insert(format!("{k}_{}", i + 1), v.clone());
            }
            c.entries.push(entry);
        }
        out.list.push(c);
    }
    for (n, v) in new_state {
        if raw.state.team.contains_key(&n) {
            errors.push(
                Diagnostic::error(format!(
                    "`{n}` is declared twice: as a team state variable and as the team state of a collection's entry"
                ))
                .at(file, span(&v)),
            );
        }
        raw.state.team.insert(n, v);
    }
    raw.triggers.extend(new_triggers);
    for (pname, p) in &raw.procedures {
        let Some(ps) = &p.params else { continue };
        let Ok(list) = fuba_grammar::parse_params(ps.get_ref()) else {
            continue;
        };
        let cols: Vec<(String, Option<usize>)> = list
            .iter()
            .map(|q| (q.name.name.clone(), out.get(&q.ty.name)))
            .collect();
        if cols.iter().any(|(_, c)| c.is_some()) {
            out.params.insert(pname.clone(), cols);
        }
    }
    (out, errors)
}

fn check_entry(
    c: &Collection,
    ename: &str,
    e: &Spanned<RawEntry>,
    defaults: &HashMap<String, Lit>,
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) -> Entry {
    let at = span(e);
    let mut values = HashMap::new();
    let mut has_trigger = false;
    for (k, v) in e.get_ref() {
        if TRIGGER_KEYS.contains(&k.as_str()) {
            has_trigger = true;
            continue;
        }
        match (c.field(k), Lit::of(v.get_ref())) {
            (Some(ty), Some(l)) if l.ty() == ty => {
                values.insert(k.clone(), l);
            }
            (Some(ty), _) => errors.push(
                Diagnostic::error(format!(
                    "entry \"{ename}\" of `{}`: field `{k}` is {}",
                    c.name,
                    match ty {
                        FieldTy::Int => "an integer",
                        FieldTy::Str => "a string",
                        FieldTy::Bool => "a boolean",
                    }
                ))
                .at(file, span(v)),
            ),
            (None, _) => {
                let names = c.fields.iter().map(|(n, _)| n.as_str());
                let mut d = Diagnostic::error(format!(
                    "entry \"{ename}\" of `{}`: unknown field `{k}`",
                    c.name
                ))
                .at(file, span(v));
                d = match crate::compile::closest_name(k, names) {
                    Some(h) => d.hint(format!("did you mean `{h}`?")),
                    None => d.hint(format!(
                        "the fields of `{}` are {}; an entry's trigger takes hook, when, do, section",
                        c.name,
                        c.fields
                            .iter()
                            .map(|(n, _)| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                };
                errors.push(d);
            }
        }
    }
    for (f, _) in &c.fields {
        if !values.contains_key(f) {
            match defaults.get(f) {
                Some(d) => {
                    values.insert(f.clone(), d.clone());
                }
                None => errors.push(
                    Diagnostic::error(format!(
                        "entry \"{ename}\" of `{}` has no `{f}` (the field has no default)",
                        c.name
                    ))
                    .at(file, at),
                ),
            }
        }
    }
    Entry {
        name: ename.to_string(),
        span: at,
        values,
        has_trigger,
    }
}

/// The trigger an entry carries: `hook`, `when`, `do`, `section`.
fn trigger_of(
    cname: &str,
    ename: &str,
    e: &Spanned<RawEntry>,
    section: &str,
    file: &SourceFile,
) -> Result<RawTrigger, Diagnostic> {
    let e = e.get_ref();
    let text = |k: &str| -> Result<Option<Spanned<String>>, Diagnostic> {
        match e.get(k) {
            None => Ok(None),
            Some(v) => match v.get_ref() {
                toml::Value::String(s) => Ok(Some(Spanned::new(v.span(), s.clone()))),
                _ => Err(Diagnostic::error(format!(
                    "entry \"{ename}\" of `{cname}`: `{k}` is a string"
                ))
                .at(file, span(v))),
            },
        }
    };
    let (hook, body) = match (text("hook")?, text("do")?) {
        (Some(h), Some(b)) => (h, b),
        _ => {
            let at = e.values().next().map_or((0, 0), span);
            return Err(Diagnostic::error(format!(
                "entry \"{ename}\" of `{cname}`: a trigger needs both `hook` and `do`"
            ))
            .at(file, at));
        }
    };
    Ok(RawTrigger {
        hook,
        section: text("section")?.map_or_else(|| section.to_string(), |s| s.into_inner()),
        when: text("when")?,
        body,
    })
}

/// Lays a layer's entries over the ones below: a new entry is added (last), an entry
/// already there has the fields the layer gives replaced.
pub fn merge_entries(
    below: &mut IndexMap<String, IndexMap<String, Spanned<RawEntry>>>,
    top: IndexMap<String, IndexMap<String, Spanned<RawEntry>>>,
) {
    for (c, es) in top {
        let b = below.entry(c).or_default();
        for (n, e) in es {
            match b.get_mut(&n) {
                Some(be) => be.get_mut().extend(e.into_inner()),
                None => {
                    b.insert(n, e);
                }
            }
        }
    }
}

/// Removes `collections.NAME` (with its entries) or `entries.NAME.ENTRY`; whether it was
/// there.
pub fn remove(raw: &mut RawRuleset, what: &str, rest: &str) -> bool {
    match what {
        "collections" => {
            raw.entries.shift_remove(rest);
            raw.collections.shift_remove(rest).is_some()
        }
        _ => match rest.split_once('.') {
            Some((c, e)) => raw
                .entries
                .get_mut(c)
                .is_some_and(|es| es.shift_remove(e).is_some()),
            None => false,
        },
    }
}

/// `unused-entry`: an entry no rule reads — its collection is never iterated nor looked
/// up by a computed key, no rule names it, and it has no trigger of its own.
pub fn lint(colls: &Collections, file: &SourceFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (ci, c) in colls.list.iter().enumerate() {
        if colls.iterated.contains(&ci) {
            continue;
        }
        for (ei, e) in c.entries.iter().enumerate() {
            if e.has_trigger || colls.named.contains(&(ci, ei)) {
                continue;
            }
            out.push(
                Diagnostic::warning(
                    "unused-entry",
                    format!("entry \"{}\" of `{}` is never read", e.name, c.name),
                )
                .at(file, e.span)
                .in_rule(format!("entries.{}", c.name))
                .hint(format!(
                    "no rule iterates over `{}` (`for e in {}`), names the entry (`{}[\"{}\"]`) or passes it to a parameter of type `{}`; give it a trigger, or take it out",
                    c.name, c.name, c.name, e.name, c.name
                )),
            );
        }
    }
    out
}
