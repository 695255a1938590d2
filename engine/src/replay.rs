//! Replaying a recorded match: the same seed, each team's recorded choices fed back in
//! order, the events produced compared with the events recorded.
//!
//! A log recorded under one version of a ruleset and replayed under another shows where
//! the rules now play differently: the first event that is not the same. A recorded choice
//! that the changed rules no longer offer stops the replay; that is a divergence too.

use crate::agent::ScriptedAgent;
use crate::dice::SeededDice;
use crate::game::Game;
use crate::log::{Event, EventKind, LogHeader};
use crate::ruleset::Ruleset;
use crate::vm::notes::ModifierArgs;

/// Writes a log in JSON Lines, the format [`read_log`] reads: the header line, then one
/// event per line.
pub fn write_log(
    header: &LogHeader,
    events: &[Event],
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let line = serde_json::to_string(header).map_err(std::io::Error::other)?;
    writeln!(w, "{line}")?;
    for e in events {
        let line = serde_json::to_string(e).map_err(std::io::Error::other)?;
        writeln!(w, "{line}")?;
    }
    w.flush()
}

/// Reads a log in JSON Lines: the header line, then one event per line. Blank lines are
/// skipped. Errors name the line (1-based). A log without events is an error, and so is
/// an event whose `seq` is not its position (a line lost, swapped or repeated): the log
/// is damaged, and replaying it would only report a difference the rules did not make.
pub fn read_log(text: &str) -> Result<(LogHeader, Vec<Event>), String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((hn, hline)) = lines.next() else {
        return Err("the log is empty: a header line was expected".into());
    };
    let header: LogHeader =
        serde_json::from_str(hline).map_err(|e| format!("line {hn}: not a log header: {e}"))?;
    if header.format != "fuba-log" {
        return Err(format!(
            "line {hn}: the header's format is \"{}\", not \"fuba-log\"",
            header.format
        ));
    }
    if header.version != crate::log::LOG_VERSION {
        return Err(format!(
            "line {hn}: log format version {} (this engine reads version {})",
            header.version,
            crate::log::LOG_VERSION
        ));
    }
    let mut events = Vec::new();
    for (n, line) in lines {
        let e = parse_event(line).map_err(|e| format!("line {n}: not an event: {e}"))?;
        if e.seq as usize != events.len() {
            return Err(format!(
                "line {n}: the log is damaged: event seq {} where seq {} was expected (events \
                 are numbered from 0, one per line, in order; a line was lost, swapped or \
                 repeated)",
                e.seq,
                events.len()
            ));
        }
        events.push(e);
    }
    if events.is_empty() {
        return Err(format!(
            "the log has no events: only its header (line {hn}); a match log holds every event \
             of the match after the header"
        ));
    }
    Ok((header, events))
}

/// One event line.
fn parse_event(line: &str) -> Result<Event, serde_json::Error> {
    serde_json::from_str::<Event>(line)
}

/// The first event where a replay differs from the recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// Index of the first differing event (the number of events both have in common).
    pub index: usize,
    /// The turn of that event (the recorded one, else the produced one).
    pub turn: u32,
    /// Its half.
    pub half: u32,
    /// Its minute.
    pub minute: i64,
    /// Its added minute.
    pub added: i64,
    /// Its stage.
    pub stage: String,
    /// The rule that produced it.
    pub rule: String,
    /// The recorded event (`None`: the recording ends here).
    pub expected: Option<Event>,
    /// The replayed event (`None`: the replay ends here, stopped or finished).
    pub produced: Option<Event>,
    /// Why the replay stopped here, when it did: a recorded choice that is no longer
    /// legal, a rule error.
    pub message: Option<String>,
}

/// What a replay found.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Every event is the same.
    Identical,
    /// The first difference.
    Diverged(Box<Divergence>),
}

/// The result of [`replay`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// Identical, or the first difference.
    pub verdict: Verdict,
    /// How many events were recorded.
    pub recorded: usize,
    /// How many events the replay produced.
    pub produced: usize,
    /// The replay's final score, when it played to the end.
    pub score: Option<[i64; 2]>,
    /// The replay stopped with this error (when the recording stopped at the same place,
    /// the verdict can still be identical).
    pub stopped: Option<String>,
    /// The ruleset differs from the one the log was recorded with (its fingerprint).
    pub rules_changed: bool,
    /// The ruleset and rulebook named in the log's header (the recording's).
    pub recorded_rules: RulesName,
    /// The ruleset and rulebook of the replay.
    pub replay_rules: RulesName,
}

/// A ruleset's name and the rulebook (edition) it encodes, as a log header records them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RulesName {
    /// The ruleset's `[meta] name`.
    pub ruleset: String,
    /// Its `[meta] source`, the rulebook; empty when unknown.
    pub rulebook: String,
}

impl std::fmt::Display for RulesName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.rulebook.is_empty() {
            write!(f, "ruleset `{}` (rulebook not recorded)", self.ruleset)
        } else {
            write!(f, "ruleset `{}` (rulebook {})", self.ruleset, self.rulebook)
        }
    }
}

impl ReplayReport {
    /// Whether the replay produced exactly the recorded events.
    pub fn identical(&self) -> bool {
        self.verdict == Verdict::Identical
    }

    /// A note when the log is replayed under another ruleset than the one that recorded it
    /// (naming both, with their rulebooks), or when the same ruleset changed since.
    pub fn rules_note(&self) -> Option<String> {
        if self.recorded_rules.ruleset != self.replay_rules.ruleset {
            Some(format!(
                "the log was recorded under {} and is replayed under {}",
                self.recorded_rules, self.replay_rules
            ))
        } else {
            self.rules_changed.then(|| {
                "rules changed since the log was recorded (the fingerprint differs)".to_string()
            })
        }
    }
}

/// Each team's recorded choice labels, in order. Choices with one option are left out:
/// the engine takes those without asking the agent.
pub fn scripts(events: &[Event]) -> [Vec<String>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    for e in events {
        if let EventKind::Choice {
            team,
            label,
            options,
            ..
        } = &e.kind
        {
            if *options > 1 {
                let t = usize::from(team != "home");
                out[t].push(label.clone());
            }
        }
    }
    out
}

/// Replays a recorded match under `rs` and compares the events.
pub fn replay(rs: &Ruleset, header: &LogHeader, events: &[Event]) -> ReplayReport {
    replay_with(rs, header, events, false).0
}

/// Replays a recorded match like [`replay`], keeping the arguments of the code unit of
/// every modifier list it computes ([`crate::vm::notes`]): what `fuba explain` labels the
/// lists with. Only the notes of events before the first difference (the report's
/// verdict) describe the recorded events.
pub fn replay_noting(
    rs: &Ruleset,
    header: &LogHeader,
    events: &[Event],
) -> (ReplayReport, Vec<ModifierArgs>) {
    replay_with(rs, header, events, true)
}

fn replay_with(
    rs: &Ruleset,
    header: &LogHeader,
    events: &[Event],
    notes: bool,
) -> (ReplayReport, Vec<ModifierArgs>) {
    let [home, away] = scripts(events);
    let mut m = Game::new(
        rs,
        header.seed,
        Box::new(SeededDice::new(header.seed)),
        Box::new(ScriptedAgent::new(home)),
        Box::new(ScriptedAgent::new(away)),
    )
    .with_log();
    if notes {
        m.m.keep_modifier_args();
    }
    let result = m.play();
    let noted = m.m.modifier_args().to_vec();
    let produced = m.events();
    let (score, stopped) = match &result {
        Ok(o) => (Some(o.score), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let common = events
        .iter()
        .zip(produced)
        .take_while(|(a, b)| a == b)
        .count();
    let verdict = if common == events.len() && common == produced.len() {
        Verdict::Identical
    } else {
        let expected = events.get(common).cloned();
        let made = produced.get(common).cloned();
        // The error explains the difference when the replay stopped right there.
        let message = if made.is_none() {
            stopped.clone()
        } else {
            None
        };
        let at = expected.as_ref().or(made.as_ref());
        Verdict::Diverged(Box::new(Divergence {
            index: common,
            turn: at.map_or(0, |e| e.turn),
            half: at.map_or(0, |e| e.half),
            minute: at.map_or(0, |e| e.minute),
            added: at.map_or(0, |e| e.added),
            stage: at.map_or_else(String::new, |e| e.stage.clone()),
            rule: at.map_or_else(String::new, |e| e.rule.clone()),
            expected,
            produced: made,
            message,
        }))
    };
    let report = ReplayReport {
        verdict,
        recorded: events.len(),
        produced: produced.len(),
        score,
        stopped,
        rules_changed: header.fingerprint != rs.fingerprint,
        recorded_rules: RulesName {
            ruleset: header.ruleset.clone(),
            rulebook: header.rulebook.clone(),
        },
        replay_rules: RulesName {
            ruleset: rs.name.clone(),
            rulebook: rs.source.clone(),
        },
    };
    (report, noted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::RandomAgent;
    use crate::load::load_file;
    use std::path::Path;

    /// The first ruleset file of the repository's rulesets folder (the engine's tests
    /// name no edition).
    fn original() -> Ruleset {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{e}"))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        let p = files
            .first()
            .unwrap_or_else(|| panic!("no ruleset in {}", dir.display()));
        load_file(p).unwrap_or_else(|e| panic!("{e}"))
    }

    fn record(rs: &Ruleset, seed: u64) -> String {
        let mut m = Game::new(
            rs,
            seed,
            Box::new(SeededDice::new(seed)),
            Box::new(RandomAgent::new(seed, 0)),
            Box::new(RandomAgent::new(seed, 1)),
        )
        .with_log();
        m.play().expect("the match plays");
        let mut text = serde_json::to_string(&m.header()).unwrap();
        text.push('\n');
        for e in m.events() {
            text.push_str(&serde_json::to_string(e).unwrap());
            text.push('\n');
        }
        text
    }

    #[test]
    fn a_recorded_match_replays_identically() {
        let rs = original();
        for seed in [1, 2] {
            let (header, events) = read_log(&record(&rs, seed)).expect("the log reads");
            assert_eq!(header.seed, seed);
            let r = replay(&rs, &header, &events);
            assert_eq!(r.verdict, Verdict::Identical, "seed {seed}");
            assert!(r.identical());
            assert_eq!(r.produced, events.len());
            assert!(r.score.is_some());
            assert!(!r.rules_changed);
            assert!(r.stopped.is_none());
        }
    }

    #[test]
    fn noting_modifier_args_changes_nothing_and_names_every_list() {
        let rs = original();
        let (header, events) = read_log(&record(&rs, 9)).expect("the log reads");
        let (r, notes) = replay_noting(&rs, &header, &events);
        assert!(r.identical(), "notes change no event");
        let lists: Vec<u32> = events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Modifiers { .. }))
            .map(|e| e.seq)
            .collect();
        assert!(!lists.is_empty());
        assert_eq!(notes.iter().map(|n| n.seq).collect::<Vec<_>>(), lists);
        for n in &notes {
            assert_eq!(n.rule, events[n.seq as usize].rule, "{n:?}");
        }
        assert!(replay_with(&rs, &header, &events, false).1.is_empty());
    }

    #[test]
    fn a_changed_event_is_the_divergence() {
        let rs = original();
        let (header, mut events) = read_log(&record(&rs, 3)).unwrap();
        let i = events
            .iter()
            .position(|e| matches!(e.kind, EventKind::Roll { .. }))
            .expect("a roll");
        if let EventKind::Roll { dice, .. } = &mut events[i].kind {
            dice[0] = if dice[0] == 1 { 2 } else { 1 };
        }
        let r = replay(&rs, &header, &events);
        let Verdict::Diverged(d) = r.verdict else {
            panic!("a divergence was expected")
        };
        assert_eq!(d.index, i);
        assert_eq!(d.expected.as_ref(), Some(&events[i]));
        assert!(d.produced.is_some());
    }

    #[test]
    fn an_illegal_recorded_choice_is_reported_with_the_message() {
        let rs = original();
        let (header, mut events) = read_log(&record(&rs, 4)).unwrap();
        let i = events
            .iter()
            .position(|e| matches!(&e.kind, EventKind::Choice { options, .. } if *options > 1))
            .expect("a real choice");
        if let EventKind::Choice { label, .. } = &mut events[i].kind {
            *label = "nowhere at all".into();
        }
        let r = replay(&rs, &header, &events);
        let Verdict::Diverged(d) = r.verdict else {
            panic!("a divergence was expected")
        };
        assert_eq!(d.index, i);
        assert!(d.produced.is_none());
        let msg = d.message.expect("the error message");
        assert!(msg.contains("scripted choice \"nowhere at all\""), "{msg}");
    }

    #[test]
    fn a_log_with_only_its_header_has_no_events() {
        let rs = original();
        let text = record(&rs, 6);
        let header = text.lines().next().expect("a header line");
        let err = read_log(header).unwrap_err();
        assert!(
            err.starts_with("the log has no events: only its header (line 1)"),
            "{err}"
        );
        let err = read_log(&format!("\n{header}\n\n")).unwrap_err();
        assert!(err.contains("(line 2)"), "{err}");
    }

    #[test]
    fn swapped_or_repeated_lines_are_a_damaged_log() {
        let rs = original();
        let text = record(&rs, 7);
        let lines: Vec<&str> = text.lines().collect();
        let mut swapped = lines.clone();
        swapped.swap(10, 11);
        let err = read_log(&swapped.join("\n")).unwrap_err();
        assert!(
            err.starts_with("line 11: the log is damaged: event seq 10 where seq 9 was expected"),
            "{err}"
        );
        let mut repeated = lines.clone();
        repeated.insert(5, lines[4]);
        let err = read_log(&repeated.join("\n")).unwrap_err();
        assert!(
            err.starts_with("line 6: the log is damaged: event seq 3 where seq 4"),
            "{err}"
        );
        assert!(read_log(&lines.join("\n")).is_ok());
    }

    #[test]
    fn a_log_of_another_ruleset_names_both_with_their_rulebooks() {
        let rs = original();
        let (mut header, events) = read_log(&record(&rs, 8)).unwrap();
        assert_eq!(header.rulebook, rs.source);
        let r = replay(&rs, &header, &events);
        assert_eq!(r.rules_note(), None);
        header.ruleset = "house".into();
        header.rulebook = "house-rules.txt".into();
        let r = replay(&rs, &header, &events);
        assert_eq!(
            r.rules_note().as_deref(),
            Some(
                format!(
                    "the log was recorded under ruleset `house` (rulebook house-rules.txt) and is \
                     replayed under ruleset `{}` (rulebook {})",
                    rs.name, rs.source
                )
                .as_str()
            )
        );
        header.rulebook.clear();
        let note = replay(&rs, &header, &events)
            .rules_note()
            .unwrap_or_default();
        assert!(note.contains("`house` (rulebook not recorded)"), "{note}");
    }

    #[test]
    fn read_log_names_the_bad_line() {
        let rs = original();
        let text = record(&rs, 5);
        let mut lines: Vec<&str> = text.lines().collect();
        lines[3] = "{not json";
        let err = read_log(&lines.join("\n")).unwrap_err();
        assert!(err.starts_with("line 4:"), "{err}");
        assert!(read_log("").is_err());
        assert!(read_log("{}").unwrap_err().starts_with("line 1:"));
    }
}
