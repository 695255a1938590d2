//! The agents: the heuristic bot beats the random agent, and no agent can see the
//! opponent's secret choices.

use fuba_engine::agent::{Agent, Decision, HeuristicAgent, RandomAgent, View};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Match;
use fuba_engine::log::EventKind;
use fuba_tests::edition;

/// Over 1,000 seeded matches, sides alternating, the heuristic bot's mean goal difference
/// against the random agent is positive, with a 99% confidence interval above zero.
#[test]
fn heuristic_beats_random_over_1000_matches() {
    let rs = edition("original");
    let n = 1000u64;
    let mut diffs = Vec::with_capacity(n as usize);
    for seed in 0..n {
        let heuristic_home = seed % 2 == 0;
        let (home, away): (Box<dyn Agent>, Box<dyn Agent>) = if heuristic_home {
            (
                Box::new(HeuristicAgent::new(seed, 0)),
                Box::new(RandomAgent::new(seed, 1)),
            )
        } else {
            (
                Box::new(RandomAgent::new(seed, 0)),
                Box::new(HeuristicAgent::new(seed, 1)),
            )
        };
        let mut m = Match::new(&rs, seed, Box::new(SeededDice::new(seed)), home, away);
        let o = m.play().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let d = (o.score[0] - o.score[1]) as f64;
        diffs.push(if heuristic_home { d } else { -d });
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half_width = 2.576 * (var / n as f64).sqrt();
    assert!(
        mean - half_width > 0.0,
        "heuristic - random goal difference {mean:.3} ± {half_width:.3} (99%) is not significantly positive"
    );
}

type Seen = std::rc::Rc<std::cell::RefCell<Vec<(String, Vec<String>)>>>;

/// Answers one decision kind with a label and every other with the first option, and
/// records everything it is offered.
struct Spy {
    kind: &'static str,
    label: &'static str,
    seen: Seen,
}

impl Agent for Spy {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        let labels: Vec<String> = d.options.iter().map(|o| o.label(view.rules)).collect();
        self.seen
            .borrow_mut()
            .push((d.kind.to_string(), labels.clone()));
        if d.kind == self.kind {
            return labels
                .iter()
                .position(|l| l == self.label)
                .ok_or_else(|| format!("{} not offered", self.label));
        }
        Ok(0)
    }
    fn name(&self) -> String {
        "spy".into()
    }
}

/// The goalkeeper's penalty guess is secret: the kicker's options (and everything the
/// kicker's agent is shown before kicking) are the same whatever the guess, and the
/// narration does not reveal the guess before the kick.
#[test]
fn penalty_guess_is_hidden_from_the_kicker() {
    let rs = edition("original");
    let mut offered = Vec::new();
    for guess in ["guess left", "no guess", "guess right"] {
        let seen: Seen = Default::default();
        let kicker = Spy {
            kind: "penalty: kick",
            label: "left",
            seen: seen.clone(),
        };
        let keeper = Spy {
            kind: "penalty: goalkeeper",
            label: guess,
            seen: Default::default(),
        };
        let mut m = Match::new(
            &rs,
            1,
            Box::new(fuba_engine::dice::ScriptedDice::new([6])),
            Box::new(kicker),
            Box::new(keeper),
        )
        .with_log();
        // Home attacks the north goal: ten field pieces spread over its half and the
        // centre, goalkeepers in their boxes; the penalty setup places them again.
        let st = &mut m.interp.st;
        let area = |n: &str| rs.board.find(n).unwrap_or_else(|| panic!("no area {n}"));
        st.put(0, 0, area("S_BOX"));
        st.put(1, 0, area("N_BOX"));
        for i in 1..11 {
            st.put(0, i, area(if i % 2 == 0 { "CENTRE" } else { "N_FRONT" }));
            st.put(1, i, area(if i % 2 == 0 { "CENTRE" } else { "S_FRONT" }));
        }
        st.ball_owner = 0;
        st.ball_area = area("N_BOX");
        let idx = rs
            .procedure("penalty_kick")
            .unwrap_or_else(|| panic!("no penalty_kick"));
        match m.interp.call_proc(
            idx,
            vec![fuba_engine::value::Value::Team(0)],
            Default::default(),
        ) {
            Ok(_) | Err(fuba_engine::interp::Flow::EndTurn) => {}
            Err(e) => panic!("the penalty did not run: {e:?}"),
        }
        // The guess is logged as secret and not narrated.
        let secret = m.events().iter().any(
            |e| matches!(&e.kind, EventKind::Choice { secret: true, team, .. } if team == "away"),
        );
        assert!(secret, "the goalkeeper's guess must be a secret choice");
        offered.push(seen.borrow().clone());
    }
    assert_eq!(
        offered[0], offered[1],
        "kicker's options differ between guesses"
    );
    assert_eq!(
        offered[1], offered[2],
        "kicker's options differ between guesses"
    );
    assert!(
        offered[0].iter().any(|(k, _)| k == "penalty: kick"),
        "the kicker was never asked: {offered:?}"
    );
}
