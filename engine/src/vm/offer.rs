//! Offering a decision: the legal options of a `choose`, taken at once when there is one,
//! waited for when there are more; and the answer, counted, logged and pushed.

use super::checked::as_bool;
use super::code::NO_OPD;
use super::machine::{Match, Wait};
use super::run_error::Halt;
use crate::agent::Opt;
use crate::board::{AreaId, AreaSet, MAX_AREAS};
use crate::log::{EventKind, team_name};
use crate::value::{Move, MoveSet, Team, Value};

/// The moves of a set as options, in [`MoveSet::iter`]'s order (goalkeeper first, then by
/// start and end area), in plain loops over the bits: a movement decision offers 10–100
/// moves, and the chained iterator cost more (so did reserving the room first: counting
/// the moves walks the set once more; and counting each start area's moves to write them
/// without a capacity check each: the build has no `popcnt`). The start areas with moves
/// are found first as a mask of the rows (most rows are empty), unless a dozen start areas
/// or fewer are given: those are walked as they are.
///
/// Only the goalkeeper's part `keeper` and the field moves starting in `starts` are
/// taken (`choose ... from unmoved_moves(set, team)` offers them without the set made).
fn moves_into(
    m: &MoveSet,
    keeper: Option<(AreaId, AreaSet)>,
    starts: AreaSet,
    opts: &mut Vec<Opt>,
) {
    if let Some((from, to)) = keeper {
        for to in to.iter() {
            opts.push(Opt::Move(Move {
                from,
                to,
                keeper: true,
            }));
        }
    }
    const _: () = assert!(MAX_AREAS <= 32);
    // A few start areas (a team's pieces not yet moved) are walked as they are; the whole
    // set's rows are first narrowed to those with moves.
    let mut rows = starts.0;
    if rows.count_ones() > 12 {
        rows = 0;
        for (i, to) in m.field.iter().enumerate() {
            rows |= u32::from(to.0 != 0) << i;
        }
        rows &= starts.0;
    }
    while rows != 0 {
        let from = rows.trailing_zeros() as u8;
        rows &= rows - 1;
        let mut to = m.field[from as usize].0;
        while to != 0 {
            opts.push(Opt::Move(Move {
                from,
                to: to.trailing_zeros() as u8,
                keeper: false,
            }));
            to &= to - 1;
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
            Value::Moves(m) => moves_into(m, m.keeper, AreaSet(u32::MAX), &mut self.opts),
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

    /// `choose ... from unmoved_moves(set, t)`: the moves of the set that the pieces of
    /// `t` not yet moved can make, offered without the narrowed set made; whether the
    /// match now waits.
    ///
    /// The set is read in place from frame local `set` unless that is [`NO_OPD`] (then
    /// it is popped): a local's set shared with the stack would cost two changes of its
    /// reference count, each an atomic operation.
    pub(super) fn choose_unmoved(&mut self, site: u32, set: u16, at: u32) -> Result<bool, Halt> {
        let d = &self.prog.decisions[site as usize];
        let t = self.pop_team(at)?;
        let local = (set != NO_OPD)
            .then(|| self.frames.last().map_or(0, |f| f.base as usize) + set as usize);
        let (coll, team) = match local {
            None => {
                let coll = self.pop();
                (coll, self.pop_team(at)?)
            }
            Some(i) => {
                let team = self.pop_team(at)?;
                (std::mem::take(&mut self.stack[i]), team)
            }
        };
        let Value::Moves(m) = &coll else {
            let e = self.error(at, "expected a move set");
            self.give_back(local, coll);
            return Err(e);
        };
        self.opts.clear();
        let pc = &self.st.pieces[t as usize];
        moves_into(
            m,
            pc.unmoved_keeper(m.keeper),
            pc.field_areas(true),
            &mut self.opts,
        );
        if let Some(s) = d.skip {
            self.opts.push(Opt::Skip(s));
        }
        self.give_back(local, coll);
        self.offer(site, team, at)
    }

    /// A set taken from the operand stack's slot `local` put back
    /// ([`Match::choose_unmoved`]); one popped (`None`) kept as the spare if no one else
    /// holds it.
    fn give_back(&mut self, local: Option<usize>, coll: Value) {
        match local {
            Some(i) => self.stack[i] = coll,
            None => self.recycle(coll),
        }
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
        self.pilot_decides(at)
    }

    /// Takes option `i` of the waiting decision: counts, logs, pushes its value.
    pub(crate) fn picked(&mut self, i: usize) {
        let Wait::Decision { site, team, at } = self.wait else {
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
            self.emit_event_at(
                at,
                EventKind::Choice {
                    team: team_name(team).to_string(),
                    decision: rs.symbol(d.kind).to_string(),
                    label: picked.label(rs),
                    options: self.opts.len(),
                    secret: d.secret,
                    offered,
                },
            );
        }
        self.stack.push(match picked {
            Opt::Area(a) => Value::Area(a),
            Opt::Move(m) => Value::Move(m),
            Opt::Arm(i, _) => Value::Int(i64::from(i)),
            Opt::Skip(_) => Value::None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> MoveSet {
        let mut m = MoveSet::default();
        m.field[0] = AreaSet(0b1010);
        m.field[5] = AreaSet(1 << 31 | 1);
        m.field[31] = AreaSet(0b110);
        m.keeper = Some((2, AreaSet(0b1001)));
        m
    }

    /// A set's options are its moves in [`MoveSet::iter`]'s order.
    #[test]
    fn options_in_the_sets_order() {
        let m = set();
        let mut opts = Vec::new();
        moves_into(&m, m.keeper, AreaSet(u32::MAX), &mut opts);
        let want: Vec<Opt> = m.iter().map(Opt::Move).collect();
        assert_eq!(opts, want);
    }

    /// Narrowed to some start areas and without the goalkeeper's part, the options are
    /// those of the set's moves that start there, in the same order.
    #[test]
    fn options_from_some_starts() {
        let m = set();
        let starts = AreaSet(1 | 1 << 31);
        let mut opts = Vec::new();
        moves_into(&m, None, starts, &mut opts);
        let want: Vec<Opt> = (m.iter())
            .filter(|mv| !mv.keeper && starts.has(mv.from))
            .map(Opt::Move)
            .collect();
        assert_eq!(opts, want);
        assert_eq!(opts.len(), 4);
    }
}
