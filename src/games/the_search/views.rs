//! The Search as `printplay replay` shows it: the map and piles every player sees, each
//! side's hand, and the chance events inside a move (random discards, draws, reshuffles).

use std::fmt::Write as _;

use super::engine::SearchState;
use super::rules::Side;
use super::words::{kinds_text, map_text, side_of};
use crate::engine::Player;

/// The seats' names, the data's deck ids of the two sides: criminal first.
pub fn seat_names() -> Vec<String> {
    vec![Side::Criminal.name().into(), Side::Police.name().into()]
}

/// Who acts and what is left of their turn, the map with pawns and barricades, the hospital,
/// and each side's pile sizes and discard pile.
pub fn public_view(state: &SearchState) -> String {
    let mut s = String::new();
    match state.side_to_act() {
        Some(side) => {
            let (moves, plays, extra) = state.turn_state();
            let _ = writeln!(
                s,
                "turn {}, the {} to act: {} and {} left, {}",
                state.stats_turns() + 1,
                side.name(),
                crate::messages::count_of(moves, "move", "moves"),
                crate::messages::count_of(plays, "card play", "card plays"),
                crate::messages::count_of(extra, "extra draw", "extra draws")
            );
        }
        None => {
            let _ = writeln!(s, "game over");
        }
    }
    if let Some(p) = state.pending() {
        let _ = writeln!(s, "to do now: {p}");
    }
    let _ = writeln!(
        s,
        "map (X crime scene, * marked scene, o sewer, P station; C criminal, a digit officers, B barricade):"
    );
    coordinates_map(state, &mut s);
    let _ = writeln!(s, "officers wounded (in hospital): {}", state.wounded());
    for side in [Side::Criminal, Side::Police] {
        let (hand, draw, discard) = state.pile_sizes(side);
        let _ = writeln!(
            s,
            "{}: {} in hand, draw pile {draw}, discard pile {discard} [{}]",
            side.name(),
            crate::messages::count_of(hand, "card", "cards"),
            kinds_text(state, side, state.discards(side))
        );
    }
    s
}

/// The map with the cell names the moves use: column letters above, row numbers beside.
fn coordinates_map(state: &SearchState, s: &mut String) {
    let grid = &state.table().grid;
    let mut map = String::new();
    map_text(state, &mut map);
    let letters: String = (0..grid.columns)
        .map(|c| {
            let name = grid.cell_name(c);
            format!(
                "{:<5}",
                name.trim_end_matches(|ch: char| ch.is_ascii_digit())
            )
        })
        .collect();
    let _ = writeln!(s, "   {}", letters.trim_end());
    for (r, line) in map.lines().enumerate() {
        let _ = writeln!(s, "{:<3}{}", r + 1, line.trim_end());
    }
}

/// A side's hand, and the top of its draw pile where it has looked.
pub fn private_view(state: &SearchState, seat: Player) -> String {
    let side = side_of(seat);
    let mut hand = state.hand(side).to_vec();
    hand.sort_unstable();
    let mut s = format!("hand: {}\n", kinds_text(state, side, &hand));
    let top: Vec<&str> = state
        .known_top(side)
        .iter()
        .rev()
        .map(|&k| {
            state.table().rules.kinds[side.index()][usize::from(k)]
                .name
                .as_str()
        })
        .collect();
    if !top.is_empty() {
        let _ = writeln!(s, "draw pile, top first: {}", top.join(", "));
    }
    s
}

/// What the engine's own generator decided inside the move from `before` to `after`: the
/// cards the other side discarded at random, reshuffles and cards drawn. Every one of them
/// is seen by both sides (a random discard lands face up on the discard pile; a draw is
/// seen as a number of cards), so every observer is told the same.
pub fn hidden_events(before: &SearchState, after: &SearchState) -> Vec<String> {
    let mut events = Vec::new();
    let actor = before.side_to_act();
    for side in [Side::Criminal, Side::Police] {
        let (old, new) = (before.discards(side), after.discards(side));
        let (old_shuffles, _) = before.reshuffles_and_draws(side);
        let (new_shuffles, _) = after.reshuffles_and_draws(side);
        if new_shuffles > old_shuffles {
            events.push(format!(
                "the {} shuffles the discard pile into a new draw pile",
                side.name()
            ));
        } else if Some(side) != actor && new.len() > old.len() {
            events.push(format!(
                "the {} discards at random: {}",
                side.name(),
                kinds_text(after, side, &new[old.len()..])
            ));
        }
        let drawn = drawn(before, after, side);
        if drawn > 0 {
            let cards = if drawn == 1 { "card" } else { "cards" };
            events.push(format!("the {} draws {drawn} {cards}", side.name()));
        }
    }
    events
}

/// Cards `side` drew between the two states.
fn drawn(before: &SearchState, after: &SearchState, side: Side) -> usize {
    let (_, old) = before.reshuffles_and_draws(side);
    let (_, new) = after.reshuffles_and_draws(side);
    usize::from(new.saturating_sub(old))
}

/// A side's cards as data: each kind once, with how many.
fn kinds_data(state: &SearchState, side: Side, cards: &[u8]) -> serde_json::Value {
    let kinds = &state.table().rules.kinds[side.index()];
    (0..kinds.len() as u8)
        .filter_map(|k| {
            let n = cards.iter().filter(|&&c| c == k).count();
            (n > 0).then(|| serde_json::json!({ "card": kinds[usize::from(k)].name, "count": n }))
        })
        .collect()
}

/// [`public_view`] as data: the turn, the map cell by cell, the hospital and each side's
/// piles.
pub fn public_data(state: &SearchState) -> serde_json::Value {
    let grid = &state.table().grid;
    let police: Vec<u8> = state.officer_cells().collect();
    let cells: Vec<serde_json::Value> = (0..grid.rows * grid.columns)
        .map(|c| {
            let bit = 1u64 << c;
            let icon = super::words::cell_icon(state, bit).1;
            serde_json::json!({
                "cell": grid.cell_name(c),
                "icon": icon,
                "marked": state.marked() & bit != 0,
                "criminal": state.criminal() == Some(c),
                "officers": police.iter().filter(|&&o| o == c).count(),
                "barricade": state.barricade_mask() & bit != 0,
            })
        })
        .collect();
    let (moves, plays, extra) = state.turn_state();
    let sides: Vec<serde_json::Value> = [Side::Criminal, Side::Police]
        .into_iter()
        .map(|side| {
            let (hand, draw, discard) = state.pile_sizes(side);
            let mut entry = serde_json::json!({
                "side": side.name(),
                "hand_size": hand,
                "draw_pile": draw,
                "discard_pile": discard,
            });
            entry["discards"] = kinds_data(state, side, state.discards(side));
            entry
        })
        .collect();
    let mut data = serde_json::json!({
        "turn": state.stats_turns() + 1,
        "to_act": state.side_to_act().map(|s| s.name()),
        "moves_left": moves,
        "plays_left": plays,
        "extra_draws": extra,
        "to_do": state.pending(),
        "map": { "columns": grid.columns, "rows": grid.rows },
        "officers_in_hospital": state.wounded(),
    });
    // Moved in: `json!` would copy each tree it is given.
    data["map"]["cells"] = cells.into();
    data["sides"] = sides.into();
    data
}

/// [`private_view`] as data: the side's hand and the top of its draw pile where it looked.
pub fn private_data(state: &SearchState, seat: Player) -> serde_json::Value {
    let side = side_of(seat);
    let kinds = &state.table().rules.kinds[side.index()];
    let top: Vec<&str> = state
        .known_top(side)
        .iter()
        .rev()
        .map(|&k| kinds[usize::from(k)].name.as_str())
        .collect();
    let mut data = serde_json::json!({
        "side": side.name(),
        "draw_pile_top_first": top,
    });
    data["hand"] = kinds_data(state, side, state.hand(side));
    data
}
