//! Running a whole match: the start procedure, then for each half its start procedure and
//! turns, each turn the ruleset's stages in order. The engine knows nothing of what the
//! stages do; `end_turn()` and `end_half()` are the only flow it obeys.

use crate::agent::Agent;
use crate::dice::DiceSource;
use crate::interp::{Flow, Interp, RunError};
use crate::ir::Loc;
use crate::log::{Event, EventKind, LOG_VERSION, LogHeader};
use crate::ruleset::Ruleset;
use crate::state::{Clock, MatchState};

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// All halves were played.
    FullTime,
    /// A half hit the turn cap (`match.max_turns_per_half`).
    Runaway,
}

/// The result of a match.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Goals, home first.
    pub score: [i64; 2],
    /// Turns played in each half.
    pub turns: Vec<u32>,
    /// How it ended.
    pub ending: Ending,
    /// The clock when each half's turns began (after its start procedure) and when the
    /// half ended, stoppage included.
    pub clocks: Vec<[Clock; 2]>,
}

/// Where the match is, between stages: a callback can look at the state.
pub type Observer<'o> = dyn FnMut(&MatchState, &Ruleset) -> Result<(), String> + 'o;

/// A match being set up: rules, dice, agents, options.
pub struct Match<'a> {
    /// The interpreter running it.
    pub interp: Interp<'a>,
    /// The seed, for the log header.
    pub seed: u64,
}

impl<'a> Match<'a> {
    /// A match under `rs` with the given dice and agents.
    pub fn new(
        rs: &'a Ruleset,
        seed: u64,
        dice: Box<dyn DiceSource + 'a>,
        home: Box<dyn Agent + 'a>,
        away: Box<dyn Agent + 'a>,
    ) -> Self {
        Match {
            interp: Interp::new(rs, dice, [home, away]),
            seed,
        }
    }

    /// Turns on the event log.
    pub fn with_log(mut self) -> Self {
        self.interp.log = Some(Vec::new());
        self
    }

    /// The log header for this match.
    pub fn header(&self) -> LogHeader {
        LogHeader {
            format: "fuba-log".into(),
            version: LOG_VERSION,
            ruleset: self.interp.rs.name.clone(),
            fingerprint: self.interp.rs.fingerprint.clone(),
            seed: self.seed,
            home: self.interp.agents[0].name(),
            away: self.interp.agents[1].name(),
        }
    }

    /// The events so far (empty when not logging).
    pub fn events(&self) -> &[Event] {
        self.interp.log.as_deref().unwrap_or(&[])
    }

    fn run_proc(&mut self, idx: u16) -> Result<(), Flow> {
        self.interp.reset_budget();
        self.interp.stage = Some(idx);
        self.interp
            .call_proc(idx, Vec::new(), Loc::default())
            .map(|_| ())
    }

    /// Plays the whole match. `observe` is called after every stage (for invariant checks).
    pub fn play_observed(&mut self, observe: &mut Observer<'_>) -> Result<Outcome, RunError> {
        let rs = self.interp.rs;
        let check = |r: Result<(), String>| {
            r.map_err(|m| RunError {
                message: m,
                rule: "observer".into(),
                place: String::new(),
            })
        };
        if let Some(s) = rs.start {
            match self.run_proc(s) {
                Ok(()) | Err(Flow::EndTurn) | Err(Flow::EndHalf) | Err(Flow::Stop)
                | Err(Flow::Break) | Err(Flow::Return(_)) => {}
                Err(Flow::Error(e)) => return Err(*e),
            }
        }
        let mut turns = Vec::new();
        let mut clocks = Vec::new();
        let mut ending = Ending::FullTime;
        for half in 1..=rs.halves {
            self.interp.st.clock.half = half;
            self.interp.st.clock.added = 0;
            self.interp.st.turn = 0;
            if let Some(h) = rs.half_start {
                match self.run_proc(h) {
                    Ok(()) | Err(Flow::EndTurn) | Err(Flow::EndHalf) | Err(Flow::Stop)
                    | Err(Flow::Break) | Err(Flow::Return(_)) => {}
                    Err(Flow::Error(e)) => return Err(*e),
                }
            }
            check(observe(&self.interp.st, rs))?;
            let begun = self.interp.st.clock;
            let mut reason = "rules";
            'turns: loop {
                if self.interp.st.turn >= rs.max_turns_per_half {
                    reason = "runaway";
                    ending = Ending::Runaway;
                    break;
                }
                self.interp.st.turn += 1;
                self.interp.st.turns_total += 1;
                self.interp.st.reset_turn_vars(rs);
                self.interp.stage = None;
                self.interp.emit_event(EventKind::TurnStart);
                let mut half_over = false;
                for &stage in &rs.stages {
                    match self.run_proc(stage) {
                        Ok(()) | Err(Flow::Break) | Err(Flow::Return(_)) => {}
                        Err(Flow::EndTurn) | Err(Flow::Stop) => break,
                        Err(Flow::EndHalf) => {
                            half_over = true;
                            break;
                        }
                        Err(Flow::Error(e)) => return Err(*e),
                    }
                    check(observe(&self.interp.st, rs))?;
                }
                if !half_over {
                    if let Some(te) = rs.turn_end {
                        match self.run_proc(te) {
                            Ok(()) | Err(Flow::EndTurn) | Err(Flow::Stop) | Err(Flow::Break)
                            | Err(Flow::Return(_)) => {}
                            Err(Flow::EndHalf) => half_over = true,
                            Err(Flow::Error(e)) => return Err(*e),
                        }
                    }
                }
                check(observe(&self.interp.st, rs))?;
                if half_over {
                    break 'turns;
                }
            }
            turns.push(self.interp.st.turn);
            clocks.push([begun, self.interp.st.clock]);
            self.interp.stage = None;
            self.interp.emit_event(EventKind::HalfEnd {
                reason: reason.into(),
            });
        }
        let score = self.interp.st.score;
        self.interp.emit_event(EventKind::MatchEnd { score });
        Ok(Outcome {
            score,
            turns,
            ending,
            clocks,
        })
    }

    /// Plays the whole match.
    pub fn play(&mut self) -> Result<Outcome, RunError> {
        self.play_observed(&mut |_, _| Ok(()))
    }
}
