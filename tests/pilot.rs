//! Answers given inside the machine (`engine/src/vm/pilot.rs`): agents that take only the
//! options (and their scores) and the dice are lent to the match, which asks them where
//! it would pause. The match must come out the same as when the game asks them at every
//! pause: the same log and counters, the same errors at the same places, and the agents
//! and dice given back.

use fuba_engine::agent::{Agent, Decision, RandomAgent, View};
use fuba_engine::dice::{DiceSource, ScriptedDice, SeededDice};
use fuba_engine::game::Game;
use fuba_engine::ruleset::Ruleset;
use fuba_tests::{Agents, assert_plays_same, edition, every_2024_option};

/// An agent as it is, but asking for the prompt too: the game then asks it at every
/// pause instead of lending it to the match.
struct Asking<'a>(Box<dyn Agent + 'a>);

impl Agent for Asking<'_> {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        self.0.choose(view, d)
    }
    fn name(&self) -> String {
        self.0.name()
    }
    fn wants_hints(&self) -> bool {
        self.0.wants_hints()
    }
    fn wants_prompt(&self) -> bool {
        true
    }
}

/// The game's agents made to ask for prompts (`lent == false`): the path without a pilot.
fn asking(g: &mut Game<'_>, lent: bool) {
    if !lent {
        for a in g.agents.iter_mut() {
            let own = std::mem::replace(a, Box::new(RandomAgent::new(0, 0)));
            *a = Box::new(Asking(own));
        }
    }
}

/// Seeded matches of every edition, and of 2024 with every option, with random and
/// heuristic agents: the log and every counter are the same with the agents and dice lent
/// to the match and asked by the game.
#[test]
fn a_match_with_its_answers_given_inside_the_machine_plays_the_same() {
    let editions: Vec<Ruleset> = ["original", "2015", "2024"]
        .into_iter()
        .map(edition)
        .chain([every_2024_option()])
        .collect();
    for rs in &editions {
        for agents in [Agents::Random, Agents::Heuristic] {
            assert_plays_same(rs, 0..3, agents, true, asking);
        }
    }
}

/// Dice that give out (a scripted list that runs out) or give a number no die shows stop
/// the match with the same error, at the same place, whether the match rolls them itself
/// or the game does; and a game gives its agents back after a match played with them
/// lent.
#[test]
fn dice_that_fail_stop_the_match_the_same_inside_the_machine() {
    for name in ["original", "2024"] {
        let rs = edition(name);
        for dice in [vec![3u8; 40], [vec![3u8; 25], vec![9]].concat()] {
            let run = |lent: bool| {
                let mut g = Game::new(
                    &rs,
                    5,
                    Box::new(ScriptedDice::new(dice.clone())),
                    Box::new(RandomAgent::new(5, 0)),
                    Box::new(RandomAgent::new(5, 1)),
                );
                asking(&mut g, lent);
                let e = g.play().expect_err("the dice fail");
                let names: Vec<String> = g.agents.iter().map(|a| a.name()).collect();
                (e, names)
            };
            let ((inside, names), (outside, _)) = (run(true), run(false));
            assert_eq!(inside.to_string(), outside.to_string(), "{name}, {dice:?}");
            assert!(!inside.place.is_empty(), "{inside:?}");
            assert_eq!(names, ["random", "random"], "the agents are given back");
        }
    }
}

/// A game's dice are given back too: after a match played with them lent, the game
/// rolls them on (a second run of the same game continues the seeded stream).
#[test]
fn a_game_gets_its_dice_back() {
    let rs = edition("original");
    let mut g = Game::new(
        &rs,
        8,
        Box::new(SeededDice::new(8)),
        Box::new(RandomAgent::new(8, 0)),
        Box::new(RandomAgent::new(8, 1)),
    );
    g.play().expect("a match");
    let mut fresh = SeededDice::new(8);
    let rolled = g.m.counters.dice;
    for _ in 0..rolled {
        fresh.roll(6, "").expect("a die");
    }
    assert_eq!(
        g.dice.roll(6, "").expect("the game's dice"),
        fresh.roll(6, "").expect("a die"),
        "the game's dice are the match's, rolled on"
    );
}
