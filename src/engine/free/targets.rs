//! Where a free-table move acts ([`crate::engine::State::targets`]): what a person drags to
//! make it. A move that carries something somewhere names where it comes from and where it
//! goes (a card from the hand to a pile, a card at a table place to another place, a pile's
//! top card into the hand); picking up a piece names the piece where it lies, and putting it
//! down the place it goes. The page maps a drag to the move whose two ends these are.
//!
//! The keys say places, never a hidden card: a hand's card is named by its design only in the
//! moves of the seat holding it (a seat is given only its own moves), and a card on the table
//! by its place, face up or not.
//!
//! - `card:DESIGN`: a card in the acting seat's hand (one move per design, as the moves are);
//! - `zone:table place N`: the card at place N of the table area (from 1), or that empty place;
//! - `zone:pile DECK`, `zone:discards DECK`: a deck's draw pile, its discards;
//! - `zone:hand N`: seat N's hand (from 1); `zone:table`, `zone:table face down`: the table
//!   area, a card laid on its first empty place face up or down;
//! - `piece:KIND@PLACE`: a piece of a kind where it lies; `cell:S/CELL` (a cell of the S-th
//!   board, from 1, named `q,r` or `row,column`), `zone:supply`, `zone:table`, `zone:front N`:
//!   where a piece goes.
//!
//! Moves that carry nothing (shuffle, deal, flip, show the hand, roll, pass, close) name no
//! target: the page offers them as buttons.

use super::{Act, Dest, FreeTable, Loc};
use crate::engine::Target;

/// A place a piece can be, as a key's part: `supply`, `table`, `front N`, `S/CELL`.
pub(super) fn place_key(t: &FreeTable, l: usize) -> Option<String> {
    Some(match t.def.locs.get(l)? {
        Loc::Supply => "supply".into(),
        Loc::Table => "table".into(),
        Loc::Seat(p) => format!("front {}", p + 1),
        Loc::Cell(s, c) => format!("{}/{}", s + 1, t.def.surfaces[*s].cells[*c].key),
    })
}

fn zone(text: String) -> Target {
    Target::Zone(text)
}

fn table_place(i: usize) -> Target {
    zone(format!("table place {}", i + 1))
}

/// Where a card goes, for a card of deck `deck`.
fn dest(t: &FreeTable, dest: Dest, deck: usize) -> Target {
    let id = &t.def.decks[deck].id;
    match dest {
        Dest::TableUp => zone("table".into()),
        Dest::TableDown => zone("table face down".into()),
        Dest::Discard => zone(format!("discards {id}")),
        Dest::PileTop => zone(format!("pile {id}")),
        Dest::Hand(q) => zone(format!("hand {}", q + 1)),
        Dest::Place(j) => table_place(usize::from(j)),
    }
}

pub(super) fn of(t: &FreeTable, action: Act) -> Vec<Target> {
    let p = t.turn;
    let deck_id = |d: u16| t.def.decks[usize::from(d)].id.clone();
    let hand = zone(format!("hand {}", p + 1));
    match action {
        Act::Draw(d) => vec![zone(format!("pile {}", deck_id(d))), hand],
        Act::Reveal(d) => vec![zone(format!("pile {}", deck_id(d))), zone("table".into())],
        Act::TakeDiscard(d) => vec![zone(format!("discards {}", deck_id(d))), hand],
        Act::FromHand(card, to) => vec![
            Target::Card {
                card: t.def.cards[usize::from(card)].design.clone(),
                at: None,
            },
            dest(t, to, t.deck_of(card)),
        ],
        Act::FromTable(i, to) => match t.table.get(usize::from(i)).copied().flatten() {
            Some((card, _)) => vec![table_place(usize::from(i)), dest(t, to, t.deck_of(card))],
            None => Vec::new(),
        },
        Act::Take(k, l) => place_key(t, usize::from(l))
            .map(|at| Target::Piece {
                piece: t.def.kinds[usize::from(k)].id.clone(),
                at: Some(at),
            })
            .into_iter()
            .collect(),
        Act::Put(l) => {
            let l = usize::from(l);
            match (t.def.locs.get(l), place_key(t, l)) {
                (Some(Loc::Cell(..)), Some(key)) => vec![Target::Cell(key)],
                (_, Some(key)) => vec![zone(key)],
                _ => Vec::new(),
            }
        }
        Act::Shuffle(_)
        | Act::Gather(_)
        | Act::Deal(..)
        | Act::Flip(_)
        | Act::ShowHand(_)
        | Act::Roll
        | Act::Pass(_)
        | Act::Die(_)
        | Act::End => Vec::new(),
    }
}
