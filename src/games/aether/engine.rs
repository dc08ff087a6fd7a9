//! Aether's rule engine.
//!
//! A turn is: any number of swaps (each sacrifices an unused elemental and redraws the whole
//! hand), then one placement (a tile from the hand on an empty hex, optionally with an unused
//! elemental on it), then draws back to the hand size. Draws are chance nodes, so the bag's
//! order never exists: only its contents. Setup (the fill and the first hands) is drawn from
//! the `new_game` rng. Seat 0 starts (the rulebook picks the starting player at random; the
//! simulator randomises seats).
//!
//! Not modelled: ending early when every player agrees no aether tile can change hands
//! (Pelin loppu). An engine cannot agree; the game always runs until the last empty hex fills,
//! which scores the same whenever that agreement would have been right.

use std::fmt::Write as _;
use std::sync::Arc;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::bots::HeuristicBot;
use super::rules::{Budget, CellRole, NONE, Rules, Setup};
use crate::engine::readings::ReadingPoint;
use crate::engine::view::Observer;
use crate::engine::{Bot, CardUse, Config, Engine, Player, State, Turn, Variant};
use crate::model::Game;

/// The rulebook's ambiguities and options, selectable with `--variant NAME=VALUE`.
pub static VARIANTS: &[Variant] = &[
    Variant {
        name: "setup",
        values: &["normal", "long"],
        doc: "Alkuvalmistelut 4: the normal game fills every grey hex at setup; the long game fills only the light-grey ones.",
    },
    Variant {
        name: "teams",
        values: &["off", "on"],
        doc: "Joukkuemuunnelma: with four players, the first and third play against the second and fourth, pooling strength and points.",
    },
    Variant {
        name: "negative-strength",
        values: &["counts", "zero"],
        doc: "An elemental touching more opposing tiles than tiles of its own element has a strength below zero: it counts as is, lowering its side's total, or as zero.",
    },
    Variant {
        name: "aether-contenders",
        values: &["adjacent", "everyone"],
        doc: "Who competes for an aether tile: only players with an elemental beside it (a tile with none scores for nobody), or every player, those without an elemental at strength 0 (a tile with none is split among all).",
    },
];

/// Where the engine branches on each variant (see [`crate::engine::readings`]).
pub static READING_POINTS: &[ReadingPoint] = &[
    ReadingPoint {
        variant: "setup",
        at: "engine.rs, AetherState::new (the board's setup)",
        decides: "whether setup fills every grey hex or only the light-grey ones",
    },
    ReadingPoint {
        variant: "teams",
        at: "engine.rs, side_of and sides",
        decides: "whether four players play as two teams pooling strength and points",
    },
    ReadingPoint {
        variant: "negative-strength",
        at: "engine.rs, strength",
        decides: "whether a strength below zero counts or is zero",
    },
    ReadingPoint {
        variant: "aether-contenders",
        at: "engine.rs, winners",
        decides: "whether only players beside an aether tile compete for it",
    },
];

/// The chosen readings, decoded once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub setup: Setup,
    pub teams: bool,
    pub floor_zero: bool,
    pub everyone_contends: bool,
}

impl Options {
    pub fn from_config(config: &Config) -> Result<Options, String> {
        for (name, value) in &config.variants {
            let v = VARIANTS
                .iter()
                .find(|v| v.name == name)
                .ok_or_else(|| format!("aether has no variant `{name}`"))?;
            if !v.values.contains(&value.as_str()) {
                return Err(format!(
                    "variant `{name}` takes {}, not `{value}`",
                    v.values.join(" or ")
                ));
            }
        }
        let pick = |i: usize| config.variant(&VARIANTS[i]);
        Ok(Options {
            setup: if pick(0) == "long" {
                Setup::Long
            } else {
                Setup::Normal
            },
            teams: pick(1) == "on",
            floor_zero: pick(2) == "zero",
            everyone_contends: pick(3) == "everyone",
        })
    }
}

/// Most sides a game can have (seats, or teams in the team variant).
pub const MAX_SIDES: usize = 8;

/// Each side's total strength beside one aether tile, and whether it has an elemental there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strengths {
    pub totals: [i32; MAX_SIDES],
    pub present: [bool; MAX_SIDES],
}

/// A move or a chance outcome; small and `Copy` for search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Sacrifice an unused elemental, draw a new hand, return the old one to the bag.
    Swap,
    /// Put a tile of `element` from the hand on the empty hex `cell`, with an elemental or not.
    Place {
        cell: u8,
        element: u8,
        elemental: bool,
    },
    /// Chance: the tile drawn from the bag.
    Draw(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The current player swaps or places.
    Act,
    /// Chance: `left` draws to go, then `after`.
    Draw {
        left: u8,
        after: AfterDraw,
    },
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AfterDraw {
    NextPlayer,
    /// Return the set-aside hand to the bag; the same player acts again.
    SwapDone,
}

/// Aether's rules, ready to start games.
pub struct AetherEngine {
    rules: Arc<Rules>,
}

impl AetherEngine {
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Engine for AetherEngine {
    type State = AetherState;

    fn from_model(game: &Game) -> Result<Self, String> {
        Ok(AetherEngine {
            rules: Arc::new(Rules::from_model(game)?),
        })
    }

    fn variants(&self) -> &'static [Variant] {
        VARIANTS
    }

    fn reading_points(&self) -> &'static [ReadingPoint] {
        READING_POINTS
    }

    fn player_counts(&self) -> std::ops::RangeInclusive<usize> {
        self.rules.min_players..=self.rules.max_players
    }

    fn new_game(&self, config: &Config, rng: &mut ChaCha8Rng) -> Result<AetherState, String> {
        AetherState::new(self.rules.clone(), config, rng)
    }

    fn bot(&self, name: &str) -> Option<Box<dyn Bot<AetherState>>> {
        match name {
            "heuristic" => Some(Box::new(HeuristicBot)),
            _ => None,
        }
    }

    fn bot_names(&self) -> Vec<String> {
        vec!["heuristic".to_string()]
    }
}

/// One game of Aether.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AetherState {
    rules: Arc<Rules>,
    opts: Options,
    players: u8,
    /// Element of the tile on each cell, or `NONE`.
    tiles: Vec<u8>,
    /// Owner of the elemental on each cell, or `NONE`.
    owner: Vec<u8>,
    /// Hand contents, `players x elements` counts.
    hands: Vec<u8>,
    /// Bag contents per element.
    bag: Vec<u8>,
    /// A swapping player's old hand, out of play until the new one is drawn.
    aside: Vec<u8>,
    /// Unused elementals per player.
    supply: Vec<u8>,
    sacrificed: Vec<u8>,
    current: u8,
    phase: Phase,
    empties: u16,
    moves: u32,
    /// Turns ended: each turn places exactly one tile (rulebook: Pelivuoro); a swap at its
    /// start does not end it.
    turns: u32,
}

impl AetherState {
    fn new(rules: Arc<Rules>, config: &Config, rng: &mut ChaCha8Rng) -> Result<Self, String> {
        let opts = Options::from_config(config)?;
        let players = if config.players == 0 {
            rules.min_players
        } else {
            config.players
        };
        let elementals = rules.elementals_for(players).ok_or_else(|| {
            format!(
                "aether is for {} to {} players, not {players}",
                rules.min_players, rules.max_players
            )
        })?;
        if rules.elementals_in_box[..players]
            .iter()
            .any(|&n| n < u32::from(elementals))
        {
            return Err(format!(
                "each player needs {elementals} elementals of a colour"
            ));
        }
        if players > MAX_SIDES || rules.teams.len() > MAX_SIDES {
            return Err(format!(
                "the engine seats at most {MAX_SIDES} players or teams"
            ));
        }
        if opts.teams && players != rules.team_players {
            return Err(format!(
                "the team variant is for {} players, not {players}",
                rules.team_players
            ));
        }
        let board = rules.board(opts.setup);
        let playable = board.count(CellRole::Playable);
        let budget = Budget::of(
            board.count(CellRole::Filled),
            playable,
            players,
            usize::from(rules.hand_size),
        );
        if budget.needed() > rules.total_tiles() {
            return Err(format!(
                "the {} game at {players} players needs {} tiles, the game has {}",
                opts.setup.name(),
                budget.needed(),
                rules.total_tiles()
            ));
        }
        let cells = board.roles.len();
        let elements = rules.elements.len();
        let mut state = AetherState {
            opts,
            players: players as u8,
            tiles: vec![NONE; cells],
            owner: vec![NONE; cells],
            hands: vec![0; players * elements],
            bag: rules.tiles_per_element.clone(),
            aside: vec![0; elements],
            supply: vec![elementals; players],
            sacrificed: vec![0; players],
            current: 0,
            phase: Phase::Act,
            empties: playable as u16,
            moves: 0,
            turns: 0,
            rules: rules.clone(),
        };
        for cell in 0..cells {
            if board.roles[cell] == CellRole::Filled {
                state.tiles[cell] = state.draw_random(rng);
            }
        }
        for p in 0..players {
            for _ in 0..rules.hand_size {
                let e = state.draw_random(rng);
                state.hands[p * elements + usize::from(e)] += 1;
            }
        }
        if state.empties == 0 {
            state.phase = Phase::Over;
        }
        Ok(state)
    }

    /// Takes a random tile out of the bag (setup only; play draws through chance nodes).
    fn draw_random(&mut self, rng: &mut ChaCha8Rng) -> u8 {
        let total: u32 = self.bag.iter().map(|&n| u32::from(n)).sum();
        let mut pick = rng.random_range(0..total);
        for (e, n) in self.bag.iter_mut().enumerate() {
            if pick < u32::from(*n) {
                *n -= 1;
                return e as u8;
            }
            pick -= u32::from(*n);
        }
        unreachable!("pick < total")
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn options(&self) -> Options {
        self.opts
    }

    pub fn current(&self) -> Player {
        usize::from(self.current)
    }

    fn elements(&self) -> usize {
        self.rules.elements.len()
    }

    pub fn board(&self) -> &super::rules::BoardTables {
        self.rules.board(self.opts.setup)
    }

    /// A cell's name on the table's board: its axial coordinates `q,r`.
    pub fn cell_name(&self, cell: usize) -> String {
        let (q, r) = self.board().coords[cell];
        format!("{q},{r}")
    }

    pub fn tile(&self, cell: usize) -> Option<u8> {
        Some(self.tiles[cell]).filter(|&t| t != NONE)
    }

    pub fn elemental(&self, cell: usize) -> Option<Player> {
        Some(self.owner[cell])
            .filter(|&o| o != NONE)
            .map(usize::from)
    }

    pub fn hand(&self, player: Player) -> &[u8] {
        let e = self.elements();
        &self.hands[player * e..(player + 1) * e]
    }

    fn hand_mut(&mut self, player: Player) -> &mut [u8] {
        let e = self.elements();
        &mut self.hands[player * e..(player + 1) * e]
    }

    pub fn hand_total(&self, player: Player) -> usize {
        self.hand(player).iter().map(|&n| usize::from(n)).sum()
    }

    pub fn bag(&self) -> &[u8] {
        &self.bag
    }

    pub fn bag_total(&self) -> usize {
        self.bag.iter().map(|&n| usize::from(n)).sum()
    }

    pub fn aside_total(&self) -> usize {
        self.aside.iter().map(|&n| usize::from(n)).sum()
    }

    pub fn supply(&self, player: Player) -> u8 {
        self.supply[player]
    }

    pub fn sacrificed(&self, player: Player) -> u8 {
        self.sacrificed[player]
    }

    /// Elementals of `player` standing on the board.
    pub fn on_board(&self, player: Player) -> usize {
        self.owner
            .iter()
            .filter(|&&o| usize::from(o) == player)
            .count()
    }

    /// Whether `cell` is an empty hex a tile may be placed on.
    pub fn is_open(&self, cell: usize) -> bool {
        self.tiles[cell] == NONE && self.board().roles[cell] == CellRole::Playable
    }

    /// Tiles on the board.
    pub fn tiles_on_board(&self) -> usize {
        self.tiles.iter().filter(|&&t| t != NONE).count()
    }

    /// Empty hexes left to fill.
    pub fn empties(&self) -> usize {
        usize::from(self.empties)
    }

    /// Puts a tile (and an elemental) on a cell directly; for worked examples and bots.
    pub fn set_cell(&mut self, cell: usize, tile: Option<u8>, elemental: Option<Player>) {
        let was_empty = self.tiles[cell] == NONE && self.board().roles[cell] == CellRole::Playable;
        self.tiles[cell] = tile.unwrap_or(NONE);
        self.owner[cell] = elemental.map_or(NONE, |p| p as u8);
        let is_empty = self.tiles[cell] == NONE && self.board().roles[cell] == CellRole::Playable;
        match (was_empty, is_empty) {
            (true, false) => self.empties -= 1,
            (false, true) => self.empties += 1,
            _ => {}
        }
    }

    /// Puts a tile and, if asked, the current player's elemental on an empty hex without
    /// drawing or passing the turn: a bot's look-ahead. [`Self::undo_trial`] takes it back.
    pub(super) fn trial_place(&mut self, cell: usize, element: u8, elemental: bool) {
        self.tiles[cell] = element;
        if elemental {
            self.owner[cell] = self.current;
            self.supply[usize::from(self.current)] -= 1;
        }
    }

    pub(super) fn undo_trial(&mut self, cell: usize, elemental: bool) {
        self.tiles[cell] = NONE;
        if elemental {
            self.owner[cell] = NONE;
            self.supply[usize::from(self.current)] += 1;
        }
    }

    /// The side a player scores for: their team in the team variant, else themselves.
    pub fn side_of(&self, player: Player) -> usize {
        if self.opts.teams {
            self.rules
                .teams
                .iter()
                .position(|t| t.contains(&player))
                .unwrap_or(player)
        } else {
            player
        }
    }

    pub fn sides(&self) -> usize {
        if self.opts.teams {
            self.rules.teams.len()
        } else {
            usize::from(self.players)
        }
    }

    /// Strength of the elemental on `cell` (Elementaalit): tiles of its element touching it,
    /// its own included, minus touching tiles of the element that weakens it.
    pub fn strength(&self, cell: usize) -> i32 {
        let own = self.tiles[cell];
        let weak = self.rules.weakened_by[usize::from(own)];
        let mut s = 1;
        for &n in &self.board().neighbours[cell] {
            if n == NONE {
                break;
            }
            let t = self.tiles[usize::from(n)];
            if t == own {
                s += 1;
            } else if t == weak && weak != NONE {
                s -= 1;
            }
        }
        if self.opts.floor_zero { s.max(0) } else { s }
    }

    /// Each side's total strength beside aether tile `index`, without allocating.
    pub fn strengths_at(&self, index: usize) -> Strengths {
        let mut out = Strengths {
            totals: [0; MAX_SIDES],
            present: [false; MAX_SIDES],
        };
        let cell = usize::from(self.board().aether[index].cell);
        for &n in &self.board().neighbours[cell] {
            if n == NONE {
                break;
            }
            let o = self.owner[usize::from(n)];
            if o != NONE {
                let side = self.side_of(usize::from(o));
                out.totals[side] += self.strength(usize::from(n));
                out.present[side] = true;
            }
        }
        out
    }

    /// Each side's total strength beside aether tile `index`, and whether it has an
    /// elemental there.
    pub fn aether_strengths(&self, index: usize) -> (Vec<i32>, Vec<bool>) {
        let s = self.strengths_at(index);
        let n = self.sides();
        (s.totals[..n].to_vec(), s.present[..n].to_vec())
    }

    /// Which sides control a tile with these strengths, and how many they are.
    fn winners(&self, s: &Strengths) -> ([bool; MAX_SIDES], usize) {
        let n = self.sides();
        let competes = |side: usize| self.opts.everyone_contends || s.present[side];
        let best = (0..n).filter(|&i| competes(i)).map(|i| s.totals[i]).max();
        let mut won = [false; MAX_SIDES];
        let mut count = 0;
        if let Some(best) = best {
            for side in (0..n).filter(|&i| competes(i) && s.totals[i] == best) {
                won[side] = true;
                count += 1;
            }
        }
        (won, count)
    }

    /// The sides that control aether tile `index` (several on a tie; none if nobody competes).
    pub fn controllers(&self, index: usize) -> Vec<usize> {
        let (won, _) = self.winners(&self.strengths_at(index));
        (0..self.sides()).filter(|&s| won[s]).collect()
    }

    /// Adds aether tile `index`'s points to each side's score: its value to the side that
    /// controls it, or an equal share rounded down to each side of a tie.
    pub fn add_tile_points(&self, index: usize, scores: &mut [i32]) {
        let (won, count) = self.winners(&self.strengths_at(index));
        if count == 0 {
            return;
        }
        let share = self.board().aether[index].value / count as i32;
        for (score, _) in scores.iter_mut().zip(won).filter(|(_, w)| *w) {
            *score += share;
        }
    }

    /// Points per side as if the game ended now: aether won (ties split, rounded down) plus
    /// the points for every elemental not on the board, sacrificed ones included.
    pub fn side_scores(&self) -> Vec<i32> {
        let mut scores = vec![0; self.sides()];
        for i in 0..self.board().aether.len() {
            self.add_tile_points(i, &mut scores);
        }
        for p in 0..usize::from(self.players) {
            let unplayed = i32::from(self.supply[p]) + i32::from(self.sacrificed[p]);
            scores[self.side_of(p)] += unplayed * self.rules.unplayed_points;
        }
        scores
    }

    /// Each player's score: their side's.
    pub fn scores(&self) -> Vec<i32> {
        let sides = self.side_scores();
        (0..usize::from(self.players))
            .map(|p| sides[self.side_of(p)])
            .collect()
    }

    fn next_player(&mut self) {
        self.current = (self.current + 1) % self.players;
        self.phase = Phase::Act;
    }

    fn finish_draws(&mut self, after: AfterDraw) {
        match after {
            AfterDraw::NextPlayer => self.next_player(),
            AfterDraw::SwapDone => {
                for (b, a) in self.bag.iter_mut().zip(self.aside.iter_mut()) {
                    *b += *a;
                    *a = 0;
                }
                self.phase = Phase::Act;
            }
        }
    }

    fn can_swap(&self) -> bool {
        self.supply[self.current()] >= self.rules.swap_sacrifice
            && self.bag_total() >= usize::from(self.rules.hand_size)
    }

    fn place(&mut self, cell: u8, element: u8, elemental: bool) {
        let p = self.current();
        self.hand_mut(p)[usize::from(element)] -= 1;
        self.tiles[usize::from(cell)] = element;
        if elemental {
            self.owner[usize::from(cell)] = self.current;
            self.supply[p] -= 1;
        }
        self.empties -= 1;
        if self.empties == 0 {
            // Pelin loppu: the last empty hex is filled; nobody draws.
            self.phase = Phase::Over;
            return;
        }
        let short = usize::from(self.rules.hand_size).saturating_sub(self.hand_total(p));
        let left = short.min(self.bag_total()) as u8;
        if left == 0 {
            self.next_player();
        } else {
            self.phase = Phase::Draw {
                left,
                after: AfterDraw::NextPlayer,
            };
        }
    }

    fn swap(&mut self) {
        let p = self.current();
        self.supply[p] -= self.rules.swap_sacrifice;
        self.sacrificed[p] += self.rules.swap_sacrifice;
        let e = self.elements();
        for i in 0..e {
            self.aside[i] = self.hands[p * e + i];
            self.hands[p * e + i] = 0;
        }
        self.phase = Phase::Draw {
            left: self.rules.hand_size,
            after: AfterDraw::SwapDone,
        };
    }

    fn draw(&mut self, element: u8) {
        let Phase::Draw { left, after } = self.phase else {
            return;
        };
        let p = self.current();
        self.bag[usize::from(element)] -= 1;
        self.hand_mut(p)[usize::from(element)] += 1;
        if left <= 1 || self.bag_total() == 0 {
            self.finish_draws(after);
        } else {
            self.phase = Phase::Draw {
                left: left - 1,
                after,
            };
        }
    }

    /// Draws `n` tiles at random from `pool` (counts per element) into `into`.
    fn deal_from(pool: &mut [u32], into: &mut [u8], n: usize, rng: &mut ChaCha8Rng) {
        for _ in 0..n {
            let total: u32 = pool.iter().sum();
            if total == 0 {
                return;
            }
            let mut pick = rng.random_range(0..total);
            for (e, c) in pool.iter_mut().enumerate() {
                if pick < *c {
                    *c -= 1;
                    into[e] += 1;
                    break;
                }
                pick -= *c;
            }
        }
    }

    fn element_name(&self, e: u8) -> &str {
        self.rules
            .elements
            .get(usize::from(e))
            .map_or("?", String::as_str)
    }

    fn colour(&self, p: Player) -> &str {
        self.rules.colours.get(p).map_or("?", String::as_str)
    }

    fn counts_text(&self, counts: &[u8]) -> String {
        let parts: Vec<String> = counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(e, n)| format!("{n} {}", self.element_name(e as u8)))
            .collect();
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

impl State for AetherState {
    type Action = Action;

    fn num_players(&self) -> usize {
        usize::from(self.players)
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Act => Turn::Player(self.current()),
            Phase::Draw { .. } => Turn::Chance,
            Phase::Over => Turn::Terminal,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        if self.phase != Phase::Act {
            return Vec::new();
        }
        let p = self.current();
        let with_elemental = self.supply[p] > 0;
        let hand = self.hand(p);
        let mut out = Vec::with_capacity(usize::from(self.empties) * 8 + 1);
        if self.can_swap() {
            out.push(Action::Swap);
        }
        let roles = &self.board().roles;
        for (cell, (&t, role)) in self.tiles.iter().zip(roles).enumerate() {
            if t != NONE || *role != CellRole::Playable {
                continue;
            }
            for (e, &n) in hand.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let (cell, element) = (cell as u8, e as u8);
                out.push(Action::Place {
                    cell,
                    element,
                    elemental: false,
                });
                if with_elemental {
                    out.push(Action::Place {
                        cell,
                        element,
                        elemental: true,
                    });
                }
            }
        }
        out
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        if !matches!(self.phase, Phase::Draw { .. }) {
            return Vec::new();
        }
        let total = self.bag_total() as f64;
        self.bag
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(e, &n)| (Action::Draw(e as u8), f64::from(n) / total))
            .collect()
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Swap => {
                self.moves += 1;
                self.swap();
            }
            Action::Place {
                cell,
                element,
                elemental,
            } => {
                self.moves += 1;
                self.turns += 1;
                self.place(cell, element, elemental);
            }
            Action::Draw(e) => self.draw(e),
        }
    }

    fn returns(&self) -> Vec<f64> {
        let sides = self.side_scores();
        let best = sides.iter().copied().max().unwrap_or(0);
        let winners = sides.iter().filter(|&&s| s == best).count() as f64;
        (0..usize::from(self.players))
            .map(|p| {
                if sides[self.side_of(p)] == best {
                    1.0 / winners
                } else {
                    0.0
                }
            })
            .collect()
    }

    fn action_name(&self, action: Action) -> String {
        match action {
            Action::Swap => format!(
                "{} sacrifices an elemental and swaps their tiles",
                self.colour(self.current())
            ),
            Action::Place {
                cell,
                element,
                elemental,
            } => {
                let (q, r) = self.board().coords[usize::from(cell)];
                let with = if elemental { " with an elemental" } else { "" };
                format!(
                    "{} places {} tile at q={q}, r={r}{with}",
                    self.colour(self.current()),
                    with_article(self.element_name(element))
                )
            }
            Action::Draw(e) => format!(
                "{} draws {} tile",
                self.colour(self.current()),
                with_article(self.element_name(e))
            ),
        }
    }

    /// The tile drawn goes behind its player's screen (rulebook: Pelivuoro, "asettaa sen näkösuojansa taakse"): other seats
    /// learn only that a tile was drawn.
    fn chance_name(&self, action: Action, observer: Observer) -> String {
        match action {
            Action::Draw(_) if !observer.sees_hand(self.current()) => {
                format!("{} draws a tile", self.colour(self.current()))
            }
            _ => self.action_name(action),
        }
    }

    fn observation(&self, player: Player) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Aether, {} game, {} players{}; {} to act; {}; bag {}",
            self.opts.setup.name(),
            self.players,
            if self.opts.teams { ", teams" } else { "" },
            self.colour(self.current()),
            crate::messages::count_of(u32::from(self.empties), "empty hex", "empty hexes"),
            crate::messages::count_of(self.bag_total(), "tile", "tiles")
        );
        for (cell, &(q, r)) in self.board().coords.iter().enumerate() {
            let tile = self.tile(cell);
            let role = self.board().roles[cell];
            if tile.is_none() && !matches!(role, CellRole::Aether(_)) {
                continue;
            }
            let _ = write!(out, "q={q}, r={r}: ");
            match (role, tile) {
                (CellRole::Aether(i), _) => {
                    let _ = write!(out, "aether {}", self.board().aether[usize::from(i)].value);
                }
                (_, Some(t)) => {
                    let _ = write!(out, "{}", self.element_name(t));
                }
                _ => {}
            }
            if let Some(o) = self.elemental(cell) {
                let _ = write!(
                    out,
                    " + {} elemental (strength {})",
                    self.colour(o),
                    self.strength(cell)
                );
            }
            out.push('\n');
        }
        for p in 0..usize::from(self.players) {
            let hand = if p == player {
                self.counts_text(self.hand(p))
            } else {
                crate::messages::count_of(self.hand_total(p), "hidden tile", "hidden tiles")
            };
            let _ = writeln!(
                out,
                "{}: hand {hand}; {} unused, {} sacrificed",
                self.colour(p),
                crate::messages::count_of(self.supply[p], "elemental", "elementals"),
                self.sacrificed[p]
            );
        }
        out
    }

    /// The table as every player sees it: whose turn, the board, and for each seat how many
    /// tiles stand behind its screen (not which), its elementals unused and sacrificed.
    fn public_view(&self) -> String {
        let mut out = String::new();
        let who = self.colour(self.current());
        let turn = match self.phase {
            Phase::Over => format!(
                "game over after {}",
                crate::messages::count_of(self.turns, "turn", "turns")
            ),
            Phase::Act => format!("turn {}, {who} to act", self.turns + 1),
            Phase::Draw {
                after: AfterDraw::SwapDone,
                ..
            } => format!("turn {}, {who} draws after a swap", self.turns + 1),
            Phase::Draw { .. } => format!("turn {}, {who} draws", self.turns),
        };
        let _ = writeln!(
            out,
            "{turn}; {}; bag {}",
            crate::messages::count_of(self.empties, "empty hex", "empty hexes"),
            crate::messages::count_of(self.bag_total(), "tile", "tiles")
        );
        let full = self.observation(self.current());
        for line in full.lines().skip(1) {
            if line.starts_with("q=") {
                let _ = writeln!(out, "{line}");
            }
        }
        for p in 0..usize::from(self.players) {
            let _ = writeln!(
                out,
                "{}: {} behind the screen; {} unused, {} sacrificed",
                self.colour(p),
                crate::messages::count_of(self.hand_total(p), "tile", "tiles"),
                crate::messages::count_of(self.supply[p], "elemental", "elementals"),
                self.sacrificed[p]
            );
        }
        out
    }

    /// The tiles behind `seat`'s screen.
    fn private_view(&self, seat: Player) -> String {
        format!("behind the screen: {}", self.counts_text(self.hand(seat)))
    }

    /// [`State::public_view`] as data: the turn, the board hex by hex (its aether tile and
    /// value, or its element tile, and the elemental on it with its strength), the bag and
    /// each seat's counts.
    fn public_data(&self) -> serde_json::Value {
        let hexes: Vec<serde_json::Value> = self
            .board()
            .coords
            .iter()
            .enumerate()
            .map(|(cell, &(q, r))| {
                let (kind, value, element) = match (self.board().roles[cell], self.tile(cell)) {
                    (CellRole::Aether(i), _) => (
                        "aether",
                        Some(self.board().aether[usize::from(i)].value),
                        None,
                    ),
                    (_, Some(t)) => ("element", None, Some(self.element_name(t))),
                    _ => ("empty", None, None),
                };
                let elemental = self.elemental(cell).map(|o| {
                    serde_json::json!({ "colour": self.colour(o), "strength": self.strength(cell) })
                });
                serde_json::json!({
                    "q": q,
                    "r": r,
                    "kind": kind,
                    "value": value,
                    "element": element,
                    "elemental": elemental,
                })
            })
            .collect();
        let seats: Vec<serde_json::Value> = (0..usize::from(self.players))
            .map(|p| {
                serde_json::json!({
                    "colour": self.colour(p),
                    "tiles_behind_screen": self.hand_total(p),
                    "elementals_unused": self.supply[p],
                    "elementals_sacrificed": self.sacrificed[p],
                })
            })
            .collect();
        serde_json::json!({
            "turn": self.turns + u32::from(matches!(self.phase, Phase::Act)),
            "to_act": (!matches!(self.phase, Phase::Over)).then(|| self.colour(self.current())),
            "empty_hexes": self.empties,
            "bag": self.bag_total(),
            "board": hexes,
            "seats": seats,
        })
    }

    /// The tiles behind `seat`'s screen, by element.
    fn private_data(&self, seat: Player) -> serde_json::Value {
        let tiles: serde_json::Map<String, serde_json::Value> = self
            .hand(seat)
            .iter()
            .enumerate()
            .map(|(e, &n)| (self.element_name(e as u8).to_string(), n.into()))
            .collect();
        serde_json::json!({ "behind_the_screen": tiles })
    }

    fn determinize(&self, observer: Player, rng: &mut ChaCha8Rng) -> Self {
        let mut s = self.clone();
        let e = self.elements();
        let hide_aside = self.current() != observer;
        let mut pool: Vec<u32> = s.bag.iter().map(|&n| u32::from(n)).collect();
        let mut sizes = vec![0; usize::from(self.players)];
        for p in (0..usize::from(self.players)).filter(|&p| p != observer) {
            sizes[p] = s.hand_total(p);
            for (i, n) in s.hand_mut(p).iter_mut().enumerate() {
                pool[i] += u32::from(*n);
                *n = 0;
            }
        }
        let aside_size = if hide_aside { s.aside_total() } else { 0 };
        if hide_aside {
            for (i, a) in s.aside.iter_mut().enumerate() {
                pool[i] += u32::from(*a);
                *a = 0;
            }
        }
        for (p, &size) in sizes.iter().enumerate() {
            Self::deal_from(&mut pool, &mut s.hands[p * e..(p + 1) * e], size, rng);
        }
        Self::deal_from(&mut pool, &mut s.aside, aside_size, rng);
        for (b, n) in s.bag.iter_mut().zip(pool) {
            *b = n as u8;
        }
        s
    }

    fn moves_played(&self) -> u32 {
        self.moves
    }

    fn turns_played(&self) -> Option<u32> {
        Some(self.turns)
    }

    /// A placement: the tile from behind the screen, the seat's elemental if it goes with
    /// it, then the hex (`q,r`); a swap: the bag the old hand goes back to.
    fn targets(&self, action: Action) -> Vec<crate::engine::Target> {
        use crate::engine::Target;
        match action {
            Action::Swap => vec![Target::Zone("bag".into())],
            Action::Place {
                cell,
                element,
                elemental,
            } => {
                let piece = |id: Option<&&'static str>| Target::Piece {
                    piece: id.map_or("?", |s| *s).to_string(),
                    at: None,
                };
                let mut out = vec![piece(self.rules.tile_ids.get(usize::from(element)))];
                if elemental {
                    out.push(piece(self.rules.elemental_ids.get(self.current())));
                }
                out.push(Target::Cell(self.cell_name(usize::from(cell))));
                out
            }
            Action::Draw(_) => Vec::new(),
        }
    }

    /// The data's board, with each placed tile and elemental on its hex.
    fn board(&self) -> Option<crate::engine::BoardView> {
        let mut pieces = Vec::new();
        for cell in 0..self.board().coords.len() {
            let at = Some(self.cell_name(cell));
            if let Some(t) = self.tile(cell) {
                pieces.extend(self.rules.tile_ids.get(usize::from(t)).map(|id| {
                    crate::engine::Placed {
                        piece: id.to_string(),
                        at: at.clone(),
                        count: 1,
                    }
                }));
            }
            if let Some(o) = self.elemental(cell) {
                pieces.extend(
                    self.rules
                        .elemental_ids
                        .get(o)
                        .map(|id| crate::engine::Placed {
                            piece: id.to_string(),
                            at: at.clone(),
                            count: 1,
                        }),
                );
            }
        }
        Some(crate::engine::BoardView {
            board: Some(self.rules.board_id.clone()),
            pieces,
            ..Default::default()
        })
    }

    /// The tiles behind the seat's screen and its unused elementals.
    fn hand_pieces(&self, seat: Player) -> Vec<crate::engine::Placed> {
        let mut out: Vec<crate::engine::Placed> = self
            .hand(seat)
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(e, &n)| crate::engine::Placed {
                piece: self.rules.tile_ids.get(e).map_or("?", |s| *s).to_string(),
                at: None,
                count: u32::from(n),
            })
            .collect();
        let left = self.supply(seat);
        if left > 0 {
            out.push(crate::engine::Placed {
                piece: self
                    .rules
                    .elemental_ids
                    .get(seat)
                    .map_or("?", |s| *s)
                    .to_string(),
                at: None,
                count: u32::from(left),
            });
        }
        out
    }

    /// The element tile a seat puts one of its elementals on. Every seat places tiles of
    /// all four elements in nearly every game (a tile must be placed each turn, and which
    /// element is the draw's), so tiles placed alone would tell the designs apart by nothing;
    /// the choice is which element a seat's elementals draw their strength from. A
    /// placement without an elemental names no design. Every placement is for its effect.
    fn cards_of(&self, action: Action, out: &mut Vec<CardUse>) -> bool {
        if let Action::Place {
            element,
            elemental: true,
            ..
        } = action
        {
            out.extend(
                self.rules
                    .tile_ids
                    .get(usize::from(element))
                    .map(|&id| CardUse::effect(id)),
            );
        }
        true
    }

    fn end_reason(&self) -> Option<&'static str> {
        (self.phase == Phase::Over).then_some("board full")
    }

    fn final_points(&self) -> Option<Vec<i64>> {
        Some(self.scores().into_iter().map(i64::from).collect())
    }

    fn end_stats(&self) -> Vec<(&'static str, f64)> {
        let tiles = self.board().aether.len();
        let contested = (0..tiles)
            .filter(|&i| self.aether_strengths(i).1.iter().filter(|p| **p).count() >= 2)
            .count();
        let unclaimed = (0..tiles)
            .filter(|&i| self.controllers(i).is_empty())
            .count();
        let mut sides = self.side_scores();
        sides.sort_unstable_by(|a, b| b.cmp(a));
        let margin = sides.first().zip(sides.get(1)).map_or(0, |(a, b)| a - b);
        let sacrificed: u32 = self.sacrificed.iter().map(|&n| u32::from(n)).sum();
        let placed = self.owner.iter().filter(|&&o| o != NONE).count();
        let players = f64::from(self.players);
        let taken = self
            .rules
            .elementals_for(usize::from(self.players))
            .map_or(0.0, |n| f64::from(n) * players);
        let placements = self.board().count(CellRole::Playable) as f64 - self.empties as f64;
        vec![
            ("aether tiles contested", contested as f64),
            ("aether tiles unclaimed", unclaimed as f64),
            ("score margin", f64::from(margin)),
            ("elementals sacrificed", f64::from(sacrificed)),
            ("elementals on board", placed as f64),
            ("share of elementals placed", placed as f64 / taken.max(1.0)),
            ("placements per player", placements / players),
            (
                "swaps",
                f64::from(sacrificed) / f64::from(self.rules.swap_sacrifice),
            ),
        ]
    }
}

/// An English element name with its indefinite article: "an air", "a fire".
fn with_article(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {word}", if vowel { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::games::aether::tests::load;

    fn engine() -> AetherEngine {
        AetherEngine::from_model(&load()).expect("engine reads the shipped data")
    }

    #[test]
    fn every_legal_move_says_where_it_acts_and_the_clicks_name_one_move() {
        let game = load();
        let board = crate::games::aether::rules::the_board(&game).unwrap();
        let cells: Vec<String> = board
            .hex_cells()
            .iter()
            .map(|c| format!("{},{}", c.q, c.r))
            .collect();
        for players in [2, 4] {
            let seen = crate::engine::testing::check_targets(
                &engine(),
                &config(players, &[]),
                6,
                9,
                &cells,
            )
            .unwrap_or_else(|e| panic!("{players} players: {e}"));
            assert!(seen.moves > 2000, "{seen:?}");
            let kinds: Vec<&str> = seen.kinds.iter().map(String::as_str).collect();
            assert_eq!(kinds, ["cell", "piece", "zone"]);
        }
        // A placement is its tile, the elemental if it goes with it, then its hex.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let s = engine().new_game(&config(2, &[]), &mut rng).unwrap();
        let with = s
            .legal_actions()
            .into_iter()
            .find(|a| {
                matches!(
                    a,
                    Action::Place {
                        elemental: true,
                        ..
                    }
                )
            })
            .unwrap();
        let keys: Vec<String> = s.targets(with).iter().map(|t| t.key()).collect();
        assert_eq!(keys.len(), 3);
        assert!(keys[0].starts_with("piece:tile-"), "{keys:?}");
        assert_eq!(keys[1], "piece:elemental-yellow");
        assert!(keys[2].starts_with("cell:"), "{keys:?}");
        // The board shows the tiles the setup filled, on the hexes they lie on.
        let b = State::board(&s).unwrap();
        assert_eq!(b.board.as_deref(), Some("board"));
        assert!(b.pieces.len() >= 14, "{}", b.pieces.len());
        assert!(
            b.pieces
                .iter()
                .all(|p| cells.contains(p.at.as_ref().unwrap()))
        );
    }

    fn config(players: usize, variants: &[(&str, &str)]) -> Config {
        Config::with_variants(players, variants)
    }

    fn game(players: usize, variants: &[(&str, &str)]) -> AetherState {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        engine()
            .new_game(&config(players, variants), &mut rng)
            .expect("new game")
    }

    /// A game whose board holds no tiles and no elementals.
    fn bare(players: usize, variants: &[(&str, &str)]) -> AetherState {
        let mut s = game(players, variants);
        for cell in 0..s.board().roles.len() {
            s.set_cell(cell, None, None);
        }
        s
    }

    fn cell(s: &AetherState, q: i32, r: i32) -> usize {
        s.board()
            .coords
            .iter()
            .position(|&c| c == (q, r))
            .expect("cell on the board")
    }

    fn element(s: &AetherState, id: &str) -> u8 {
        s.rules()
            .elements
            .iter()
            .position(|e| e == id)
            .expect("element") as u8
    }

    /// Puts a tile, and an elemental from its owner's supply, on a hex.
    fn put(s: &mut AetherState, q: i32, r: i32, el: &str, elemental: Option<Player>) {
        let (c, e) = (cell(s, q, r), element(s, el));
        s.set_cell(c, Some(e), elemental);
        if let Some(p) = elemental {
            s.supply[p] -= 1;
        }
    }

    fn value_at(s: &AetherState, q: i32, r: i32) -> i32 {
        s.board().aether[aether_at(s, q, r)].value
    }

    fn aether_at(s: &AetherState, q: i32, r: i32) -> usize {
        let c = cell(s, q, r);
        s.board()
            .aether
            .iter()
            .position(|a| usize::from(a.cell) == c)
            .expect("aether tile there")
    }

    #[test]
    fn strength_example() {
        // Elementaalit, Voimaesimerkki: a fire elemental on fire, touching two more fire
        // tiles and one water tile, has strength 3 - 1 = 2; the earth tile beside it
        // does not count.
        let mut s = bare(2, &[]);
        put(&mut s, 0, 0, "fire", Some(0));
        put(&mut s, 1, 0, "fire", None);
        put(&mut s, 0, 1, "fire", None);
        put(&mut s, -1, 1, "water", None);
        put(&mut s, -1, 0, "earth", None);
        assert_eq!(s.strength(cell(&s, 0, 0)), 2);
        // A fire tile under another elemental still counts.
        put(&mut s, 0, -1, "fire", Some(1));
        assert_eq!(s.strength(cell(&s, 0, 0)), 3);
    }

    /// The majority example around the 10-point tile at q=2, r=0: yellow (seat 0) has an
    /// earth elemental of strength 2 and a water elemental of strength 1; red (seat 1) a fire
    /// elemental of strength 4.
    fn majority_example() -> AetherState {
        let mut s = bare(2, &[]);
        put(&mut s, 1, 0, "fire", Some(1));
        put(&mut s, 0, 0, "fire", None);
        put(&mut s, 1, -1, "fire", None);
        put(&mut s, 0, 1, "fire", None);
        put(&mut s, 2, 1, "earth", Some(0));
        put(&mut s, 3, 1, "earth", None);
        put(&mut s, 3, -1, "water", Some(0));
        s
    }

    #[test]
    fn majority_example_red_wins_the_ten() {
        let s = majority_example();
        let tile = aether_at(&s, 2, 0);
        assert_eq!(s.board().aether[tile].value, 10);
        let (totals, _) = s.aether_strengths(tile);
        assert_eq!(totals, vec![3, 4]);
        assert_eq!(s.controllers(tile), vec![1]);
        // Besides the 10, yellow's earth elemental alone touches the tile at q=2, r=2.
        let unplayed = |p: Player| 3 * i32::from(s.supply(p));
        assert_eq!(
            s.scores(),
            vec![value_at(&s, 2, 2) + unplayed(0), 10 + unplayed(1)]
        );
    }

    #[test]
    fn majority_example_tips_tie_and_split() {
        // Vinkki: an earth tile beside yellow's earth elemental raises it to 3: 4 against 4.
        let mut s = majority_example();
        put(&mut s, 1, 2, "earth", None);
        let tile = aether_at(&s, 2, 0);
        assert_eq!(s.aether_strengths(tile).0, vec![4, 4]);
        assert_eq!(s.controllers(tile), vec![0, 1]);
        // Or a water tile beside red's fire elemental weakens it to 3: 3 against 3.
        let mut s = majority_example();
        put(&mut s, 1, 1, "water", None);
        assert_eq!(s.aether_strengths(tile).0, vec![3, 3]);
        let before = majority_example().scores();
        let after = s.scores();
        // The 10 is now split 5 / 5.
        assert_eq!(after[0] - before[0], 5);
        assert_eq!(before[1] - after[1], 5);
    }

    #[test]
    fn ties_split_rounded_down() {
        // Three players of strength 1 each around the 10: 10 / 3 = 3 points each.
        let mut s = bare(3, &[]);
        put(&mut s, 1, 0, "earth", Some(0));
        put(&mut s, 3, -1, "earth", Some(1));
        put(&mut s, 2, 1, "earth", Some(2));
        let tile = aether_at(&s, 2, 0);
        assert_eq!(s.aether_strengths(tile).0, vec![1, 1, 1]);
        assert_eq!(s.controllers(tile), vec![0, 1, 2]);
        // The third elemental also touches the tile at q=2, r=2 alone.
        let unplayed = 3 * i32::from(s.supply(0));
        assert_eq!(
            s.scores(),
            vec![
                3 + unplayed,
                3 + unplayed,
                3 + value_at(&s, 2, 2) + unplayed
            ]
        );
    }

    #[test]
    fn unplayed_and_sacrificed_elementals_score() {
        let mut s = bare(2, &[]);
        let per = i32::from(s.rules().elementals_per_player[0]);
        let points = s.rules().unplayed_points;
        assert_eq!(s.scores(), vec![per * points, per * points]);
        assert!(s.legal_actions().contains(&Action::Swap));
        s.apply(Action::Swap);
        assert_eq!(s.turn(), Turn::Chance);
        while s.turn() == Turn::Chance {
            let (a, _) = s.chance_outcomes()[0];
            s.apply(a);
        }
        assert_eq!((s.supply(0), s.sacrificed(0)), (per as u8 - 1, 1));
        // A sacrificed elemental still scores; one on the board (beside no aether) does not.
        assert_eq!(s.scores()[0], per * points);
        put(&mut s, 0, 0, "fire", Some(0));
        assert_eq!(s.scores()[0], (per - 1) * points);
    }

    #[test]
    fn swap_returns_the_old_hand_after_drawing() {
        let mut s = game(2, &[]);
        let bag = s.bag_total();
        s.apply(Action::Swap);
        assert_eq!(s.hand_total(0), 0);
        assert_eq!(s.aside_total(), usize::from(s.rules().hand_size));
        while s.turn() == Turn::Chance {
            let (a, _) = s.chance_outcomes()[0];
            s.apply(a);
        }
        assert_eq!(s.turn(), Turn::Player(0), "the same player goes on");
        assert_eq!(s.hand_total(0), usize::from(s.rules().hand_size));
        assert_eq!((s.aside_total(), s.bag_total()), (0, bag));
    }

    #[test]
    fn teams_pool_strength_and_points() {
        let variants = [("teams", "on")];
        let mut s = bare(4, &variants);
        // Yellow (seat 0) and blue (seat 2) each have strength 2; red (seat 1) has 3.
        put(&mut s, 1, 0, "fire", Some(0));
        put(&mut s, 1, -1, "fire", None);
        put(&mut s, 3, -1, "earth", Some(2));
        put(&mut s, 4, -1, "earth", None);
        put(&mut s, 2, 1, "air", Some(1));
        put(&mut s, 3, 1, "air", None);
        put(&mut s, 1, 2, "air", None);
        let tile = aether_at(&s, 2, 0);
        assert_eq!(s.aether_strengths(tile).0, vec![4, 3]);
        assert_eq!(s.controllers(tile), vec![0]);
        assert_eq!(s.side_of(2), 0);
        assert_eq!(s.side_of(3), 1);
        let scores = s.scores();
        assert_eq!(scores[0], scores[2], "team mates share one score");
        assert_eq!(scores[1], scores[3]);
        // Without teams red's 3 beats each of the others' 2.
        let mut solo = bare(4, &[]);
        for (c, (t, o)) in s.tiles.iter().zip(&s.owner).enumerate() {
            solo.tiles[c] = *t;
            solo.owner[c] = *o;
        }
        assert_eq!(solo.controllers(tile), vec![1]);
    }

    #[test]
    fn negative_strength_variant() {
        // An air elemental touching two earth tiles (earth beats air): 1 - 2 = -1.
        for (value, expected) in [("counts", -1), ("zero", 0)] {
            let mut s = bare(2, &[("negative-strength", value)]);
            put(&mut s, 0, 0, "air", Some(0));
            put(&mut s, 1, 0, "earth", None);
            put(&mut s, 0, 1, "earth", None);
            assert_eq!(s.strength(cell(&s, 0, 0)), expected, "{value}");
        }
    }

    #[test]
    fn aether_contenders_variant() {
        let tile_value = |s: &AetherState| s.board().aether[aether_at(s, 2, 0)].value;
        let s = bare(2, &[]);
        assert!(s.controllers(aether_at(&s, 2, 0)).is_empty());
        let s = bare(2, &[("aether-contenders", "everyone")]);
        assert_eq!(s.controllers(aether_at(&s, 2, 0)), vec![0, 1]);
        // A lone elemental of strength -1 loses to a player with none at all.
        let mut s = bare(2, &[("aether-contenders", "everyone")]);
        put(&mut s, 1, 0, "air", Some(0));
        put(&mut s, 0, 0, "earth", None);
        put(&mut s, 1, -1, "earth", None);
        assert_eq!(s.controllers(aether_at(&s, 2, 0)), vec![1]);
        assert!(tile_value(&s) > 0);
    }

    #[test]
    fn bad_configs_are_refused() {
        let e = engine();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for (players, variants) in [
            (5, vec![]),
            (1, vec![]),
            (3, vec![("teams", "on")]),
            (2, vec![("setup", "short")]),
            (2, vec![("colour", "red")]),
        ] {
            assert!(
                e.new_game(&config(players, &variants), &mut rng).is_err(),
                "{players} {variants:?}"
            );
        }
    }

    #[test]
    fn the_data_sets_the_numbers() {
        let edited = crate::games::aether::tests::load_with(&[
            (
                "[params.hand_size]\nvalue = 4",
                "[params.hand_size]\nvalue = 5",
            ),
            ("value = [14, 11, 9]", "value = [12, 11, 9]"),
            (
                "[params.unplayed_elemental_points]\nvalue = 3",
                "[params.unplayed_elemental_points]\nvalue = 2",
            ),
            (
                r#"value = [["water", "fire"], ["fire", "earth"], ["earth", "air"], ["air", "water"]]"#,
                r#"value = [["earth", "water"], ["water", "fire"], ["fire", "air"], ["air", "earth"]]"#,
            ),
        ]);
        let e = AetherEngine::from_model(&edited).expect("edited data loads");
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut s = e.new_game(&config(2, &[]), &mut rng).expect("game");
        assert_eq!(s.hand_total(0), 5);
        assert_eq!(s.supply(1), 12);
        assert_eq!(s.scores(), vec![24, 24]);
        for cell in 0..s.board().roles.len() {
            s.set_cell(cell, None, None);
        }
        // Earth now weakens water: a water elemental touching two earth tiles has 1 - 2.
        put(&mut s, 0, 0, "water", Some(0));
        put(&mut s, 1, 0, "earth", None);
        put(&mut s, 0, 1, "earth", None);
        assert_eq!(s.strength(cell(&s, 0, 0)), -1);
    }

    /// Hexes of a kind on the shipped board.
    fn kind_count(kind: &str) -> usize {
        let game = load();
        let board = super::super::rules::the_board(&game).expect("board");
        board
            .hex_cells()
            .iter()
            .filter(|c| c.kind.get_ref() == kind)
            .count()
    }

    #[test]
    fn setups_fill_as_the_data_says() {
        // Alkuvalmistelut 4: "Normaali peli: Kaikkien harmaiden kuusikulmioiden päälle
        // laitetaan sattumanvarainen elementtilaatta. Pidennetty peli: Vain vaaleanharmaiden
        // kuusikulmioiden päälle" - the normal game fills every grey hex (the light-grey ones
        // too), the long game only the light-grey ones.
        let (grey, light) = (kind_count("grey"), kind_count("light-grey"));
        let open = grey + light + kind_count("empty");
        for (setup, filled) in [("normal", grey + light), ("long", light)] {
            let s = game(2, &[("setup", setup)]);
            assert_eq!(s.tiles_on_board(), filled, "{setup}");
            assert_eq!(s.empties(), open - filled, "{setup}");
        }
    }

    #[test]
    fn every_player_has_more_placements_than_elementals() {
        // The board is reconstructed so that the printed 14/11/9 elementals (Alkuvalmistelut
        // 2) are scarce: a player places more tiles than they have elementals, in both setups.
        let e = engine();
        for setup in ["normal", "long"] {
            for players in 2..=4 {
                let s = game(players, &[("setup", setup)]);
                let per = usize::from(e.rules().elementals_for(players).expect("count"));
                let fewest = s.empties() / players;
                assert!(
                    fewest > per,
                    "{setup}, {players} players: {fewest} placements, {per} elementals"
                );
            }
        }
    }

    #[test]
    fn a_swap_costs_one_elemental() {
        // Laattojen vaihtaminen: "Jos vaihto tehdään, pelaajan on uhrattava yksi
        // elementaaleistaan ... Useita vaihtoja voi tehdä uhraamalla lisää elementaaleja."
        let mut s = game(2, &[]);
        let before = s.supply(0);
        for swaps in 1..=2u8 {
            s.apply(Action::Swap);
            while s.turn() == Turn::Chance {
                let (a, _) = s.chance_outcomes()[0];
                s.apply(a);
            }
            assert_eq!((s.supply(0), s.sacrificed(0)), (before - swaps, swaps));
        }
    }

    /// Every invariant of a game in progress.
    fn assert_sound(s: &AetherState, per_player: u8, rng: &mut ChaCha8Rng) {
        let total = s.rules().total_tiles();
        let hands: usize = (0..s.num_players()).map(|p| s.hand_total(p)).sum();
        assert_eq!(
            s.bag_total() + hands + s.aside_total() + s.tiles_on_board(),
            total,
            "tiles conserved"
        );
        for p in 0..s.num_players() {
            assert_eq!(
                usize::from(s.supply(p)) + s.on_board(p) + usize::from(s.sacrificed(p)),
                usize::from(per_player),
                "elementals of seat {p} conserved"
            );
        }
        assert_eq!(&s.clone(), s, "clone equals original");
        match s.turn() {
            Turn::Player(_) => assert!(!s.legal_actions().is_empty(), "a move exists"),
            Turn::Chance => {
                let sum: f64 = s.chance_outcomes().iter().map(|(_, p)| p).sum();
                assert!((sum - 1.0).abs() < 1e-9, "chance sums to 1");
            }
            Turn::Terminal => assert_eq!(s.empties(), 0),
        }
        let observer = rng.random_range(0..s.num_players());
        let d = s.determinize(observer, rng);
        assert_eq!(
            d.observation(observer),
            s.observation(observer),
            "determinize keeps the observer's view"
        );
        assert_eq!(d.hand(observer), s.hand(observer));
        let d_hands: usize = (0..d.num_players()).map(|p| d.hand_total(p)).sum();
        assert_eq!(
            d.bag_total() + d_hands + d.aside_total() + d.tiles_on_board(),
            total
        );
    }

    fn random_game(players: usize, variants: &[(&str, &str)], seed: u64) -> AetherState {
        let e = engine();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = e
            .new_game(&config(players, variants), &mut rng)
            .expect("new game");
        let per = e.rules().elementals_for(players).expect("count");
        for _ in 0..10_000 {
            assert_sound(&s, per, &mut rng);
            let action = match s.turn() {
                Turn::Terminal => return s,
                Turn::Chance => {
                    let outcomes = s.chance_outcomes();
                    let mut x: f64 = rng.random();
                    let mut pick = outcomes[outcomes.len() - 1].0;
                    for (a, p) in outcomes {
                        if x < p {
                            pick = a;
                            break;
                        }
                        x -= p;
                    }
                    pick
                }
                Turn::Player(_) => {
                    let legal = s.legal_actions();
                    legal[rng.random_range(0..legal.len())]
                }
            };
            s.apply(action);
        }
        panic!("game {seed} did not end");
    }

    #[test]
    fn random_play_keeps_every_invariant() {
        let configs: [(usize, &[(&str, &str)]); 7] = [
            (2, &[]),
            (2, &[("setup", "long")]),
            (3, &[]),
            (3, &[("setup", "long")]),
            (4, &[]),
            (4, &[("setup", "long"), ("negative-strength", "zero")]),
            (4, &[("teams", "on"), ("aether-contenders", "everyone")]),
        ];
        // The board has 43 to 57 placements a game: 100 seeds per setup visit every phase.
        for (players, variants) in configs {
            for seed in 0..100 {
                let s = random_game(players, variants, seed);
                assert_eq!(s.end_reason(), Some("board full"));
                let returns = s.returns();
                assert!(returns.iter().all(|r| (0.0..=1.0).contains(r)));
                if !s.options().teams {
                    assert!((returns.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn same_seed_same_game() {
        let a = random_game(3, &[], 42);
        let b = random_game(3, &[], 42);
        assert_eq!(a, b);
        assert_eq!(a.scores(), b.scores());
    }

    #[test]
    fn heuristic_bot_beats_random_play() {
        let e = engine();
        let mut bot = e.bot("heuristic").expect("heuristic bot");
        let mut wins = 0.0;
        let games = 40;
        for seed in 0..games {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut s = e.new_game(&config(2, &[]), &mut rng).expect("game");
            let bot_seat = (seed % 2) as usize;
            while s.turn() != Turn::Terminal {
                let action = match s.turn() {
                    Turn::Chance => {
                        let o = s.chance_outcomes();
                        o[rng.random_range(0..o.len())].0
                    }
                    Turn::Player(p) if p == bot_seat => {
                        let view = s.determinize(p, &mut rng);
                        bot.choose(&view, &mut rng)
                    }
                    _ => {
                        let legal = s.legal_actions();
                        legal[rng.random_range(0..legal.len())]
                    }
                };
                assert!(
                    s.turn() == Turn::Chance || s.legal_actions().contains(&action),
                    "bot plays legal moves"
                );
                s.apply(action);
            }
            wins += s.returns()[bot_seat];
        }
        assert!(
            wins >= 0.8 * games as f64,
            "heuristic won {wins} of {games}"
        );
    }
}
