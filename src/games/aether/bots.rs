//! Aether's heuristic bot: a greedy one-ply look-ahead over placements.
//!
//! Each placement is scored as if the game ended right after it: the bot's side's points
//! minus the best other side's (so an elemental must win more aether than the points it
//! would earn unplayed), plus a small bonus for strength margins on aether tiles, which
//! favours securing contested aether over leaving it on a knife edge. When no placement
//! helps and the bot holds more elementals than it has turns left, it sacrifices one to swap.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::engine::{Action, AetherState};
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
        let side = state.side_of(me);
        let base = evaluate(state, side);
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
            scratch.trial_place(usize::from(cell), element, elemental);
            let value = evaluate(&scratch, side);
            scratch.undo_trial(usize::from(cell), elemental);
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
        if actions.contains(&Action::Swap) && spare && best_value < base - 1e-9 {
            return Action::Swap;
        }
        match best.len() {
            0 => actions[0],
            n => best[rng.random_range(0..n)],
        }
    }
}

/// The side's lead in points if the game ended now, plus the margin bonus.
fn evaluate(state: &AetherState, side: usize) -> f64 {
    let scores = state.side_scores();
    let mine = scores[side];
    let rival = scores
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != side)
        .map(|(_, &v)| v)
        .max()
        .unwrap_or(0);
    let mut margin = 0.0;
    for (i, tile) in state.board().aether.iter().enumerate() {
        let (totals, present) = state.aether_strengths(i);
        if !present.iter().any(|p| *p) {
            continue;
        }
        let other = totals
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != side)
            .map(|(_, &v)| v)
            .max()
            .unwrap_or(0);
        let lead = (totals[side] - other).clamp(-MARGIN_CAP, MARGIN_CAP);
        margin += f64::from(lead) * f64::from(tile.value) * MARGIN_WEIGHT / f64::from(MARGIN_CAP);
    }
    f64::from(mine - rival) + margin
}
