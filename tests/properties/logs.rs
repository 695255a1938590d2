//! What the property tests read from a match's log: goals and emitted events per team,
//! whether the phasing team alternates, and the choices each team made (for replay).

use fuba_engine::log::{Event, EventKind};

/// Goals per team, counted from the log's goal events.
pub(crate) fn goals_in_log(events: &[Event]) -> [i64; 2] {
    let mut g = [0, 0];
    for e in events {
        if let EventKind::Goal { team, .. } = &e.kind {
            g[usize::from(team != "home")] += 1;
        }
    }
    g
}

/// Emitted events of a kind, per team (by the event's `team` field).
pub(crate) fn emitted_per_team(events: &[Event], kind: &str) -> [usize; 2] {
    let mut n = [0, 0];
    for e in events {
        if let EventKind::Emit { kind: k, fields } = &e.kind {
            if k == kind {
                match fields.get("team").and_then(|t| t.as_str()) {
                    Some("home") => n[0] += 1,
                    Some("away") => n[1] += 1,
                    _ => {}
                }
            }
        }
    }
    n
}

/// The phasing team alternates from turn to turn, except that a set piece of `set_pieces`
/// gives the next turn to the team taking it; each half starts afresh.
pub(crate) fn phasing_alternates(events: &[Event], set_pieces: &[&str]) -> Result<usize, String> {
    let mut last: Option<&str> = None;
    let mut set_piece_for: Option<&str> = None;
    let mut turns = 0;
    for e in events {
        match &e.kind {
            EventKind::Phasing { team } => {
                turns += 1;
                match (last, set_piece_for) {
                    (_, Some(t)) if t != team => {
                        return Err(format!(
                            "event #{}: {team} phasing after a set piece of {t}",
                            e.seq
                        ));
                    }
                    (Some(prev), None) if prev == team => {
                        return Err(format!(
                            "event #{}: {team} phasing twice without a set piece",
                            e.seq
                        ));
                    }
                    _ => {}
                }
                last = Some(team);
                set_piece_for = None;
            }
            EventKind::Emit { kind, fields } if set_pieces.contains(&kind.as_str()) => {
                if let Some(t) = fields.get("team").and_then(|v| v.as_str()) {
                    set_piece_for = Some(t);
                }
            }
            EventKind::HalfEnd { .. } => {
                last = None;
                set_piece_for = None;
            }
            _ => {}
        }
    }
    Ok(turns)
}

/// The labels each team actually chose (choices with one legal option are made by the
/// engine without asking the agent, so they are not part of a script).
pub(crate) fn scripts(events: &[Event]) -> [Vec<String>; 2] {
    let mut s: [Vec<String>; 2] = Default::default();
    for e in events {
        if let EventKind::Choice {
            team,
            label,
            options,
            ..
        } = &e.kind
        {
            if *options > 1 {
                s[usize::from(team != "home")].push(label.clone());
            }
        }
    }
    s
}
