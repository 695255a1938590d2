//! Playing a match with agents and dice: [`Game`] drives a [`Match`] value, answering each
//! decision with the deciding team's agent and each chance event with dice from a
//! [`DiceSource`]. The course of the match (halves, turns, stages) is the match value's
//! own ([`crate::vm::Schedule`]); this is only the loop that answers it.

use crate::agent::{Agent, Decision, View};
use crate::dice::DiceSource;
use crate::log::{Event, LOG_VERSION, LogHeader};
use crate::ruleset::Ruleset;
use crate::search::{Played, SearchView, Worlds};
use crate::state::MatchState;
use crate::vm::pilot::Pilot;
use crate::vm::{ErrorKind, Match, RunError, Status};

pub use crate::vm::outcome::{Ending, Outcome};

/// Where the match is, between stages: a callback can look at the state.
pub type Observer<'o> = dyn FnMut(&MatchState, &Ruleset) -> Result<(), String> + 'o;

/// A callback given every event as it is logged.
pub type EventHook<'a> = Box<dyn FnMut(&Ruleset, &Event) + 'a>;

/// A match with its dice and agents.
pub struct Game<'a> {
    /// The match value.
    pub m: Match<'a>,
    /// Where dice come from.
    pub dice: Box<dyn DiceSource + 'a>,
    /// Home and away agents.
    pub agents: [Box<dyn Agent + 'a>; 2],
    /// Called with every event as it is logged (live narration for a human player).
    pub on_event: Option<EventHook<'a>>,
    told: usize,
    /// The log is streamed ([`Game::with_streamed_log`]): events are dropped once told.
    stream: bool,
    /// For each team whose agent searches: the worlds it cannot tell apart from the match.
    worlds: [Option<Worlds<'a>>; 2],
    /// For each team whose agent searches: the answers so far as it saw them.
    played: [Vec<Played>; 2],
    /// When kept ([`Game::with_states`]): the state at every pause, after how many events.
    states: Option<Vec<(usize, MatchState)>>,
    /// For each team whose agent may take an answer back: the match before its last
    /// decision, until dice are rolled.
    before: [Option<Box<Match<'a>>>; 2],
    /// The scores of the options of the decision asked about, room reused.
    hints: Vec<i64>,
}

/// What an agent asks of the match beyond a decision's options, asked once per
/// [`Game::run`] (the agents cannot change while it runs) instead of at every decision.
#[derive(Clone, Copy, Default)]
struct Wants {
    hints: bool,
    prompt: bool,
    worlds: bool,
    take_back: bool,
}

impl Wants {
    fn of(agent: &dyn Agent) -> Self {
        Wants {
            hints: agent.wants_hints(),
            prompt: agent.wants_prompt(),
            worlds: agent.wants_worlds(),
            take_back: agent.may_take_back(),
        }
    }

    /// Whether the agent is given a decision's options (and perhaps their scores) and
    /// nothing more: no prompt, no worlds to follow, no answer to take back.
    fn plain(self) -> bool {
        !(self.prompt || self.worlds || self.take_back)
    }
}

impl<'a> Game<'a> {
    /// A match under `rs` with the given dice and agents.
    pub fn new(
        rs: &'a Ruleset,
        seed: u64,
        dice: Box<dyn DiceSource + 'a>,
        home: Box<dyn Agent + 'a>,
        away: Box<dyn Agent + 'a>,
    ) -> Self {
        Game {
            m: Match::new(rs, seed),
            dice,
            agents: [home, away],
            on_event: None,
            told: 0,
            stream: false,
            worlds: [None, None],
            played: [Vec::new(), Vec::new()],
            states: None,
            before: [None, None],
            hints: Vec::new(),
        }
    }

    /// Keeps the state at every pause of the match (each decision, roll and stage
    /// boundary) with the number of events logged by then, for a viewer to show the board
    /// as each event left it ([`Game::states`]). Turns the log on.
    pub fn with_states(mut self) -> Self {
        self.states = Some(vec![(0, self.m.st.clone())]);
        self.with_log()
    }

    /// The states kept by [`Game::with_states`]: `(n, state)` is the state once the first
    /// `n` events had been logged, at the pause that followed them; `n` never decreases.
    pub fn states(&self) -> &[(usize, MatchState)] {
        self.states.as_deref().unwrap_or_default()
    }

    /// Turns on the event log.
    pub fn with_log(mut self) -> Self {
        self.m.log = Some(Vec::new());
        self
    }

    /// Logs the match without keeping the log: the events of each pause are given to
    /// [`Game::on_event`] and then dropped, so a long match holds one pause's events at a
    /// time (`fuba play --log` writes them to the file as they come). [`Game::events`]
    /// is then empty after every pause.
    pub fn with_streamed_log(mut self) -> Self {
        self.m.log = Some(Vec::new());
        self.stream = true;
        self
    }

    /// The log header for this match.
    pub fn header(&self) -> LogHeader {
        LogHeader {
            format: "fuba-log".into(),
            version: LOG_VERSION,
            ruleset: self.m.rs.name.clone(),
            fingerprint: self.m.rs.fingerprint.clone(),
            rulebook: self.m.rs.source.clone(),
            seed: self.m.seed,
            home: self.agents[0].name(),
            away: self.agents[1].name(),
            options: crate::log::options_set(self.m.rs),
        }
    }

    /// The events so far (empty when not logging).
    pub fn events(&self) -> &[Event] {
        self.m.events()
    }

    fn tell(&mut self) {
        if let (Some(states), Some(log)) = (&mut self.states, &self.m.log) {
            match states.last_mut() {
                // Nothing logged since the last pause: the newer state stands for it.
                Some((n, st)) if *n == log.len() => *st = self.m.st.clone(),
                _ => states.push((log.len(), self.m.st.clone())),
            }
        }
        if let (Some(f), Some(log)) = (&mut self.on_event, &self.m.log) {
            for e in &log[self.told.min(log.len())..] {
                f(self.m.rs, e);
            }
            self.told = log.len();
        }
        if self.stream {
            self.m.take_events();
            self.told = 0;
        }
    }

    /// Runs the match (or the scenario's run) to its end. `observe` is called after every
    /// stage (for invariant checks).
    pub fn run(&mut self, observe: &mut Observer<'_>) -> Result<(), RunError> {
        let wants = [Wants::of(&*self.agents[0]), Wants::of(&*self.agents[1])];
        for (w, worlds) in wants.iter().zip(&mut self.worlds) {
            if w.worlds && worlds.is_none() {
                *worlds = Some(Worlds::new());
            }
        }
        // Agents that take only the options (and their scores) and dice are lent to the
        // match, which asks them where it would pause, when no one watches the pauses.
        let lend = wants.iter().all(|w| w.plain())
            && self.worlds.iter().all(Option::is_none)
            && self.states.is_none()
            && self.on_event.is_none()
            && !self.stream;
        if lend {
            self.lend(&wants);
        }
        let ran = self.run_course(observe, &wants);
        self.take_back_lent();
        ran
    }

    /// Lends the agents and the dice to the match ([`crate::vm::pilot`]).
    fn lend(&mut self, wants: &[Wants; 2]) {
        let agents = std::mem::replace(&mut self.agents, [Box::new(Lent), Box::new(Lent)]);
        let dice = std::mem::replace(&mut self.dice, Box::new(Lent));
        self.m.pilot = Some(Box::new(Pilot {
            agents,
            hints: [wants[0].hints, wants[1].hints],
            dice,
            scores: std::mem::take(&mut self.hints),
        }));
    }

    /// Takes back what [`Game::lend`] lent.
    fn take_back_lent(&mut self) {
        if let Some(p) = self.m.pilot.take() {
            let p = *p;
            self.agents = p.agents;
            self.dice = p.dice;
            self.hints = p.scores;
        }
    }

    /// [`Game::run`]'s course: advances the match and answers what it waits for.
    fn run_course(
        &mut self,
        observe: &mut Observer<'_>,
        wants: &[Wants; 2],
    ) -> Result<(), RunError> {
        loop {
            let status = self.m.advance();
            self.tell();
            let status = status?;
            for w in self.worlds.iter_mut().flatten() {
                w.follow(&self.m, status);
            }
            match status {
                Status::Decision => self.decide(wants)?,
                Status::Chance => {
                    // An answer cannot be taken back past a roll.
                    self.before = [None, None];
                    let Some(c) = self.m.chance() else { continue };
                    let label = self.m.rs.symbol(c.label);
                    let mut dice = [0u8; 8];
                    for d in dice.iter_mut().take(c.count as usize) {
                        match self.dice.roll(c.sides, label) {
                            Ok(x) => *d = x,
                            Err(msg) => return Err(self.m.fail(msg)),
                        }
                    }
                    self.m.roll(&dice[..c.count as usize])?;
                    for w in self.worlds.iter_mut().flatten() {
                        w.roll(&dice[..c.count as usize]);
                    }
                }
                Status::Boundary => {
                    if let Err(msg) = observe(&self.m.st, self.m.rs) {
                        return Err(RunError {
                            rule: "observer".into(),
                            ..RunError::host(ErrorKind::Host, msg)
                        });
                    }
                }
                Status::End => return Ok(()),
            }
        }
    }

    /// Asks the deciding team's agent.
    fn decide(&mut self, wants: &[Wants; 2]) -> Result<(), RunError> {
        let Some(d) = self.m.decision() else {
            return Ok(());
        };
        let team = d.team as usize;
        let wants = wants[team];
        let mut hints = std::mem::take(&mut self.hints);
        hints.clear();
        if wants.hints {
            self.m.hints_into(&mut hints)?;
        }
        // A prompt that cannot be worked out is shown as the error, the match unaffected.
        let (prompt, notes) = if wants.prompt {
            let prompt = match self.m.prompt() {
                Some(Ok(p)) => p,
                Some(Err(e)) => format!("(the prompt could not be worked out: {e})"),
                None => String::new(),
            };
            let notes = match self.m.option_notes() {
                Some(Ok(n)) => n,
                Some(Err(e)) => vec![format!("(the note could not be worked out: {e})")],
                None => Vec::new(),
            };
            (prompt, notes)
        } else {
            (String::new(), Vec::new())
        };
        let Some(d) = self.m.decision() else {
            return Ok(());
        };
        let d = Decision {
            hints: &hints,
            prompt: &prompt,
            notes: &notes,
            ..d
        };
        let (deciding, secret) = (d.team, d.secret);
        let search = wants.worlds.then(|| SearchView {
            worlds: match &self.worlds[team] {
                Some(w) => w.all(&self.m),
                None => vec![&self.m],
            },
            played: &self.played[team],
        });
        let view = View {
            rules: self.m.rs,
            state: &self.m.st,
            search: search.as_ref(),
        };
        let i = match self.agents[team].choose(&view, &d) {
            Ok(i) => i,
            Err(msg) => return Err(self.m.fail(msg)),
        };
        if i == crate::agent::TAKE_BACK && wants.take_back {
            // Back to the team's previous decision, if no die was rolled since; else the
            // agent is asked again.
            if let Some(before) = self.before[team].take() {
                self.m = *before;
                self.before = [None, None];
                self.told = self.told.min(self.m.events().len());
            }
            return Ok(());
        }
        if wants.take_back && self.worlds.iter().all(Option::is_none) {
            self.before[team] = Some(Box::new(self.m.clone()));
        }
        let opt = d.options.get(i).copied();
        self.hints = hints;
        let before = (secret && self.worlds[1 - team].is_some()).then(|| self.m.fork());
        self.m.choose(i)?;
        for (t, w) in self.worlds.iter_mut().enumerate() {
            let Some(w) = w else { continue };
            let hidden = secret && t != team;
            match &before {
                Some(b) if hidden => w.branch(b, i),
                _ => w.choose(i),
            }
            self.played[t].push(Played {
                team: deciding,
                opt: if hidden { None } else { opt },
            });
        }
        Ok(())
    }

    /// Runs one procedure with arguments from the position as set, the agents and dice
    /// answering what it asks; ending the turn or half ends it.
    pub fn call_proc(&mut self, idx: u16, args: Vec<crate::value::Value>) -> Result<(), RunError> {
        self.m.set_schedule(crate::vm::Schedule::Call(idx, args));
        self.run(&mut |_, _| Ok(()))
    }

    /// Plays the whole match. `observe` is called after every stage (for invariant checks).
    pub fn play_observed(&mut self, observe: &mut Observer<'_>) -> Result<Outcome, RunError> {
        self.m.pause_at_stages = true;
        self.run(observe)?;
        self.outcome()
    }

    /// Plays the whole match.
    pub fn play(&mut self) -> Result<Outcome, RunError> {
        self.m.pause_at_stages = false;
        self.run(&mut |_, _| Ok(()))?;
        self.outcome()
    }

    fn outcome(&self) -> Result<Outcome, RunError> {
        self.m
            .outcome()
            .cloned()
            .ok_or_else(|| RunError::host(ErrorKind::Host, "the match did not end"))
    }
}

/// What stands in a [`Game`]'s place for its agents and dice while they are lent to the
/// match ([`Game::lend`]): never asked, since the game asks nothing while the match holds
/// them.
struct Lent;

impl Agent for Lent {
    fn choose(&mut self, _: &View<'_>, _: &Decision<'_>) -> Result<usize, String> {
        Err("the agent is lent to the match".into())
    }
    fn name(&self) -> String {
        "lent".into()
    }
}

impl DiceSource for Lent {
    fn roll(&mut self, _: u8, _: &str) -> Result<u8, String> {
        Err("the dice are lent to the match".into())
    }
}
