//! What each edition promises beyond the common invariants: the ranges of its state
//! variables, what accounts for its pieces off the board, its `count()` cap and how its
//! phasing team alternates.

use fuba_engine::log::{Event, EventKind};

/// What an edition promises beyond the common invariants.
pub(crate) struct Edition {
    /// The ruleset under `rulesets/`.
    pub(crate) name: &'static str,
    /// Per-team integer state variables and their rulebook range, checked between stages.
    pub(crate) ranges: &'static [(&'static str, i64, i64)],
    /// Per-team integer state variables whose sum is the number of the team's field
    /// pieces off the board (sent off, injured and waiting, injured for good).
    pub(crate) off_board: &'static [&'static str],
    /// Emitted event kinds a team may have at most so many of in a match.
    pub(crate) at_most: &'static [(&'static str, usize)],
    /// Per-team integer state variables whose sum is the number of the team's pieces
    /// waiting off the board between stages (taken off to come back); none may wait when
    /// empty.
    pub(crate) waiting: &'static [&'static str],
    /// When pieces can leave for good without a state variable counting them: the team
    /// (0 home, 1 away) whose piece an event removes for good. `off_board` then counts
    /// only some of the pieces gone, and the log accounts for all of them at full time.
    pub(crate) gone_in_log: Option<fn(&Event) -> Option<usize>>,
    /// Turn integer state variables and their range, checked between stages.
    pub(crate) turn_ranges: &'static [(&'static str, i64, i64)],
    /// The ruleset caps `count()` (`match.count_cap`): checked against the raw piece
    /// counts of every observed state.
    pub(crate) count_cap: Option<i64>,
    /// Set-piece event kinds that give the next turn to their team; `Some` when the
    /// edition's phasing team alternates from turn to turn otherwise.
    pub(crate) phasing: Option<&'static [&'static str]>,
}

/// The editions that play whole matches, with what each promises.
pub(crate) const EDITIONS: &[Edition] = &[
    Edition {
        name: "original",
        ranges: &[],
        off_board: &["red"],
        at_most: &[],
        turn_ranges: &[],
        count_cap: None,
        phasing: None,
        waiting: &[],
        gone_in_log: None,
    },
    Edition {
        name: "2015",
        ranges: &[
            // 3.1.1, 4.10 **, 4.11: condition dice are dice: 0..=6 (never over 6).
            ("cond_def", 0, 6),
            ("cond_mid", 0, 6),
            ("cond_fwd", 0, 6),
            // 3.5, 4.10: three substitutions.
            ("subs", 0, 3),
            // 4.11.1: a second failed test doubles tiredness, later ones do nothing.
            ("tired", 0, 2),
            ("yellow", 0, 99),
            // 5.6: injured players waiting to return.
            ("inj_next", 0, 10),
            ("inj_second", 0, 10),
            ("inj_third", 0, 10),
            ("inj_due", 0, 10),
        ],
        // 5.4 red cards, 5.6 injured players off the board (returning or not).
        off_board: &[
            "red",
            "inj_next",
            "inj_second",
            "inj_third",
            "inj_due",
            "inj_out",
        ],
        at_most: &[("substitution", 3)],
        turn_ranges: &[],
        count_cap: None,
        phasing: None,
        waiting: &[],
        gone_in_log: None,
    },
    Edition {
        name: "2024",
        ranges: &[
            ("yellow", 0, 99),
            ("red", 0, 10),
            // A4: players off the field injured.
            ("injured_out", 0, 10),
        ],
        // Pieces gone for good are counted from the log (`gone_2024`): an injury of 5-6
        // has no state variable, and a red card with no field player left removes nobody.
        off_board: &[],
        at_most: &[],
        // 4.2.1: one action plus at most two; special event 1-6 adds one.
        turn_ranges: &[("actions", 0, 4)],
        // 1.4.1: at most six pieces of a team counted in an area.
        count_cap: Some(6),
        phasing: Some(&[
            "kick-off",
            "free kick",
            "quick free kick",
            "corner kick",
            "goal kick",
        ]),
        waiting: &["injured_out"],
        gone_in_log: Some(gone_2024),
    },
];

/// 2024: a piece leaves for good by a red card (5.6.2) that finds a field player to send
/// off, or by an injury of five or six minutes (A4: "minutes" 0 in the event).
fn gone_2024(e: &Event) -> Option<usize> {
    let EventKind::Emit { kind, fields } = &e.kind else {
        return None;
    };
    let team = match fields.get("team").and_then(|t| t.as_str()) {
        Some("home") => 0,
        Some("away") => 1,
        _ => return None,
    };
    let gone = match kind.as_str() {
        "red card" => fields.get("area").and_then(|a| a.as_str()) != Some("none"),
        "injury" => fields.get("minutes").and_then(serde_json::Value::as_i64) == Some(0),
        _ => false,
    };
    gone.then_some(team)
}

/// The promises of the edition `name` (a test names only listed editions).
pub(crate) fn spec(name: &str) -> &'static Edition {
    EDITIONS
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no edition {name} in EDITIONS"))
}
