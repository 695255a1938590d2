//! The teams' scripted choices in a scenario: each decision takes the team's next label. A
//! decision with a single legal option takes its label when the script gives it next, and
//! never needs it; an illegal or missing label names the team, which of its choices it is,
//! and the legal labels.

use std::cell::Cell;
use std::rc::Rc;

use crate::agent::{Agent, Decision, View, legal_labels};

/// One team's script.
pub(super) struct Script {
    /// `home` or `away`.
    team: &'static str,
    /// The labels, in order.
    labels: Vec<String>,
    /// How many labels were used (shared with the runner, which reads it afterwards).
    used: Rc<Cell<usize>>,
}

impl Script {
    /// The script of `team`, and the count of its labels used.
    pub fn new(team: &'static str, labels: Vec<String>) -> (Script, Rc<Cell<usize>>) {
        let used = Rc::new(Cell::new(0));
        (
            Script {
                team,
                labels,
                used: used.clone(),
            },
            used,
        )
    }
}

impl Agent for Script {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        let i = self.used.get();
        let next = self.labels.get(i);
        if let [only] = d.options {
            // The only legal option: its label is taken when given, never needed.
            if next.is_some_and(|l| *l == only.label(view.rules)) {
                self.used.set(i + 1);
            }
            return Ok(0);
        }
        let Some(want) = next else {
            return Err(format!(
                "{}'s script has no choice left for \"{}\" (it gave {} label{}); legal: {}",
                self.team,
                d.kind,
                self.labels.len(),
                if self.labels.len() == 1 { "" } else { "s" },
                legal_labels(view.rules, d)
            ));
        };
        match d.options.iter().position(|o| o.label(view.rules) == *want) {
            Some(k) => {
                self.used.set(i + 1);
                Ok(k)
            }
            None => Err(format!(
                "{}'s choice {} (\"{want}\") is not legal for \"{}\"; legal: {}",
                self.team,
                i + 1,
                d.kind,
                legal_labels(view.rules, d)
            )),
        }
    }

    fn name(&self) -> String {
        "scripted".into()
    }
}
