//! Heuristic players for The Search: each tries every legal action on a copy of the state and
//! keeps the one whose result scores best for its side (ties broken at random).
//!
//! - The criminal heads for the nearest unmarked crime scene, keeps open exits (one open side
//!   is a trap: one pawn or barricade closes it), and values wounding officers.
//! - The police guard the unmarked crime scenes the criminal could reach soon (an officer on
//!   a scene keeps the criminal off it), shrink the criminal's region, bring free officers to
//!   the criminal's open sides and close them (pawns and barricades alike), and keep an
//!   officer on the police station while any are wounded; before the criminal is placed,
//!   they spread their officers to guard the crime scenes.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::engine::SearchState;
use super::rules::Side;
use crate::engine::{Bot, State, Turn};

/// The engine's bot names.
pub const HEURISTIC: &str = "heuristic";

pub fn by_name(name: &str) -> Option<Box<dyn Bot<SearchState>>> {
    (name == HEURISTIC).then(|| Box::new(Heuristic) as Box<dyn Bot<SearchState>>)
}

/// The greedy one-action look-ahead player, for either side.
pub struct Heuristic;

impl Bot<SearchState> for Heuristic {
    fn name(&self) -> &str {
        HEURISTIC
    }

    fn choose(
        &mut self,
        state: &SearchState,
        rng: &mut ChaCha8Rng,
    ) -> <SearchState as State>::Action {
        let side = state.side_to_act().unwrap_or(Side::Criminal);
        let actions = state.legal_actions();
        let mut best = f64::NEG_INFINITY;
        let mut choice = actions[0];
        let mut ties = 0u32;
        for &a in &actions {
            let mut next = state.clone();
            next.apply(a);
            let score = evaluate(&next, side);
            if score > best {
                best = score;
                choice = a;
                ties = 1;
            } else if score == best {
                // Reservoir sampling among equally good actions.
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    choice = a;
                }
            }
        }
        choice
    }
}

const WIN: f64 = 1.0e6;

/// How good a state is for `side`.
pub fn evaluate(s: &SearchState, side: Side) -> f64 {
    if s.turn() == Turn::Terminal {
        return if s.winner() == Some(side) { WIN } else { -WIN };
    }
    match side {
        Side::Criminal => criminal_score(s),
        Side::Police => police_score(s),
    }
}

/// The criminal's prospects, from the criminal's point of view.
fn criminal_score(s: &SearchState) -> f64 {
    let Some(c) = s.criminal() else {
        return 0.0;
    };
    let open = !s.blocked();
    let exits = s.exits(c).count_ones();
    let (dist, reach) = distances(s, c, open);
    let targets = s.scenes() & !s.marked();
    let scene_dist = nearest(&dist, targets).unwrap_or(12);
    let trap = match exits {
        1 => -150.0,
        2 => -25.0,
        _ => 0.0,
    };
    let hands = hand_strength(s, Side::Criminal) - hand_strength(s, Side::Police);
    100.0 * f64::from(s.marked().count_ones()) + 20.0 * s.wounded() as f64
        - 12.0 * f64::from(scene_dist)
        + 6.0 * f64::from(exits)
        + trap
        + f64::from(reach.count_ones())
        + 2.0 * hands
}

/// The police's prospects. The police win by closing the criminal in and lose by letting
/// the criminal reach the unmarked crime scenes (or by losing every officer), so they value:
/// - each unmarked crime scene kept out of the criminal's walking reach, most of all the ones
///   the criminal could reach next turn; an officer standing on one guards it;
/// - a small region for the criminal to walk in and few open sides around the criminal;
/// - officers not guarding a scene close to the criminal's open sides, ready to close them;
/// - officers on the map (the last ones most) and, while some are wounded, an officer on the
///   police station, where reinforcements arrive; and cards in hand.
fn police_score(s: &SearchState) -> f64 {
    let Some(c) = s.criminal() else {
        return guard_scenes(s);
    };
    let grid = &s.table().grid;
    let (dist, reach) = distances(s, c, !s.blocked());
    let unmarked = s.scenes() & !s.marked();
    let guarded = unmarked & s.police_mask();
    let threat: f64 = bits(unmarked)
        .map(|scene| match dist[usize::from(scene)] {
            1 => 80.0,
            2 => 35.0,
            3 => 15.0,
            4 => 6.0,
            _ => 0.0,
        })
        .sum();
    let chasers: f64 = s
        .officer_cells()
        .filter(|&o| guarded & 1 << o == 0)
        .map(|o| f64::from(manhattan(grid, o, c)))
        .sum();
    let exits = f64::from(s.exits(c).count_ones());
    // How far the officers not guarding a scene are from stepping into each open side of
    // the criminal.
    let gaps: f64 = bits(s.exits(c))
        .map(|x| {
            s.officer_cells()
                .filter(|&o| guarded & 1 << o == 0)
                .map(|o| f64::from(manhattan(grid, o, x)))
                .fold(f64::from(grid.columns + grid.rows), f64::min)
        })
        .sum();
    let hands = hand_strength(s, Side::Police) - hand_strength(s, Side::Criminal);
    // Each wound brings the criminal's other win closer, the last ones most.
    let wounded = s.wounded() as f64;
    let on_map = s.officer_cells().count();
    let wounds = 30.0 * wounded + 60.0 * wounded / (on_map.max(1) as f64);
    // Reinforcements come only to an officer standing on the police station.
    let station = if wounded > 0.0 && s.stations() & s.police_mask() != 0 {
        25.0
    } else {
        0.0
    };
    -150.0 * f64::from(s.marked().count_ones()) - wounds + station - threat
        + 20.0 * f64::from(guarded.count_ones())
        - 3.0 * f64::from(reach.count_ones())
        - 12.0 * exits
        - 3.0 * gaps
        - 1.5 * chasers
        + 2.0 * hands
}

/// Before the criminal is placed: officers near the crime scenes, not piled together.
fn guard_scenes(s: &SearchState) -> f64 {
    let grid = &s.table().grid;
    let officers: Vec<u8> = s.officer_cells().collect();
    let mut score = 0.0;
    for scene in bits(s.scenes()) {
        let d = officers
            .iter()
            .map(|&o| manhattan(grid, o, scene))
            .min()
            .unwrap_or(8);
        score -= f64::from(d);
    }
    let distinct = officers
        .iter()
        .enumerate()
        .filter(|(i, o)| !officers[..*i].contains(o))
        .count();
    score + distinct as f64
}

/// Cards a side will hold: the side to act draws back up at the end of its turn (so playing a
/// card costs nothing) and gets its extra draws; the other side holds what it holds.
fn hand_strength(s: &SearchState, side: Side) -> f64 {
    let held = s.hand(side).len();
    if s.side_to_act() != Some(side) {
        return held as f64;
    }
    let (_, _, extra) = s.turn_state();
    let refill = usize::from(s.table().rules.hand_size);
    (held.max(refill) + usize::from(extra)) as f64
}

fn manhattan(grid: &super::layout::Grid, a: u8, b: u8) -> u8 {
    grid.column(a).abs_diff(grid.column(b)) + grid.row(a).abs_diff(grid.row(b))
}

/// Orthogonal walking distance from `from` through `open` cards (255 where unreachable), and
/// the set of reachable cards.
fn distances(s: &SearchState, from: u8, open: u64) -> ([u8; 64], u64) {
    let grid = &s.table().grid;
    let mut dist = [u8::MAX; 64];
    dist[usize::from(from)] = 0;
    let mut seen = 1u64 << from;
    let mut frontier = seen;
    let mut d = 0u8;
    while frontier != 0 {
        d += 1;
        let mut next = 0u64;
        for c in bits(frontier) {
            next |= grid.orthogonal[usize::from(c)];
        }
        next &= open & !seen;
        for c in bits(next) {
            dist[usize::from(c)] = d;
        }
        seen |= next;
        frontier = next;
    }
    (dist, seen)
}

fn nearest(dist: &[u8; 64], targets: u64) -> Option<u8> {
    bits(targets)
        .map(|c| dist[usize::from(c)])
        .filter(|&d| d != u8::MAX)
        .min()
}

fn bits(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let c = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use rand::SeedableRng;

    use super::*;
    use crate::engine::{Config, Engine};
    use crate::games::the_search::SearchEngine;
    use crate::games::the_search::engine::Action;
    use crate::model::load_game;

    fn engine() -> SearchEngine {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        SearchEngine::from_model(&load_game(&data, "the-search").unwrap()).unwrap()
    }

    /// Plays `games` games with the given bot per seat (None = uniform random); returns the
    /// criminal's wins.
    fn play(games: u64, criminal_bot: bool, police_bot: bool) -> u64 {
        let e = engine();
        let config = Config {
            players: 2,
            ..Config::default()
        };
        let mut criminal_wins = 0;
        for seed in 0..games {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut s = e.new_game(&config, &mut rng).unwrap();
            while let Turn::Player(p) = s.turn() {
                assert!(s.moves_played() < 3000, "game {seed} runs on");
                let smart = if p == 0 { criminal_bot } else { police_bot };
                let a = if smart {
                    let view = s.determinize(p, &mut rng);
                    let a = e.bot(HEURISTIC).unwrap().choose(&view, &mut rng);
                    assert!(s.legal_actions().contains(&a), "the bot plays legal moves");
                    a
                } else {
                    let actions = s.legal_actions();
                    actions[rng.random_range(0..actions.len())]
                };
                s.apply(a);
            }
            if s.winner() == Some(Side::Criminal) {
                criminal_wins += 1;
            }
        }
        criminal_wins
    }

    #[test]
    fn heuristic_criminal_beats_random_police() {
        let games = 60;
        let wins = play(games, true, false);
        let random = play(games, false, false);
        assert!(
            wins > random,
            "heuristic criminal {wins} vs random {random} of {games}"
        );
        assert!(
            wins * 10 >= games * 8,
            "heuristic criminal won {wins} of {games}"
        );
    }

    #[test]
    fn heuristic_police_beat_random_criminal() {
        let games = 60;
        let criminal_wins = play(games, false, true);
        let random = play(games, false, false);
        assert!(
            criminal_wins < random,
            "random criminal won {criminal_wins} against heuristic police, {random} against random"
        );
        assert!(
            criminal_wins * 10 <= games * 2,
            "random criminal won {criminal_wins} of {games}"
        );
    }

    /// A criminal one card from an unmarked crime scene (A1, beside the criminal on B1), an
    /// officer beside the scene (A2): whatever cards the police hold, they end their turn
    /// with an officer on the scene, the only way to keep the criminal off it.
    #[test]
    fn heuristic_police_guard_a_threatened_crime_scene() {
        use super::super::rules::Icon::{self, *};
        let layout: Vec<Icon> = vec![
            CrimeScene, Plain, Sewer, Plain, Plain, //
            Plain, Sewer, Plain, CrimeScene, Station, //
            Sewer, Plain, Sewer, Plain, Sewer, //
            Plain, CrimeScene, Plain, Sewer, Plain,
        ];
        let e = engine();
        let config = Config::with_variants(2, &[]);
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut s = e.new_game_on(&layout, &config, &mut rng).unwrap();
            for cell in [5, 12, 13, 19, 1] {
                s.apply(Action::Place(cell));
            }
            s.apply(Action::EndTurn);
            while s.side_to_act() == Some(Side::Police) {
                let view = s.determinize(1, &mut rng);
                let a = Heuristic.choose(&view, &mut rng);
                s.apply(a);
            }
            assert!(
                s.police_mask() & 1 != 0 || s.winner() == Some(Side::Police),
                "seed {seed}: the scene beside the criminal is left open:\n{}",
                s.observation(1)
            );
        }
    }

    #[test]
    fn the_engine_offers_the_heuristic_bot() {
        let e = engine();
        assert_eq!(e.bot(HEURISTIC).unwrap().name(), HEURISTIC);
        assert!(e.bot("clairvoyant").is_none());
    }
}
