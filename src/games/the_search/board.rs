//! The Search at the browser table: the map as its map cards laid in their grid with the
//! pawns, barricades and crime-scene markers on them, and where each move acts (a pawn, a
//! map card, a card in hand), so that a person plays by clicking what they mean.

use super::engine::{Action, SearchState, Target as Aim};
use super::rules::{Icon, Side};
use super::words::action_name;
use crate::engine::{BoardView, Placed, Target};

fn cell(state: &SearchState, c: u8) -> String {
    state.table().grid.cell_name(c)
}

/// The piece ids of the criminal, an officer, a crime-scene marker and a barricade.
fn piece(state: &SearchState, which: usize) -> String {
    state.table().rules.pieces[which].clone()
}

const CRIMINAL: usize = 0;
const OFFICER: usize = 1;
const SCENE: usize = 2;
const BARRICADE: usize = 3;

/// The pawn standing on `c`, as the piece a person clicks to move it.
fn pawn_on(state: &SearchState, c: u8) -> Target {
    let which = if state.criminal() == Some(c) {
        CRIMINAL
    } else {
        OFFICER
    };
    Target::Piece {
        piece: piece(state, which),
        at: Some(cell(state, c)),
    }
}

/// A pawn's path: the pawn, then each card it goes through.
fn path(state: &SearchState, p: super::engine::Path, out: &mut Vec<Target>) {
    out.push(pawn_on(state, p.from));
    out.extend(state.path_cells(p).map(|c| Target::Cell(cell(state, c))));
}

/// Where `action` acts: a placement on its map card; a move by its pawn and the cards it
/// goes through; a card played from the hand, then what it aims at (a map card, a barricade
/// and where it goes, a pawn and its path; the discard pile when it is played for nothing);
/// a wound on the officer; the order canvassed cards go back in on the draw pile; the end of
/// the turn on the draw pile it draws from.
pub fn targets(state: &SearchState, action: Action) -> Vec<Target> {
    let side = state.side_to_act().unwrap_or(Side::Criminal);
    let mut out = Vec::new();
    match action {
        Action::Place(c) => out.push(Target::Cell(cell(state, c))),
        Action::Move(p) => path(state, p, &mut out),
        Action::Play { kind, target } => {
            let design = state.table().rules.kinds[side.index()]
                .get(usize::from(kind))
                .map_or("?", |k| k.design);
            out.push(Target::Card {
                card: design.to_string(),
                at: None,
            });
            match target {
                Aim::None if !state.needs_no_target_pub(side, kind) => {
                    out.push(Target::Zone("discard pile".into()));
                }
                Aim::None => {}
                Aim::Cell(c) => out.push(Target::Cell(cell(state, c))),
                Aim::Shift { from, to } => {
                    out.push(Target::Piece {
                        piece: piece(state, BARRICADE),
                        at: Some(cell(state, from)),
                    });
                    out.push(Target::Cell(cell(state, to)));
                }
                Aim::Path(p) => path(state, p, &mut out),
            }
        }
        Action::Arrange(_) => {
            // The order in words, as the seat that makes the move knows it.
            let name = action_name(state, action);
            let order = name.split_once(": ").map_or(name.as_str(), |(_, o)| o);
            out.push(Target::Zone(order.to_string()));
        }
        Action::Wound(c) => out.push(Target::Piece {
            piece: piece(state, OFFICER),
            at: Some(cell(state, c)),
        }),
        Action::EndTurn => out.push(Target::Zone("draw pile".into())),
    }
    out
}

/// The map: each card's design in reading order, and the pawns, barricades and markers on
/// the cards, as every seat sees them (the criminal's pawn stands in the open: the police
/// must see it to surround it, rulebook: Play).
pub fn board(state: &SearchState) -> BoardView {
    let grid = &state.table().grid;
    let rules = &state.table().rules;
    let design = |icon: Icon| {
        rules
            .map_designs
            .iter()
            .find(|(i, _)| *i == icon)
            .map(|(_, d)| d.clone())
    };
    let n = grid.rows * grid.columns;
    let cells = (0..n)
        .map(|c| {
            let bit = 1u64 << c;
            let icon = if state.scenes() & bit != 0 {
                Icon::CrimeScene
            } else if state.sewers() & bit != 0 {
                Icon::Sewer
            } else if state.stations() & bit != 0 {
                Icon::Station
            } else {
                Icon::Plain
            };
            (cell(state, c), design(icon))
        })
        .collect();
    let mut pieces = Vec::new();
    let mut put = |which: usize, c: u8, count: u32| {
        if count > 0 {
            pieces.push(Placed {
                piece: piece(state, which),
                at: Some(cell(state, c)),
                count,
            });
        }
    };
    let officers: Vec<u8> = state.officer_cells().collect();
    for c in 0..n {
        let bit = 1u64 << c;
        put(SCENE, c, u32::from(state.marked() & bit != 0));
        put(BARRICADE, c, u32::from(state.barricade_mask() & bit != 0));
        put(
            OFFICER,
            c,
            officers.iter().filter(|&&o| o == c).count() as u32,
        );
        put(CRIMINAL, c, u32::from(state.criminal() == Some(c)));
    }
    BoardView {
        board: None,
        columns: u32::from(grid.columns),
        rows: u32::from(grid.rows),
        cells,
        pieces,
    }
}
