//! The free table's engine: its seats, its variants and the table as `[table]` sets it out
//! before the first move (decks as piles, deals, pieces in front of seats and on cells).

use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::{
    CardDef, CellDef, DeckDef, Def, FreeEngine, FreeTable, KindDef, Loc, READING_POINTS, Surface,
    VARIANTS,
};
use crate::engine::{Bot, Config, Engine, Player, Variant};
use crate::model::Game;

impl Engine for FreeEngine {
    type State = FreeTable;

    fn from_model(game: &Game) -> Result<Self, String> {
        FreeEngine::read(game).map_err(|p| p.to_string())
    }

    fn variants(&self) -> &'static [Variant] {
        VARIANTS
    }

    fn reading_points(&self) -> &'static [crate::engine::readings::ReadingPoint] {
        READING_POINTS
    }

    fn player_counts(&self) -> std::ops::RangeInclusive<usize> {
        self.players.0..=self.players.1
    }

    fn seat_names(&self, players: usize) -> Option<Vec<String>> {
        Some(if self.colours.len() >= players {
            self.colours[..players].to_vec()
        } else {
            (1..=players).map(|i| format!("player {i}")).collect()
        })
    }

    fn new_game(&self, config: &Config, rng: &mut ChaCha8Rng) -> Result<FreeTable, String> {
        let n = config.players;
        let names = self.seat_names(n).unwrap_or_default();
        let mut surfaces = Vec::new();
        let board = |b: usize, owner: Option<Player>| {
            let (id, name, hex, cells) = &self.boards[b];
            Surface {
                board: id.clone(),
                name: match owner {
                    Some(p) => format!("{name} of {}", names[p]),
                    None => name.clone(),
                },
                owner,
                hex: *hex,
                cells: cells
                    .iter()
                    .map(|c| CellDef {
                        key: c.key.clone(),
                        a: c.a,
                        b: c.b,
                        label: c.label.clone(),
                    })
                    .collect(),
            }
        };
        for &b in &self.middle {
            surfaces.push(board(b, None));
        }
        for p in 0..n {
            for &b in &self.mats {
                surfaces.push(board(b, Some(p)));
            }
        }
        let mut locs = vec![Loc::Supply, Loc::Table];
        locs.extend((0..n).map(Loc::Seat));
        for (s, surface) in surfaces.iter().enumerate() {
            locs.extend((0..surface.cells.len()).map(|c| Loc::Cell(s, c)));
        }
        let free_turns = config.variant(&VARIANTS[0]) == "free";
        let def = Def {
            names,
            decks: self
                .decks
                .iter()
                .map(|d| DeckDef {
                    id: d.id.clone(),
                    name: d.name.clone(),
                })
                .collect(),
            cards: self
                .cards
                .iter()
                .map(|c| CardDef {
                    deck: c.deck,
                    design: c.design.clone(),
                    name: c.name.clone(),
                })
                .collect(),
            kinds: self
                .kinds
                .iter()
                .map(|k| KindDef {
                    id: k.id.clone(),
                    name: k.name.clone(),
                    count: k.count,
                })
                .collect(),
            surfaces,
            locs,
            dice: self.setup.dice.clone(),
            free_turns,
        };
        let mut piles: Vec<Vec<u16>> = vec![Vec::new(); def.decks.len()];
        // The data's first card on top.
        for (i, card) in def.cards.iter().enumerate().rev() {
            piles[card.deck].push(i as u16);
        }
        for (pile, &shuffle) in piles.iter_mut().zip(&self.shuffled) {
            if shuffle {
                pile.shuffle(rng);
            }
        }
        let mut pieces = vec![vec![0u16; def.locs.len()]; def.kinds.len()];
        for (k, kind) in def.kinds.iter().enumerate() {
            pieces[k][0] = kind.count;
        }
        let mut hands = vec![Vec::new(); n];
        let table_ids: Vec<&str> = def.decks.iter().map(|d| d.id.as_str()).collect();
        for deal in &self.setup.deal {
            let d = table_ids
                .iter()
                .position(|&x| x == deal.deck.get_ref())
                .unwrap_or(0);
            let seats: Vec<Player> = match deal.seat {
                Some(s) if s <= n => vec![s - 1],
                Some(_) => Vec::new(),
                None => (0..n).collect(),
            };
            for _ in 0..deal.cards {
                for &p in &seats {
                    if let Some(card) = piles[d].pop() {
                        hands[p].push(card);
                    }
                }
            }
        }
        let kind_of = |id: &str| def.kinds.iter().position(|k| k.id == id).unwrap_or(0);
        for each in &self.setup.pieces {
            let k = kind_of(each.piece.get_ref());
            let seats: Vec<Player> = match each.seat {
                Some(s) if s <= n => vec![s - 1],
                Some(_) => Vec::new(),
                None => (0..n).collect(),
            };
            for p in seats {
                let moved = each.count.min(pieces[k][0]);
                pieces[k][0] -= moved;
                pieces[k][def.loc_index(Loc::Seat(p))] += moved;
            }
        }
        for place in &self.setup.place {
            let k = kind_of(place.piece.get_ref());
            let key = place.cell.get_ref().replace(' ', "");
            let at = def.surfaces.iter().enumerate().find_map(|(s, surface)| {
                (surface.owner.is_none() && surface.board == *place.board.get_ref())
                    .then(|| {
                        surface
                            .cells
                            .iter()
                            .position(|c| c.key == key)
                            .map(|c| (s, c))
                    })
                    .flatten()
            });
            if let Some((s, c)) = at {
                let moved = place.count.min(pieces[k][0]);
                pieces[k][0] -= moved;
                pieces[k][def.loc_index(Loc::Cell(s, c))] += moved;
            }
        }
        let stream = ChaCha8Rng::seed_from_u64(rand::RngExt::random(rng));
        Ok(FreeTable {
            dice: vec![0; def.dice.len()],
            def: Arc::new(def),
            discards: vec![Vec::new(); piles.len()],
            shuffles: vec![0; piles.len()],
            piles,
            hands,
            table: Vec::new(),
            shown: vec![false; n],
            pieces,
            held: None,
            rolling: None,
            turn: 0,
            moves: 0,
            ended: false,
            rng: stream,
            events: Vec::new(),
        })
    }

    fn bot(&self, _name: &str) -> Option<Box<dyn Bot<FreeTable>>> {
        None
    }

    fn bot_names(&self) -> Vec<String> {
        Vec::new()
    }
}
