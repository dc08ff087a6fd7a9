//! The free table as data: the public table and a seat's hand as the page draws them.

use serde_json::{Value, json};

use super::{FreeTable, Loc};
use crate::engine::Player;

pub(super) fn public(t: &FreeTable) -> Value {
    let def = &t.def;
    let face = |card: u16| {
        let c = &def.cards[card as usize];
        json!({"deck": def.decks[c.deck].id, "design": c.design, "name": c.name})
    };
    let count = |k: usize, l: usize| json!({"piece": def.kinds[k].id, "name": def.kinds[k].name, "count": t.pieces[k][l]});
    let at = |l: usize| -> Vec<Value> {
        (0..def.kinds.len())
            .filter(|&k| t.pieces[k][l] > 0)
            .map(|k| count(k, l))
            .collect()
    };
    let piles: Vec<Value> = def
        .decks
        .iter()
        .enumerate()
        .map(|(d, deck)| {
            json!({
                "deck": deck.id,
                "name": deck.name,
                "count": t.piles[d].len(),
                "shuffled": t.shuffles[d],
                "discards": t.discards[d].iter().map(|&c| face(c)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let table: Vec<Value> = t
        .table
        .iter()
        .enumerate()
        .filter_map(|(i, place)| place.map(|p| (i, p)))
        .map(|(i, (card, up))| {
            if up {
                let mut v = face(card);
                v["place"] = json!(i + 1);
                v["face_up"] = json!(true);
                v
            } else {
                json!({"place": i + 1, "face_up": false, "deck": def.decks[t.deck_of(card)].id})
            }
        })
        .collect();
    let seats: Vec<Value> = (0..t.n())
        .map(|p| {
            let held = t
                .held
                .filter(|_| p == t.turn)
                .map(|(k, _)| json!({"piece": def.kinds[k as usize].id, "name": def.kinds[k as usize].name}));
            // A card's back is public: which deck each card in a hand comes from, as
            // counts by deck (in the decks' order), never which card.
            let mut by_deck = vec![0usize; def.decks.len()];
            for &c in &t.hands[p] {
                by_deck[t.deck_of(c)] += 1;
            }
            let backs: Vec<Value> = by_deck
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(d, n)| json!({"deck": def.decks[d].id, "count": n}))
                .collect();
            json!({
                "name": def.names[p],
                "hand": t.hands[p].len(),
                "backs": backs,
                "shown": t.shown[p].then(|| t.hands[p].iter().map(|&c| face(c)).collect::<Vec<_>>()),
                "pieces": at(def.loc_index(Loc::Seat(p))),
                "holding": held,
            })
        })
        .collect();
    let boards: Vec<Value> = def
        .surfaces
        .iter()
        .enumerate()
        .map(|(s, surface)| {
            let cells: Vec<Value> = surface
                .cells
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    json!({
                        "cell": cell.key,
                        "a": cell.a,
                        "b": cell.b,
                        "label": cell.label,
                        "pieces": at(def.loc_index(Loc::Cell(s, c))),
                    })
                })
                .collect();
            json!({
                "board": surface.board,
                "name": surface.name,
                "owner": surface.owner.map(|o| &def.names[o]),
                "grid": if surface.hex { "hex" } else if surface.cells.is_empty() { "sheet" } else { "square" },
                "cells": cells,
            })
        })
        .collect();
    json!({
        "free": true,
        "closed": t.ended,
        "turns": if def.free_turns { "free" } else { "seat-order" },
        "piles": piles,
        "table": table,
        "seats": seats,
        "supply": at(0),
        "table_pieces": at(1),
        "boards": boards,
        "dice": def.dice.iter().zip(&t.dice).map(|(s, v)| json!({"sides": s, "value": (*v > 0).then_some(v)})).collect::<Vec<_>>(),
    })
}

pub(super) fn private(t: &FreeTable, seat: Player) -> Value {
    let def = &t.def;
    let hand: Vec<Value> = t.hands[seat]
        .iter()
        .map(|&card| {
            let c = &def.cards[card as usize];
            json!({"deck": def.decks[c.deck].id, "design": c.design, "name": c.name})
        })
        .collect();
    json!({"hand": hand})
}
