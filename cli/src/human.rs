//! A human at the terminal deciding for one team.
//!
//! For each decision it shows (on stderr, or any writer) a compact view of the board and
//! the numbered options, then reads a number (or an option's label) from stdin. It shows
//! only what the engine gives an agent: the public state and the decision, so the other
//! team's secret choices cannot leak through it.

use std::io::{BufRead, Write};

use fuba_engine::agent::{Agent, Decision, View};
use fuba_engine::log::team_name;
use fuba_engine::value::Team;

/// A human player: reads choices from `input`, prompts on `output`.
pub struct HumanAgent {
    team: Team,
    input: Box<dyn BufRead>,
    output: Box<dyn Write>,
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
        let width = rs
            .board
            .areas
            .iter()
            .map(|a| a.name.len())
            .max()
            .unwrap_or(4);
        writeln!(out, "   {:width$}  home away", "area")?;
        for (i, area) in rs.board.areas.iter().enumerate() {
            let home = st.pieces[0].count.get(i).copied().unwrap_or(0);
            let away = st.pieces[1].count.get(i).copied().unwrap_or(0);
            let ball = if i == usize::from(st.ball_area) {
                format!("  <- ball ({})", st.ball_value)
            } else {
                String::new()
            };
            let mark = if ball.is_empty() { ' ' } else { '*' };
            writeln!(
                out,
                " {mark} {:width$}  {home:>4} {away:>4}{ball}",
                area.name
            )?;
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
        for (i, o) in d.options.iter().enumerate() {
            writeln!(out, "  {:>2}. {}", i + 1, o.label(rs))?;
        }
        Ok(())
    }

    fn ask(&mut self, view: &View<'_>, d: &Decision<'_>) -> std::io::Result<Result<usize, String>> {
        let n = d.options.len();
        loop {
            write!(self.output, "choice [1-{n}, q to quit]: ")?;
            self.output.flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                writeln!(self.output)?;
                return Ok(Err(format!(
                    "the {} player quit (end of input)",
                    team_name(self.team)
                )));
            }
            let answer = line.trim();
            if answer.eq_ignore_ascii_case("q") || answer.eq_ignore_ascii_case("quit") {
                return Ok(Err(format!("the {} player quit", team_name(self.team))));
            }
            if let Ok(k) = answer.parse::<usize>() {
                if (1..=n).contains(&k) {
                    return Ok(Ok(k - 1));
                }
            } else if let Some(i) = d
                .options
                .iter()
                .position(|o| o.label(view.rules).eq_ignore_ascii_case(answer))
            {
                return Ok(Ok(i));
            }
            writeln!(
                self.output,
                "`{answer}` is not an option: type a number from 1 to {n} (or the option's name), or q to quit"
            )?;
        }
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
}
