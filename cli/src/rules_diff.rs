//! `fuba rules diff A B`: what differs between two rulesets, entry by entry, read from
//! each ruleset as written (every layer merged).

use std::io::{self, BufWriter, Write};

use fuba_engine::ruleset::raw::RawRuleset;
use indexmap::IndexMap;

use crate::{CliResult, Format};

#[path = "rules_diff/render.rs"]
mod render;
#[path = "rules_diff/settings.rs"]
mod settings;

use render::{render_json, render_summary, render_summary_json, render_text};

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
