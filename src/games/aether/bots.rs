//! Aether's heuristic bot: a greedy one-ply look-ahead over placements.
//!
//! Each placement is scored as if the game ended right after it: the bot's side's points
//! minus the best other side's (so an elemental must win more aether than the points it
//! would earn unplayed), plus a small bonus for strength margins on aether tiles, which
//! favours securing contested aether over leaving it on a knife edge. When no placement
//! helps and the bot holds more elementals than it has turns left, it sacrifices one to swap.
//! When its elementals are scarce, it swaps only if a new hand (sampled from the bag) promises
//! more than the sacrificed elemental's worth: its points unplayed, the least an elemental
//! placed later must earn.

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::engine::{Action, AetherState, MAX_SIDES};
use crate::engine::{Bot, State};

/// Weight of the strength margins beside aether tiles against whole points.
const MARGIN_WEIGHT: f64 = 0.05;
/// Largest margin the bonus still rewards; beyond it an aether tile is safe.
const MARGIN_CAP: i32 = 3;

/// Greedy placement bot (`Engine::bot("heuristic")`).
pub struct HeuristicBot;

impl Bot<AetherState> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, state: &AetherState, rng: &mut ChaCha8Rng) -> Action {
        let actions = state.legal_actions();
        let me = state.current();
        let base = Evaluation::of(state, state.side_of(me));
        let base_value = base.value();
        let mut scratch = state.clone();
        let mut best: Vec<Action> = Vec::new();
        let mut best_value = f64::NEG_INFINITY;
        for &action in &actions {
            let Action::Place {
                cell,
                element,
                elemental,
            } = action
            else {
                continue;
            };
            let cell = usize::from(cell);
            scratch.trial_place(cell, element, elemental);
            let value = base.after(&scratch, cell, elemental);
            scratch.undo_trial(cell, elemental);
            if value > best_value + 1e-9 {
                best_value = value;
                best.clear();
            }
            if value >= best_value - 1e-9 {
                best.push(action);
            }
        }
        let turns_left = state.empties().div_ceil(state.num_players());
        let spare = usize::from(state.supply(me)) > turns_left;
        if actions.contains(&Action::Swap) {
            let worth = if spare {
                best_value < base_value - 1e-9
            } else {
                let cost = f64::from(state.rules().unplayed_points);
                new_hand_value(state, &base, rng) - best_value > cost
            };
            if worth {
                return Action::Swap;
            }
        }
        match best.len() {
            0 => actions[0],
            n => best[rng.random_range(0..n)],
        }
    }
}

/// Hands sampled from the bag to value a swap.
const SWAP_SAMPLES: usize = 16;

/// The expected value of the best placement with a new hand drawn from the bag: each
/// element's best placement valued once, then hands sampled.
fn new_hand_value(state: &AetherState, base: &Evaluation, rng: &mut ChaCha8Rng) -> f64 {
    let elements = state.bag().len();
    let mut scratch = state.clone();
    let mut best = vec![f64::NEG_INFINITY; elements];
    // After the swap one elemental fewer is left to place.
    let with_elemental: &[bool] = if state.supply(state.current()) > 1 {
        &[false, true]
    } else {
        &[false]
    };
    for cell in (0..state.board().roles.len()).filter(|&c| state.is_open(c)) {
        for (element, b) in best.iter_mut().enumerate() {
            for &elemental in with_elemental {
                scratch.trial_place(cell, element as u8, elemental);
                *b = b.max(base.after(&scratch, cell, elemental));
                scratch.undo_trial(cell, elemental);
            }
        }
    }
    let mut pool: Vec<u8> = state
        .bag()
        .iter()
        .enumerate()
        .flat_map(|(e, &n)| std::iter::repeat_n(e as u8, usize::from(n)))
        .collect();
    let hand = usize::from(state.rules().hand_size).min(pool.len());
    if hand == 0 {
        return f64::NEG_INFINITY;
    }
    let mut total = 0.0;
    for _ in 0..SWAP_SAMPLES {
        let (drawn, _) = pool.partial_shuffle(rng, hand);
        total += drawn
            .iter()
            .map(|&e| best[usize::from(e)])
            .fold(f64::NEG_INFINITY, f64::max);
    }
    total / SWAP_SAMPLES as f64
}

/// The position as the bot's side sees it, kept per aether tile so that a placement only
/// re-evaluates the tiles within two steps of it.
struct Evaluation {
    side: usize,
    sides: usize,
    /// Each side's score if the game ended now.
    scores: [i32; MAX_SIDES],
    /// Each aether tile's points per side.
    tile_points: Vec<[i32; MAX_SIDES]>,
    /// Each aether tile's margin bonus for the bot's side.
    tile_margin: Vec<f64>,
    margin: f64,
}

impl Evaluation {
    fn of(state: &AetherState, side: usize) -> Evaluation {
        let tiles = state.board().aether.len();
        let mut scores = [0; MAX_SIDES];
        let sides = state.sides();
        for (p, supply) in (0..state.num_players()).map(|p| (p, state.supply(p))) {
            let unplayed = i32::from(supply) + i32::from(state.sacrificed(p));
            scores[state.side_of(p)] += unplayed * state.rules().unplayed_points;
        }
        let mut tile_points = Vec::with_capacity(tiles);
        let mut tile_margin = Vec::with_capacity(tiles);
        for i in 0..tiles {
            let mut points = [0; MAX_SIDES];
            state.add_tile_points(i, &mut points[..sides]);
            for (s, p) in scores.iter_mut().zip(points) {
                *s += p;
            }
            tile_points.push(points);
            tile_margin.push(margin_bonus(state, i, side));
        }
        Evaluation {
            side,
            sides,
            scores,
            margin: tile_margin.iter().sum(),
            tile_points,
            tile_margin,
        }
    }

    fn value(&self) -> f64 {
        lead(&self.scores[..self.sides], self.side) + self.margin
    }

    /// The value after a trial placement on `cell` (the state already shows it).
    fn after(&self, state: &AetherState, cell: usize, elemental: bool) -> f64 {
        let mut scores = self.scores;
        let mut margin = self.margin;
        if elemental {
            scores[self.side] -= state.rules().unplayed_points;
        }
        for &i in &state.board().near_aether[cell] {
            let i = usize::from(i);
            let mut points = [0; MAX_SIDES];
            state.add_tile_points(i, &mut points[..self.sides]);
            for ((s, new), old) in scores.iter_mut().zip(points).zip(self.tile_points[i]) {
                *s += new - old;
            }
            margin += margin_bonus(state, i, self.side) - self.tile_margin[i];
        }
        lead(&scores[..self.sides], self.side) + margin
    }
}

/// A side's points minus the best other side's.
fn lead(scores: &[i32], side: usize) -> f64 {
    let rival = scores
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != side)
        .map(|(_, &v)| v)
        .max()
        .unwrap_or(0);
    f64::from(scores[side] - rival)
}

/// The bonus for the side's strength margin over its best rival beside aether tile `i`.
fn margin_bonus(state: &AetherState, i: usize, side: usize) -> f64 {
    let s = state.strengths_at(i);
    let sides = state.sides();
    if !s.present[..sides].iter().any(|p| *p) {
        return 0.0;
    }
    let other = (0..sides)
        .filter(|&o| o != side)
        .map(|o| s.totals[o])
        .max()
        .unwrap_or(0);
    let lead = (s.totals[side] - other).clamp(-MARGIN_CAP, MARGIN_CAP);
    let value = state.board().aether[i].value;
    f64::from(lead) * f64::from(value) * MARGIN_WEIGHT / f64::from(MARGIN_CAP)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::engine::{Config, Engine};
    use crate::games::aether::AetherEngine;
    use crate::games::aether::tests::load;

    /// The incremental evaluation agrees with evaluating the whole board afresh.
    #[test]
    fn incremental_evaluation_matches_full() {
        let engine = AetherEngine::from_model(&load()).expect("engine");
        for players in 2..=4 {
            let config = Config {
                players,
                ..Config::default()
            };
            let mut rng = ChaCha8Rng::seed_from_u64(players as u64);
            let mut s = engine.new_game(&config, &mut rng).expect("game");
            let mut bot = HeuristicBot;
            while s.turn() != crate::engine::Turn::Terminal {
                if let crate::engine::Turn::Player(p) = s.turn() {
                    let base = Evaluation::of(&s, s.side_of(p));
                    for a in s.legal_actions() {
                        if let Action::Place {
                            cell,
                            element,
                            elemental,
                        } = a
                        {
                            let mut t = s.clone();
                            t.trial_place(usize::from(cell), element, elemental);
                            let fast = base.after(&t, usize::from(cell), elemental);
                            let full = Evaluation::of(&t, s.side_of(p)).value();
                            assert!((fast - full).abs() < 1e-9, "{fast} vs {full}");
                        }
                    }
                    let a = bot.choose(&s, &mut rng);
                    s.apply(a);
                } else {
                    let o = s.chance_outcomes();
                    s.apply(o[rng.random_range(0..o.len())].0);
                }
            }
        }
    }
}
