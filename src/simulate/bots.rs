//! Game-independent bots: uniform random and information-set Monte Carlo tree search.
//!
//! MCTS learns only as much as its playouts tell it. Uniformly random playouts are useless
//! where random play almost always ends the same way (Capek's shared outrage loss), so a
//! playout follows a policy: by default
//! the engine's own `heuristic` bot (`eps=E` mixes in uniformly random moves). A playout may
//! stop after a number of moves (`depth=D`) and ask the engine's [`State::estimate`] instead.
//! Chance outcomes branch the tree, and the search's move replaces the policy's own only when
//! it is clearly better.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::engine::{Bot, Engine, Slice, State, Turn};

/// Iterations of `mcts` when the spec gives none.
pub const DEFAULT_MCTS_ITERATIONS: u32 = 200;
/// The playout policy when the spec names none: the engine's bot of this name.
pub const DEFAULT_ROLLOUT_POLICY: &str = "heuristic";
/// Chance that a playout move is uniformly random instead of the policy's, when not given.
/// None: against the heuristic bot (100 games each, 200 iterations) noise of 0.1 did no
/// better in Capek (97 % against 95 %) or Aether (76 % against 82 %) and worse in a Pray
/// solitaire Settlers once had (43 % against 53 % of targets reached; since removed as not in
/// the rulebook), where the policy was deterministic.
pub const DEFAULT_EPSILON: f64 = 0.0;
/// Player moves of a playout after leaving the search tree, before [`State::estimate`], when
/// the spec gives no `depth`. Large enough that a playout by a policy bot almost always plays
/// to the end (a real result teaches the search far more than a guess): Capek Golems with
/// the heuristic playouts went from 57 % to 89 % against the heuristic bot when playouts ran
/// to the end instead of stopping after 40 moves. The bound only guards against a policy
/// that never ends a game.
pub const DEFAULT_ROLLOUT_MOVES: u32 = 1000;
/// Whether chance outcomes branch the tree when the spec does not say (`chance=`).
pub const BRANCH_CHANCE: bool = true;
/// Standard errors by which the search's move must beat the policy's own move to be played
/// instead, when the spec does not say (`margin=`).
pub const DEFAULT_MARGIN: f64 = 1.0;
/// UCB exploration constant.
const EXPLORATION: f64 = 0.7;

/// What `mcts` accepts after its name, for error messages and `--help`.
pub const MCTS_SPEC: &str = "mcts[:N[:POLICY][:eps=E][:depth=D][:chance=branch|sample][:margin=Z]] (N iterations; POLICY random or an engine bot such as heuristic)";

/// A bot from its spec: `random`, `mcts...` (see [`MCTS_SPEC`]) or an engine's own bot.
pub fn make_bot<E: Engine>(engine: &E, spec: &str) -> Result<Box<dyn Bot<E::State>>, String> {
    if spec == "random" {
        return Ok(Box::new(RandomBot));
    }
    if spec == "mcts" || spec.starts_with("mcts:") {
        return Ok(Box::new(Mcts::from_spec(engine, spec)?));
    }
    engine
        .bot(spec)
        .ok_or_else(|| format!("unknown bot `{spec}`: {}", offered(engine)))
}

/// The bots that can play this engine's game, in words, for the errors of a bot not found.
pub fn offered<E: Engine>(engine: &E) -> String {
    let own = engine.bot_names();
    if own.is_empty() {
        return "this game has no bots of its own (a game whose game.toml names no rules engine has none), so only `random` and `mcts:N:random` can play it".into();
    }
    let own: Vec<String> = own.iter().map(|b| format!("`{b}`")).collect();
    format!(
        "this game's bots are `random`, {}, and {MCTS_SPEC}",
        own.join(", ")
    )
}

/// What a bot spec plays, in words, for the reports' "rests on" lines.
pub fn describe(spec: &str) -> String {
    if spec == "random" {
        return "a legal move drawn uniformly at random".into();
    }
    if spec == "mcts" || spec.starts_with("mcts:") {
        return "Monte Carlo tree search over sampled hidden cards (information-set MCTS); the options after its name set iterations, playout policy, noise, depth and margin".into();
    }
    format!("the game's own `{spec}` bot (rules of thumb written for this game)")
}

/// Plays a legal move chosen uniformly.
pub struct RandomBot;

impl<S: State> Bot<S> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }
    fn choose(&mut self, state: &S, rng: &mut ChaCha8Rng) -> S::Action {
        state.random_action(rng)
    }
    fn needs_view(&self) -> bool {
        false
    }
}

/// How MCTS plays on after leaving its tree.
pub struct Rollout<S: State> {
    /// The policy bot (`None`: uniform random). It sees the sampled world whole, as every
    /// player in a determinized playout does.
    policy: Option<Box<dyn Bot<S>>>,
    /// Chance that a move is uniformly random instead of the policy's.
    epsilon: f64,
    /// Player moves before the playout stops and asks [`State::estimate`].
    moves: u32,
}

impl<S: State> Rollout<S> {
    /// Uniformly random playouts of `moves` moves.
    pub fn random(moves: u32) -> Rollout<S> {
        Rollout {
            policy: None,
            epsilon: 1.0,
            moves,
        }
    }

    /// Playouts by `policy`, a uniformly random move instead with chance `epsilon`.
    pub fn with_policy(policy: Box<dyn Bot<S>>, epsilon: f64, moves: u32) -> Rollout<S> {
        Rollout {
            policy: Some(policy),
            epsilon,
            moves,
        }
    }

    /// The policy's own move here, if playouts follow a policy.
    fn preferred(&mut self, s: &S, rng: &mut ChaCha8Rng) -> Option<S::Action> {
        self.policy.as_mut().map(|policy| policy.choose(s, rng))
    }

    /// The move to add to the tree next among `untried`: the policy's own choice when it is
    /// among them (so that a small search starts from the policy's move), else one at random.
    fn first_try(&mut self, s: &S, untried: &[S::Action], rng: &mut ChaCha8Rng) -> S::Action {
        if let Some(policy) = &mut self.policy {
            let preferred = policy.choose(s, rng);
            if untried.contains(&preferred) {
                return preferred;
            }
        }
        untried[rng.random_range(0..untried.len())]
    }

    fn choose(&mut self, s: &S, rng: &mut ChaCha8Rng) -> S::Action {
        match &mut self.policy {
            Some(policy) if self.epsilon <= 0.0 || rng.random::<f64>() >= self.epsilon => {
                policy.choose(s, rng)
            }
            _ => s.random_action(rng),
        }
    }

    /// Plays on for a while, then the result or the engine's estimate.
    fn play(&mut self, mut s: S, rng: &mut ChaCha8Rng) -> Vec<f64> {
        let limit = s.moves_played() + self.moves;
        loop {
            match s.turn() {
                Turn::Terminal => return s.returns(),
                Turn::Chance => {
                    let outcome = s.sample_chance(rng);
                    s.apply(outcome);
                }
                Turn::Player(_) if s.moves_played() >= limit => return s.estimate(),
                Turn::Player(_) => {
                    let action = self.choose(&s, rng);
                    s.apply(action);
                }
            }
        }
    }
}

/// Single-observer information-set MCTS: each iteration samples the hidden part of the game
/// ([`State::determinize`]) and walks one shared tree of the bot's and its rivals' moves,
/// counting for each move how often it was available (UCB with availability counts).
/// Chance events are sampled on the way and do not branch the tree. Below the tree a
/// [`Rollout`] plays on.
pub struct Mcts<S: State> {
    iterations: u32,
    rollout: Rollout<S>,
    /// Whether chance outcomes branch the tree (`chance=branch`), so that a move after a draw
    /// is chosen for that draw, or are sampled through (`chance=sample`), so that the moves
    /// after a draw share their statistics whatever was drawn.
    branch_chance: bool,
    /// Standard errors by which the search's move must beat the policy's to be played
    /// instead (`margin=Z`; 0 plays the search's move always).
    margin: f64,
    name: String,
    /// The search of the move being thought about in slices ([`Bot::think`]).
    pending: Option<Pending<S::Action>>,
}

/// A search under way between two slices of thinking.
struct Pending<A> {
    me: usize,
    legal: Vec<A>,
    tree: Vec<Node<A>>,
    /// Iterations made so far.
    done: u32,
}

/// The iterations a bot spec searches a move with: `mcts:N` asks for N (`mcts` alone for
/// [`DEFAULT_MCTS_ITERATIONS`]); `None` for a bot that does not search, or a spec that does
/// not parse (making the bot says why).
pub fn spec_iterations(spec: &str) -> Option<u32> {
    let mut parts = spec.split(':');
    if parts.next() != Some("mcts") {
        return None;
    }
    match parts.next() {
        None => Some(DEFAULT_MCTS_ITERATIONS),
        Some(n) => n.parse().ok(),
    }
}

impl<S: State> Mcts<S> {
    pub fn new(iterations: u32, rollout: Rollout<S>, name: String) -> Mcts<S> {
        Mcts {
            iterations,
            rollout,
            branch_chance: BRANCH_CHANCE,
            margin: DEFAULT_MARGIN,
            name,
            pending: None,
        }
    }

    /// Parses `mcts[:N[:POLICY][:eps=E][:depth=D]]`; the bot's name is the spec as given.
    pub fn from_spec<E: Engine<State = S>>(engine: &E, spec: &str) -> Result<Mcts<S>, String> {
        let bad = |why: String| format!("`{spec}`: {why}; the form is {MCTS_SPEC}");
        let mut parts = spec.split(':');
        if parts.next() != Some("mcts") {
            return Err(bad("not an mcts spec".into()));
        }
        let iterations = match parts.next() {
            None => DEFAULT_MCTS_ITERATIONS,
            Some(n) => match n.parse::<u32>() {
                Ok(n) if n > 0 => n,
                _ => return Err(bad(format!("`{n}` is not a positive number of iterations"))),
            },
        };
        let mut policy_name = DEFAULT_ROLLOUT_POLICY;
        let mut epsilon = DEFAULT_EPSILON;
        let mut moves = DEFAULT_ROLLOUT_MOVES;
        let mut branch_chance = BRANCH_CHANCE;
        let mut margin = DEFAULT_MARGIN;
        for part in parts {
            match part.split_once('=') {
                Some(("eps", e)) => {
                    epsilon = e
                        .parse::<f64>()
                        .ok()
                        .filter(|e| (0.0..=1.0).contains(e))
                        .ok_or_else(|| bad(format!("eps takes a number from 0 to 1, not `{e}`")))?;
                }
                Some(("chance", "branch")) => branch_chance = true,
                Some(("chance", "sample")) => branch_chance = false,
                Some(("chance", c)) => {
                    return Err(bad(format!("chance takes branch or sample, not `{c}`")));
                }
                Some(("margin", z)) => {
                    margin =
                        z.parse::<f64>().ok().filter(|z| *z >= 0.0).ok_or_else(|| {
                            bad(format!("margin takes a number from 0, not `{z}`"))
                        })?;
                }
                Some(("depth", d)) => {
                    moves = d
                        .parse::<u32>()
                        .map_err(|_| bad(format!("depth takes a number of moves, not `{d}`")))?;
                }
                Some((key, _)) => return Err(bad(format!("unknown option `{key}`"))),
                None => policy_name = part,
            }
        }
        let rollout = match policy_name {
            "random" => Rollout::random(moves),
            name => {
                let policy = engine.bot(name).ok_or_else(|| {
                    format!(
                        "`{spec}`: no playout policy `{name}` in this game; {}",
                        offered(engine)
                    )
                })?;
                Rollout::with_policy(policy, epsilon, moves)
            }
        };
        let mut mcts = Mcts::new(iterations, rollout, spec.to_string());
        mcts.branch_chance = branch_chance;
        mcts.margin = margin;
        Ok(mcts)
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

impl<A> Node<A> {
    fn new(mover: usize) -> Node<A> {
        Node {
            mover,
            visits: 0,
            available: 0,
            reward: 0.0,
            children: Vec::new(),
        }
    }
}

impl<S: State> Bot<S> for Mcts<S> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, state: &S, rng: &mut ChaCha8Rng) -> S::Action {
        self.pending = None;
        loop {
            if let Some(action) = self.think(state, rng, Slice::WHOLE) {
                return action;
            }
        }
    }

    /// The search in slices: the same iterations, drawing from `rng` in the same order, as
    /// one call of [`Bot::choose`]; a slice ends after the iteration that passes its pause.
    fn think(&mut self, state: &S, rng: &mut ChaCha8Rng, slice: Slice) -> Option<S::Action> {
        let mut pending = match self.pending.take() {
            Some(p) => p,
            None => {
                // A game that failed (a script's error, here or in the copy the bot was
                // given) has no player to act and no moves: the engine's placeholder move,
                // and the simulator reports the failure.
                let Turn::Player(me) = state.turn() else {
                    return Some(state.random_action(rng));
                };
                let legal = state.legal_actions();
                match legal.len() {
                    0 => return Some(state.random_action(rng)),
                    1 => return Some(legal[0]),
                    _ => {}
                }
                Pending {
                    me,
                    legal,
                    tree: vec![Node::new(me)],
                    done: 0,
                }
            }
        };
        let total = self.iterations.min(slice.iterations);
        while !slice.decide && pending.done < total {
            let world = state.determinize(pending.me, rng);
            self.iterate(&mut pending.tree, world, rng);
            pending.done += 1;
            if pending.done < total && slice.pause.is_some_and(|p| std::time::Instant::now() >= p) {
                self.pending = Some(pending);
                return None;
            }
        }
        Some(self.decide(state, rng, &pending.tree, &pending.legal))
    }
}

impl<S: State> Mcts<S> {
    /// The move the search found, unless the policy's own is as good.
    fn decide(
        &mut self,
        state: &S,
        rng: &mut ChaCha8Rng,
        tree: &[Node<S::Action>],
        legal: &[S::Action],
    ) -> S::Action {
        let searched = most_visited(tree, legal).unwrap_or(legal[0]);
        // The search overrules the policy only when its move is clearly better: where single
        // moves barely change the odds (a game scored by a target), the difference
        // between moves is smaller than a few hundred playouts can measure.
        match self.rollout.preferred(state, rng) {
            Some(own) if own != searched && legal.contains(&own) => {
                let stats = |a: S::Action| {
                    let child = tree[0].children.iter().find(|(c, _)| *c == a)?.1;
                    Some((tree[child].reward, f64::from(tree[child].visits)))
                };
                match (stats(searched), stats(own)) {
                    (Some(s), Some(o)) if clearly_better(s, o, self.margin) => searched,
                    (Some(_), None) => searched,
                    _ => own,
                }
            }
            _ => searched,
        }
    }
}

/// The root's most visited legal move; among equals (a search with few iterations), the
/// better mean result, then the one tried first (the policy's).
fn most_visited<A: Copy + PartialEq>(tree: &[Node<A>], legal: &[A]) -> Option<A> {
    let mut best: Option<(A, u32, f64)> = None;
    for &(action, child) in &tree[0].children {
        let node = &tree[child];
        let mean = node.reward / f64::from(node.visits.max(1));
        let better = best.is_none_or(|(_, visits, m)| {
            node.visits > visits || (node.visits == visits && mean > m)
        });
        if legal.contains(&action) && better {
            best = Some((action, node.visits, mean));
        }
    }
    best.map(|(action, _, _)| action)
}

/// Whether results `a` (total reward, playouts) beat `b` by more than `z` standard errors,
/// each mean's variance bounded as for a win-or-lose result (smoothed by half a win).
fn clearly_better(a: (f64, f64), b: (f64, f64), z: f64) -> bool {
    let mean = |(r, n): (f64, f64)| (r + 0.5) / (n + 1.0);
    let var = |x: (f64, f64)| mean(x) * (1.0 - mean(x)) / (x.1 + 1.0);
    mean(a) - mean(b) > z * (var(a) + var(b)).sqrt()
}

impl<S: State> Mcts<S> {
    /// One iteration: down the tree by UCB, one new node, a playout, the result back up.
    fn iterate(&mut self, tree: &mut Vec<Node<S::Action>>, mut s: S, rng: &mut ChaCha8Rng) {
        let mut path = vec![0usize];
        let mut node = 0;
        loop {
            while s.turn() == Turn::Chance {
                let outcome = s.sample_chance(rng);
                s.apply(outcome);
                if self.branch_chance {
                    node = outcome_child(tree, node, outcome);
                    path.push(node);
                }
            }
            let Turn::Player(p) = s.turn() else { break };
            let legal = s.legal_actions();
            let untried: Vec<S::Action> = legal
                .iter()
                .copied()
                .filter(|a| !tree[node].children.iter().any(|(c, _)| c == a))
                .collect();
            if !untried.is_empty() {
                let action = self.rollout.first_try(&s, &untried, rng);
                let child = tree.len();
                tree.push(Node::new(p));
                tree[node].children.push((action, child));
                s.apply(action);
                path.push(child);
                break;
            }
            // No legal move while a player is to act: the game failed in this sample.
            let Some((action, child)) = select(tree, node, &legal) else {
                break;
            };
            s.apply(action);
            path.push(child);
            node = child;
        }
        let values = self.rollout.play(s, rng);
        for &n in &path {
            let node = &mut tree[n];
            node.visits += 1;
            node.reward += values[node.mover];
        }
    }
}

/// The child of `node` for this chance outcome, added on its first draw. Its statistics only
/// count for the seat that moved into `node`, as no one chooses an outcome.
fn outcome_child<A: Copy + PartialEq>(tree: &mut Vec<Node<A>>, node: usize, outcome: A) -> usize {
    if let Some(&(_, child)) = tree[node].children.iter().find(|(a, _)| *a == outcome) {
        return child;
    }
    let child = tree.len();
    tree.push(Node::new(tree[node].mover));
    tree[node].children.push((outcome, child));
    child
}

/// UCB1 over the children whose move is legal in this sample; `None` when none is. A score
/// that is not a number (an engine's NaN estimate) ranks below every other.
fn select<A: Copy + PartialEq>(
    tree: &mut [Node<A>],
    node: usize,
    legal: &[A],
) -> Option<(A, usize)> {
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
        let score = if score.is_nan() {
            f64::NEG_INFINITY
        } else {
            score
        };
        if best.is_none() || score > best_score {
            best_score = score;
            best = Some((action, child));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Children whose results are not numbers (an engine's NaN estimate) rank last; a node
    /// with no legal child has no selection instead of a panic.
    #[test]
    fn selection_survives_nan_results_and_no_legal_child() {
        let mut tree: Vec<Node<u8>> = vec![Node::new(0), Node::new(0), Node::new(0)];
        tree[0].children = vec![(1, 1), (2, 2)];
        tree[1].visits = 3;
        tree[1].reward = f64::NAN;
        tree[2].visits = 3;
        tree[2].reward = 1.0;
        assert_eq!(select(&mut tree, 0, &[1, 2]), Some((2, 2)));
        assert_eq!(select(&mut tree, 0, &[1]), Some((1, 1)));
        assert_eq!(select(&mut tree, 0, &[]), None);
    }
}
