//! Offering a decision: the legal options of a `choose`, taken at once when there is one,
//! waited for when there are more; and the answer, counted, logged and pushed.

use super::machine::{Match, Wait};
use super::{Halt, as_bool};
use crate::agent::Opt;
use crate::board::MAX_AREAS;
use crate::log::{EventKind, team_name};
use crate::value::{Move, MoveSet, Team, Value};

/// The moves of a set as options, in [`MoveSet::iter`]'s order (goalkeeper first, then by
/// start and end area), in plain loops over the bits: a movement decision offers 50–100
/// moves, and the chained iterator cost more (so did reserving the room first: counting
/// the moves walks the set once more; and counting each start area's moves to write them
/// without a capacity check each: the build has no `popcnt`). The start areas are tested
/// four at a time (most have no move).
fn moves_into(m: &MoveSet, opts: &mut Vec<Opt>) {
    if let Some((from, to)) = m.keeper {
        for to in to.iter() {
            opts.push(Opt::Move(Move {
                from,
                to,
                keeper: true,
            }));
        }
    }
    // Four start areas at a time: most are empty, and one test skips four.
    const _: () = assert!(MAX_AREAS % 4 == 0);
    for (c, four) in m.field.chunks_exact(4).enumerate() {
        if four[0].0 | four[1].0 | four[2].0 | four[3].0 == 0 {
            continue;
        }
        for (i, to) in four.iter().enumerate() {
            for to in to.iter() {
                opts.push(Opt::Move(Move {
                    from: (c * 4 + i) as u8,
                    to,
                    keeper: false,
                }));
            }
        }
    }
}

impl Match<'_> {
    /// `choose ... from`: the options; whether the match now waits (more than one).
    pub(super) fn choose_from(&mut self, site: u32, at: u32) -> Result<bool, Halt> {
        let d = &self.prog.decisions[site as usize];
        let coll = self.pop();
        let team = self.pop_team(at)?;
        self.opts.clear();
        match &coll {
            Value::Areas(s) => self.opts.extend(s.iter().map(Opt::Area)),
            Value::Area(a) => self.opts.push(Opt::Area(*a)),
            Value::Moves(m) => moves_into(m, &mut self.opts),
            Value::None => {}
            other => return Err(self.error(at, format!("cannot choose from {other:?}"))),
        }
        if let Some(s) = d.skip {
            self.opts.push(Opt::Skip(s));
        }
        // A set offered is most often a primitive's, held by no one now.
        self.recycle(coll);
        self.offer(site, team, at)
    }

    /// `choose { arms }`: the legal arms; whether the match now waits.
    pub(super) fn choose_arms(&mut self, site: u32, at: u32) -> Result<bool, Halt> {
        let d = &self.prog.decisions[site as usize];
        let n = d.arms.len();
        let from = self.stack.len() - n;
        self.opts.clear();
        for (i, g) in self.stack[from..].iter().enumerate() {
            if as_bool(g) {
                self.opts.push(Opt::Arm(i as u16, d.arms[i]));
            }
        }
        self.stack.truncate(from);
        let team = self.pop_team(at)?;
        self.offer(site, team, at)
    }

    /// Offers `self.opts`: none is an error, one is taken at once, more wait.
    pub(super) fn offer(&mut self, site: u32, team: Team, at: u32) -> Result<bool, Halt> {
        let kind = self.prog.decisions[site as usize].kind;
        if self.scoring {
            return Err(self.error(
                at,
                format!(
                    "a `prefer` score may not ask for a choice (\"{}\")",
                    self.rs.symbol(kind)
                ),
            ));
        }
        if self.opts.is_empty() {
            return Err(self.error(
                at,
                format!(
                    "no legal option for \"{}\" ({} to choose)",
                    self.rs.symbol(kind),
                    team_name(team)
                ),
            ));
        }
        self.wait = Wait::Decision { site, team, at };
        if self.opts.len() == 1 && !self.ask_single {
            self.picked(0);
            return Ok(false);
        }
        Ok(true)
    }

    /// Takes option `i` of the waiting decision: counts, logs, pushes its value.
    pub(crate) fn picked(&mut self, i: usize) {
        let Wait::Decision { site, team, .. } = self.wait else {
            return;
        };
        self.wait = Wait::Run;
        let rs = self.rs;
        let d = &self.prog.decisions[site as usize];
        let picked = self.opts[i];
        self.counters.choices += 1;
        if let Opt::Arm(_, label) = picked {
            *self.counters.arms.entry((d.kind, label)).or_insert(0) += 1;
        }
        if self.logging() {
            let offered = if self.record_options {
                self.opts.iter().map(|o| o.label(rs)).collect()
            } else {
                Vec::new()
            };
            self.emit_event(EventKind::Choice {
                team: team_name(team).to_string(),
                decision: rs.symbol(d.kind).to_string(),
                label: picked.label(rs),
                options: self.opts.len(),
                secret: d.secret,
                offered,
            });
        }
        self.stack.push(match picked {
            Opt::Area(a) => Value::Area(a),
            Opt::Move(m) => Value::Move(m),
            Opt::Arm(i, _) => Value::Int(i64::from(i)),
            Opt::Skip(_) => Value::None,
        });
    }
}
