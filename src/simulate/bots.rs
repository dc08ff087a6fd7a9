//! Game-independent bots: uniform random and information-set Monte Carlo tree search.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::engine::{Bot, Engine, State, Turn};

/// Iterations of `mcts` when the spec gives none.
pub const DEFAULT_MCTS_ITERATIONS: u32 = 200;
/// Player moves of random play after leaving the search tree, before [`State::estimate`].
pub const ROLLOUT_MOVES: u32 = 40;
/// UCB exploration constant.
const EXPLORATION: f64 = 0.7;

/// A bot from its spec: `random`, `mcts`, `mcts:N` (N iterations) or an engine's own bot.
pub fn make_bot<E: Engine>(engine: &E, spec: &str) -> Result<Box<dyn Bot<E::State>>, String> {
    match spec.split_once(':') {
        None if spec == "random" => Ok(Box::new(RandomBot)),
        None if spec == "mcts" => Ok(Box::new(Mcts::new(DEFAULT_MCTS_ITERATIONS))),
        Some(("mcts", n)) => match n.parse::<u32>() {
            Ok(n) if n > 0 => Ok(Box::new(Mcts::new(n))),
            _ => Err(format!(
                "`{spec}`: mcts takes a positive number of iterations"
            )),
        },
        _ => engine
            .bot(spec)
            .ok_or_else(|| format!("unknown bot `{spec}` (try random, mcts, mcts:N or heuristic)")),
    }
}

/// Plays a legal move chosen uniformly.
pub struct RandomBot;

impl<S: State> Bot<S> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }
    fn choose(&mut self, state: &S, rng: &mut ChaCha8Rng) -> S::Action {
        let legal = state.legal_actions();
        legal[rng.random_range(0..legal.len())]
    }
}

/// Single-observer information-set MCTS: each iteration samples the hidden part of the game
/// ([`State::determinize`]) and walks one shared tree of the bot's and its rivals' moves,
/// counting for each move how often it was available (UCB with availability counts).
/// Chance events are sampled on the way and do not branch the tree.
pub struct Mcts {
    iterations: u32,
    name: String,
}

impl Mcts {
    pub fn new(iterations: u32) -> Mcts {
        Mcts {
            iterations,
            name: format!("mcts:{iterations}"),
        }
    }
}

struct Node<A> {
    /// The seat that chose the move leading here.
    mover: usize,
    visits: u32,
    available: u32,
    reward: f64,
    children: Vec<(A, usize)>,
}

impl<S: State> Bot<S> for Mcts {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, state: &S, rng: &mut ChaCha8Rng) -> S::Action {
        let Turn::Player(me) = state.turn() else {
            panic!("a bot was asked to move when no player is to act")
        };
        let legal = state.legal_actions();
        if legal.len() == 1 {
            return legal[0];
        }
        let mut tree: Vec<Node<S::Action>> = vec![Node {
            mover: me,
            visits: 0,
            available: 0,
            reward: 0.0,
            children: Vec::new(),
        }];
        for _ in 0..self.iterations {
            let world = state.determinize(me, rng);
            iterate(&mut tree, world, rng);
        }
        tree[0]
            .children
            .iter()
            .filter(|(a, _)| legal.contains(a))
            .max_by_key(|(_, child)| tree[*child].visits)
            .map_or(legal[0], |(a, _)| *a)
    }
}

fn iterate<S: State>(tree: &mut Vec<Node<S::Action>>, mut s: S, rng: &mut ChaCha8Rng) {
    let mut path = vec![0usize];
    let mut node = 0;
    loop {
        while s.turn() == Turn::Chance {
            let outcome = s.sample_chance(rng);
            s.apply(outcome);
        }
        let Turn::Player(p) = s.turn() else { break };
        let legal = s.legal_actions();
        let untried: Vec<S::Action> = legal
            .iter()
            .copied()
            .filter(|a| !tree[node].children.iter().any(|(c, _)| c == a))
            .collect();
        if !untried.is_empty() {
            let action = untried[rng.random_range(0..untried.len())];
            let child = tree.len();
            tree.push(Node {
                mover: p,
                visits: 0,
                available: 0,
                reward: 0.0,
                children: Vec::new(),
            });
            tree[node].children.push((action, child));
            s.apply(action);
            path.push(child);
            break;
        }
        let (action, child) = select(tree, node, &legal);
        s.apply(action);
        path.push(child);
        node = child;
    }
    let values = rollout(s, rng);
    for &n in &path {
        let node = &mut tree[n];
        node.visits += 1;
        node.reward += values[node.mover];
    }
}

/// UCB1 over the children whose move is legal in this sample.
fn select<A: Copy + PartialEq>(tree: &mut [Node<A>], node: usize, legal: &[A]) -> (A, usize) {
    let mut best = None;
    let mut best_score = f64::NEG_INFINITY;
    for i in 0..tree[node].children.len() {
        let (action, child) = tree[node].children[i];
        if !legal.contains(&action) {
            continue;
        }
        let c = &mut tree[child];
        c.available += 1;
        let visits = c.visits.max(1) as f64;
        let score = c.reward / visits + EXPLORATION * ((c.available as f64).ln() / visits).sqrt();
        if score > best_score {
            best_score = score;
            best = Some((action, child));
        }
    }
    best.expect("every legal move has a child once none is untried")
}

/// Random play for a while, then the result or the engine's estimate.
fn rollout<S: State>(mut s: S, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let limit = s.moves_played() + ROLLOUT_MOVES;
    loop {
        match s.turn() {
            Turn::Terminal => return s.returns(),
            Turn::Chance => {
                let outcome = s.sample_chance(rng);
                s.apply(outcome);
            }
            Turn::Player(_) if s.moves_played() >= limit => return s.estimate(),
            Turn::Player(_) => {
                let legal = s.legal_actions();
                s.apply(legal[rng.random_range(0..legal.len())]);
            }
        }
    }
}
