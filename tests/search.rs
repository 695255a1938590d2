//! The search agent (engine/src/search/): it plays every edition, it is deterministic for a
//! seed and a budget, it does not peek at the other team's secret choices, and — in a
//! release build with `FUBA_FULL_COVERAGE=1`, as `.ci/run` plays it — search beats the
//! heuristic agent and the heuristic agent beats random play in every edition, each with a
//! 99% interval on the goal difference above zero.

use std::sync::Arc;

use fuba_engine::agent::{Agent, Decision, HeuristicAgent, RandomAgent, View};
use fuba_engine::dice::{DiceSource, SeededDice};
use fuba_engine::game::Game;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::search::{Budget, MctsAgent, MctsConfig, PositionValues, Rollout};
use fuba_engine::value::Team;
use fuba_engine::vm::Status;
use fuba_tests::{edition, every_2024_option};

/// The search agent with its default settings and this budget.
fn mcts(values: &Arc<PositionValues>, passes: u32, seed: u64, team: Team) -> MctsAgent {
    mcts_with(values, passes, Rollout::Heuristic, seed, team)
}

/// The search agent with these rollouts and budget.
fn mcts_with(
    values: &Arc<PositionValues>,
    passes: u32,
    rollout: Rollout,
    seed: u64,
    team: Team,
) -> MctsAgent {
    let cfg = MctsConfig {
        budget: Budget::Passes(passes),
        rollout,
        ..MctsConfig::default()
    };
    MctsAgent::new(cfg, values.clone(), seed, team)
}

#[test]
fn search_is_deterministic_for_a_seed_and_a_budget() {
    let rs = edition("original");
    let values = Arc::new(PositionValues::learn(&rs, 2, 3));
    let play = || {
        let mut g = Game::new(
            &rs,
            11,
            Box::new(SeededDice::new(11)),
            Box::new(mcts(&values, 6, 11, 0)),
            Box::new(HeuristicAgent::new(11, 1)),
        )
        .with_log();
        let o = g.play().expect("the match plays");
        (o.score, g.events().to_vec())
    };
    let (a, b) = (play(), play());
    assert_eq!(a.0, b.0);
    assert!(a.1 == b.1, "the two logs differ");
    assert!(a.1.len() > 1000, "a whole match was played");
}

#[test]
fn search_plays_every_edition_and_option() {
    for (name, rs) in [
        ("2015", edition("2015")),
        ("2024", edition("2024")),
        ("2024 with every option", every_2024_option()),
    ] {
        let values = Arc::new(PositionValues::learn(&rs, 1, 3));
        let mut g = Game::new(
            &rs,
            3,
            Box::new(SeededDice::new(3)),
            Box::new(RandomAgent::new(3, 0)),
            Box::new(mcts(&values, 3, 3, 1)),
        );
        let o = g.play().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(o.turns.iter().sum::<u32>() > 10, "{name}: {o:?}");
    }
}

/// Takes option `pick` at every secret decision, the first option elsewhere.
struct Picks {
    pick: usize,
}

impl Agent for Picks {
    fn choose(&mut self, _: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        Ok(if d.secret {
            self.pick.min(d.options.len() - 1)
        } else {
            0
        })
    }
    fn name(&self) -> String {
        "picks".into()
    }
}

/// At its first decision with more than one world, plays every world on with the same
/// answers and dice and records what each shows (its state after the other team's secret
/// is revealed), then stops the match.
struct Probe {
    seen: std::rc::Rc<std::cell::RefCell<Option<Vec<String>>>>,
}

impl Agent for Probe {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        self.look(view);
        Ok(d.options.len() - 1)
    }
    fn name(&self) -> String {
        "probe".into()
    }
    fn wants_worlds(&self) -> bool {
        true
    }
}

impl Probe {
    fn look(&self, view: &View<'_>) {
        let Some(s) = view.search else { return };
        if s.worlds.len() < 2 || self.seen.borrow().is_some() {
            return;
        }
        let mut shown: Vec<String> = s
            .worlds
            .iter()
            .map(|w| {
                let mut m = (*w).clone();
                let mut dice = SeededDice::new(5);
                let mut status = Status::Decision;
                for _ in 0..200 {
                    match status {
                        Status::Decision => {
                            if m.choose(0).is_err() {
                                break;
                            }
                        }
                        Status::Chance => {
                            let c = m.chance().expect("a roll");
                            let d: Vec<u8> = (0..c.count)
                                .map(|_| dice.roll(c.sides, "").expect("dice"))
                                .collect();
                            if m.roll(&d).is_err() {
                                break;
                            }
                        }
                        Status::Boundary => {}
                        Status::End => break,
                    }
                    match m.advance() {
                        Ok(s) => status = s,
                        Err(_) => break,
                    }
                }
                format!("{:?}", m.st)
            })
            .collect();
        shown.sort();
        *self.seen.borrow_mut() = Some(shown);
    }
}

/// The worlds a searching team is given after the other team's secret formation are the
/// same whatever formation was actually chosen: the search cannot tell which is true.
#[test]
fn search_cannot_tell_the_other_teams_secret_formation() {
    for name in ["original", "2015", "2024"] {
        let rs = edition(name);
        let worlds_when = |pick: usize| {
            let seen = std::rc::Rc::new(std::cell::RefCell::new(None));
            let probe = Probe { seen: seen.clone() };
            let mut g = Game::new(
                &rs,
                1,
                Box::new(SeededDice::new(1)),
                Box::new(Picks { pick }),
                Box::new(probe),
            );
            let _ = g.run(&mut |_, _| Ok(()));
            let shown = seen.borrow().clone();
            shown.unwrap_or_else(|| panic!("{name}: the probe never saw more than one world"))
        };
        let (a, b) = (worlds_when(0), worlds_when(2));
        assert!(a.len() >= 3, "{name}: {} worlds", a.len());
        assert_eq!(a, b, "{name}: the worlds depend on the secret choice");
    }
}

/// `f` of every seed, in order, the seeds split between two threads.
fn on_two_threads<T: Send>(seeds: &[u64], f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = seeds
            .chunks(seeds.len().div_ceil(2))
            .map(|chunk| s.spawn(move || chunk.iter().map(|&seed| f(seed)).collect::<Vec<T>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a thread"))
            .collect()
    })
}

/// Goal difference of `a` against `b` over `seeds` (a plays home on odd seeds, away on
/// even ones): the mean and the half-width of its 99% interval.
fn duel(
    rs: &Ruleset,
    seeds: std::ops::Range<u64>,
    a: &(dyn Fn(u64, Team) -> Box<dyn Agent> + Sync),
    b: &(dyn Fn(u64, Team) -> Box<dyn Agent> + Sync),
) -> (f64, f64) {
    let seeds: Vec<u64> = seeds.collect();
    let diffs = on_two_threads(&seeds, |seed| {
        let a_home = seed % 2 == 1;
        let (h, w) = if a_home {
            (a(seed, 0), b(seed, 1))
        } else {
            (b(seed, 0), a(seed, 1))
        };
        let mut g = Game::new(rs, seed, Box::new(SeededDice::new(seed)), h, w);
        let o = g.play().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let d = (o.score[0] - o.score[1]) as f64;
        if a_home { d } else { -d }
    });
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    // Student's t, 99% two-sided, for the degrees of freedom used here (30 to 60 matches).
    let t = if n >= 60.0 { 2.66 } else { 2.75 };
    (mean, t * (var / n).sqrt())
}

/// In every edition (2024 also with every advanced rule on), search at a small budget
/// beats the heuristic agent, and the heuristic agent beats random play, each with a 99%
/// interval on the goal difference above zero. About four minutes on two cores in a release
/// build; `.ci/run` plays it with `FUBA_FULL_COVERAGE=1`.
#[test]
fn search_beats_heuristic_beats_random_in_every_edition() {
    if std::env::var_os("FUBA_FULL_COVERAGE").is_none() {
        eprintln!("set FUBA_FULL_COVERAGE=1 (in a release build) to play the strength duels");
        return;
    }
    let heuristic = |seed, team| Box::new(HeuristicAgent::new(seed, team)) as Box<dyn Agent>;
    let random = |seed, team| Box::new(RandomAgent::new(seed, team)) as Box<dyn Agent>;
    for (name, rs, passes, matches) in [
        ("original", edition("original"), 100, 30),
        ("2015", edition("2015"), 100, 30),
        ("2024", edition("2024"), 100, 40),
        ("2024 with every option", every_2024_option(), 100, 80),
    ] {
        // To play one ruleset's duels only: FUBA_STRENGTH_ONLY="2015".
        if std::env::var("FUBA_STRENGTH_ONLY").is_ok_and(|only| only != name) {
            continue;
        }
        let values = PositionValues::for_ruleset(&rs);
        let search = |seed, team| Box::new(mcts(&values, passes, seed, team)) as Box<dyn Agent>;
        let (d, half) = duel(&rs, 1..1 + matches, &search, &heuristic);
        eprintln!("{name}: mcts:{passes} vs heuristic {d:+.2} ± {half:.2}");
        assert!(
            d - half > 0.0,
            "{name}: mcts:{passes} vs heuristic {d:+.2} ± {half:.2}"
        );
        let (d, half) = duel(&rs, 1..31, &heuristic, &random);
        eprintln!("{name}: heuristic vs random {d:+.2} ± {half:.2}");
        assert!(
            d - half > 0.0,
            "{name}: heuristic vs random {d:+.2} ± {half:.2}"
        );
    }
}

/// What a batch of matches shows about how the agents play: at goal attempts with the
/// ball outside the defending team's penalty area, how often the team shoots; and passes
/// over at least one area between start and target, per match.
#[derive(Debug, Default)]
struct Play {
    long_range_attempts: u64,
    long_range_shots: u64,
    /// Each figure of the ruleset per match, as `fuba compare` counts it.
    figures: std::collections::BTreeMap<String, Vec<f64>>,
}

impl Play {
    fn shot_share(&self) -> f64 {
        self.long_range_shots as f64 / self.long_range_attempts.max(1) as f64
    }
    fn figure(&self, name: &str) -> &[f64] {
        self.figures
            .get(name)
            .unwrap_or_else(|| panic!("no figure {name}"))
    }
    fn mean(&self, name: &str) -> f64 {
        let x = self.figure(name);
        x.iter().sum::<f64>() / x.len() as f64
    }
}

/// Records, at every "goal attempt" decision, whether the ball is outside the defending
/// team's penalty area and whether the inner agent shoots.
struct ShotWatch<A> {
    inner: A,
    seen: Vec<(bool, bool)>,
}

impl<A: Agent> Agent for ShotWatch<A> {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        let i = self.inner.choose(view, d)?;
        if d.kind == "goal attempt" {
            let area = view.rules.board.name(view.state.ball_area);
            let shoot = d.options[i].label(view.rules) == "shoot";
            self.seen.push((!area.contains("BOX"), shoot));
        }
        Ok(i)
    }
    fn name(&self) -> String {
        self.inner.name()
    }
    fn wants_hints(&self) -> bool {
        self.inner.wants_hints()
    }
    fn wants_worlds(&self) -> bool {
        self.inner.wants_worlds()
    }
}

/// Plays `seeds` with `agent` on both sides (two threads) and gathers [`Play`].
fn watch_play<A: Agent + 'static>(
    rs: &Ruleset,
    agent: &(dyn Fn(u64, Team) -> A + Sync),
    seeds: std::ops::Range<u64>,
) -> Play {
    let seeds: Vec<u64> = seeds.collect();
    let per_match = on_two_threads(&seeds, |seed| play_watched(rs, agent, seed));
    let mut play = Play::default();
    for (seen, figures) in per_match {
        for (outside, shoot) in seen {
            if outside {
                play.long_range_attempts += 1;
                play.long_range_shots += u64::from(shoot);
            }
        }
        for (name, n) in figures {
            play.figures.entry(name).or_default().push(f64::from(n));
        }
    }
    play
}

/// Each figure of a ruleset and its count in one match.
type Counted = Vec<(String, u32)>;

fn play_watched<A: Agent + 'static>(
    rs: &Ruleset,
    agent: &(dyn Fn(u64, Team) -> A + Sync),
    seed: u64,
) -> (Vec<(bool, bool)>, Counted) {
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    struct Shared<A> {
        watch: ShotWatch<A>,
        out: std::rc::Rc<std::cell::RefCell<Vec<(bool, bool)>>>,
    }
    impl<A: Agent> Agent for Shared<A> {
        fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
            let i = self.watch.choose(view, d)?;
            self.out.borrow_mut().append(&mut self.watch.seen);
            Ok(i)
        }
        fn name(&self) -> String {
            self.watch.name()
        }
        fn wants_hints(&self) -> bool {
            self.watch.wants_hints()
        }
        fn wants_worlds(&self) -> bool {
            self.watch.wants_worlds()
        }
    }
    let side = |team| {
        Box::new(Shared {
            watch: ShotWatch {
                inner: agent(seed, team),
                seen: Vec::new(),
            },
            out: seen.clone(),
        }) as Box<dyn Agent>
    };
    let mut g = Game::new(rs, seed, Box::new(SeededDice::new(seed)), side(0), side(1));
    g.play().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    // The ruleset's figures, as `fuba simulate` and `fuba compare` count them.
    let figures = rs.figures.iter().enumerate();
    let counted = figures
        .map(|(i, f)| (f.name.clone(), f.count(i, &g.m.counters)))
        .collect();
    let out = seen.borrow().clone();
    (out, counted)
}

/// z of a difference of two shares (pooled).
fn share_z(k1: u64, n1: u64, k2: u64, n2: u64) -> f64 {
    let (p1, p2) = (k1 as f64 / n1 as f64, k2 as f64 / n2 as f64);
    let p = (k1 + k2) as f64 / (n1 + n2) as f64;
    (p2 - p1) / (p * (1.0 - p) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt()
}

/// z of a difference of two means (Welch).
fn mean_z(a: &[f64], b: &[f64]) -> f64 {
    let m = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
    let v = |x: &[f64]| {
        let mx = m(x);
        x.iter().map(|y| (y - mx).powi(2)).sum::<f64>() / (x.len() as f64 - 1.0)
    };
    (m(b) - m(a)) / (v(a) / a.len() as f64 + v(b) / b.len() as f64).sqrt()
}

/// Two house rules that change incentives shift the search agent's play, each with a 99%
/// test: where a goal from outside the penalty area counts two, search shoots more often
/// from there — while the heuristic agent, whose `prefer` scores rate a shot by its chance
/// and not by what the goal is worth, decides exactly as before; where a long pass costs
/// -1 per area between instead of -2, search plays more long passes. About two minutes on
/// two cores in a release build (`FUBA_FULL_COVERAGE=1`, as `.ci/run` plays it).
#[test]
fn search_adapts_to_house_rules_that_change_incentives() {
    if std::env::var_os("FUBA_FULL_COVERAGE").is_none() {
        eprintln!("set FUBA_FULL_COVERAGE=1 (in a release build) to play the adaptation matches");
        return;
    }
    let example = |file: &str| {
        let path = fuba_tests::root().join(format!("rulesets/examples/{file}.toml"));
        fuba_engine::load::load_file(&path).unwrap_or_else(|e| panic!("{e}"))
    };
    let long_range = example("long-range-goals-count-two");
    let gentle = example("gentle-long-pass");
    // The edition counts the figures the house rules declare, as `fuba compare` has it.
    let mut base = edition("original");
    for house in [&long_range, &gentle] {
        base.adopt_figures(house).unwrap_or_else(|e| panic!("{e}"));
    }
    let searched = |rs: &Ruleset, seeds: std::ops::Range<u64>| {
        let values = PositionValues::for_ruleset(rs);
        watch_play(
            rs,
            &|seed, team| mcts_with(&values, 100, Rollout::Random, seed, team),
            seeds,
        )
    };
    let heuristic = |rs: &Ruleset| watch_play(rs, &HeuristicAgent::new, 1..61);

    let (b, l) = (searched(&base, 1..61), searched(&long_range, 1..61));
    let z = share_z(
        b.long_range_shots,
        b.long_range_attempts,
        l.long_range_shots,
        l.long_range_attempts,
    );
    eprintln!(
        "search shoots from outside the box at {:.3} of goal attempts there, {:.3} when such a goal counts two (z {z:.2})",
        b.shot_share(),
        l.shot_share()
    );
    assert!(z > 2.576, "search did not shoot more from range: z {z:.2}");
    // The same shift in the figure the house rule declares, per match.
    let z = mean_z(b.figure("long_range_shots"), l.figure("long_range_shots"));
    eprintln!(
        "search shoots {:.2} times per match from outside the box, {:.2} when such a goal counts two (z {z:.2})",
        b.mean("long_range_shots"),
        l.mean("long_range_shots")
    );
    assert!(
        z > 2.576,
        "long-range shots per match did not rise: z {z:.2}"
    );
    let (hb, hl) = (heuristic(&base), heuristic(&long_range));
    eprintln!(
        "heuristic: {:.3} and {:.3}",
        hb.shot_share(),
        hl.shot_share()
    );
    assert_eq!(
        (hb.long_range_shots, hb.long_range_attempts),
        (hl.long_range_shots, hl.long_range_attempts),
        "the heuristic agent's shooting changed under a rule its scores do not read"
    );

    let g = searched(&gentle, 1..61);
    let z = mean_z(b.figure("long_passes"), g.figure("long_passes"));
    eprintln!(
        "search plays {:.2} long passes per match, {:.2} with the gentler long pass (z {z:.2})",
        b.mean("long_passes"),
        g.mean("long_passes")
    );
    assert!(z > 2.576, "search did not play more long passes: z {z:.2}");
}
