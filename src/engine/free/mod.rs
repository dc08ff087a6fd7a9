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

mod data;
mod read;
mod setup;
mod targets;
mod words;

pub use read::check;

use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::engine::registry::{EngineRun, EngineTask, run_engine, with_engine};
use crate::engine::view::Observer;
use crate::engine::{Engine, Player, RunError, State, Turn, Variant};
use crate::games::settlers_aztecs;
use crate::model::{Game, TableSetup};

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
        at: "free/setup.rs, FreeEngine::new_game",
        decides: "whether the turn passes to the next seat or to any seat the one acting names",
    }];

/// Deals at most this many cards to each seat in one move (the list of moves stays short;
/// a larger hand is dealt in two moves).
const MAX_DEAL: usize = 5;

/// A card on the table is offered at most this many empty places to move to, besides a new
/// place after the last (the list of moves stays short however many places were emptied).
const MAX_PLACES: usize = 8;

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

/// [`with_table`] for a task whose error keeps its cause
/// ([`crate::engine::registry::run_engine`]).
pub fn run_table<T: EngineRun>(game: &Game, free: bool, task: T) -> Result<T::Output, RunError> {
    if free || !has_rules(game) {
        task.run(FreeEngine::load(game)?, game)
    } else {
        run_engine(game, task)
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
    /// A place of the table area (counted from 0), empty or one past the last: a card on
    /// the table moved there keeps its side up.
    Place(u16),
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

    /// The places a card at table place `i` may be moved to: the first [`MAX_PLACES`]
    /// empty ones and a new place after the last (unless it lies there already).
    fn places_for(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let len = self.table.len();
        self.table
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_none())
            .map(|(j, _)| j)
            .take(MAX_PLACES)
            .chain((i + 1 < len).then_some(len))
    }

    /// Lays a card at table place `j`: there if it is empty or new (the places between left
    /// empty), else on the first empty place.
    fn lay_at(&mut self, card: u16, up: bool, j: usize) {
        if j >= self.table.len() {
            self.table.resize(j + 1, None);
        }
        match self.table[j] {
            None => self.table[j] = Some((card, up)),
            Some(_) => self.lay(card, up),
        }
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
        // Last, so that a saved table's move numbers still name the moves they named before
        // cards on the table could be moved between places.
        for (i, place) in self.table.iter().enumerate() {
            if place.is_some() {
                out.extend(
                    self.places_for(i)
                        .map(|j| Act::FromTable(i as u16, Dest::Place(j as u16))),
                );
            }
        }
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
                        Dest::Place(j) => self.lay_at(card, true, usize::from(j)),
                    }
                }
            }
            Act::FromTable(i, dest) => {
                let i = i as usize;
                if let Some((card, up)) = self.table.get_mut(i).and_then(Option::take) {
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
                        Dest::Place(j) => self.lay_at(card, up, usize::from(j)),
                    }
                    while self.table.last() == Some(&None) {
                        self.table.pop();
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
        data::public(self)
    }

    fn private_data(&self, seat: Player) -> Value {
        data::private(self, seat)
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

    fn targets(&self, action: Act) -> Vec<crate::engine::Target> {
        targets::of(self, action)
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
