//! A human at the terminal deciding for one team.
//!
//! For each decision it shows (on stderr, or any writer) the board drawn as a pitch —
//! again only when it changed — what is being decided, in the rules' words (the
//! decision's `prompt`, when its rule gives one), and the numbered options (each with its
//! `note`, when the rule gives one), then reads a
//! number (or an
//! option's label) from stdin. Several answers separated by commas answer this decision
//! and the next ones of the same kind (a whole setup on one line); `auto` lets the
//! rules' own preferences (the heuristic player) answer this decision and the next ones
//! of its kind; `back` takes the previous answer back, as long as no die was rolled since.
//! It shows only what the engine gives an agent: the public state and the
//! decision, so the other team's secret choices cannot leak through it.

use std::collections::VecDeque;
use std::io::{BufRead, Write};

use fuba_engine::agent::{Agent, Decision, HeuristicAgent, TAKE_BACK, View};
use fuba_engine::log::team_name;
use fuba_engine::value::Team;

use crate::board::layout::Layout;

mod pitch;

/// A human player: reads choices from `input`, prompts on `output`.
pub struct HumanAgent {
    team: Team,
    input: Box<dyn BufRead>,
    output: Box<dyn Write>,
    /// The pitch last drawn, not drawn again until it changes.
    drawn: String,
    /// Answers typed ahead for the next decisions of a kind: the kind and the answers.
    ahead: Option<(String, VecDeque<String>)>,
    /// The decision kind the heuristic player answers for now (`auto`).
    auto: Option<(String, HeuristicAgent)>,
}

impl HumanAgent {
    /// A human playing `team`, reading stdin and prompting on stderr.
    pub fn stdio(team: Team) -> Self {
        Self::new(
            team,
            Box::new(std::io::BufReader::new(std::io::stdin())),
            Box::new(std::io::stderr()),
        )
    }

    /// A human playing `team` with the given input and output (tests, other front ends).
    pub fn new(team: Team, input: Box<dyn BufRead>, output: Box<dyn Write>) -> Self {
        HumanAgent {
            team,
            input,
            output,
            drawn: String::new(),
            ahead: None,
            auto: None,
        }
    }

    fn show(&mut self, view: &View<'_>, d: &Decision<'_>) -> std::io::Result<()> {
        let rs = view.rules;
        let st = view.state;
        let out = &mut self.output;
        let clock = if st.clock.added > 0 {
            format!("{}+{}'", st.clock.minute, st.clock.added)
        } else {
            format!("{}'", st.clock.minute)
        };
        writeln!(out)?;
        writeln!(
            out,
            "== Home {} - {} Away | half {}, {clock}, turn {} | ball: {} (value {}), controlled by {}",
            st.score[0],
            st.score[1],
            st.clock.half,
            st.turn,
            rs.board.name(st.ball_area),
            st.ball_value,
            team_name(st.ball_owner),
        )?;
        let board = pitch::pitch(rs, &Layout::of(&rs.board), st);
        if board != self.drawn {
            write!(out, "{board}")?;
            writeln!(
                out,
                "(H home pieces, A away pieces, GK goalkeeper, *N the ball and its value)"
            )?;
            self.drawn = board;
        }
        let secret = if d.secret {
            " (secret: the other team will not see it)"
        } else {
            ""
        };
        writeln!(
            out,
            "{} to choose: {}{secret}",
            capitalised(team_name(d.team)),
            d.kind
        )?;
        // What is being decided, in the rules' words (`choose ... prompt "..."`).
        if !d.prompt.is_empty() {
            writeln!(out, "  {}", d.prompt)?;
        }
        // The rules' own rating of each option (their `prefer` score), when they give one.
        let rated = d.hints.len() == d.options.len() && d.hints.iter().any(|h| *h != d.hints[0]);
        let best = d.hints.iter().max().copied().unwrap_or(0);
        for (i, o) in d.options.iter().enumerate() {
            let rating = match d.hints.get(i) {
                Some(h) if rated => {
                    let mark = if *h == best { "  <- rated best" } else { "" };
                    format!("   (rules' rating {h}){mark}")
                }
                _ => String::new(),
            };
            // What the rules say about the option (its `note`), when they say something.
            let note = match d.notes.get(i) {
                Some(n) if !n.is_empty() => format!(" — {n}"),
                _ => String::new(),
            };
            writeln!(out, "  {:>2}. {}{note}{rating}", i + 1, o.label(rs))?;
        }
        Ok(())
    }

    /// The option `answer` names (a number from 1 or a label), if any.
    fn pick(view: &View<'_>, d: &Decision<'_>, answer: &str) -> Option<usize> {
        let n = d.options.len();
        match answer.parse::<usize>() {
            Ok(k) => (1..=n).contains(&k).then(|| k - 1),
            Err(_) => d
                .options
                .iter()
                .position(|o| o.label(view.rules).eq_ignore_ascii_case(answer)),
        }
    }

    fn ask(&mut self, view: &View<'_>, d: &Decision<'_>) -> std::io::Result<Result<usize, String>> {
        let n = d.options.len();
        loop {
            write!(
                self.output,
                "choice [1-{n}; several, comma-separated, for the next `{}` too; auto; back; q to quit]: ",
                d.kind
            )?;
            self.output.flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                writeln!(self.output)?;
                return Ok(Err(format!(
                    "the {} player quit (end of input)",
                    team_name(self.team)
                )));
            }
            let mut answers: VecDeque<String> = line
                .split(',')
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect();
            let Some(answer) = answers.pop_front() else {
                continue;
            };
            if answer.eq_ignore_ascii_case("q") || answer.eq_ignore_ascii_case("quit") {
                return Ok(Err(format!("the {} player quit", team_name(self.team))));
            }
            if answer.eq_ignore_ascii_case("back") || answer.eq_ignore_ascii_case("b") {
                writeln!(
                    self.output,
                    "taken back, if no die was rolled since your last answer: that decision comes again"
                )?;
                self.drawn.clear();
                return Ok(Ok(TAKE_BACK));
            }
            if answer.eq_ignore_ascii_case("auto") {
                let heuristic = HeuristicAgent::new(u64::from(self.team), self.team);
                self.auto = Some((d.kind.to_string(), heuristic));
                return Ok(self.automatic(view, d).unwrap_or(Ok(0)));
            }
            if let Some(i) = Self::pick(view, d, &answer) {
                if !answers.is_empty() {
                    self.ahead = Some((d.kind.to_string(), answers));
                }
                return Ok(Ok(i));
            }
            writeln!(
                self.output,
                "`{answer}` is not an option: type a number from 1 to {n} (or the option's name), auto, back, or q to quit"
            )?;
        }
    }

    /// The heuristic player's answer, while `auto` holds for this decision's kind.
    fn automatic(&mut self, view: &View<'_>, d: &Decision<'_>) -> Option<Result<usize, String>> {
        match &mut self.auto {
            Some((kind, h)) if kind == d.kind => Some(h.choose(view, d)),
            _ => {
                self.auto = None;
                None
            }
        }
    }

    /// The next answer typed ahead, when it is for this decision's kind and legal.
    fn typed_ahead(&mut self, view: &View<'_>, d: &Decision<'_>) -> Option<usize> {
        let (kind, answers) = self.ahead.as_mut()?;
        let pick = if kind == d.kind {
            answers.pop_front().and_then(|a| Self::pick(view, d, &a))
        } else {
            None
        };
        if pick.is_none() || answers.is_empty() {
            self.ahead = None;
        }
        pick
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

impl Agent for HumanAgent {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        if let Some(answer) = self.automatic(view, d) {
            return answer;
        }
        if let Some(i) = self.typed_ahead(view, d) {
            return Ok(i);
        }
        let shown = self.show(view, d);
        let answer = shown.and_then(|()| self.ask(view, d));
        match answer {
            Ok(r) => r,
            Err(e) => Err(format!(
                "the {} player's terminal failed: {e}",
                team_name(self.team)
            )),
        }
    }

    fn name(&self) -> String {
        "human".into()
    }

    /// The rules' preferences, for `auto`.
    fn wants_hints(&self) -> bool {
        true
    }

    /// The rules' words for what is being decided.
    fn wants_prompt(&self) -> bool {
        true
    }

    /// `back`.
    fn may_take_back(&self) -> bool {
        true
    }
}
