//! The depth-first walk over copies of the match: every outcome of every roll, every
//! option a policy may take, each branch weighted by its exact probability.

use std::collections::HashMap;
use std::rc::Rc;

use super::{Distribution, Frac, Leaf, OddsError, Policy, Position, Settings};
use crate::agent::Opt;
use crate::ruleset::Ruleset;
use crate::value::{Sym, Team};
use crate::vm::{Match, Status};

/// A team's script was abandoned on this branch (a scripted label did not fit).
const OFF: u16 = u16::MAX;

/// One step of a path, for messages.
enum Step {
    Roll { label: Sym, dice: Vec<u8> },
    Choice { team: Team, kind: Rc<str>, opt: Opt },
}

/// A path as a list shared by its branches, last step first.
struct Path {
    step: Step,
    prev: Option<Rc<Path>>,
}

fn extend(prev: &Option<Rc<Path>>, step: Step) -> Option<Rc<Path>> {
    Some(Rc::new(Path {
        step,
        prev: prev.clone(),
    }))
}

/// The dice and choices of a path, first to last.
fn render(rs: &Ruleset, path: &Option<Rc<Path>>) -> String {
    let mut steps = Vec::new();
    let mut at = path.as_deref();
    while let Some(p) = at {
        steps.push(match &p.step {
            Step::Roll { label, dice } => {
                let d: Vec<String> = dice.iter().map(u8::to_string).collect();
                format!("roll \"{}\" {}", rs.symbol(*label), d.join("-"))
            }
            Step::Choice { team, kind, opt } => format!(
                "{} \"{kind}\" = {}",
                crate::log::team_name(*team),
                opt.label(rs)
            ),
        });
        at = p.prev.as_deref();
    }
    if steps.is_empty() {
        return "(the position itself)".into();
    }
    steps.reverse();
    steps.join("; ")
}

/// How a branch answers what the match waits for.
enum Answer {
    Roll(Vec<u8>),
    Choose(usize),
}

/// One branch out of a roll or a decision.
struct Child {
    step: Step,
    answer: Answer,
    /// Its probability, given the branch it leaves.
    q: Frac,
    script: [u16; 2],
}

/// Answers the match with a branch's dice or option.
fn answer(
    m: &mut Match<'_>,
    a: &Answer,
    rs: &Ruleset,
    path: &Option<Rc<Path>>,
) -> Result<(), OddsError> {
    match a {
        Answer::Roll(dice) => m.roll(dice),
        Answer::Choose(i) => m.choose(*i),
    }
    .map_err(|error| OddsError::Rule {
        error: Box::new(error),
        path: render(rs, path),
    })
}

/// A match on one branch, with the probability of getting there.
struct Node<'r> {
    m: Match<'r>,
    p: Frac,
    /// The next scripted label of each team ([`OFF`]: the script was abandoned).
    script: [u16; 2],
    path: Option<Rc<Path>>,
}

/// The enumeration's running totals.
struct Walk<'p, 'r> {
    pos: &'p Position<'r>,
    settings: Settings,
    leaves: HashMap<Leaf, Frac>,
    nodes: u64,
    paths: u64,
    scripted: u64,
    by_policy: u64,
    split: u64,
}

/// Works out the exact distribution of what the position's run ends in.
pub fn enumerate(pos: &Position<'_>, settings: &Settings) -> Result<Distribution, OddsError> {
    let mut w = Walk {
        pos,
        settings: *settings,
        leaves: HashMap::new(),
        nodes: 0,
        paths: 0,
        scripted: 0,
        by_policy: 0,
        split: 0,
    };
    let mut stack = vec![Node {
        m: pos.m.clone(),
        p: Frac::one(),
        script: [0, 0],
        path: None,
    }];
    while let Some(node) = stack.pop() {
        w.run(node, &mut stack)?;
    }
    let mut outcomes: Vec<(Leaf, Frac)> = w.leaves.into_iter().collect();
    outcomes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(Distribution {
        outcomes,
        nodes: w.nodes,
        paths: w.paths,
        scripted: w.scripted,
        by_policy: w.by_policy,
        split: w.split,
    })
}

impl<'r> Walk<'_, 'r> {
    /// Counts one more branch, within the bound.
    fn count(&mut self, n: usize) -> Result<(), OddsError> {
        self.nodes += n as u64;
        if self.nodes > self.settings.max_nodes {
            return Err(OddsError::TooLarge {
                limit: self.settings.max_nodes,
            });
        }
        Ok(())
    }

    /// Runs one branch until it ends (a leaf) or branches (its children pushed).
    fn run(&mut self, mut node: Node<'r>, stack: &mut Vec<Node<'r>>) -> Result<(), OddsError> {
        let rs = self.pos.m.rs;
        loop {
            let status = node.m.advance().map_err(|error| OddsError::Rule {
                error: Box::new(error),
                path: render(rs, &node.path),
            })?;
            let stop = match status {
                Status::Decision | Status::Chance => {
                    self.pos.before.stopped(&node.m, &self.pos.stops)
                }
                _ => None,
            };
            if status == Status::End || stop.is_some() {
                self.paths += 1;
                let stop = stop.and_then(|i| self.pos.stops.get(i));
                let leaf = self.pos.before.leaf(&node.m, stop, &self.pos.vars);
                let e = self.leaves.entry(leaf).or_insert_with(Frac::zero);
                *e = e.add(&node.p);
                return Ok(());
            }
            match status {
                Status::Boundary | Status::End => {}
                Status::Chance => {
                    let Some(c) = node.m.chance() else { continue };
                    // Outcomes are alike in probability as a rule: the fraction is made once.
                    let mut last: Option<((u64, u64), Frac)> = None;
                    let children = c
                        .outcomes()
                        .into_iter()
                        .map(|(dice, p)| {
                            let q = match &last {
                                Some((was, q)) if *was == p => q.clone(),
                                _ => Frac::new(p.0, p.1),
                            };
                            last = Some((p, q.clone()));
                            Child {
                                step: Step::Roll {
                                    label: c.label,
                                    dice: dice.clone(),
                                },
                                answer: Answer::Roll(dice),
                                q,
                                script: node.script,
                            }
                        })
                        .collect();
                    return self.spread(node, children, stack);
                }
                Status::Decision => {
                    let branches = self.decide(&mut node)?;
                    let Some(d) = node.m.decision() else { continue };
                    let kind: Rc<str> = Rc::from(d.kind);
                    let team = d.team;
                    let mut children: Vec<Child> = branches
                        .into_iter()
                        .map(|(i, q, script)| Child {
                            step: Step::Choice {
                                team,
                                kind: kind.clone(),
                                opt: d.options[i],
                            },
                            answer: Answer::Choose(i),
                            q,
                            script,
                        })
                        .collect();
                    if children.len() > 1 {
                        self.split += 1;
                        return self.spread(node, children, stack);
                    }
                    // One way to go: on with the same match, no copy.
                    let Some(c) = children.pop() else { continue };
                    node.path = extend(&node.path, c.step);
                    node.script = c.script;
                    answer(&mut node.m, &c.answer, rs, &node.path)?;
                }
            }
        }
    }

    /// Pushes a branch's children: a copy of its match for each but the last, which
    /// takes the match itself.
    fn spread(
        &mut self,
        node: Node<'r>,
        mut children: Vec<Child>,
        stack: &mut Vec<Node<'r>>,
    ) -> Result<(), OddsError> {
        let rs = self.pos.m.rs;
        self.count(children.len())?;
        let Some(last) = children.pop() else {
            return Ok(());
        };
        let Node { m, p, path, .. } = node;
        let mut push = |mut m: Match<'r>, c: Child| -> Result<(), OddsError> {
            let path = extend(&path, c.step);
            answer(&mut m, &c.answer, rs, &path)?;
            stack.push(Node {
                m,
                p: p.mul(&c.q),
                script: c.script,
                path,
            });
            Ok(())
        };
        for c in children {
            push(m.clone(), c)?;
        }
        push(m, last)
    }

    /// The options the waiting decision may take on this branch, each with its
    /// probability and the scripts' positions after it.
    fn decide(&mut self, node: &mut Node<'r>) -> Result<Vec<(usize, Frac, [u16; 2])>, OddsError> {
        let rs = self.pos.m.rs;
        let Some(d) = node.m.decision() else {
            return Ok(Vec::new());
        };
        let t = usize::from(d.team);
        let n = d.options.len();
        let mut script = node.script;
        let at = script[t];
        let want = if at == OFF {
            None
        } else {
            self.pos.scripts[t].get(usize::from(at))
        };
        if let Some(label) = want {
            if let Some(i) = d.options.iter().position(|o| o.label(rs) == *label) {
                script[t] = at.saturating_add(1).min(OFF - 1);
                self.scripted += 1;
                return Ok(vec![(i, Frac::one(), script)]);
            }
            // The script does not fit this branch: the policy decides for the team from
            // here on.
            script[t] = OFF;
        }
        self.by_policy += 1;
        let uniform = |of: Vec<usize>| -> Vec<(usize, Frac, [u16; 2])> {
            let q = Frac::new(1, of.len() as u64);
            of.into_iter().map(|i| (i, q.clone(), script)).collect()
        };
        match self.settings.policy {
            Policy::Scripted => {
                let legal = crate::agent::legal_labels(rs, &d);
                let message = match want {
                    Some(label) => format!(
                        "scripted choice \"{label}\" is not legal for \"{}\"; legal: {legal}",
                        d.kind
                    ),
                    None => format!(
                        "the script has no choice left for \"{}\" of {}; legal: {legal}",
                        d.kind,
                        crate::log::team_name(d.team)
                    ),
                };
                Err(OddsError::Script {
                    message,
                    path: render(rs, &node.path),
                })
            }
            Policy::Random => Ok(uniform((0..n).collect())),
            Policy::Heuristic => {
                let hints = node.m.hints().map_err(|error| OddsError::Rule {
                    error: Box::new(error),
                    path: render(rs, &node.path),
                })?;
                if hints.len() != n {
                    return Ok(uniform((0..n).collect()));
                }
                let best = hints.iter().copied().max().unwrap_or(0);
                Ok(uniform((0..n).filter(|i| hints[*i] == best).collect()))
            }
        }
    }
}
