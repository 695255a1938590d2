//! Decision prompts (`choose ... prompt "text {value}"`) and notes on options (`note x =>
//! "..."`): worked out only for an agent that
//! asks for them, and never part of the match: a match whose agents read every prompt plays
//! and logs exactly as one whose agents do not.

use std::sync::{Arc, Mutex};

use fuba_engine::agent::{Agent, Decision, HeuristicAgent, View};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Game;
use fuba_tests::{Agents, edition, play};

/// What a reader saw at a decision: its kind, its prompt, its options' notes.
type Seen = (String, String, Vec<String>);

/// The heuristic player that also reads every prompt, keeping them.
struct Reader {
    inner: HeuristicAgent,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Agent for Reader {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        if let Ok(mut s) = self.seen.lock() {
            assert!(
                d.notes.is_empty() || d.notes.len() == d.options.len(),
                "one note per option"
            );
            s.push((d.kind.to_string(), d.prompt.to_string(), d.notes.to_vec()));
        }
        self.inner.choose(view, d)
    }
    fn name(&self) -> String {
        self.inner.name()
    }
    fn wants_hints(&self) -> bool {
        true
    }
    fn wants_prompt(&self) -> bool {
        true
    }
}

#[test]
fn reading_prompts_changes_no_event_and_every_edition_prompts_setup_and_target() {
    for name in ["original", "2015", "2024"] {
        let rs = edition(name);
        for seed in [1, 2] {
            let (_, plain) = play(&rs, seed, Agents::Heuristic);
            let seen = Arc::new(Mutex::new(Vec::new()));
            let reader = |team| {
                Box::new(Reader {
                    inner: HeuristicAgent::new(seed, team),
                    seen: seen.clone(),
                })
            };
            let mut m = Game::new(
                &rs,
                seed,
                Box::new(SeededDice::new(seed)),
                reader(0),
                reader(1),
            )
            .with_log();
            m.play()
                .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
            assert!(
                m.events() == plain.as_slice(),
                "{name} seed {seed}: reading prompts changed the match"
            );
            let seen = seen.lock().expect("the prompts").clone();
            for kind in ["setup", "target area"] {
                let p = seen
                    .iter()
                    .find(|(k, ..)| k == kind)
                    .map(|(_, p, _)| p.as_str())
                    .unwrap_or_default();
                assert!(
                    p.starts_with("Home: ") || p.starts_with("Away: "),
                    "{name} seed {seed}: the `{kind}` prompt is {p:?}"
                );
                assert!(!p.contains('{'), "{name}: a value left unfilled: {p:?}");
            }
            assert!(
                !seen.iter().any(|(_, p, n)| {
                    p.contains("could not be worked out")
                        || n.iter().any(|x| x.contains("could not be worked out"))
                }),
                "{name} seed {seed}: {seen:?}"
            );
            // Each option of the target area carries a note (`note a => "..."`).
            let notes = seen
                .iter()
                .find(|(k, _, n)| k == "target area" && !n.is_empty())
                .map(|(_, _, n)| n.clone())
                .unwrap_or_default();
            assert!(
                !notes.is_empty() && notes.iter().all(|n| !n.is_empty() && !n.contains('{')),
                "{name} seed {seed}: target area notes {notes:?}"
            );
        }
    }
}

#[test]
fn a_prompt_value_that_rolls_or_asks_is_refused_at_its_place() {
    let text = fuba_tests::original_text();
    let from = "the ball is {ball_value()}\" from target_options()";
    assert!(text.contains(from), "original.toml's target area prompt");
    let text = text.replacen(
        from,
        "the ball is {roll d6 by ct}\" from target_options()",
        1,
    );
    let err = match fuba_engine::load::load_str(std::path::Path::new("asks.toml"), &text) {
        Ok(_) => panic!("a prompt that rolls dice loaded"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("a prompt's value may not ask for a choice or roll dice"),
        "{err}"
    );
    assert!(err.contains("asks.toml:366:"), "{err}");
}
