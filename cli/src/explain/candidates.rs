//! The candidate each modifier list of a log was computed for, found by replaying the
//! logged match: the rules often work out the modifiers of every option before a choice
//! (`pass_modifiers(s, t, kick)` for each target area), and the log's `modifiers` events
//! do not say which option each list belongs to. The replay notes, for each list, the
//! parameters of the rule that computed it ([`fuba_engine::vm::notes`]); the log is read,
//! never changed.

use std::collections::HashMap;

use fuba_engine::log::{Event, LogHeader};
use fuba_engine::replay::{Verdict, replay_noting};

use crate::editions;

/// The labels found: each modifier list's arguments by `seq`, and a note when some or all
/// lists could not be labelled.
#[derive(Debug, Default)]
pub struct Candidates {
    /// `s = S_FRONT, t = N_WING` by the `seq` of the `modifiers` event (a list computed by
    /// a rule without parameters has none).
    pub by_seq: HashMap<u32, Vec<(String, String)>>,
    /// Why lists are not labelled, when some are not.
    pub note: Option<String>,
}

/// Replays the log under `rules` (the edition the header names when `None`) and labels
/// its modifier lists. A ruleset that cannot be loaded labels nothing, with a note saying
/// why; a replay that differs from the log labels the lists before the difference.
pub fn find(rules: Option<&str>, header: &LogHeader, events: &[Event]) -> Candidates {
    let arg = match rules {
        Some(r) => r.to_string(),
        None if editions::find(&header.ruleset).is_some() => header.ruleset.clone(),
        None => {
            return unlabelled(format!(
                "the log's ruleset `{}` is not a built-in edition ({}): give its file with --rules PATH",
                header.ruleset,
                editions::names()
            ));
        }
    };
    // The match options the log's header records are set again.
    let options = match editions::parse_options(&header.options) {
        Ok(o) => o,
        Err(m) => return unlabelled(format!("the log's header: {m}")),
    };
    let rs = match editions::load_with_options(&arg, &options) {
        Ok(rs) => rs,
        Err(editions::RulesError::Unknown(m)) => return unlabelled(m),
        Err(editions::RulesError::Load(e)) => {
            return unlabelled(format!(
                "the ruleset `{arg}` does not load ({} error{}; `fuba rules check {arg}` shows them)",
                e.0.len(),
                if e.0.len() == 1 { "" } else { "s" }
            ));
        }
    };
    let (report, notes) = replay_noting(&rs, header, events);
    let upto = match &report.verdict {
        Verdict::Identical => events.len(),
        Verdict::Diverged(d) => d.index,
    };
    let by_seq = notes
        .into_iter()
        .filter(|n| (n.seq as usize) < upto)
        .map(|n| (n.seq, n.args))
        .collect();
    let note = match &report.verdict {
        Verdict::Identical => None,
        Verdict::Diverged(d) => Some(format!(
            "modifier lists from event {} on are not labelled with their candidates: replayed \
             under `{arg}`, the match differs from the log there{}",
            d.index,
            report
                .rules_note()
                .map_or_else(String::new, |n| format!(" ({n})"))
        )),
    };
    Candidates { by_seq, note }
}

fn unlabelled(why: String) -> Candidates {
    Candidates {
        by_seq: HashMap::new(),
        note: Some(format!(
            "modifier lists are not labelled with their candidates: {why}"
        )),
    }
}

/// The label of a list: ` for s = S_FRONT, t = N_WING` (empty without arguments).
pub fn label(args: Option<&Vec<(String, String)>>) -> String {
    match args {
        Some(a) if !a.is_empty() => {
            let parts: Vec<String> = a.iter().map(|(n, v)| format!("{n} = {v}")).collect();
            format!(" for {}", parts.join(", "))
        }
        _ => String::new(),
    }
}
