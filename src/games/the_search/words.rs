//! The Search in words: action names for `printplay replay` and per-player observations.

use std::fmt::Write as _;

use super::engine::{Action, SearchState, Target, order_of};
use super::rules::Side;
use crate::engine::Player;
use crate::engine::view::Observer;

fn cell(state: &SearchState, c: u8) -> String {
    state.table().grid.cell_name(c)
}

fn kind_name(state: &SearchState, side: Side, kind: u8) -> &str {
    &state.table().rules.kinds[side.index()][usize::from(kind)].name
}

fn path_text(state: &SearchState, from: u8, cells: impl Iterator<Item = u8>) -> String {
    let mut s = cell(state, from);
    for c in cells {
        let _ = write!(s, " -> {}", cell(state, c));
    }
    s
}

/// The action in words, for the side about to take it.
pub fn action_name(state: &SearchState, action: Action) -> String {
    let side = state.side_to_act().unwrap_or(Side::Criminal);
    let who = side.name();
    match action {
        Action::Place(c) if side == Side::Police => {
            format!("police: place an officer on {}", cell(state, c))
        }
        Action::Place(c) => format!("criminal: place the criminal on {}", cell(state, c)),
        Action::Move(p) => format!(
            "{who}: move {}",
            path_text(state, p.from, state.path_cells(p))
        ),
        Action::Play { kind, target } => {
            let name = kind_name(state, side, kind);
            let aim = match target {
                Target::None => String::new(),
                Target::Cell(c) => format!(" on {}", cell(state, c)),
                Target::Shift { from, to } => {
                    format!(": {} -> {}", cell(state, from), cell(state, to))
                }
                Target::Path(p) => format!(": {}", path_text(state, p.from, state.path_cells(p))),
            };
            let nothing = if target == Target::None && !state.needs_no_target_pub(side, kind) {
                " (no effect)"
            } else {
                ""
            };
            format!("{who}: play {name}{aim}{nothing}")
        }
        Action::Arrange(p) => {
            let look = state.arrange_look().unwrap_or(0);
            let order = order_of(&state.top_for_arrange(look), look, p);
            let names: Vec<&str> = order[..usize::from(look)]
                .iter()
                .map(|&k| kind_name(state, side, k))
                .collect();
            format!("{who}: put back, top first: {}", names.join(", "))
        }
        Action::Wound(c) => format!("{who}: wound the officer on {}", cell(state, c)),
        Action::EndTurn => format!("{who}: draw and end the turn"),
    }
}

/// The move as `observer` knows it: the order the canvassing side puts its top cards back in
/// stays with those who see that side's hand (the cards go back face down); every other move
/// is made in the open.
pub fn move_name(state: &SearchState, action: Action, observer: Observer) -> String {
    let side = state.side_to_act().unwrap_or(Side::Criminal);
    match action {
        Action::Arrange(_) if !observer.sees_hand(seat_of(side)) => {
            let look = state.arrange_look().unwrap_or(0);
            format!(
                "{}: put the top {look} cards back face down, in an order of their choosing",
                side.name()
            )
        }
        _ => action_name(state, action),
    }
}

/// The seat that plays a side: the criminal first.
pub(super) fn seat_of(side: Side) -> Player {
    match side {
        Side::Criminal => 0,
        Side::Police => 1,
    }
}

/// The side a seat plays: the criminal first.
pub(super) fn side_of(seat: Player) -> Side {
    if seat == 0 {
        Side::Criminal
    } else {
        Side::Police
    }
}

/// What `player` sees: the map, the pawns, their own hand, the sizes of hidden piles and the
/// public discard piles. The opponent's hand and both draw piles stay hidden, except the top
/// cards a player has canvassed in their own pile.
pub fn observation(state: &SearchState, player: Player) -> String {
    let me = side_of(player);
    let mut s = String::new();
    let _ = writeln!(s, "you are the {}", me.name());
    match state.side_to_act() {
        Some(side) => {
            let (moves, plays, extra) = state.turn_state();
            let _ = writeln!(
                s,
                "to act: {} (turn {}, moves left {moves}, plays left {plays}, extra draws {extra})",
                side.name(),
                state.stats_turns() + 1
            );
        }
        None => {
            let _ = writeln!(s, "game over: {:?}", state.winner().map(Side::name));
        }
    }
    if let Some(p) = state.pending() {
        let _ = writeln!(s, "pending: {p}");
    }
    map_text(state, &mut s);
    let _ = writeln!(s, "officers wounded (in hospital): {}", state.wounded());
    for side in [Side::Criminal, Side::Police] {
        let (hand, draw, discard) = state.pile_sizes(side);
        let _ = write!(
            s,
            "{}: hand {hand}, draw pile {draw}, discard pile {discard}",
            side.name()
        );
        let _ = writeln!(s, " [{}]", kinds_text(state, side, state.discards(side)));
    }
    let mut hand = state.hand(me).to_vec();
    hand.sort_unstable();
    let _ = writeln!(s, "your hand: {}", kinds_text(state, me, &hand));
    let top: Vec<&str> = state
        .known_top(me)
        .iter()
        .rev()
        .map(|&k| kind_name(state, me, k))
        .collect();
    if !top.is_empty() {
        let _ = writeln!(s, "your draw pile, top first: {}", top.join(", "));
    }
    s
}

pub(super) fn kinds_text(state: &SearchState, side: Side, cards: &[u8]) -> String {
    let kinds = &state.table().rules.kinds[side.index()];
    let parts: Vec<String> = (0..kinds.len() as u8)
        .filter_map(|k| {
            let n = cards.iter().filter(|&&c| c == k).count();
            (n > 0).then(|| format!("{} x{n}", kinds[usize::from(k)].name))
        })
        .collect();
    parts.join(", ")
}

/// A map card's icon: its letter on the text map and its name in the data, for the card
/// whose bit is `bit`.
pub(super) fn cell_icon(state: &SearchState, bit: u64) -> (char, &'static str) {
    if state.scenes() & bit != 0 {
        ('X', "crime-scene")
    } else if state.sewers() & bit != 0 {
        ('o', "sewer")
    } else if state.stations() & bit != 0 {
        ('P', "police-station")
    } else {
        ('.', "street")
    }
}

/// One line per map row: icon (X crime scene, * marked scene, o sewer, P station, . street),
/// then C for the criminal, a digit for officers, B for a barricade.
pub(super) fn map_text(state: &SearchState, s: &mut String) {
    let grid = &state.table().grid;
    let police = state.officer_cells().collect::<Vec<u8>>();
    let barricades = state.barricade_mask();
    for r in 0..grid.rows {
        for col in 0..grid.columns {
            let c = r * grid.columns + col;
            let bit = 1u64 << c;
            let icon = if state.marked() & bit != 0 {
                '*'
            } else {
                cell_icon(state, bit).0
            };
            let mut cell = String::from(icon);
            if state.criminal() == Some(c) {
                cell.push('C');
            }
            let n = police.iter().filter(|&&o| o == c).count();
            if n > 0 {
                let _ = write!(cell, "{n}");
            }
            if barricades & bit != 0 {
                cell.push('B');
            }
            let _ = write!(s, "{cell:<5}");
        }
        s.push('\n');
    }
}
