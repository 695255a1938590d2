//! The search tree: open-loop, keyed by decisions only. A node is a sequence of answers
//! from the root (which team took which option); the dice in between are drawn afresh on
//! every pass, so a node's statistics average over them, weighted by their exact chances.
//! A node's options may differ between passes (other dice, other worlds): each child
//! counts how often it was available, and the selection uses that count (the
//! "availability" form of UCB that information-set search uses).

use crate::agent::Opt;
use crate::value::Team;

/// A node's index in the tree's arena.
pub type NodeId = u32;

/// One node: reached by `team` taking `opt` in its parent.
#[derive(Debug, Clone)]
pub struct Node {
    /// The team that chose the answer leading here.
    pub team: Team,
    /// The answer leading here.
    pub opt: Opt,
    /// Passes through this node.
    pub visits: u32,
    /// Passes through the parent in which this node's answer was legal.
    pub avail: u32,
    /// Sum of the rewards of the passes, from `team`'s side (goals).
    pub total: f64,
    /// How likely the answer is before searching (the prior of the selection rule).
    pub prior: f64,
    /// Children.
    pub children: Vec<NodeId>,
}

/// An arena of nodes; node 0 is the root.
#[derive(Debug, Clone)]
pub struct Tree {
    /// The nodes.
    pub nodes: Vec<Node>,
}

impl Tree {
    /// A tree with only a root.
    pub fn new() -> Self {
        Tree {
            nodes: vec![Node {
                team: 0,
                opt: Opt::Skip(0),
                visits: 0,
                avail: 0,
                total: 0.0,
                prior: 1.0,
                children: Vec::new(),
            }],
        }
    }

    /// The child of `at` reached by `team` taking `opt`.
    pub fn child(&self, at: NodeId, team: Team, opt: Opt) -> Option<NodeId> {
        self.nodes[at as usize].children.iter().copied().find(|c| {
            let n = &self.nodes[*c as usize];
            n.team == team && n.opt == opt
        })
    }

    /// Adds a child.
    pub fn add(&mut self, at: NodeId, team: Team, opt: Opt, prior: f64) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            team,
            opt,
            visits: 0,
            avail: 0,
            total: 0.0,
            prior,
            children: Vec::new(),
        });
        self.nodes[at as usize].children.push(id);
        id
    }

    /// The subtree under `at` as a tree of its own (`at` becomes the root).
    pub fn subtree(&self, at: NodeId) -> Tree {
        let mut out = Tree {
            nodes: Vec::with_capacity(self.nodes.len()),
        };
        let mut root = self.nodes[at as usize].clone();
        root.children.clear();
        out.nodes.push(root);
        let mut todo = vec![(at, 0)];
        while let Some((from, to)) = todo.pop() {
            for c in self.nodes[from as usize].children.clone() {
                let mut n = self.nodes[c as usize].clone();
                n.children.clear();
                let id = out.nodes.len() as NodeId;
                out.nodes.push(n);
                out.nodes[to as usize].children.push(id);
                todo.push((c, id));
            }
        }
        out
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has only its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }
}

impl Default for Tree {
    fn default() -> Self {
        Tree::new()
    }
}
