//! The declarations of a ruleset: its name and numbers, constants, match options (and the
//! fingerprint, which covers the options set), state variables, hooks and narration.

use std::collections::HashMap;
use std::sync::Arc;

use crate::board::Board;
use crate::ruleset::diag::{Diagnostic, SourceFile};
use crate::ruleset::model::{Hook, MatchOption, Ruleset, VarDecl};
use crate::ruleset::raw::RawRuleset;
use crate::ruleset::symbols::Symbols;
use crate::value::{Ty, Value};

use super::code::{parse_param_list, value_span};
use super::collections::Collections;

/// The ruleset with its name, board and `[match]` numbers, and nothing declared yet but
/// the names primitives give back as strings and the board's zones.
pub(super) fn ruleset(
    file: &SourceFile,
    raw: &RawRuleset,
    board: Board,
    removed: HashMap<String, (usize, usize)>,
    errors: &mut Vec<Diagnostic>,
) -> Ruleset {
    let m = &raw.match_;
    let nums = super::ranges::match_numbers(m, file, errors);
    let mut rs = Ruleset {
        name: raw.meta.name.clone(),
        title: raw.meta.title.clone(),
        source: raw.meta.source.clone(),
        file: file.clone(),
        fingerprint: String::new(),
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
                .at(file, (0, 0))
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
    rs
}

/// `[constants]`.
pub(super) fn constants(
    rs: &mut Ruleset,
    raw: &RawRuleset,
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) {
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
                        .at(file, value_span(v)),
                ),
            },
        }
    }
}

/// `[options]`: constants whose value the player may set, with the values set for the
/// match (`name`, `value` as a player writes them).
pub(super) fn options(
    rs: &mut Ruleset,
    raw: &RawRuleset,
    set_options: &[(String, String)],
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) {
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
                .at(file, span),
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
                        .at(file, span)
                        .hint(o.doc.clone()),
                    );
                    default.clone()
                }
            },
        };
        if rs.constant(name).is_some() {
            errors.push(
                Diagnostic::error(format!("option `{name}` has the name of a constant"))
                    .at(file, span),
            );
        }
        let range = super::ranges::option_range(name, o, ty, &default, file, errors);
        super::ranges::check_set(name, &value, range, o, file, errors);
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
}

/// FNV-1a over `bytes`, from `h`.
fn fnv(mut h: u64, bytes: &mut dyn Iterator<Item = u8>) -> u64 {
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The fingerprint of a ruleset (FNV-1a, hex): the text of every layer, then the options
/// set for the match.
pub(super) fn fingerprint(rs: &Ruleset, file: &SourceFile) -> String {
    let text_hash = fnv(0xcbf29ce484222325, &mut file.text.bytes());
    // The options set to something other than their default, each as `name=value;` in the
    // ruleset's order and spelling (`name=value;`), whatever the order and spelling they were
    // given in (a log's header records them so: `crate::log::options_set`).
    let set: String = crate::log::options_set(rs)
        .iter()
        .map(|o| format!("{o};"))
        .collect();
    format!("{:016x}", fnv(text_hash, &mut set.bytes()))
}

/// `[state]`: the state variables of each scope.
pub(super) fn state_vars(
    rs: &mut Ruleset,
    raw: &RawRuleset,
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) {
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
                        errors.push(Diagnostic::error(format!("`{name}` is declared twice")).at(file, value_span(v)));
                    }
                    rs.vars[si].push(d);
                }
                None => errors.push(
                    Diagnostic::error(format!("state variable `{name}`: give an initial value (integer, boolean, string, list) or \"type: area\" (team, areas, move, ...)"))
                        .at(file, value_span(v)),
                ),
            }
        }
    }
}

/// `[hooks]`: each hook and its parameters (the triggers attach later).
pub(super) fn hooks(
    rs: &mut Ruleset,
    raw: &RawRuleset,
    file: &SourceFile,
    colls: &Collections,
    errors: &mut Vec<Diagnostic>,
) {
    for (name, h) in &raw.hooks {
        let params = match &h.params {
            None => Vec::new(),
            Some(p) => parse_param_list(file, p, &format!("hooks.{name}"), errors, colls),
        };
        rs.hooks.push(Hook {
            name: name.clone(),
            params,
            triggers: Vec::new(),
        });
    }
}

/// `[narration]`: the template of each event kind.
pub(super) fn narration(rs: &mut Ruleset, raw: &RawRuleset) {
    for (kind, template) in &raw.narration {
        let k = rs.intern(kind);
        rs.narration.insert(k, template.get_ref().clone());
    }
}

/// A constant's or a state variable's value and type: an integer, a boolean or a list of
/// integers (strings are interned by the caller).
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
