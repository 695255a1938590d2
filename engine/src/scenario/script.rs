//! The teams' scripted choices in a scenario: each decision takes the team's next label. A
//! decision with a single legal option takes its label when the script gives it next, and
//! never needs it; an illegal or missing label names the team, which of its choices it is,
//! and the legal labels. A team given a placement (`run.placements`) has the rules'
//! placement decisions answered from it instead: each piece goes to a legal area that
//! still lacks one.

use std::cell::Cell;
use std::rc::Rc;

use crate::agent::{Agent, Decision, Opt, View, legal_labels};
use crate::board::AreaId;

/// One team's script.
pub(super) struct Script {
    /// `home` or `away`.
    team: &'static str,
    /// The labels, in order.
    labels: Vec<String>,
    /// How many labels were used (shared with the runner, which reads it afterwards).
    used: Rc<Cell<usize>>,
    /// The placement decision's name and the field pieces per area every setup ends with.
    placement: Option<(String, Vec<(AreaId, u8)>)>,
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
                placement: None,
            },
            used,
        )
    }

    /// Answers the decisions named `decision` from `target` (field pieces per area).
    pub fn placing(mut self, decision: String, target: Vec<(AreaId, u8)>) -> Script {
        self.placement = Some((decision, target));
        self
    }

    /// The area to place the next piece in: the first legal one that has fewer of the
    /// team's field pieces than the placement gives it.
    fn place(
        &self,
        view: &View<'_>,
        d: &Decision<'_>,
        target: &[(AreaId, u8)],
    ) -> Result<usize, String> {
        let pieces = &view.state.pieces[d.team as usize];
        let lacking = |a: AreaId| {
            target
                .iter()
                .any(|(t, n)| *t == a && pieces.field_in(a) < *n)
        };
        if let Some(k) = d
            .options
            .iter()
            .position(|o| matches!(o, Opt::Area(a) if lacking(*a)))
        {
            return Ok(k);
        }
        let name = |a: AreaId| view.rules.board.name(a).to_string();
        let given: Vec<String> = target
            .iter()
            .map(|(a, n)| format!("{} = {n}", name(*a)))
            .collect();
        let short: Vec<String> = target
            .iter()
            .filter(|(a, n)| pieces.field_in(*a) < *n)
            .map(|(a, n)| format!("{} ({} of {n})", name(*a), pieces.field_in(*a)))
            .collect();
        Err(format!(
            "{}'s placement {{ {} }} cannot be kept: \"{}\" asks for one more piece, and {}; legal: {}",
            self.team,
            given.join(", "),
            d.kind,
            if short.is_empty() {
                "every area has its pieces (the placement gives fewer than the setup places)"
                    .to_string()
            } else {
                format!(
                    "the areas that lack pieces, {}, are not legal",
                    short.join(", ")
                )
            },
            legal_labels(view.rules, d)
        ))
    }
}

impl Agent for Script {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        if let Some((decision, target)) = &self.placement
            && d.kind == decision
        {
            return self.place(view, d, target);
        }
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
