//! How `fuba rules diff` shows the differences: text for people (each change, with a
//! short unified diff of code), a per-section summary, and the same as JSON.

use fuba_engine::ruleset::Ruleset;
use fuba_engine::ruleset::diag::shown;
use serde_json::{Value as J, json};

use super::{Change, Kind, SECTIONS};

/// A short unified diff of two texts: changed lines with two lines of context.
fn unified(old: &str, new: &str) -> Vec<String> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // Longest common subsequence, by table.
    let mut l = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            l[i][j] = if a[i] == b[j] {
                l[i + 1][j + 1] + 1
            } else {
                l[i + 1][j].max(l[i][j + 1])
            };
        }
    }
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || l[i + 1][j] >= l[i][j + 1]) {
            ops.push(('-', a[i]));
            i += 1;
        } else {
            ops.push(('+', b[j]));
            j += 1;
        }
    }
    const CONTEXT: usize = 2;
    let keep: Vec<bool> = (0..ops.len())
        .map(|k| {
            let lo = k.saturating_sub(CONTEXT);
            let hi = (k + CONTEXT).min(ops.len() - 1);
            ops[lo..=hi].iter().any(|o| o.0 != ' ')
        })
        .collect();
    let mut out = Vec::new();
    let mut skipped = false;
    for (k, (op, line)) in ops.iter().enumerate() {
        if keep[k] {
            if skipped && !out.is_empty() {
                out.push("  ...".to_string());
            }
            skipped = false;
            out.push(format!("{op} {line}").trim_end().to_string());
        } else {
            skipped = true;
        }
    }
    out
}

fn heading(rs: &Ruleset) -> String {
    format!("{} ({})", rs.name, shown(&rs.file.path))
}

pub(super) fn render_text(a: &Ruleset, b: &Ruleset, changes: &[Change]) -> String {
    let mut t = format!("rules diff: {} → {}\n", heading(a), heading(b));
    if a.title != b.title {
        t.push_str(&format!("  title: {:?} → {:?}\n", a.title, b.title));
    }
    let n = changes.len();
    t.push_str(&format!(
        "{}\n",
        match n {
            0 => "no differences in the rules".to_string(),
            1 => "1 difference".to_string(),
            _ => format!("{n} differences"),
        }
    ));
    for (key, title) in SECTIONS {
        let here: Vec<&Change> = changes.iter().filter(|c| c.section == *key).collect();
        if here.is_empty() {
            continue;
        }
        let counts: Vec<String> = [Kind::Changed, Kind::Added, Kind::Removed]
            .iter()
            .filter_map(|k| {
                let c = here.iter().filter(|x| x.kind == *k).count();
                (c > 0).then(|| format!("{c} {}", k.name()))
            })
            .collect();
        t.push_str(&format!("\n{title} ({})\n", counts.join(", ")));
        for c in here {
            render_change(&mut t, c);
        }
    }
    t
}

fn render_change(t: &mut String, c: &Change) {
    let mark = c.kind.mark();
    // A single unnamed field: `~ name: old → new` on one line.
    if let [("value", old, new)] = c.fields.as_slice() {
        let line = match (old, new) {
            (Some(o), Some(n)) => format!("  {mark} {}: {o} → {n}\n", c.entry),
            (Some(v), None) | (None, Some(v)) => format!("  {mark} {}: {v}\n", c.entry),
            (None, None) => format!("  {mark} {}\n", c.entry),
        };
        t.push_str(&line);
        return;
    }
    t.push_str(&format!("  {mark} {}\n", c.entry));
    for (f, old, new) in &c.fields {
        let multi = |s: &Option<String>| s.as_ref().is_some_and(|x| x.contains('\n'));
        match (c.kind, old, new) {
            (Kind::Changed, Some(o), Some(n))
                if multi(old) || multi(new) || o.len() + n.len() > 90 =>
            {
                t.push_str(&format!("      {f}:\n"));
                for l in unified(o, n) {
                    t.push_str(&format!("        {l}\n"));
                }
            }
            (Kind::Changed, Some(o), Some(n)) => t.push_str(&format!("      {f}: {o:?} → {n:?}\n")),
            (Kind::Changed, Some(o), None) => t.push_str(&format!("      {f}: {o:?} → (none)\n")),
            (Kind::Changed, None, Some(n)) => t.push_str(&format!("      {f}: (none) → {n:?}\n")),
            // Added or removed: the short fields only.
            (_, Some(v), _) | (_, None, Some(v))
                if !v.is_empty() && !v.contains('\n') && *f != "do" =>
            {
                t.push_str(&format!("      {f}: {v}\n"))
            }
            _ => {}
        }
    }
}

/// Entries in a summary line: the name, and for a changed one-value entry with short
/// values (a constant, a board number) its old and new value.
fn summary_name(c: &Change) -> String {
    if let (Kind::Changed, [("value", Some(o), Some(n))]) = (c.kind, c.fields.as_slice()) {
        if o.len() + n.len() <= 24 && !o.contains('\n') && !n.contains('\n') {
            return format!("{} ({o} → {n})", c.entry);
        }
    }
    c.entry.clone()
}

/// `label:` followed by `names`, comma-separated and wrapped under the first name.
fn wrapped(t: &mut String, label: &str, names: &[String]) {
    const WIDTH: usize = 92;
    let label = format!("{label}:");
    let indent = 4 + 9;
    let mut line = format!("    {label:<9}");
    let mut first = true;
    for (i, n) in names.iter().enumerate() {
        let item = if i + 1 < names.len() {
            format!("{n},")
        } else {
            n.clone()
        };
        let add = if first { item.len() } else { item.len() + 1 };
        if !first && line.chars().count() + add > WIDTH {
            t.push_str(line.trim_end());
            t.push('\n');
            line = " ".repeat(indent);
            first = true;
        }
        if !first {
            line.push(' ');
        }
        line.push_str(&item);
        first = false;
    }
    t.push_str(&line);
    t.push('\n');
}

const SUMMARY_KINDS: [Kind; 3] = [Kind::Changed, Kind::Added, Kind::Removed];

pub(super) fn render_summary(a: &Ruleset, b: &Ruleset, changes: &[Change]) -> String {
    let mut t = format!("rules diff: {} → {}\n", heading(a), heading(b));
    if a.title != b.title {
        t.push_str(&format!("  title: {:?} → {:?}\n", a.title, b.title));
    }
    let n = changes.len();
    t.push_str(&match n {
        0 => "no differences in the rules\n".to_string(),
        1 => "1 difference (summary: names only; without --summary, each change in full)\n"
            .to_string(),
        _ => format!(
            "{n} differences (summary: names only; without --summary, each change in full)\n"
        ),
    });
    for (key, title) in SECTIONS {
        let here: Vec<&Change> = changes.iter().filter(|c| c.section == *key).collect();
        if here.is_empty() {
            continue;
        }
        let counts: Vec<String> = SUMMARY_KINDS
            .iter()
            .filter_map(|k| {
                let c = here.iter().filter(|x| x.kind == *k).count();
                (c > 0).then(|| format!("{c} {}", k.name()))
            })
            .collect();
        t.push_str(&format!("\n{title}: {}\n", counts.join(", ")));
        for k in SUMMARY_KINDS {
            let names: Vec<String> = here
                .iter()
                .filter(|c| c.kind == k)
                .map(|c| summary_name(c))
                .collect();
            if !names.is_empty() {
                wrapped(&mut t, k.name(), &names);
            }
        }
    }
    t
}

pub(super) fn render_summary_json(a: &Ruleset, b: &Ruleset, changes: &[Change]) -> J {
    let side =
        |rs: &Ruleset| json!({"name": rs.name, "title": rs.title, "file": shown(&rs.file.path)});
    let sections: Vec<J> = SECTIONS
        .iter()
        .filter(|(key, _)| changes.iter().any(|c| c.section == *key))
        .map(|(key, _)| {
            let names = |k: Kind| {
                changes
                    .iter()
                    .filter(|c| c.section == *key && c.kind == k)
                    .map(|c| c.entry.clone())
                    .collect::<Vec<_>>()
            };
            json!({
                "section": key,
                "changed": names(Kind::Changed),
                "added": names(Kind::Added),
                "removed": names(Kind::Removed),
            })
        })
        .collect();
    json!({
        "a": side(a),
        "b": side(b),
        "differences": changes.len(),
        "sections": sections,
    })
}

pub(super) fn render_json(a: &Ruleset, b: &Ruleset, changes: &[Change]) -> J {
    let side =
        |rs: &Ruleset| json!({"name": rs.name, "title": rs.title, "file": shown(&rs.file.path)});
    json!({
        "a": side(a),
        "b": side(b),
        "changes": changes.iter().map(|c| json!({
            "section": c.section,
            "entry": c.entry,
            "change": c.kind.name(),
            "fields": c.fields.iter().map(|(f, o, n)| {
                let mut x = json!({"field": f, "old": o, "new": n});
                if let (Some(o), Some(n)) = (o, n) {
                    if o.contains('\n') || n.contains('\n') {
                        x["diff"] = J::from(unified(o, n).join("\n"));
                    }
                }
                x
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
