//! `[tables]`: each table's key domain, its rows' keys checked to cover every result of
//! the dice once, the rows' code parsed and expanded; compiled later by the [`Resolver`].

use std::collections::HashMap;

use crate::ir::Code;
use crate::ruleset::diag::{Diagnostic, SourceFile};
use crate::ruleset::model::{Domain, Row, Ruleset, Table};
use crate::ruleset::raw::{RawRuleset, RawTable};
use crate::value::Ty;

use super::code::{CodeLoad, Pending, code_offset, expanded_body, value_span};

/// Declares every table, its rows' code waiting in `resolver`.
pub(super) fn declare(rs: &mut Ruleset, raw: &RawRuleset, cx: &mut CodeLoad<'_>) {
    let CodeLoad {
        file,
        colls,
        resolver,
        errors,
    } = cx;
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
                        .at(file, dice_span)
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
            // The key is looked for in the layer that writes the row, not under the
            // table's header in a layer below.
            let key_at = file
                .find_key_in_layer(value_span(row).0, &format!("tables.{name}.rows"), key)
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
                                        .at(file, key_at)
                                        .in_rule(row_rule.clone()),
                                );
                            }
                            table.slots[s] = ri;
                        }
                    }
                    Err(m) => errors.push(
                        Diagnostic::error(format!("table `{name}`: {m}"))
                            .at(file, key_at)
                            .in_rule(row_rule.clone()),
                    ),
                }
            }
            let unit = rs.add_unit(row_rule.clone(), t.section.clone());
            let r = row.get_ref();
            let offset = code_offset(file, r.body.span());
            pend.push(
                expanded_body(
                    file,
                    offset,
                    &row_rule,
                    r.body.get_ref(),
                    colls,
                    &[],
                    errors,
                )
                .map(|body| Pending { body, offset, unit }),
            );
            table.rows.push(Row {
                key: key.clone(),
                label: r.label.clone(),
                code: Code::default(),
                unit,
            });
        }
        if domain != Domain::Labels {
            let missing: Vec<usize> = table
                .slots
                .iter()
                .enumerate()
                .filter(|(_, r)| **r == u16::MAX)
                .map(|(s, _)| s)
                .collect();
            if !missing.is_empty() {
                let names: Vec<String> = missing
                    .iter()
                    .map(|&s| match domain {
                        Domain::D6 => (s + 1).to_string(),
                        Domain::TwoD6 => (s + 2).to_string(),
                        _ => format!("{}-{}", s / 6 + 1, s % 6 + 1),
                    })
                    .collect();
                let span = gap_place(file, &rs.removed, name, t, domain, &missing)
                    .or_else(|| file.text.find(&header).map(|_| header_span))
                    .or_else(|| file.find_key("tables", name).map(|o| (o, o + name.len())))
                    .unwrap_or(dice_span);
                errors.push(
                    Diagnostic::error(format!("table `{name}` does not cover every result of {}: missing {}", domain.name(), names.join(", ")))
                        .at(file, span)
                        .in_rule(rule.clone())
                        .hint("every result of the dice must have exactly one row (use ranges like \"2..4\" or lists like \"1,6\")"),
                );
            }
        }
        resolver.add_table(pend);
        rs.tables.push(table);
    }
}

/// Where a table that leaves results of its dice uncovered is pointed at: the `remove`
/// entry that took out a row covering one of the `missing` slots, if a layer did; else
/// the table's header in the topmost layer that writes its key domain or one of its rows
/// (that value itself when that layer has no header of the table). `None` for a table
/// that writes neither.
fn gap_place(
    file: &SourceFile,
    removed: &HashMap<String, (usize, usize)>,
    name: &str,
    t: &RawTable,
    domain: Domain,
    missing: &[usize],
) -> Option<(usize, usize)> {
    let prefix = format!("tables.{name}.rows.");
    let by_remove = removed
        .iter()
        .filter_map(|(path, span)| {
            let slots = key_slots(domain, path.strip_prefix(&prefix)?).ok()?;
            slots.iter().any(|s| missing.contains(s)).then_some(*span)
        })
        .max_by_key(|span| span.0);
    if by_remove.is_some() {
        return by_remove;
    }
    let top = t
        .dice
        .iter()
        .map(value_span)
        .chain(t.rows.values().map(value_span))
        .max_by_key(|span| span.0)?;
    [format!("[tables.{name}]"), format!("[tables.{name}.rows]")]
        .iter()
        .find_map(|h| file.find_in_layer(top.0, h).map(|o| (o, o + h.len())))
        .or(Some(top))
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
