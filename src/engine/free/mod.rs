//! The free table: a game's components on a table with no rules, for playtesting before a
//! line of rules is written (or for a game whose rules no engine plays, like the Aztecs).
//!
//! It is an engine like the others behind [`State`]: every deck on the table is a draw pile
//! (shuffled from the table's seed) with a discard pile beside it, every piece kind waits in
//! its supply, every board is a surface with its cells; `[table]` in `components.toml`
//! ([`crate::model::TableSetup`]) sets out the game's own set-up. Its moves are table
//! manipulations (draw, deal, play a card face up or down, flip, hand a card over, show the
//! hand, pick up and put down a piece, roll the dice, pass) open to the seat to act, so
//! `printplay play`, `replay`, the server and the one observer rule of
//! [`crate::engine::view`] apply unchanged: a seat sees its own hand, face-down cards as
//! backs, pile sizes but never their order; the spectator sees the public table.
//!
//! The list of moves stays bounded: a hand's cards are offered once per design, and a piece
//! moves in two steps (pick up one of a kind from a place, then put it down anywhere), so a
//! board's cells add their number of moves, not its square.

mod words;

use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::diag::Problem;
use crate::diag::place::in_components;
use crate::engine::registry::{EngineTask, with_engine};
use crate::engine::view::Observer;
use crate::engine::{Bot, Config, Engine, Player, State, Turn, Variant};
use crate::games::settlers_aztecs;
use crate::model::{BoardKind, Game, TableSetup};

/// The rule variants of the free table: how the turn passes.
pub static VARIANTS: &[Variant] = &[Variant {
    name: "turns",
    values: &["seat-order", "free"],
    doc: "The free table has no rules for whose turn it is: `seat-order` passes the turn to \
          the next seat; `free` lets the seat to act hand the turn to any seat.",
}];

/// Where the free table branches on its variant (see [`crate::engine::readings`]).
pub static READING_POINTS: &[crate::engine::readings::ReadingPoint] =
    &[crate::engine::readings::ReadingPoint {
        variant: "turns",
        at: "free/mod.rs, FreeEngine::new_game",
        decides: "whether the turn passes to the next seat or to any seat the one acting names",
    }];

/// Deals at most this many cards to each seat in one move (the list of moves stays short;
/// a larger hand is dealt in two moves).
const MAX_DEAL: usize = 5;

/// Whether a game's rules are played by an engine (else it gets the free table).
pub fn has_rules(game: &Game) -> bool {
    match game.info.engine.as_deref() {
        None => false,
        Some(id) => id != settlers_aztecs::ID,
    }
}

/// Runs `task` with the engine a table of `game` plays: the free table when asked (`free`)
/// or when no engine plays the game's rules, else the game's engine.
pub fn with_table<T: EngineTask>(game: &Game, free: bool, task: T) -> Result<T::Output, String> {
    if free || !has_rules(game) {
        task.run(FreeEngine::from_model(game)?, game)
    } else {
        with_engine(game, task)
    }
}

/// A deck on the table.
#[derive(Debug)]
struct DeckDef {
    id: String,
    name: String,
}

/// One physical card.
#[derive(Debug)]
struct CardDef {
    deck: usize,
    design: String,
    name: String,
}

/// A piece kind.
#[derive(Debug)]
struct KindDef {
    id: String,
    name: String,
    count: u16,
}

/// A board on the table: in the middle (`owner` none) or a seat's mat.
#[derive(Debug)]
struct Surface {
    board: String,
    name: String,
    owner: Option<Player>,
    hex: bool,
    cells: Vec<CellDef>,
}

#[derive(Debug)]
struct CellDef {
    /// `q,r` or `row,column`.
    key: String,
    a: i32,
    b: i32,
    label: String,
}

/// Where a piece can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loc {
    Supply,
    Table,
    Seat(Player),
    Cell(usize, usize),
}

/// Everything fixed for one table: read once, shared by every copy of the state.
#[derive(Debug)]
struct Def {
    names: Vec<String>,
    decks: Vec<DeckDef>,
    cards: Vec<CardDef>,
    kinds: Vec<KindDef>,
    surfaces: Vec<Surface>,
    /// Every place a piece can be, indexed as in [`FreeTable::pieces`].
    locs: Vec<Loc>,
    dice: Vec<u8>,
    free_turns: bool,
}

impl Def {
    fn loc_index(&self, loc: Loc) -> usize {
        self.locs.iter().position(|&l| l == loc).unwrap_or(0)
    }
}

/// Where a card goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dest {
    TableUp,
    TableDown,
    Discard,
    PileTop,
    /// A seat's hand (the acting seat's own, or another's: handing a card over).
    Hand(u8),
}

/// A manipulation of the table (or a die's roll, the one chance outcome).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Act {
    /// Shuffle a deck's draw pile.
    Shuffle(u16),
    /// Shuffle a deck's discards back into its draw pile.
    Gather(u16),
    /// Deal this many cards from a deck's pile to each seat.
    Deal(u16, u8),
    /// The top card of a deck's pile into the acting seat's hand.
    Draw(u16),
    /// The top card of a deck's pile face up onto the table.
    Reveal(u16),
    /// The top card of a deck's discards into the acting seat's hand.
    TakeDiscard(u16),
    /// A card (by its number) from the acting seat's hand.
    FromHand(u16, Dest),
    /// The card at a place on the table area.
    FromTable(u16, Dest),
    /// Turn over the card at a place on the table area.
    Flip(u16),
    /// Show the acting seat's hand to everyone, or take it back up.
    ShowHand(bool),
    /// Pick up one piece of a kind from a place.
    Take(u16, u16),
    /// Put the piece in hand down at a place.
    Put(u16),
    Roll,
    /// End the turn, handing it to this seat.
    Pass(u8),
    /// A die shows this value (chance).
    Die(u8),
    /// Close the table: the session is over (and can be exported).
    End,
}

/// What a move let someone see that its name does not say.
#[derive(Debug, Clone, PartialEq)]
enum Event {
    /// Cards into a seat's hidden hand: that seat (and the onlooker) learn them.
    Into(Player, Vec<u16>),
    /// A hidden card turned face up: everyone learns it.
    Shown(u16),
}

/// The free table in play.
#[derive(Clone)]
pub struct FreeTable {
    def: Arc<Def>,
    /// Each deck's draw pile, top last.
    piles: Vec<Vec<u16>>,
    /// Each deck's discards, face up, top last.
    discards: Vec<Vec<u16>>,
    /// How often each pile was shuffled during play (everyone sees a shuffle).
    shuffles: Vec<u16>,
    hands: Vec<Vec<u16>>,
    /// The table area: a card and whether it lies face up at each place (a place a card
    /// left stays empty until another card is laid there, so places keep their numbers).
    table: Vec<Option<(u16, bool)>>,
    shown: Vec<bool>,
    /// Pieces of each kind at each place (`Def::locs`).
    pieces: Vec<Vec<u16>>,
    /// The piece the seat to act has picked up: its kind and where it came from.
    held: Option<(u16, u16)>,
    dice: Vec<u8>,
    /// The next die to roll (chance), while the dice roll.
    rolling: Option<u8>,
    turn: Player,
    moves: u32,
    /// The table was closed.
    ended: bool,
    /// Shuffles during play draw from this stream, itself drawn from the seed at set-up.
    rng: ChaCha8Rng,
    events: Vec<Event>,
}

/// The free table's engine: the game's components, read once.
pub struct FreeEngine {
    decks: Vec<DeckDef>,
    cards: Vec<CardDef>,
    kinds: Vec<KindDef>,
    boards: Vec<(String, String, bool, Vec<CellDef>)>,
    /// Indices into `boards` for the middle of the table, and the mats.
    middle: Vec<usize>,
    mats: Vec<usize>,
    setup: TableSetup,
    /// Each deck's index among `decks` for the deck ids of the data.
    shuffled: Vec<bool>,
    colours: Vec<String>,
    players: (usize, usize),
}

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
    fn read(game: &Game) -> Result<Self, Problem> {
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

impl FreeTable {
    fn n(&self) -> usize {
        self.hands.len()
    }

    /// Every card's place, for tests: how many cards lie in the piles, the discards, the
    /// hands and the table area, against how many the decks hold.
    pub fn card_count(&self) -> (usize, usize) {
        let here = self.piles.iter().map(Vec::len).sum::<usize>()
            + self.discards.iter().map(Vec::len).sum::<usize>()
            + self.hands.iter().map(Vec::len).sum::<usize>()
            + self.table.iter().flatten().count();
        (here, self.def.cards.len())
    }

    /// Every piece kind's count on the table (held pieces included) against its supply's.
    pub fn piece_counts(&self) -> Vec<(usize, usize)> {
        self.pieces
            .iter()
            .enumerate()
            .map(|(k, at)| {
                let held = self.held.map_or(0, |(h, _)| usize::from(h as usize == k));
                (
                    at.iter().map(|&c| usize::from(c)).sum::<usize>() + held,
                    usize::from(self.def.kinds[k].count),
                )
            })
            .collect()
    }

    fn deck_of(&self, card: u16) -> usize {
        self.def.cards[card as usize].deck
    }

    /// Where the seat to act may take a piece from or put one: the supply, the table area,
    /// in front of it, every cell of the middle boards and of its own mats.
    fn reachable(&self, seat: Player) -> impl Iterator<Item = usize> + '_ {
        self.def
            .locs
            .iter()
            .enumerate()
            .filter(move |(_, l)| match l {
                Loc::Supply | Loc::Table => true,
                Loc::Seat(p) => *p == seat,
                Loc::Cell(s, _) => self.def.surfaces[*s].owner.is_none_or(|o| o == seat),
            })
            .map(|(i, _)| i)
    }

    /// Lays a card on the table area's first empty place.
    fn lay(&mut self, card: u16, up: bool) {
        match self.table.iter().position(Option::is_none) {
            Some(i) => self.table[i] = Some((card, up)),
            None => self.table.push(Some((card, up))),
        }
    }

    fn shuffle(&mut self, d: usize) {
        self.piles[d].shuffle(&mut self.rng);
        self.shuffles[d] = self.shuffles[d].saturating_add(1);
    }

    fn next_seat(&self) -> Player {
        (self.turn + 1) % self.n()
    }
}

impl State for FreeTable {
    type Action = Act;

    fn num_players(&self) -> usize {
        self.n()
    }

    fn turn(&self) -> Turn {
        if self.ended {
            Turn::Terminal
        } else if self.rolling.is_some() {
            Turn::Chance
        } else {
            Turn::Player(self.turn)
        }
    }

    fn legal_actions(&self) -> Vec<Act> {
        let p = self.turn;
        let mut out = Vec::new();
        if self.rolling.is_some() || self.ended {
            return out;
        }
        if self.held.is_some() {
            out.extend(self.reachable(p).map(|l| Act::Put(l as u16)));
            return out;
        }
        let n = self.n();
        for (d, pile) in self.piles.iter().enumerate() {
            let d16 = d as u16;
            if !pile.is_empty() {
                out.push(Act::Draw(d16));
                out.push(Act::Reveal(d16));
                for k in 1..=(pile.len() / n).min(MAX_DEAL) {
                    out.push(Act::Deal(d16, k as u8));
                }
            }
            if pile.len() >= 2 {
                out.push(Act::Shuffle(d16));
            }
            if !self.discards[d].is_empty() {
                out.push(Act::TakeDiscard(d16));
                out.push(Act::Gather(d16));
            }
        }
        let same = |a: u16, b: u16| {
            self.deck_of(a) == self.deck_of(b)
                && self.def.cards[a as usize].design == self.def.cards[b as usize].design
        };
        let hand = &self.hands[p];
        for (i, &card) in hand.iter().enumerate() {
            if hand[..i].iter().any(|&c| same(c, card)) {
                continue;
            }
            for dest in [Dest::TableUp, Dest::TableDown, Dest::Discard, Dest::PileTop] {
                out.push(Act::FromHand(card, dest));
            }
            for q in (0..n).filter(|&q| q != p) {
                out.push(Act::FromHand(card, Dest::Hand(q as u8)));
            }
        }
        for (i, place) in self.table.iter().enumerate() {
            if place.is_none() {
                continue;
            }
            let i16 = i as u16;
            out.push(Act::Flip(i16));
            for dest in [Dest::Hand(p as u8), Dest::Discard, Dest::PileTop] {
                out.push(Act::FromTable(i16, dest));
            }
        }
        if !hand.is_empty() || self.shown[p] {
            out.push(Act::ShowHand(!self.shown[p]));
        }
        for (k, at) in self.pieces.iter().enumerate() {
            for l in self.reachable(p) {
                if at[l] > 0 {
                    out.push(Act::Take(k as u16, l as u16));
                }
            }
        }
        if !self.def.dice.is_empty() {
            out.push(Act::Roll);
        }
        if self.def.free_turns {
            out.extend((0..n).filter(|&q| q != p).map(|q| Act::Pass(q as u8)));
        }
        if !self.def.free_turns || n == 1 {
            out.push(Act::Pass(self.next_seat() as u8));
        }
        out.push(Act::End);
        out
    }

    fn chance_outcomes(&self) -> Vec<(Act, f64)> {
        match self.rolling {
            Some(i) => {
                let sides = self.def.dice[i as usize];
                (1..=sides)
                    .map(|v| (Act::Die(v), 1.0 / f64::from(sides)))
                    .collect()
            }
            None => Vec::new(),
        }
    }

    fn apply(&mut self, action: Act) {
        self.events.clear();
        if !matches!(action, Act::Die(_)) {
            self.moves += 1;
        }
        let p = self.turn;
        match action {
            Act::Shuffle(d) => {
                self.shuffle(d as usize);
            }
            Act::Gather(d) => {
                let d = d as usize;
                let back = std::mem::take(&mut self.discards[d]);
                self.piles[d].extend(back);
                self.shuffle(d);
            }
            Act::Deal(d, k) => {
                let d = d as usize;
                let mut got = vec![Vec::new(); self.n()];
                for _ in 0..k {
                    for (q, mine) in got.iter_mut().enumerate() {
                        if let Some(card) = self.piles[d].pop() {
                            self.hands[q].push(card);
                            mine.push(card);
                        }
                    }
                }
                for (q, cards) in got.into_iter().enumerate() {
                    if !cards.is_empty() {
                        self.events.push(Event::Into(q, cards));
                    }
                }
            }
            Act::Draw(d) => {
                if let Some(card) = self.piles[d as usize].pop() {
                    self.hands[p].push(card);
                    self.events.push(Event::Into(p, vec![card]));
                }
            }
            Act::Reveal(d) => {
                if let Some(card) = self.piles[d as usize].pop() {
                    self.lay(card, true);
                    self.events.push(Event::Shown(card));
                }
            }
            Act::TakeDiscard(d) => {
                if let Some(card) = self.discards[d as usize].pop() {
                    self.hands[p].push(card);
                }
            }
            Act::FromHand(card, dest) => {
                if let Some(i) = self.hands[p].iter().position(|&c| c == card) {
                    self.hands[p].remove(i);
                    let deck = self.deck_of(card);
                    match dest {
                        Dest::TableUp => self.lay(card, true),
                        Dest::TableDown => self.lay(card, false),
                        Dest::Discard => self.discards[deck].push(card),
                        Dest::PileTop => self.piles[deck].push(card),
                        Dest::Hand(q) => {
                            let q = usize::from(q).min(self.n() - 1);
                            self.hands[q].push(card);
                        }
                    }
                }
            }
            Act::FromTable(i, dest) => {
                let i = i as usize;
                if let Some((card, up)) = self.table.get_mut(i).and_then(Option::take) {
                    while self.table.last() == Some(&None) {
                        self.table.pop();
                    }
                    let deck = self.deck_of(card);
                    match dest {
                        Dest::Discard => {
                            if !up {
                                self.events.push(Event::Shown(card));
                            }
                            self.discards[deck].push(card);
                        }
                        Dest::PileTop => self.piles[deck].push(card),
                        Dest::TableUp | Dest::TableDown => self.lay(card, dest == Dest::TableUp),
                        Dest::Hand(q) => {
                            let q = usize::from(q).min(self.n() - 1);
                            if !up {
                                self.events.push(Event::Into(q, vec![card]));
                            }
                            self.hands[q].push(card);
                        }
                    }
                }
            }
            Act::Flip(i) => {
                if let Some(Some(slot)) = self.table.get_mut(i as usize) {
                    slot.1 = !slot.1;
                    if slot.1 {
                        self.events.push(Event::Shown(slot.0));
                    }
                }
            }
            Act::ShowHand(show) => self.shown[p] = show,
            Act::Take(k, l) => {
                let (k, l) = (k as usize, l as usize);
                if self.pieces[k][l] > 0 {
                    self.pieces[k][l] -= 1;
                    self.held = Some((k as u16, l as u16));
                }
            }
            Act::Put(l) => {
                if let Some((k, _)) = self.held.take() {
                    self.pieces[k as usize][l as usize] += 1;
                }
            }
            Act::Roll => {
                if !self.def.dice.is_empty() {
                    self.rolling = Some(0);
                }
            }
            Act::Die(v) => {
                if let Some(i) = self.rolling {
                    self.dice[i as usize] = v;
                    let next = i as usize + 1;
                    self.rolling = (next < self.dice.len()).then_some(next as u8);
                }
            }
            Act::Pass(q) => self.turn = usize::from(q) % self.n(),
            Act::End => self.ended = true,
        }
    }

    fn returns(&self) -> Vec<f64> {
        vec![1.0 / self.n() as f64; self.n()]
    }

    fn action_name(&self, action: Act) -> String {
        self.move_name(action, Observer::Omniscient)
    }

    fn move_name(&self, action: Act, observer: Observer) -> String {
        words::move_name(self, action, observer)
    }

    fn chance_name(&self, action: Act, _observer: Observer) -> String {
        match (action, self.rolling) {
            (Act::Die(v), Some(i)) => {
                format!("die {} (d{}) shows {v}", i + 1, self.def.dice[i as usize])
            }
            _ => format!("{action:?}"),
        }
    }

    fn observation(&self, player: Player) -> String {
        format!("{}\n{}", self.public_view(), self.private_view(player))
    }

    fn public_view(&self) -> String {
        words::public_view(self)
    }

    fn private_view(&self, seat: Player) -> String {
        words::hand_line(self, seat)
    }

    fn public_data(&self) -> Value {
        let def = &self.def;
        let face = |card: u16| {
            let c = &def.cards[card as usize];
            json!({"deck": def.decks[c.deck].id, "design": c.design, "name": c.name})
        };
        let count = |k: usize, l: usize| json!({"piece": def.kinds[k].id, "name": def.kinds[k].name, "count": self.pieces[k][l]});
        let at = |l: usize| -> Vec<Value> {
            (0..def.kinds.len())
                .filter(|&k| self.pieces[k][l] > 0)
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
                    "count": self.piles[d].len(),
                    "shuffled": self.shuffles[d],
                    "discards": self.discards[d].iter().map(|&c| face(c)).collect::<Vec<_>>(),
                })
            })
            .collect();
        let table: Vec<Value> = self
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
                    json!({"place": i + 1, "face_up": false, "deck": def.decks[self.deck_of(card)].id})
                }
            })
            .collect();
        let seats: Vec<Value> = (0..self.n())
            .map(|p| {
                let held = self
                    .held
                    .filter(|_| p == self.turn)
                    .map(|(k, _)| json!({"piece": def.kinds[k as usize].id, "name": def.kinds[k as usize].name}));
                // A card's back is public: which deck each card in a hand comes from, as
                // counts by deck (in the decks' order), never which card.
                let mut by_deck = vec![0usize; def.decks.len()];
                for &c in &self.hands[p] {
                    by_deck[self.deck_of(c)] += 1;
                }
                let backs: Vec<Value> = by_deck
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(d, n)| json!({"deck": def.decks[d].id, "count": n}))
                    .collect();
                json!({
                    "name": def.names[p],
                    "hand": self.hands[p].len(),
                    "backs": backs,
                    "shown": self.shown[p].then(|| self.hands[p].iter().map(|&c| face(c)).collect::<Vec<_>>()),
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
            "closed": self.ended,
            "turns": if def.free_turns { "free" } else { "seat-order" },
            "piles": piles,
            "table": table,
            "seats": seats,
            "supply": at(0),
            "table_pieces": at(1),
            "boards": boards,
            "dice": def.dice.iter().zip(&self.dice).map(|(s, v)| json!({"sides": s, "value": (*v > 0).then_some(v)})).collect::<Vec<_>>(),
        })
    }

    fn private_data(&self, seat: Player) -> Value {
        let def = &self.def;
        let hand: Vec<Value> = self.hands[seat]
            .iter()
            .map(|&card| {
                let c = &def.cards[card as usize];
                json!({"deck": def.decks[c.deck].id, "design": c.design, "name": c.name})
            })
            .collect();
        json!({"hand": hand})
    }

    fn hidden_events(&self, _before: &Self, observer: Observer) -> Vec<String> {
        words::events(self, observer)
    }

    fn determinize(&self, observer: Player, rng: &mut ChaCha8Rng) -> Self {
        let mut copy = self.clone();
        let mut hidden: Vec<u16> = Vec::new();
        for pile in &copy.piles {
            hidden.extend(pile);
        }
        for (q, hand) in copy.hands.iter().enumerate() {
            if q != observer && !copy.shown[q] {
                hidden.extend(hand);
            }
        }
        hidden.extend(copy.table.iter().flatten().filter(|s| !s.1).map(|s| s.0));
        // A card goes back only to a place of its own deck (its back shows the deck).
        let mut by_deck: Vec<Vec<u16>> = vec![Vec::new(); copy.def.decks.len()];
        for &c in &hidden {
            by_deck[copy.deck_of(c)].push(c);
        }
        for cards in &mut by_deck {
            cards.shuffle(rng);
        }
        let deck_of = |c: u16| self.def.cards[c as usize].deck;
        let mut take = |c: u16| by_deck[deck_of(c)].pop().unwrap_or(c);
        for pile in &mut copy.piles {
            for c in pile.iter_mut() {
                *c = take(*c);
            }
        }
        for (q, hand) in copy.hands.iter_mut().enumerate() {
            if q != observer && !self.shown[q] {
                for c in hand.iter_mut() {
                    *c = take(*c);
                }
            }
        }
        for slot in copy.table.iter_mut().flatten().filter(|s| !s.1) {
            slot.0 = take(slot.0);
        }
        copy.rng = ChaCha8Rng::seed_from_u64(rand::RngExt::random(rng));
        copy
    }

    fn moves_played(&self) -> u32 {
        self.moves
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.ended.then_some("the table was closed")
    }

    fn end_stats(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }

    fn action_kind(&self, action: Act) -> &'static str {
        match action {
            Act::Shuffle(_) | Act::Gather(_) => "shuffle",
            Act::Deal(..) => "deal",
            Act::Draw(_) | Act::TakeDiscard(_) => "draw",
            Act::Reveal(_) | Act::Flip(_) => "flip",
            Act::FromHand(..) | Act::FromTable(..) => "move card",
            Act::ShowHand(_) => "show hand",
            Act::Take(..) | Act::Put(_) => "move piece",
            Act::Roll | Act::Die(_) => "roll",
            Act::Pass(_) => "pass",
            Act::End => "end",
        }
    }
}
