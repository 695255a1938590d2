//! `fuba rules diff A B`: what differs between two rulesets, entry by entry, read from
//! each ruleset as written (every layer merged).

use std::io::{self, BufWriter, Write};

use fuba_engine::ruleset::Ruleset;
use fuba_engine::ruleset::diag::shown;
use fuba_engine::ruleset::raw::RawRuleset;
use indexmap::IndexMap;
use serde_json::{Value as J, json};

use crate::{CliResult, Format};

#[path = "rules_diff/settings.rs"]
mod settings;

/// One field of an entry, as text.
type Fields = Vec<(&'static str, String)>;

/// How an entry differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Added,
    Removed,
    Changed,
}

impl Kind {
    fn mark(self) -> &'static str {
        match self {
            Kind::Added => "+",
            Kind::Removed => "-",
            Kind::Changed => "~",
        }
    }
    fn name(self) -> &'static str {
        match self {
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Changed => "changed",
        }
    }
}

/// One differing entry.
struct Change {
    section: &'static str,
    entry: String,
    kind: Kind,
    /// For a changed entry: each changed field, old and new. For an added or removed one:
    /// its fields.
    fields: Vec<(&'static str, Option<String>, Option<String>)>,
}

/// Sections in the order they are shown, with their headings.
const SECTIONS: &[(&str, &str)] = &[
    ("meta", "meta"),
    ("constants", "constants"),
    ("options", "match options"),
    ("state", "state variables"),
    ("match", "match settings"),
    ("board", "board"),
    ("procedures", "procedures"),
    ("tables", "tables"),
    ("hooks", "hooks"),
    ("triggers", "triggers"),
    ("entries", "collection entries"),
    ("narration", "narration"),
    ("figures", "figures"),
];

struct Diff {
    changes: Vec<Change>,
}

impl Diff {
    fn fields(
        &mut self,
        section: &'static str,
        entry: String,
        a: Option<Fields>,
        b: Option<Fields>,
    ) {
        match (a, b) {
            (None, None) => {}
            (Some(a), None) => self.changes.push(Change {
                section,
                entry,
                kind: Kind::Removed,
                fields: a.into_iter().map(|(f, v)| (f, Some(v), None)).collect(),
            }),
            (None, Some(b)) => self.changes.push(Change {
                section,
                entry,
                kind: Kind::Added,
                fields: b.into_iter().map(|(f, v)| (f, None, Some(v))).collect(),
            }),
            (Some(a), Some(b)) => {
                let mut fields = Vec::new();
                for (f, old) in &a {
                    let new = b.iter().find(|(g, _)| g == f).map(|x| x.1.clone());
                    if new.as_ref() != Some(old) {
                        fields.push((*f, Some(old.clone()), new));
                    }
                }
                for (f, new) in &b {
                    if !a.iter().any(|(g, _)| g == f) {
                        fields.push((*f, None, Some(new.clone())));
                    }
                }
                if !fields.is_empty() {
                    self.changes.push(Change {
                        section,
                        entry,
                        kind: Kind::Changed,
                        fields,
                    });
                }
            }
        }
    }

    /// Compares two maps of named entries.
    fn map<V>(
        &mut self,
        section: &'static str,
        prefix: &str,
        a: &IndexMap<String, V>,
        b: &IndexMap<String, V>,
        describe: impl Fn(&V) -> Fields,
    ) {
        for (k, va) in a {
            self.fields(
                section,
                format!("{prefix}{k}"),
                Some(describe(va)),
                b.get(k).map(&describe),
            );
        }
        for (k, vb) in b {
            if !a.contains_key(k) {
                self.fields(section, format!("{prefix}{k}"), None, Some(describe(vb)));
            }
        }
    }

    fn value<T: PartialEq + std::fmt::Display>(
        &mut self,
        section: &'static str,
        entry: &str,
        a: Option<T>,
        b: Option<T>,
    ) {
        let t = |x: Option<T>| x.map(|v| one(v.to_string()));
        self.fields(section, entry.to_string(), t(a), t(b));
    }
}

fn one(v: String) -> Fields {
    vec![("value", v)]
}

fn list<T: std::fmt::Debug>(v: &[T]) -> String {
    format!("{v:?}")
}

/// Every difference between two rulesets as written.
fn compare(a: &RawRuleset, b: &RawRuleset) -> Vec<Change> {
    let mut d = Diff {
        changes: Vec::new(),
    };
    // meta (the names and titles are in the heading)
    let src = |s: &str| (!s.is_empty()).then(|| s.to_string());
    d.value("meta", "source", src(&a.meta.source), src(&b.meta.source));

    d.map("constants", "", &a.constants, &b.constants, |v| {
        one(v.get_ref().to_string())
    });

    d.map("options", "", &a.options, &b.options, |o| {
        vec![
            ("default", o.default.get_ref().to_string()),
            ("doc", o.doc.clone()),
        ]
    });

    let (sa, sb) = (&a.state, &b.state);
    d.map("state", "match.", &sa.match_, &sb.match_, |v| {
        one(v.get_ref().to_string())
    });
    d.map("state", "team.", &sa.team, &sb.team, |v| {
        one(v.get_ref().to_string())
    });
    d.map("state", "turn.", &sa.turn, &sb.turn, |v| {
        one(v.get_ref().to_string())
    });
    d.map("state", "team_turn.", &sa.team_turn, &sb.team_turn, |v| {
        one(v.get_ref().to_string())
    });

    settings::match_settings(&mut d, &a.match_, &b.match_);

    let (ba, bb) = (&a.board, &b.board);
    d.value(
        "board",
        "halfway",
        Some(ba.halfway.to_string()),
        Some(bb.halfway.to_string()),
    );
    d.map("board", "areas.", &ba.areas, &bb.areas, |x| {
        let r = x.get_ref();
        vec![
            ("rows", format!("{} to {}", r.rows[0], r.rows[1])),
            (
                "goal_line",
                r.goal_line.clone().unwrap_or_else(|| "-".into()),
            ),
            ("mirror", r.mirror.clone()),
            ("zone", list(&r.zone)),
        ]
    });
    let links = |b: &fuba_engine::ruleset::raw::RawBoard| -> IndexMap<String, ()> {
        b.links
            .iter()
            .map(|l| (l.get_ref().join(" "), ()))
            .collect()
    };
    d.map("board", "link ", &links(ba), &links(bb), |_| Vec::new());
    d.map("board", "marks.", &ba.marks, &bb.marks, |m| {
        let m = m.get_ref();
        vec![("south", list(&m.south)), ("north", list(&m.north))]
    });
    for (name, va) in &ba.numbers {
        let empty = IndexMap::new();
        let vb = bb.numbers.get(name).unwrap_or(&empty);
        d.map("board", &format!("numbers.{name}."), va, vb, |x| {
            one(x.to_string())
        });
    }
    for (name, vb) in &bb.numbers {
        if !ba.numbers.contains_key(name) {
            d.map(
                "board",
                &format!("numbers.{name}."),
                &IndexMap::new(),
                vb,
                |x| one(x.to_string()),
            );
        }
    }

    d.map("procedures", "", &a.procedures, &b.procedures, |p| {
        vec![
            ("section", p.section.clone()),
            (
                "params",
                p.params
                    .as_ref()
                    .map_or_else(String::new, |s| s.get_ref().clone()),
            ),
            ("do", p.body.get_ref().trim().to_string()),
        ]
    });

    for (name, ta) in &a.tables {
        match b.tables.get(name) {
            None => d.fields(
                "tables",
                name.clone(),
                Some(vec![("rows", ta.rows.len().to_string())]),
                None,
            ),
            Some(tb) => {
                let dice = |t: &fuba_engine::ruleset::raw::RawTable| {
                    vec![
                        (
                            "dice",
                            t.dice
                                .as_ref()
                                .map_or_else(String::new, |x| x.get_ref().clone()),
                        ),
                        ("section", t.section.clone()),
                    ]
                };
                d.fields("tables", name.clone(), Some(dice(ta)), Some(dice(tb)));
                let from = d.changes.len();
                d.map("tables", &format!("{name}["), &ta.rows, &tb.rows, |r| {
                    let r = r.get_ref();
                    vec![
                        ("label", r.label.clone()),
                        ("do", r.body.get_ref().trim().to_string()),
                    ]
                });
                for c in &mut d.changes[from..] {
                    c.entry.push(']');
                }
            }
        }
    }
    for (name, tb) in &b.tables {
        if !a.tables.contains_key(name) {
            d.fields(
                "tables",
                name.clone(),
                None,
                Some(vec![
                    (
                        "dice",
                        tb.dice
                            .as_ref()
                            .map_or_else(String::new, |x| x.get_ref().clone()),
                    ),
                    ("rows", tb.rows.len().to_string()),
                ]),
            );
        }
    }

    d.map("hooks", "", &a.hooks, &b.hooks, |h| {
        vec![
            (
                "params",
                h.params
                    .as_ref()
                    .map_or_else(String::new, |s| s.get_ref().clone()),
            ),
            ("doc", h.doc.clone()),
        ]
    });
    d.map("triggers", "", &a.triggers, &b.triggers, |t| {
        vec![
            ("hook", t.hook.get_ref().clone()),
            ("section", t.section.clone()),
            (
                "when",
                t.when
                    .as_ref()
                    .map_or_else(String::new, |w| w.get_ref().trim().to_string()),
            ),
            ("do", t.body.get_ref().trim().to_string()),
        ]
    });
    // An entry's fields on one line (its trigger, if any, is under triggers).
    let entry = |e: &toml::Spanned<fuba_engine::ruleset::raw::RawEntry>| {
        one(e
            .get_ref()
            .iter()
            .filter(|(k, _)| !["hook", "when", "do", "section"].contains(&k.as_str()))
            .map(|(k, v)| format!("{k} = {}", v.get_ref()))
            .collect::<Vec<_>>()
            .join(", "))
    };
    let none = IndexMap::new();
    for c in a
        .entries
        .keys()
        .chain(b.entries.keys().filter(|k| !a.entries.contains_key(*k)))
    {
        let (ea, eb) = (a.entries.get(c), b.entries.get(c));
        d.map(
            "entries",
            &format!("{c}."),
            ea.unwrap_or(&none),
            eb.unwrap_or(&none),
            entry,
        );
    }
    d.map("narration", "", &a.narration, &b.narration, |n| {
        one(format!("{:?}", n.get_ref()))
    });
    d.map("figures", "", &a.figures, &b.figures, |f| {
        one(f.get_ref().describe())
    });
    d.changes
}

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

fn render_text(a: &Ruleset, b: &Ruleset, changes: &[Change]) -> String {
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

fn render_summary(a: &Ruleset, b: &Ruleset, changes: &[Change]) -> String {
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

fn render_summary_json(a: &Ruleset, b: &Ruleset, changes: &[Change]) -> J {
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

fn render_json(a: &Ruleset, b: &Ruleset, changes: &[Change]) -> J {
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

/// Runs `fuba rules diff`.
///
/// With `summary`, per section counts and the names of what was changed, added and
/// removed, without code or field values.
pub fn run(a: &str, b: &str, format: Format, summary: bool) -> CliResult {
    let ra = crate::load_rules(a)?;
    let rb = crate::load_rules(b)?;
    let changes = compare(&ra.raw, &rb.raw);
    let mut out = BufWriter::new(io::stdout().lock());
    match format {
        Format::Table if summary => out.write_all(render_summary(&ra, &rb, &changes).as_bytes())?,
        Format::Table => out.write_all(render_text(&ra, &rb, &changes).as_bytes())?,
        Format::Json => {
            let j = if summary {
                render_summary_json(&ra, &rb, &changes)
            } else {
                render_json(&ra, &rb, &changes)
            };
            let s = serde_json::to_string_pretty(&j).map_err(io::Error::other)?;
            writeln!(out, "{s}")?;
        }
    }
    out.flush()?;
    Ok(())
}
