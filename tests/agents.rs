//! The agents: the heuristic bot beats the random agent, and no agent can see the
//! opponent's secret choices (the original edition's penalty guess; the 2024 edition's
//! penalty guess, 5.5.2, and formation cards, 2.1).

use fuba_engine::agent::{Agent, Decision, HeuristicAgent, RandomAgent, View};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Game;
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
        let mut m = Game::new(&rs, seed, Box::new(SeededDice::new(seed)), home, away);
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

/// Plays a penalty kick for home in a fixed position: the goalkeeper guesses `guess`, the
/// kicker kicks left, the kick's die is `die`. Gives the events and every decision the
/// kicker's agent was shown (kind and options).
fn penalty_with_guess(
    rs: &fuba_engine::ruleset::Ruleset,
    guess: &'static str,
    die: u8,
) -> (Vec<fuba_engine::log::Event>, Vec<(String, Vec<String>)>) {
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
    let mut m = Game::new(
        rs,
        1,
        Box::new(fuba_engine::dice::ScriptedDice::new([die])),
        Box::new(kicker),
        Box::new(keeper),
    )
    .with_log();
    // Home attacks the north goal, in control: ten field pieces in its attacking half and
    // the centre, goalkeepers in their boxes; the penalty setup places them again.
    let st = &mut m.m.st;
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
    match m.call_proc(idx, vec![fuba_engine::value::Value::Team(0)]) {
        Ok(()) => {}
        Err(e) => panic!("the penalty did not run: {e:?}"),
    }
    let shown = seen.borrow().clone();
    (m.events().to_vec(), shown)
}

/// The goalkeeper's penalty guess is secret: the kicker's options (and everything the
/// kicker's agent is shown before kicking) are the same whatever the guess, and the
/// narration does not reveal the guess before the kick.
#[test]
fn penalty_guess_is_hidden_from_the_kicker() {
    let rs = edition("original");
    let mut offered = Vec::new();
    for guess in ["guess left", "no guess", "guess right"] {
        let (events, seen) = penalty_with_guess(&rs, guess, 6);
        // The guess is logged as secret and not narrated.
        let secret = events.iter().any(
            |e| matches!(&e.kind, EventKind::Choice { secret: true, team, .. } if team == "away"),
        );
        assert!(secret, "the goalkeeper's guess must be a secret choice");
        offered.push(seen);
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

/// 2024, 5.5.2: the goalkeeper chooses in secret, then the kicker chooses. The kicker's
/// options, and everything its agent is offered up to and including the kick, are the
/// same whatever the guess; the guess is logged as a secret choice of the goalkeeper's
/// team, made before the kick.
#[test]
fn penalty_guess_is_hidden_from_the_kicker_2024() {
    let rs = edition("2024");
    let mut offered = Vec::new();
    for guess in ["guess left", "no guess", "guess right"] {
        // A 1 misses a kick to the left whatever the guess (2 or 6 needed), so the match
        // goes on the same way: a goal kick.
        let (events, seen) = penalty_with_guess(&rs, guess, 1);
        let choices: Vec<(&str, &str, bool)> = events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Choice {
                    team,
                    decision,
                    secret,
                    ..
                } => Some((team.as_str(), decision.as_str(), *secret)),
                _ => None,
            })
            .collect();
        let guess_at = choices
            .iter()
            .position(|c| *c == ("away", "penalty: goalkeeper", true))
            .unwrap_or_else(|| panic!("no secret guess by away: {choices:?}"));
        let kick_at = choices
            .iter()
            .position(|c| c.1 == "penalty: kick")
            .unwrap_or_else(|| panic!("no kick: {choices:?}"));
        assert!(guess_at < kick_at, "the guess must come before the kick");
        assert_eq!(choices[kick_at], ("home", "penalty: kick", false));
        // What the kicker's agent was offered, up to and including the kick.
        let mut asked = seen;
        let upto = asked
            .iter()
            .position(|(k, _)| k == "penalty: kick")
            .unwrap_or_else(|| panic!("the kicker was never asked: {asked:?}"));
        asked.truncate(upto + 1);
        assert_eq!(
            asked[upto].1,
            ["left", "middle", "right"],
            "the kicker's options"
        );
        offered.push(asked);
    }
    assert_eq!(
        offered[0], offered[1],
        "kicker's options differ between guesses"
    );
    assert_eq!(
        offered[1], offered[2],
        "kicker's options differ between guesses"
    );
}

/// Per "formation" decision: the options, and the opponent's formation as shown.
type Shown = std::rc::Rc<std::cell::RefCell<Vec<(Vec<String>, Vec<String>)>>>;

/// Answers "formation" with a label (every other decision with the first option) and
/// records, at each "formation" decision, the options and what the public state shows of
/// the opponent's formation (home's defenders, midfielders, forwards).
struct FormationSpy {
    label: &'static str,
    seen: Shown,
}

impl Agent for FormationSpy {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        let labels: Vec<String> = d.options.iter().map(|o| o.label(view.rules)).collect();
        if d.kind != "formation" {
            return Ok(0);
        }
        let shown = ["defenders", "midfielders", "forwards"]
            .iter()
            .map(|v| {
                let (r, _) = view.rules.var(v).unwrap_or_else(|| panic!("no {v}"));
                format!("{:?}", view.state.vars_team[usize::from(r.idx)][0])
            })
            .collect();
        self.seen.borrow_mut().push((labels.clone(), shown));
        labels
            .iter()
            .position(|l| l == self.label)
            .ok_or_else(|| format!("{} not offered", self.label))
    }
    fn name(&self) -> String {
        "formation spy".into()
    }
}

/// 2024, 2.1: formation cards are chosen in secret and revealed together. Home chooses
/// first; the away team's options and what its agent sees of home's formation when it
/// chooses are the same whatever home chose; both choices are logged as secret; the
/// formations are revealed (the `formations` event) only after both were chosen.
#[test]
fn formations_are_hidden_until_both_are_chosen_2024() {
    let rs = edition("2024");
    let mut offered = Vec::new();
    for formation in ["4-4-2", "3-5-2", "4-2-4"] {
        let seen: Shown = Default::default();
        let home = FormationSpy {
            label: formation,
            seen: Default::default(),
        };
        let away = FormationSpy {
            label: "4-4-2",
            seen: seen.clone(),
        };
        // The kick-off decision: 5 against 3, home chooses.
        let mut m = Game::new(
            &rs,
            1,
            Box::new(fuba_engine::dice::ScriptedDice::new([5, 3])),
            Box::new(home),
            Box::new(away),
        )
        .with_log();
        let idx = rs
            .procedure("match_start")
            .unwrap_or_else(|| panic!("no match_start"));
        if let Err(e) = m.call_proc(idx, Vec::new()) {
            panic!("match_start did not run: {e:?}");
        }
        let mut formations = Vec::new();
        let mut revealed_at = None;
        for (i, e) in m.events().iter().enumerate() {
            match &e.kind {
                EventKind::Choice {
                    team,
                    decision,
                    label,
                    secret,
                    ..
                } if decision == "formation" => {
                    assert!(*secret, "{team}'s formation must be a secret choice");
                    formations.push((i, team.clone(), label.clone()));
                }
                EventKind::Emit { kind, fields } if kind == "formations" => {
                    revealed_at = Some(i);
                    let d = fields.get("home_defenders").and_then(|v| v.as_i64());
                    assert_eq!(d, Some(i64::from(formation.as_bytes()[0] - b'0')));
                }
                _ => {}
            }
        }
        assert_eq!(
            formations
                .iter()
                .map(|f| (f.1.as_str(), f.2.as_str()))
                .collect::<Vec<_>>(),
            [("home", formation), ("away", "4-4-2")],
        );
        let revealed_at = revealed_at.unwrap_or_else(|| panic!("no formations event"));
        assert!(
            formations.iter().all(|f| f.0 < revealed_at),
            "the formations are revealed before both are chosen"
        );
        let asked = seen.borrow().clone();
        assert_eq!(asked.len(), 1, "away asked for a formation once: {asked:?}");
        assert_eq!(asked[0].0.len(), 8, "eight formation cards: {asked:?}");
        offered.push(asked);
    }
    assert_eq!(
        offered[0], offered[1],
        "what away is shown differs between home's formations"
    );
    assert_eq!(
        offered[1], offered[2],
        "what away is shown differs between home's formations"
    );
}

/// Wraps an agent and records every decision it is offered (kind and option labels); the
/// wrapped agent still gets the rules' `prefer` hints it asks for.
struct Recording<A> {
    inner: A,
    seen: Seen,
}

impl<A: Agent> Agent for Recording<A> {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        let labels: Vec<String> = d.options.iter().map(|o| o.label(view.rules)).collect();
        self.seen.borrow_mut().push((d.kind.to_string(), labels));
        self.inner.choose(view, d)
    }
    fn name(&self) -> String {
        self.inner.name()
    }
    fn wants_hints(&self) -> bool {
        self.inner.wants_hints()
    }
}

/// Scripted dice first, then seeded ones (what follows the shot does not matter here).
struct ThenSeeded {
    script: fuba_engine::dice::ScriptedDice,
    rest: SeededDice,
}

impl fuba_engine::dice::DiceSource for ThenSeeded {
    fn roll(&mut self, sides: u8, label: &str) -> Result<u8, String> {
        if self.script.list.is_empty() {
            self.rest.roll(sides, label)
        } else {
            self.script.roll(sides, label)
        }
    }
}

/// The 2024 edition with condition points and six skills (A1, A12).
fn edition_2024_skills() -> fuba_engine::ruleset::Ruleset {
    fuba_tests::edition_with_options("2024", &[("condition", "on"), ("skills", "6")])
}

/// Home, controlling, has the ball (value 2) in the away penalty area (N_BOX) with
/// Clinical finisher in play and the given attack and midfield condition points; both
/// teams are heuristic bots. The goal attempt (4.8) is called (the bot shoots: it needs a
/// 4, 18 chances in 36, which it prefers to not shooting), its first die a 3.
/// Returns the decisions home was offered and the logged events.
fn heuristic_shot_from_the_box(
    rs: &fuba_engine::ruleset::Ruleset,
    cp_attack: i64,
    cp_midfield: i64,
) -> (Vec<(String, Vec<String>)>, Vec<fuba_engine::log::Event>) {
    let seen: Seen = Default::default();
    let home = Recording {
        inner: HeuristicAgent::new(7, 0),
        seen: seen.clone(),
    };
    let dice = ThenSeeded {
        script: fuba_engine::dice::ScriptedDice::new([3]),
        rest: SeededDice::new(7),
    };
    let mut m = Game::new(
        rs,
        7,
        Box::new(dice),
        Box::new(home),
        Box::new(HeuristicAgent::new(7, 1)),
    )
    .with_log();
    let st = &mut m.m.st;
    let area = |n: &str| rs.board.find(n).unwrap_or_else(|| panic!("no area {n}"));
    // As tests/scenarios/2024-advanced/clinical_finisher.toml after its pass: home has
    // one player in the box and three in front of it, away its goalkeeper and one player
    // in the box (penalty area: defenders have more, -1).
    st.put(0, 0, area("S_BOX"));
    st.put(1, 0, area("N_BOX"));
    for i in 1..11 {
        let h = match i {
            1 => "N_BOX",
            2..=4 => "N_FRONT",
            _ => "CENTRE",
        };
        let a = match i {
            1 => "N_BOX",
            2..=6 => "CENTRE",
            _ => "S_FRONT",
        };
        st.put(0, i, area(h));
        st.put(1, i, area(a));
    }
    st.ball_owner = 0;
    st.phasing = 0;
    st.ball_area = area("N_BOX");
    st.ball_value = 2;
    st.clock.minute = 30;
    for (name, v) in [
        ("skill_1", 1),
        ("cp_attack", cp_attack),
        ("cp_midfield", cp_midfield),
        ("cp_defence", 0),
    ] {
        let (r, _) = rs.var(name).unwrap_or_else(|| panic!("no variable {name}"));
        st.vars_team[usize::from(r.idx)][0] = fuba_engine::value::Value::Int(v);
    }
    let idx = rs
        .procedure("goal_attempt")
        .unwrap_or_else(|| panic!("no goal_attempt"));
    match m.call_proc(idx, Vec::new()) {
        Ok(()) => {}
        Err(e) => panic!("the goal attempt did not run: {e:?}"),
    }
    let offered = seen.borrow().clone();
    (offered, m.events().to_vec())
}

/// The fields of the first `kind` event.
fn first_emit<'e>(
    events: &'e [fuba_engine::log::Event],
    kind: &str,
) -> Option<&'e serde_json::Map<String, serde_json::Value>> {
    events.iter().find_map(|e| match &e.kind {
        EventKind::Emit { kind: k, fields } if k == kind => Some(fields),
        _ => None,
    })
}

/// Issue 6, A12: the heuristic bot shoots from the penalty area and plays Clinical
/// finisher when its team has a forwards' (attack zone) condition point: the skill is
/// logged, one attack point is spent, and the shot's modifier is 0 (box -1, skill +1), so
/// the 3 scores (3 + 0 > 2).
#[test]
fn heuristic_plays_clinical_finisher_from_the_box_2024() {
    let rs = edition_2024_skills();
    let (offered, events) = heuristic_shot_from_the_box(&rs, 2, 3);
    assert!(
        offered
            .iter()
            .any(|(k, o)| k == "Clinical finisher" && o == &["play", "keep"]),
        "Clinical finisher was not offered: {offered:?}"
    );
    let picked = events.iter().find_map(|e| match &e.kind {
        EventKind::Choice {
            team,
            decision,
            label,
            ..
        } if decision == "Clinical finisher" => Some((team.as_str(), label.as_str())),
        _ => None,
    });
    assert_eq!(picked, Some(("home", "play")));
    let skill = first_emit(&events, "skill").unwrap_or_else(|| panic!("no skill event"));
    assert_eq!(
        skill.get("skill").and_then(|v| v.as_str()),
        Some("Clinical finisher")
    );
    let spent = first_emit(&events, "condition spent")
        .unwrap_or_else(|| panic!("no condition spent event"));
    assert_eq!(spent.get("zone").and_then(|v| v.as_str()), Some("attack"));
    assert_eq!(spent.get("points").and_then(|v| v.as_i64()), Some(1));
    let shot = first_emit(&events, "shot").unwrap_or_else(|| panic!("no shot"));
    assert_eq!(shot.get("modifier").and_then(|v| v.as_i64()), Some(0));
    let goal = events.iter().find_map(|e| match &e.kind {
        EventKind::Goal { team, score } => Some((team.as_str(), *score)),
        _ => None,
    });
    assert_eq!(
        goal,
        Some(("home", [1, 0])),
        "the 3 should score with the skill"
    );
}

/// Issue 6, A12 and A1.2: with no point left in its attack zone and a single midfield
/// point (an adjacent zone pays two), the team cannot pay Clinical finisher: the bot is
/// not offered it, no skill is played, no point is spent, and the shot's modifier stays -1
/// (3 - 1 equals the ball value 2: saved for a corner).
#[test]
fn heuristic_declines_clinical_finisher_without_attack_points_2024() {
    let rs = edition_2024_skills();
    let (offered, events) = heuristic_shot_from_the_box(&rs, 0, 1);
    assert!(
        offered.iter().any(|(k, _)| k == "goal attempt"),
        "the bot was not asked to shoot: {offered:?}"
    );
    assert!(
        !offered.iter().any(|(k, _)| k == "Clinical finisher"),
        "Clinical finisher was offered without points: {offered:?}"
    );
    assert!(first_emit(&events, "skill").is_none(), "a skill was played");
    assert!(
        first_emit(&events, "condition spent").is_none(),
        "a condition point was spent"
    );
    let shot = first_emit(&events, "shot").unwrap_or_else(|| panic!("no shot"));
    assert_eq!(shot.get("modifier").and_then(|v| v.as_i64()), Some(-1));
    assert!(first_emit(&events, "saved for a corner").is_some());
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Goal { .. })),
        "no goal without the skill"
    );
}

/// Answers the first `good` decisions with the first option, then `answer` (an index
/// out of range, or an error); asks for scores and prompts or not.
struct Fails {
    good: usize,
    answer: Result<usize, String>,
    asks: bool,
}

impl Agent for Fails {
    fn choose(&mut self, _: &View<'_>, _: &Decision<'_>) -> Result<usize, String> {
        if self.good == 0 {
            return self.answer.clone();
        }
        self.good -= 1;
        Ok(0)
    }
    fn name(&self) -> String {
        "fails".into()
    }
    fn wants_hints(&self) -> bool {
        self.asks
    }
    fn wants_prompt(&self) -> bool {
        self.asks
    }
}

/// An agent that answers with an error or an option that is not there stops the match
/// at that decision, with the same error whether it is given only the options (the
/// batch's path) or their scores and prompt too.
#[test]
fn a_failing_answer_stops_the_match_the_same_whatever_the_agent_asks_for() {
    for name in ["original", "2024"] {
        let rs = edition(name);
        for answer in [Err("no idea".to_string()), Ok(999)] {
            let run = |asks: bool| {
                let agent = |good| {
                    Box::new(Fails {
                        good,
                        answer: answer.clone(),
                        asks,
                    })
                };
                let mut g = Game::new(&rs, 3, Box::new(SeededDice::new(3)), agent(7), agent(40));
                g.play().expect_err("the agent fails")
            };
            let (plain, asking) = (run(false), run(true));
            assert_eq!(plain.to_string(), asking.to_string(), "{name}, {answer:?}");
            let want = match &answer {
                Err(msg) => msg.clone(),
                Ok(i) => format!("agent picked option {i} of"),
            };
            assert!(plain.message.contains(&want), "{name}: {}", plain.message);
            assert!(
                !plain.rule.is_empty() && !plain.place.is_empty(),
                "{plain:?}"
            );
        }
    }
}
