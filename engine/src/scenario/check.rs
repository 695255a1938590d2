//! Every name a scenario uses is checked against its ruleset before anything runs: an
//! unknown one is an error at its line and column, with the closest known name.

use crate::ruleset::Ruleset;

use super::names::{Names, hint, is_board_label};
use super::position::team_of;
use super::spans::Step::{self, Index, Key};
use super::{Scenario, ScenarioError};

type Checked = Result<(), ScenarioError>;

impl Scenario {
    /// An error at `path` in the file (at the key itself when `key` is set).
    pub(super) fn err_at(&self, path: &[Step<'_>], key: bool, message: String) -> ScenarioError {
        ScenarioError {
            at: self.spans.at(path, key),
            ..self.err(message)
        }
    }

    /// Checks the names of the scenario's match options against the options of `rs`.
    pub(super) fn check_option_names(&self, rs: &Ruleset) -> Checked {
        let known: Vec<&str> = rs.options.iter().map(|o| o.name.as_str()).collect();
        for k in self.options.keys() {
            if !known.contains(&k.as_str()) {
                return Err(self.err_at(
                    &[Key("options"), Key(k)],
                    true,
                    format!(
                        "options: the rules have no match option `{k}`{} (their options: {})",
                        hint(k, known.iter().copied()),
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Checks every name the scenario uses against `rs` and the names its code holds.
    pub(super) fn check_names(&self, rs: &Ruleset, names: &Names) -> Checked {
        self.check_option_names(rs)?;
        self.check_position(rs)?;
        self.check_run(rs, names)?;
        self.check_expect(rs, names)?;
        for (i, k) in self.odds.stop_at.iter().enumerate() {
            self.check_kind(names, k, &[Key("odds"), Key("stop_at"), Index(i)])?;
        }
        for (i, v) in self.odds.vars.iter().enumerate() {
            self.check_var(rs, v, &[Key("odds"), Key("vars"), Index(i)], false)?;
        }
        Ok(())
    }

    fn check_team(&self, name: &str, path: &[Step<'_>], key: bool) -> Checked {
        match team_of(name) {
            Some(_) => Ok(()),
            None => Err(self.err_at(
                path,
                key,
                format!(
                    "{}: `{name}` is not \"home\" or \"away\"{}",
                    dotted(path),
                    hint(name, ["home", "away"])
                ),
            )),
        }
    }

    fn check_area(&self, rs: &Ruleset, name: &str, path: &[Step<'_>], key: bool) -> Checked {
        if rs.board.find(name).is_some() {
            return Ok(());
        }
        let areas = rs.board.areas.iter().map(|a| a.name.as_str());
        Err(self.err_at(
            path,
            key,
            format!(
                "{}: unknown area `{name}`{} (the board has {})",
                dotted(path),
                hint(name, areas.clone()),
                areas.collect::<Vec<_>>().join(", ")
            ),
        ))
    }

    fn check_var(&self, rs: &Ruleset, name: &str, path: &[Step<'_>], key: bool) -> Checked {
        if rs.var(name).is_some() {
            return Ok(());
        }
        Err(self.err_at(
            path,
            key,
            format!(
                "{}: the rules have no state variable `{name}`{}",
                dotted(path),
                hint(name, rs.var_names())
            ),
        ))
    }

    fn check_kind(&self, names: &Names, kind: &str, path: &[Step<'_>]) -> Checked {
        if names.kinds().any(|k| k == kind) {
            return Ok(());
        }
        Err(self.err_at(
            path,
            false,
            format!(
                "{}: the rules emit no event `{kind}`{}",
                dotted(path),
                hint(kind, names.kinds())
            ),
        ))
    }

    /// An event kind, or a table row used (`table:NAME[ROW]`).
    fn check_event(&self, rs: &Ruleset, names: &Names, kind: &str, path: &[Step<'_>]) -> Checked {
        let Some(rest) = kind.strip_prefix("table:") else {
            return self.check_kind(names, kind, path);
        };
        let bad = |m: String| Err(self.err_at(path, false, format!("{}: {m}", dotted(path))));
        let Some((table, row)) = rest.strip_suffix(']').and_then(|r| r.split_once('[')) else {
            return bad(format!("`{kind}` is not `table:NAME[ROW]`"));
        };
        let Some(t) = rs.tables.iter().find(|t| t.name == table) else {
            return bad(format!(
                "the rules have no table `{table}`{}",
                hint(table, rs.tables.iter().map(|t| t.name.as_str()))
            ));
        };
        if t.rows.iter().any(|r| r.key == row) {
            return Ok(());
        }
        let rows = t.rows.iter().map(|r| r.key.as_str());
        bad(format!(
            "the table `{table}` has no row `{row}`{} (its rows: {})",
            hint(row, rows.clone()),
            rows.collect::<Vec<_>>().join(", ")
        ))
    }

    fn check_decision(&self, names: &Names, kind: &str, path: &[Step<'_>], key: bool) -> Checked {
        if names.decisions.contains_key(kind) {
            return Ok(());
        }
        Err(self.err_at(
            path,
            key,
            format!(
                "{}: the rules make no decision `{kind}`{}",
                dotted(path),
                hint(kind, names.decisions.keys().map(String::as_str))
            ),
        ))
    }

    /// A label given for decision `kind` (or, when `kind` is `None`, for any decision).
    fn check_label(
        &self,
        rs: &Ruleset,
        names: &Names,
        kind: Option<&str>,
        label: &str,
        path: &[Step<'_>],
    ) -> Checked {
        let fits = match kind {
            Some(k) => names.label_fits(rs, k, label),
            None => names.any_label_fits(rs, label),
        };
        if fits {
            return Ok(());
        }
        let known: Vec<&str> = match kind {
            Some(k) => names
                .decisions
                .get(k)
                .map(|l| l.iter().map(String::as_str).collect())
                .unwrap_or_default(),
            None => names.labels().into_iter().collect(),
        };
        let areas = rs.board.areas.iter().map(|a| a.name.as_str());
        let open = kind.is_none_or(|k| names.open.contains(k));
        let near = if open {
            hint(label, known.iter().copied().chain(areas))
        } else {
            hint(label, known.iter().copied())
        };
        let what = match kind {
            Some(k) if open => format!(
                "is not a label of decision `{k}` ({}, or an area or move of the board)",
                known.join(", ")
            ),
            Some(k) => format!("is not a label of decision `{k}` ({})", known.join(", ")),
            None if label.contains("->") && !is_board_label(rs, label) => {
                "is not a move between two areas of the board".to_string()
            }
            None => "is no decision's label, nor an area or move of the board".to_string(),
        };
        Err(self.err_at(
            path,
            false,
            format!("{}: `{label}` {what}{near}", dotted(path)),
        ))
    }

    fn check_position(&self, rs: &Ruleset) -> Checked {
        let p = &self.position;
        for (key, team) in [("controlling", &p.controlling), ("phasing", &p.phasing)] {
            if let Some(t) = team {
                self.check_team(t, &[Key("position"), Key(key)], false)?;
            }
        }
        if let Some(b) = &p.ball {
            self.check_area(
                rs,
                &b.area,
                &[Key("position"), Key("ball"), Key("area")],
                false,
            )?;
        }
        for (side, tp) in [("home", &p.home), ("away", &p.away)] {
            if let Some(k) = &tp.keeper {
                self.check_area(rs, k, &[Key("position"), Key(side), Key("keeper")], false)?;
            }
            for area in tp.pieces.keys() {
                let path = [Key("position"), Key(side), Key("pieces"), Key(area)];
                self.check_area(rs, area, &path, true)?;
            }
        }
        for name in p.vars.keys() {
            self.check_var(rs, name, &[Key("position"), Key("vars"), Key(name)], true)?;
        }
        Ok(())
    }

    fn check_run(&self, rs: &Ruleset, names: &Names) -> Checked {
        let r = &self.run;
        let stages: Vec<&str> = rs
            .stages
            .iter()
            .map(|s| rs.procs[*s as usize].name.as_str())
            .collect();
        for (key, stage) in [("from", &r.from), ("to", &r.to)] {
            if let Some(n) = stage
                && !stages.contains(&n.as_str())
            {
                return Err(self.err_at(
                    &[Key("run"), Key(key)],
                    false,
                    format!(
                        "run.{key}: `{n}` is not a stage (the stages are {}){}",
                        stages.join(", "),
                        hint(n, stages.iter().copied())
                    ),
                ));
            }
        }
        self.check_procedures(rs)?;
        self.check_until()?;
        if let Some(k) = &r.stop_at {
            self.check_kind(names, k, &[Key("run"), Key("stop_at")])?;
        }
        for (team, labels) in &r.choices {
            self.check_team(team, &[Key("run"), Key("choices"), Key(team)], true)?;
            for (i, l) in labels.iter().enumerate() {
                let path = [Key("run"), Key("choices"), Key(team), Index(i)];
                self.check_label(rs, names, None, l, &path)?;
            }
        }
        Ok(())
    }

    fn check_expect(&self, rs: &Ruleset, names: &Names) -> Checked {
        let x = &self.expect;
        let at = |k: &'static str| [Key("expect"), Key(k)];
        if let Some(b) = &x.ball {
            self.check_area(
                rs,
                &b.area,
                &[Key("expect"), Key("ball"), Key("area")],
                false,
            )?;
        }
        if let Some(a) = &x.ball_area {
            self.check_area(rs, a, &at("ball_area"), false)?;
        }
        if let Some(t) = &x.controlling {
            self.check_team(t, &at("controlling"), false)?;
        }
        for (team, areas) in &x.pieces {
            self.check_team(team, &[Key("expect"), Key("pieces"), Key(team)], true)?;
            for area in areas.keys() {
                let path = [Key("expect"), Key("pieces"), Key(team), Key(area)];
                self.check_area(rs, area, &path, true)?;
            }
        }
        for name in x.vars.keys() {
            self.check_var(rs, name, &[Key("expect"), Key("vars"), Key(name)], true)?;
        }
        for (key, list) in [("events", &x.events), ("no_events", &x.no_events)] {
            for (i, k) in list.iter().enumerate() {
                self.check_event(rs, names, k, &[Key("expect"), Key(key), Index(i)])?;
            }
        }
        for (name, spec) in &x.modifiers {
            if !names.modifiers.contains(name) {
                return Err(self.err_at(
                    &[Key("expect"), Key("modifiers"), Key(name)],
                    true,
                    format!(
                        "expect.modifiers: the rules compute no modifier list `{name}`{}",
                        hint(name, names.modifiers.iter().map(String::as_str))
                    ),
                ));
            }
            if let Some(d) = &spec.after {
                let path = [Key("expect"), Key("modifiers"), Key(name), Key("after")];
                self.check_decision(names, d, &path, false)?;
            }
        }
        for (kind, checks) in &x.event_fields {
            let path = [Key("expect"), Key("event_fields"), Key(kind)];
            let Some(known) = names.emits.get(kind) else {
                return Err(self.err_at(
                    &path,
                    true,
                    format!(
                        "expect.event_fields: the rules emit no event `{kind}`{}",
                        hint(kind, names.emits.keys().map(String::as_str))
                    ),
                ));
            };
            let many = checks.0.len() > 1;
            for (n, spec) in checks.0.iter().enumerate() {
                for f in spec.fields.keys() {
                    if known.contains(f) {
                        continue;
                    }
                    let base = [Key("expect"), Key("event_fields"), Key(kind), Index(n)];
                    let base: &[Step<'_>] = if many { &base } else { &base[..3] };
                    let detailed = [base, &[Key("fields"), Key(f)]].concat();
                    let plain = [base, &[Key(f)]].concat();
                    let path = if self.spans.at(&detailed, true).is_some() {
                        detailed
                    } else {
                        plain
                    };
                    return Err(self.err_at(
                        &path,
                        true,
                        format!(
                            "expect.event_fields.{kind}: the event has no field `{f}`{} (its \
                             fields: {})",
                            hint(f, known.iter().map(String::as_str)),
                            known
                                .iter()
                                .map(String::as_str)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            }
        }
        for team in x.choices_made.keys() {
            self.check_team(team, &[Key("expect"), Key("choices_made"), Key(team)], true)?;
        }
        for (kind, checks) in &x.offered {
            self.check_decision(
                names,
                kind,
                &[Key("expect"), Key("offered"), Key(kind)],
                true,
            )?;
            let many = checks.0.len() > 1;
            for (n, spec) in checks.0.iter().enumerate() {
                let base = [Key("expect"), Key("offered"), Key(kind), Index(n)];
                let base: &[Step<'_>] = if many { &base } else { &base[..3] };
                if let Some(t) = &spec.team {
                    self.check_team(t, &[base, &[Key("team")]].concat(), false)?;
                }
                let lists = [
                    ("exactly", spec.exactly.as_deref().unwrap_or_default()),
                    ("includes", &spec.includes[..]),
                    ("excludes", &spec.excludes[..]),
                ];
                for (key, labels) in lists {
                    for (i, l) in labels.iter().enumerate() {
                        let long = [base, &[Key(key), Index(i)]].concat();
                        let short = [base, &[Index(i)]].concat();
                        let path = if self.spans.at(&long, false).is_some() {
                            long
                        } else {
                            short
                        };
                        self.check_label(rs, names, Some(kind), l, &path)?;
                    }
                }
            }
        }
        if let Some(t) = &x.moved_first {
            self.check_team(t, &at("moved_first"), false)?;
        }
        Ok(())
    }
}

/// A path as the message names it: `expect.no_events[2]`.
fn dotted(path: &[Step<'_>]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                if k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    s.push_str(k);
                } else {
                    s.push_str(&format!("\"{k}\""));
                }
            }
            Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}
