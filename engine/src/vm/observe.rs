//! What one team may see of a match: the public state, the score and the clock, its own
//! pending decision, and the log with the other team's secret choices hidden.
//!
//! A secret choice stays hidden in the log for good: the rules reveal it later through
//! ordinary events (an emitted event naming the formation chosen, a move), which every
//! observer sees. A team always sees its own choices, secret or not.
//!
//! ```text
//! Match ──observation(team)──> Observation { state, score, clock, decision?, chance?, events }
//! ```

use super::machine::Match;
use super::schedule::Chance;
use crate::log::{Event, EventKind, team_name};
use crate::state::{Clock, MatchState};
use crate::value::Team;

/// What an observer sees in place of a label it may not see.
pub const HIDDEN: &str = "(secret)";

/// What one team may see of a match at one moment (see [`Match::observation`]).
#[derive(Debug, Clone)]
pub struct Observation {
    /// The observing team.
    pub team: Team,
    /// The public state of the board and the rules' variables.
    pub state: MatchState,
    /// Goals, home first.
    pub score: [i64; 2],
    /// The time marker.
    pub clock: Clock,
    /// The decision the match waits for, when it is the observing team's.
    pub decision: Option<PendingDecision>,
    /// The dice the match waits for (public: anyone sees dice being rolled).
    pub chance: Option<Chance>,
    /// The events so far (empty when the match does not log), the other team's secret
    /// choices hidden (see [`observed_event`]).
    pub events: Vec<Event>,
}

/// A decision the observing team is asked to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingDecision {
    /// The decision's name.
    pub kind: String,
    /// The label of every legal option, in the order [`Match::choose`] takes them.
    pub options: Vec<String>,
    /// Whether the choice will be hidden from the other team.
    pub secret: bool,
}

impl Observation {
    /// The choice events of `chooser` in this observation whose label is hidden.
    pub fn hidden_choices_of(&self, chooser: Team) -> impl Iterator<Item = &Event> {
        let name = team_name(chooser);
        self.events.iter().filter(move |e| {
            matches!(&e.kind, EventKind::Choice { team, label, .. }
                if team == name && label == HIDDEN)
        })
    }
}

/// Whether an event is a secret choice that `observer` may not read: a secret choice made
/// by the other team.
pub fn is_hidden_from(event: &Event, observer: Team) -> bool {
    matches!(&event.kind, EventKind::Choice { team, secret: true, .. }
        if team != team_name(observer))
}

/// An event as `observer` sees it: a secret choice of the other team shows [`HIDDEN`] for
/// its label and for every offered option's label (the number of options stays); every
/// other event is shown as it is.
pub fn observed_event(event: &Event, observer: Team) -> Event {
    let mut e = event.clone();
    if is_hidden_from(event, observer) {
        if let EventKind::Choice { label, offered, .. } = &mut e.kind {
            *label = HIDDEN.to_string();
            for o in offered.iter_mut() {
                *o = HIDDEN.to_string();
            }
        }
    }
    e
}

/// A log as `observer` sees it (see [`observed_event`]); works on recorded logs too.
pub fn observed_events(events: &[Event], observer: Team) -> Vec<Event> {
    events.iter().map(|e| observed_event(e, observer)).collect()
}

impl Match<'_> {
    /// What `team` may see of the match now: the public state, the score and the clock,
    /// the waiting decision only when it is `team`'s, the waiting dice, and the log with
    /// the other team's secret choices hidden.
    pub fn observation(&self, team: Team) -> Observation {
        let decision = self
            .decision()
            .filter(|d| d.team == team)
            .map(|d| PendingDecision {
                kind: d.kind.to_string(),
                options: d.options.iter().map(|o| o.label(self.rs)).collect(),
                secret: d.secret,
            });
        Observation {
            team,
            state: self.st.clone(),
            score: self.st.score,
            clock: self.st.clock,
            decision,
            chance: self.chance(),
            events: observed_events(self.events(), team),
        }
    }
}
