//! `components.toml`'s optional `[table]`: how the free table (`printplay table` for a game
//! without a rule engine) is set out before the first move. Without it every deck is a
//! shuffled draw pile, every piece waits in its supply and every board lies in the middle.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The free table's set-up (`[table]`): the first screen is the game's own set-up.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableSetup {
    /// The decks laid out as draw piles, by id; every deck when left out.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub decks: Option<Vec<Spanned<String>>>,
    /// The draw piles that start shuffled, by deck id; every pile when left out (`[]`: each
    /// pile starts in the data's order).
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub shuffled: Option<Vec<Spanned<String>>>,
    /// The boards in the middle of the table, by id; every board that is not a mat when left
    /// out.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub boards: Option<Vec<Spanned<String>>>,
    /// Boards each seat gets one of, in front of it (player mats), by id.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub mats: Vec<Spanned<String>>,
    /// Cards dealt at the start: `[{ deck = "common", cards = 2 }]` deals 2 to each seat;
    /// with `seat = 1` only to that seat.
    #[serde(default)]
    pub deal: Vec<TableDeal>,
    /// Pieces each seat starts with in front of it, taken from the supply:
    /// `[{ piece = "marker", count = 2 }]`; with `seat = 1` only that seat.
    #[serde(default)]
    pub pieces: Vec<TablePieces>,
    /// Pieces set on a board's cell at the start: `[{ piece = "marker", board = "board",
    /// cell = "0,0" }]` (a hex `q,r`, a square `row,column` from 1).
    #[serde(default)]
    pub place: Vec<TablePlace>,
    /// The dice on the table, each by its number of sides: `dice = [6, 6]`.
    #[serde(default)]
    pub dice: Vec<u8>,
}

/// Cards dealt from one deck's pile at the start.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableDeal {
    /// The deck (its pile) dealt from.
    #[schemars(with = "String")]
    pub deck: Spanned<String>,
    /// Cards dealt to each seat (fewer when the pile runs out).
    pub cards: u16,
    /// Only this seat, counted from 1 (every seat when left out).
    #[serde(default)]
    pub seat: Option<usize>,
}

/// Pieces a seat starts with, in front of it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TablePieces {
    /// The piece, by id.
    #[schemars(with = "String")]
    pub piece: Spanned<String>,
    /// How many each seat gets (fewer when the supply runs out).
    pub count: u16,
    /// Only this seat, counted from 1 (every seat when left out).
    #[serde(default)]
    pub seat: Option<usize>,
}

/// A piece set on a board at the start.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TablePlace {
    /// The piece, by id.
    #[schemars(with = "String")]
    pub piece: Spanned<String>,
    /// The board, by id (one in the middle of the table).
    #[schemars(with = "String")]
    pub board: Spanned<String>,
    /// The cell: `q,r` on a hex board, `row,column` (from 1) on a square one.
    #[schemars(with = "String")]
    pub cell: Spanned<String>,
    /// How many (1 when left out).
    #[serde(default = "one")]
    pub count: u16,
}

fn one() -> u16 {
    1
}
