//! Reading a game's components and `[table]` into the free table's engine, with one
//! problem per cause at its place in `components.toml`.

use crate::diag::Problem;
use crate::diag::place::in_components;
use crate::model::{BoardKind, Game};

use super::{CardDef, CellDef, DeckDef, FreeEngine, KindDef};

fn find(
    ids: &[&str],
    id: &toml::Spanned<String>,
    what: &str,
    game: &Game,
) -> Result<usize, Problem> {
    ids.iter().position(|&x| x == id.get_ref()).ok_or_else(|| {
        in_components(
            game,
            id.span(),
            format!(
                "[table]: no {what} `{}` (known: {})",
                id.get_ref(),
                ids.join(", ")
            ),
        )
    })
}

/// The problem with a game's `[table]`, if any (`printplay check` reports it): an id that
/// names nothing, a cell a board does not have, a die without sides, a seat out of range.
pub fn check(game: &Game) -> Option<Problem> {
    game.components.table.as_ref()?;
    FreeEngine::read(game).err()
}

fn board_cells(kind: &BoardKind) -> (bool, Vec<CellDef>) {
    match kind {
        BoardKind::Hex(h) => (
            true,
            h.cells
                .iter()
                .map(|c| CellDef {
                    key: format!("{},{}", c.q, c.r),
                    a: c.q,
                    b: c.r,
                    label: c.kind.get_ref().clone(),
                })
                .collect(),
        ),
        BoardKind::Square(s) => {
            let mut cells = Vec::new();
            for row in 1..=s.rows {
                for column in 1..=s.columns {
                    let at = s.at.iter().find(|c| c.row == row && c.column == column);
                    let label = at
                        .and_then(|c| {
                            c.label
                                .clone()
                                .or_else(|| c.ground.as_ref().map(|g| g.get_ref().clone()))
                        })
                        .or_else(|| s.ground.as_ref().map(|g| g.get_ref().clone()))
                        .unwrap_or_default();
                    cells.push(CellDef {
                        key: format!("{row},{column}"),
                        a: row as i32,
                        b: column as i32,
                        label,
                    });
                }
            }
            (false, cells)
        }
        BoardKind::Image { .. } | BoardKind::Sheet { .. } => (false, Vec::new()),
    }
}

impl FreeEngine {
    pub(super) fn read(game: &Game) -> Result<Self, Problem> {
        let c = &game.components;
        let setup = c.table.clone().unwrap_or_default();
        let deck_ids: Vec<&str> = c.decks.iter().map(|d| d.id.get_ref().as_str()).collect();
        let on_table: Vec<usize> = match &setup.decks {
            None => (0..c.decks.len()).collect(),
            Some(ids) => ids
                .iter()
                .map(|id| find(&deck_ids, id, "deck", game))
                .collect::<Result<_, _>>()?,
        };
        let mut decks = Vec::new();
        let mut cards = Vec::new();
        for &d in &on_table {
            let deck = &c.decks[d];
            for card in &deck.cards {
                for _ in 0..card.count.0 {
                    cards.push(CardDef {
                        deck: decks.len(),
                        design: card.id.get_ref().clone(),
                        name: card.name.clone(),
                    });
                }
            }
            decks.push(DeckDef {
                id: deck.id.get_ref().clone(),
                name: deck.name.clone(),
            });
        }
        if cards.len() > usize::from(u16::MAX) {
            return Err(Problem::data(format!(
                "{}: more than {} cards on the table",
                game.slug,
                u16::MAX
            )));
        }
        let table_ids: Vec<&str> = decks.iter().map(|d| d.id.as_str()).collect();
        let shuffled = match &setup.shuffled {
            None => vec![true; decks.len()],
            Some(ids) => {
                let mut s = vec![false; decks.len()];
                for id in ids {
                    s[find(&table_ids, id, "deck on the table", game)?] = true;
                }
                s
            }
        };
        let kinds: Vec<KindDef> = c
            .pieces
            .iter()
            .map(|p| KindDef {
                id: p.id.get_ref().clone(),
                name: p.name.clone(),
                count: p.count.0 as u16,
            })
            .collect();
        let board_ids: Vec<&str> = c.boards.iter().map(|b| b.id.get_ref().as_str()).collect();
        let mats = setup
            .mats
            .iter()
            .map(|id| find(&board_ids, id, "board", game))
            .collect::<Result<Vec<_>, _>>()?;
        let middle = match &setup.boards {
            None => (0..c.boards.len()).filter(|b| !mats.contains(b)).collect(),
            Some(ids) => ids
                .iter()
                .map(|id| find(&board_ids, id, "board", game))
                .collect::<Result<Vec<_>, _>>()?,
        };
        let boards = c
            .boards
            .iter()
            .map(|b| {
                let (hex, cells) = board_cells(&b.kind);
                (b.id.get_ref().clone(), b.name.clone(), hex, cells)
            })
            .collect::<Vec<_>>();
        let piece_ids: Vec<&str> = kinds.iter().map(|k| k.id.as_str()).collect();
        for deal in &setup.deal {
            find(&table_ids, &deal.deck, "deck on the table", game)?;
        }
        for p in &setup.pieces {
            find(&piece_ids, &p.piece, "piece", game)?;
        }
        let middle_ids: Vec<&str> = middle.iter().map(|&b| board_ids[b]).collect();
        for p in &setup.place {
            find(&piece_ids, &p.piece, "piece", game)?;
            let b = middle[find(&middle_ids, &p.board, "board in the middle", game)?];
            if !boards[b]
                .3
                .iter()
                .any(|cell| cell.key == p.cell.get_ref().replace(' ', ""))
            {
                return Err(in_components(
                    game,
                    p.cell.span(),
                    format!(
                        "[table]: board `{}` has no cell `{}`",
                        board_ids[b],
                        p.cell.get_ref()
                    ),
                ));
            }
        }
        if let Some(&bad) = setup.dice.iter().find(|&&s| s < 2) {
            return Err(Problem::data(format!(
                "{}: [table] dice: a die has at least 2 sides, not {bad}",
                game.components_file.path.display()
            )));
        }
        let colours = c
            .symbols
            .iter()
            .filter(|s| s.group == "player")
            .map(|s| s.name.clone())
            .collect();
        let players = (
            usize::from(game.info.players.min.max(1)),
            usize::from(game.info.players.max.max(game.info.players.min.max(1))),
        );
        for (seat, what) in setup
            .deal
            .iter()
            .map(|d| (d.seat, "deal"))
            .chain(setup.pieces.iter().map(|p| (p.seat, "pieces")))
        {
            if let Some(s) = seat.filter(|&s| s == 0 || s > players.1) {
                return Err(Problem::data(format!(
                    "{}: [table] {what}: seat {s} is not a seat from 1 to {}",
                    game.components_file.path.display(),
                    players.1
                )));
            }
        }
        Ok(FreeEngine {
            decks,
            cards,
            kinds,
            boards,
            middle,
            mats,
            setup,
            shuffled,
            colours,
            players,
        })
    }
}
