//! The `[figures]` table: what `fuba simulate` and `fuba compare` count in each match,
//! built from the ruleset's entries, and the `where` tests that count only some of the
//! events of a kind.
//!
//! A test is a condition in the effect language whose names are the event's fields (with
//! the types the rules emit them with), the constants and options, and the board's
//! primitives. It cannot read the match: it is worked out from the event alone, when the
//! event is emitted, so it costs nothing in matches of rulesets without one and means the
//! same under any ruleset that emits the same event ([`Ruleset::adopt_figures`]).

// A diagnostic is large, but it only travels while a ruleset loads.
#![allow(clippy::result_large_err)]

use crate::compile::{Compiler, ProcResolver, Products, Resolved};
use crate::ir::Stmt;
use crate::ruleset::diag::Diagnostic;
use crate::ruleset::model::{Breakdown, Figure, FigureTest, Ruleset};
use crate::ruleset::raw::{RawEventFigure, RawFigure, RawRuleset};
use crate::value::{Sym, Ty};
use crate::vm::Counters;

/// Builds the ruleset's figures from its `[figures]` table; errors go to `errors`.
pub(super) fn build(rs: &mut Ruleset, raw: &RawRuleset, errors: &mut Vec<Diagnostic>) {
    // The figure that declares `conversion`, once one has.
    let mut converted: Option<&str> = None;
    for (name, figure) in &raw.figures {
        let span = figure.span();
        let conversion = declared_conversion(rs, name, figure, &mut converted, errors);
        match figure.get_ref() {
            RawFigure::Kinds(kinds) => push_listed(rs, name, kinds, None),
            RawFigure::Listed(listed) => push_listed(rs, name, &listed.events, conversion),
            RawFigure::Event(e) => {
                // Where the test's text starts in the file (the entry's start when it has
                // escapes and cannot be found as written).
                let offset = e
                    .test
                    .as_ref()
                    .and_then(|t| rs.file.text.get(span.clone())?.find(t.as_str()))
                    .map_or(span.start, |i| span.start + i);
                if let Err(d) = add_event_figure(rs, name, e, offset, conversion) {
                    let d = if d.span.is_some() {
                        d
                    } else {
                        let file = rs.file.clone();
                        d.at(&file, (span.start, span.end))
                    };
                    errors.push(d.in_rule(format!("figures.{name}")));
                }
            }
        }
    }
}

/// The conversion figure `name` declares, checked: an error (and None) for a bad label,
/// on a breakdown, or when figure `converted` declared one before it; otherwise it becomes
/// `converted`.
fn declared_conversion<'r>(
    rs: &Ruleset,
    name: &'r str,
    figure: &toml::Spanned<RawFigure>,
    converted: &mut Option<&'r str>,
    errors: &mut Vec<Diagnostic>,
) -> Option<String> {
    let span = figure.span();
    let mut conversion = match conversion_label(rs, name, figure.get_ref(), span.clone()) {
        Ok(c) => c,
        Err(d) => {
            errors.push(d.in_rule(format!("figures.{name}")));
            None
        }
    };
    let breakdown = matches!(figure.get_ref(), RawFigure::Event(e) if e.by.is_some());
    if breakdown && conversion.is_some() {
        let file = rs.file.clone();
        errors.push(
            Diagnostic::error(format!(
                "figure `{name}` counts events by a field (`by`), so goals cannot be a \
                 conversion of it"
            ))
            .at(&file, conversion_span(rs, span.clone()))
            .hint("declare `conversion` on a figure counted per match")
            .in_rule(format!("figures.{name}")),
        );
        conversion = None;
    }
    if conversion.is_some() {
        match *converted {
            Some(first) => {
                let file = rs.file.clone();
                errors.push(
                    Diagnostic::error(format!(
                        "figures `{first}` and `{name}` both declare `conversion`: goals \
                         are a conversion of one figure at most"
                    ))
                    .at(&file, conversion_span(rs, span.clone()))
                    .hint(format!(
                        "keep `conversion` on one of them (a layer redeclares `{first}` \
                         without it to move it)"
                    ))
                    .in_rule(format!("figures.{name}")),
                );
                conversion = None;
            }
            None => *converted = Some(name),
        }
    }
    conversion
}

/// Adds figure `name`, counting the events of `kinds` per match.
fn push_listed(rs: &mut Ruleset, name: &str, kinds: &[String], conversion: Option<String>) {
    let kinds = kinds.iter().map(|k| rs.intern(k)).collect();
    rs.figures.push(Figure {
        name: name.to_string(),
        kinds,
        test: None,
        conversion,
    });
}

/// The label of the conversion figure `name` declares (`conversion = "goals per shot"`),
/// the entry at `span` in the file: None when it declares none, an error when the value
/// is not a non-empty string.
fn conversion_label(
    rs: &Ruleset,
    name: &str,
    figure: &RawFigure,
    span: std::ops::Range<usize>,
) -> Result<Option<String>, Diagnostic> {
    let value = match figure {
        RawFigure::Kinds(_) => None,
        RawFigure::Listed(l) => l.conversion.as_ref(),
        RawFigure::Event(e) => e.conversion.as_ref(),
    };
    match value {
        None => Ok(None),
        Some(toml::Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
        Some(v) => {
            let what = match v {
                toml::Value::String(_) => "empty".to_string(),
                other => {
                    let ty = other.type_str();
                    let article = if ty.starts_with(['a', 'i']) {
                        "an"
                    } else {
                        "a"
                    };
                    format!("{article} {ty}, not a string")
                }
            };
            Err(Diagnostic::error(format!(
                "figure `{name}`: `conversion` is {what}; it is the label of goals per \
                 event of the figure"
            ))
            .at(&rs.file, conversion_span(rs, span))
            .hint("for example `conversion = \"goals per shot\"`"))
        }
    }
}

/// Where the value of `conversion` is written in the figure entry at `span` (the whole
/// entry when it cannot be found as written).
fn conversion_span(rs: &Ruleset, span: std::ops::Range<usize>) -> (usize, usize) {
    let whole = (span.start, span.end);
    let Some(text) = rs.file.text.get(span.clone()) else {
        return whole;
    };
    let Some(key) = text.find("conversion") else {
        return whole;
    };
    let after = &text[key + "conversion".len()..];
    let Some(eq) = after.find('=') else {
        return whole;
    };
    let value = &after[eq + 1..];
    let start = value.len() - value.trim_start().len();
    let rest = &value[start..];
    let len = rest.find([',', '}', '\n']).unwrap_or(rest.len());
    let from = span.start + key + "conversion".len() + eq + 1 + start;
    (from, from + rest[..len].trim_end().len().max(1))
}

/// Adds figure `name` of the form `{ event, by, where }`, its test's text at `offset` in
/// the ruleset's file; goals are a `conversion` of it when given (never of a breakdown).
fn add_event_figure(
    rs: &mut Ruleset,
    name: &str,
    e: &RawEventFigure,
    offset: usize,
    conversion: Option<String>,
) -> Result<(), Diagnostic> {
    let kind = rs.intern(&e.event);
    let test = match &e.test {
        Some(source) => Some(compile_test(rs, name, kind, source, offset)?),
        None => None,
    };
    match &e.by {
        Some(by) => {
            let field = rs.intern(by);
            rs.breakdowns.push(Breakdown {
                name: name.to_string(),
                kind,
                field,
                test,
            });
        }
        None => rs.figures.push(Figure {
            name: name.to_string(),
            kinds: vec![kind],
            test,
            conversion,
        }),
    }
    Ok(())
}

/// No procedure or table may be called from a figure's test.
struct NoCalls;

impl ProcResolver for NoCalls {
    fn procedure(
        &mut self,
        rs: &Ruleset,
        _: &mut Products,
        name: &str,
    ) -> Option<Result<Resolved, Diagnostic>> {
        rs.procs.iter().any(|p| p.name == name).then(|| {
            Err(Diagnostic::error(format!(
                "a figure's `where` cannot call the procedure `{name}`: it sees only the \
                 event's fields, the constants and the board"
            )))
        })
    }

    fn table(
        &mut self,
        rs: &Ruleset,
        _: &mut Products,
        name: &str,
    ) -> Option<Result<Resolved, Diagnostic>> {
        rs.tables.iter().any(|t| t.name == name).then(|| {
            Err(Diagnostic::error(format!(
                "a figure's `where` cannot read the table `{name}`: it sees only the \
                 event's fields, the constants and the board"
            )))
        })
    }
}

/// The fields the rules emit events of `kind` with, and their types, by name.
fn event_fields(rs: &Ruleset, kind: Sym) -> Vec<(Sym, Ty)> {
    let mut fields: Vec<(Sym, Ty)> = rs
        .emit_fields
        .iter()
        .filter(|((k, _), _)| *k == kind)
        .map(|((_, f), t)| (*f, *t))
        .collect();
    fields.sort_by(|a, b| rs.symbol(a.0).cmp(rs.symbol(b.0)));
    fields
}

/// The event kind the rules emit whose name is closest to `kind`, if one is close.
fn closest_kind<'r>(rs: &'r Ruleset, kind: &str) -> Option<&'r str> {
    let kinds = rs.emit_fields.keys().map(|(k, _)| rs.symbol(*k));
    kinds
        .map(|k| (crate::compile::edit_distance(k, kind), k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| k)
}

/// Checks figure `name`'s test `source` (at `offset` in the file) over the fields of the
/// events of `kind`.
fn compile_test(
    rs: &mut Ruleset,
    name: &str,
    kind: Sym,
    source: &str,
    offset: usize,
) -> Result<FigureTest, Diagnostic> {
    let fields = event_fields(rs, kind);
    if fields.is_empty() {
        let d = Diagnostic::error(format!(
            "figure `{name}`: no rule emits an event `{}` with fields, so `where` has \
             nothing to test",
            rs.symbol(kind)
        ));
        return Err(match closest_kind(rs, rs.symbol(kind)) {
            Some(k) => d.hint(format!("did you mean `{k}`?")),
            None => d,
        });
    }
    let names: Vec<String> = fields
        .iter()
        .map(|(f, _)| rs.symbol(*f).to_string())
        .collect();
    let unit = rs.add_unit(format!("figures.{name}"), String::new());
    // `{name}` names a field as in narration, and is how a field named like a keyword
    // (`from`) is written: it reads as `_name_`, which takes as many characters, so
    // positions in the file still match.
    let mut text = source.to_string();
    for n in &names {
        text = text.replace(&format!("{{{n}}}"), &format!("_{n}_"));
    }
    let listed = format!("the fields of `{}`: {}", rs.symbol(kind), names.join(", "));
    if let Some(start) = text.find('{') {
        let end = text[start..]
            .find('}')
            .map_or(text.len(), |e| start + e + 1);
        let file = rs.file.clone();
        return Err(Diagnostic::error(format!(
            "figure `{name}`: `{}` is not a field of `{}`",
            &text[start..end],
            rs.symbol(kind)
        ))
        .at(&file, (offset + start, offset + end))
        .hint(listed));
    }
    let expr = fuba_grammar::parse_expression(&text).map_err(|e| {
        let file = rs.file.clone();
        let at = offset + e.span().start;
        let keywords: Vec<&String> = names
            .iter()
            .filter(|n| fuba_grammar::KEYWORDS.contains(&n.as_str()))
            .collect();
        let d = Diagnostic::error(format!("figure `{name}`: {e}")).at(&file, (at, at + 1));
        match keywords.first() {
            Some(k) => d.hint(format!(
                "{listed}; a field named like a keyword is written in braces: `{{{k}}}`"
            )),
            None => d.hint(listed.clone()),
        }
    })?;
    let mut resolver = NoCalls;
    let mut out = Products::default();
    let mut c = Compiler::new(rs, &mut out, unit, offset, &mut resolver);
    let mut slots = Vec::new();
    for (n, (f, ty)) in names.iter().zip(&fields) {
        c.declare(n, *ty);
        c.declare(&format!("_{n}_"), *ty);
        slots.extend([*f, *f]);
    }
    let compiled = c.condition(&expr);
    out.store(rs);
    let code = compiled.map_err(|d| match &d.hint {
        Some(h) => {
            let h = format!("{h}; {listed}");
            d.hint(h)
        }
        None => d.hint(listed.clone()),
    })?;
    let [Stmt::Expr(cond)] = &code.body.stmts[..] else {
        unreachable!("a condition compiles to one expression")
    };
    if let Some(loc) = crate::vm::reads_the_match(cond) {
        let file = rs.file.clone();
        return Err(Diagnostic::error(format!(
            "figure `{name}`: `where` may use only the event's fields ({}), the constants \
             and the board's primitives; this reads the match",
            names.join(", ")
        ))
        .at(&file, (loc.start as usize, loc.end as usize)));
    }
    Ok(FigureTest {
        source: source.to_string(),
        cond: cond.clone(),
        fields: slots,
    })
}

impl Figure {
    /// How many events the figure counted in `c`, the counts of the match whose figure
    /// this is the `i`th.
    pub fn count(&self, i: usize, c: &Counters) -> u32 {
        match self.test {
            Some(_) => c.tested.get(i).copied().unwrap_or(0),
            None => self
                .kinds
                .iter()
                .map(|k| c.emits.get(*k as usize).copied().unwrap_or(0))
                .sum(),
        }
    }
}

impl Ruleset {
    /// Adds the figures of `other` that this ruleset lacks (by name), worked out under
    /// this one's rules: what `fuba compare` does so that a figure a house rule declares
    /// is counted under the ruleset it is compared with too. An error names the figure
    /// whose test does not check here (a field these rules do not emit, say).
    pub fn adopt_figures(&mut self, other: &Ruleset) -> Result<(), Diagnostic> {
        let has = |rs: &Ruleset, n: &str| {
            rs.figures.iter().any(|f| f.name == n) || rs.breakdowns.iter().any(|b| b.name == n)
        };
        let adopt = |rs: &mut Ruleset, name: &str, e: RawEventFigure, conversion| {
            add_event_figure(rs, name, &e, 0, conversion).map_err(|d| {
                let prefix = format!("figure `{name}`: ");
                let why = d.message.strip_prefix(&prefix).unwrap_or(&d.message);
                let mut out = Diagnostic::error(format!(
                    "figure `{name}` of {} cannot be counted under {}: {why}",
                    other.name, rs.name
                ));
                out.hint = d.hint;
                out
            })
        };
        for f in &other.figures {
            if has(self, &f.name) {
                continue;
            }
            // Goals stay a conversion of the adopted figure unless one of these rules'
            // own figures already converts.
            let conversion = (f.conversion.as_ref())
                .filter(|_| !self.figures.iter().any(|g| g.conversion.is_some()))
                .cloned();
            match &f.test {
                None => {
                    let kinds = f
                        .kinds
                        .iter()
                        .map(|k| self.intern(other.symbol(*k)))
                        .collect();
                    self.figures.push(Figure {
                        name: f.name.clone(),
                        kinds,
                        test: None,
                        conversion,
                    });
                }
                Some(t) => {
                    let e = RawEventFigure {
                        event: other.symbol(f.kinds[0]).to_string(),
                        by: None,
                        test: Some(t.source.clone()),
                        conversion: None,
                    };
                    adopt(self, &f.name, e, conversion)?;
                }
            }
        }
        for b in &other.breakdowns {
            if has(self, &b.name) {
                continue;
            }
            let e = RawEventFigure {
                event: other.symbol(b.kind).to_string(),
                by: Some(other.symbol(b.field).to_string()),
                test: b.test.as_ref().map(|t| t.source.clone()),
                conversion: None,
            };
            adopt(self, &b.name, e, None)?;
        }
        Ok(())
    }
}
