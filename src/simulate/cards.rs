//! `simulate --cards`: which card designs (and pieces) go with winning.
//!
//! The engine names the designs each move plays or acquires ([`crate::engine::State::cards_of`],
//! a Lua script's `game.cards_of`), each played for its effect or only discarded for none (a
//! "(no effect)" play). Per design the run counts the games in which some seat played it for
//! its effect, how often it was played for its effect and how often discarded for none, and,
//! per seat, how many seat-games played it for its effect and the points those seats scored: a
//! seat that only discarded a design for no effect is a seat without it. From these come the win rate of seats that played it against seats that
//! did not, and the same difference taken seat by seat (and bot by bot) and combined with
//! Mantel-Haenszel weights, so that a seat that both wins more and plays a card more (the first
//! seat, a role) does not make the card look strong. Its Cochran-Mantel-Haenszel test gives a
//! p-value per design; Benjamini-Hochberg at 5 % over all designs says which are flagged. The
//! game is the sample, not the seat: every interval and test takes its variance over games
//! (`clustered.rs`). Every count is an integer, so shards merge exactly.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::clustered::{Cells, PairMap, PairSums, add_game, add_pairs};
use super::report::Rate;
use super::stats::{POINT, Stats, wilson};
use crate::engine::CardUse;
use crate::model::Game;

/// How an error of a Rust engine's `cards_of` begins (a design named twice in a move, or an
/// id the data does not hold): a broken engine contract, made a data problem where it is found.
pub const CARDS_OF_BROKEN: &str = "the engine's cards_of";

mod table;

pub use table::{csv, diff, diff_or_none, text};

/// The false discovery rate of the flags.
pub const FDR: f64 = 0.05;

/// One design's totals over a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardCounts {
    /// Games in which at least one seat played or acquired it for its effect.
    pub games: u64,
    /// Times it was played or acquired for its effect.
    pub times: u64,
    /// Times it was discarded for no effect (not counted in `times` nor as a seat with it).
    #[serde(default)]
    pub dead: u64,
    /// Per seat: seat-games in which that seat played or acquired it.
    pub seats_with: Vec<u64>,
    /// Per seat: the points (millionths) of those seat-games.
    #[serde(rename = "points_with_millionths")]
    pub points_with: Vec<u64>,
    /// Over the games in which some seat played it: the sums of pairs of seats by cell (see
    /// `clustered.rs`), so that its intervals count games, not seats.
    #[serde(default)]
    pub pairs: Vec<PairSums>,
}

/// A stratum seats are compared within: a seat, and the bot that played it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Stratum {
    /// 0 for the first seat.
    pub seat: usize,
    pub bot: String,
}

/// The card totals of a run (`simulate --cards`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardStats {
    /// Moves the engine named cards for (`0`: the engine does not say which cards a move
    /// involves, and no card statistics can be given).
    pub moves_said: u64,
    /// Every (seat, bot) met, in order; cells `2 i` and `2 i + 1` are stratum `i`'s seats
    /// without and with a design.
    #[serde(default)]
    pub strata: Vec<Stratum>,
    /// Over every game, the sums of pairs of its seats by stratum (all in even cells).
    #[serde(default)]
    pub all_games: Vec<PairSums>,
    pub designs: BTreeMap<String, CardCounts>,
}

impl CardStats {
    pub fn merge(&mut self, o: &CardStats) {
        self.moves_said += o.moves_said;
        let mut strata: Vec<Stratum> = self.strata.iter().chain(&o.strata).cloned().collect();
        strata.sort();
        strata.dedup();
        let renumber = |from: &[Stratum]| -> Vec<u32> {
            from.iter()
                .map(|s| strata.binary_search(s).unwrap_or(0) as u32)
                .collect()
        };
        let (mine, theirs) = (renumber(&self.strata), renumber(&o.strata));
        let cell =
            |map: &[u32], c: u32| 2 * map.get((c / 2) as usize).copied().unwrap_or(0) + c % 2;
        let both = |a: &[PairSums], b: &[PairSums]| -> Vec<PairSums> {
            let mut to = PairMap::new();
            add_pairs(&mut to, a, |c| cell(&mine, c));
            add_pairs(&mut to, b, |c| cell(&theirs, c));
            to.into_values().collect()
        };
        self.all_games = both(&self.all_games, &o.all_games);
        for c in self.designs.values_mut() {
            c.pairs = both(&c.pairs, &[]);
        }
        for (id, c) in &o.designs {
            let mine_design = self.designs.entry(id.clone()).or_default();
            mine_design.games += c.games;
            mine_design.times += c.times;
            mine_design.dead += c.dead;
            add_vec(&mut mine_design.seats_with, &c.seats_with);
            add_vec(&mut mine_design.points_with, &c.points_with);
            let mut to = PairMap::new();
            add_pairs(&mut to, &mine_design.pairs, |c| c);
            add_pairs(&mut to, &c.pairs, |c| cell(&theirs, c));
            mine_design.pairs = to.into_values().collect();
        }
        self.strata = strata;
    }
}

fn add_vec(to: &mut Vec<u64>, from: &[u64]) {
    if to.len() < from.len() {
        to.resize(from.len(), 0);
    }
    for (a, b) in to.iter_mut().zip(from) {
        *a += b;
    }
}

/// A `&'static str` by its address and length: the engines intern their ids (one address per
/// text), so a design is found by a hash of two words instead of by comparing text.
type Address = (usize, usize);

fn address(id: &'static str) -> Address {
    (id.as_ptr() as usize, id.len())
}

/// The cards of one game while it is played: each design a seat played or acquired, once
/// for every time. Counting them up is left to the worker's [`CardTally`], which finds each
/// design once per run; a game only appends.
#[derive(Debug, Clone, PartialEq)]
pub struct GameCards {
    /// Moves the engine named cards for.
    pub moves_said: u64,
    /// (design, seat, for its effect), one entry for every time the seat played or acquired it.
    pub plays: Vec<(&'static str, usize, bool)>,
    /// The first broken promise of the engine's `cards_of` (a design named twice in one move).
    pub error: Option<String>,
    /// The engine writes a move's cards here: one buffer for the whole game.
    ids: Vec<CardUse>,
}

impl Default for GameCards {
    fn default() -> Self {
        GameCards {
            moves_said: 0,
            plays: Vec::with_capacity(64),
            error: None,
            ids: Vec::with_capacity(8),
        }
    }
}

impl GameCards {
    /// Adds the cards of one move by `seat`: `cards_of` writes them into a buffer and says
    /// whether the engine names cards at all ([`crate::engine::State::cards_of`]). A design
    /// named twice in one move is not counted twice: it is [`GameCards::error`].
    #[inline]
    pub fn add_move(&mut self, seat: usize, cards_of: impl FnOnce(&mut Vec<CardUse>) -> bool) {
        self.ids.clear();
        if cards_of(&mut self.ids) {
            self.moves_said += 1;
            for (i, c) in self.ids.iter().enumerate() {
                if self.ids[..i].iter().any(|o| o.id == c.id) {
                    if self.error.is_none() {
                        self.error = Some(format!(
                            "{CARDS_OF_BROKEN} named `{}` twice for move {} (each card once a move)",
                            c.id, self.moves_said
                        ));
                    }
                    return;
                }
            }
            self.plays
                .extend(self.ids.iter().map(|c| (c.id, seat, c.effect)));
        }
    }
}

/// Refuses card totals that name an id the data does not hold (an engine's `cards_of` naming
/// what is no design or piece): they would be counted as a design nobody can find.
pub fn check_ids(stats: &Stats, game: &Game) -> Result<(), crate::engine::RunError> {
    let Some(cards) = &stats.cards else {
        return Ok(());
    };
    let names = names(game);
    match cards.designs.keys().find(|id| !names.contains_key(*id)) {
        Some(id) => Err(crate::engine::RunError::data(format!(
            "{}: {CARDS_OF_BROKEN} named `{id}`, which is no design or piece id of the data",
            game.slug
        ))),
        None => Ok(()),
    }
}

/// One design's totals in a worker's tally, with the last game that counted it.
#[derive(Debug)]
struct Design {
    id: &'static str,
    counts: CardCounts,
    /// Pair sums by the tally's own stratum numbers.
    pairs: PairMap,
    /// The number of the last game counted in `games`, and per seat in `seats_with`.
    last_game: u64,
    last_seat_game: Vec<u64>,
}

/// A worker's card totals while games are added: each design (by text) once, found by its
/// address (see `tally.rs`); only an address not met before is looked up by text.
#[derive(Debug, Default)]
pub(super) struct CardTally {
    moves_said: u64,
    designs: Vec<Design>,
    by_address: FxHashMap<Address, u32>,
    by_text: FxHashMap<&'static str, u32>,
    /// Games added, numbering them from 1.
    games: u64,
    /// The seats' points (millionths) of the game being added.
    points: Vec<u64>,
    /// The (seat, bot) strata met, numbered in the order met.
    strata: Vec<(usize, String)>,
    /// The stratum of each seat of the game being added.
    seat_strata: Vec<u32>,
    /// Every game's pairs of seats, by stratum.
    all_games: PairMap,
    /// The designs the game being added touched.
    touched: Vec<u32>,
    /// (cell, points) of each seat, for one design of the game being added.
    cells: Vec<(u32, u64)>,
}

impl CardTally {
    /// Adds one game's cards, with its seats' results and the bot of each seat.
    pub(super) fn add(&mut self, cards: &GameCards, returns: &[f64], bots: &[String]) {
        self.moves_said += cards.moves_said;
        self.games += 1;
        let game = self.games;
        let seats = returns.len();
        self.points.clear();
        self.points
            .extend(returns.iter().map(|r| (r * POINT).round().max(0.0) as u64));
        self.seat_strata.clear();
        for seat in 0..seats {
            let bot = bots.get(seat).map_or("", String::as_str);
            let k = match self.strata.iter().position(|(s, b)| *s == seat && b == bot) {
                Some(k) => k,
                None => {
                    self.strata.push((seat, bot.to_string()));
                    self.strata.len() - 1
                }
            };
            self.seat_strata.push(k as u32);
        }
        self.cells.clear();
        self.cells
            .extend((0..seats).map(|s| (2 * self.seat_strata[s], self.points[s])));
        add_game(&mut self.all_games, &self.cells);
        self.touched.clear();
        for &(id, seat, effect) in &cards.plays {
            let at = self.design(id);
            let d = &mut self.designs[at];
            let c = &mut d.counts;
            if !effect {
                c.dead += 1;
                continue;
            }
            if c.seats_with.len() < seats {
                c.seats_with.resize(seats, 0);
                c.points_with.resize(seats, 0);
                d.last_seat_game.resize(seats, 0);
            }
            if d.last_game != game {
                d.last_game = game;
                c.games += 1;
                self.touched.push(at as u32);
            }
            c.times += 1;
            if seat < seats && d.last_seat_game[seat] != game {
                d.last_seat_game[seat] = game;
                c.seats_with[seat] += 1;
                c.points_with[seat] += self.points[seat];
            }
        }
        for &at in &self.touched {
            let d = &mut self.designs[at as usize];
            self.cells.clear();
            self.cells.extend((0..seats).map(|s| {
                let with = d.last_seat_game[s] == game;
                (2 * self.seat_strata[s] + with as u32, self.points[s])
            }));
            add_game(&mut d.pairs, &self.cells);
        }
    }

    /// The index of design `id` in `designs`, made on first use.
    fn design(&mut self, id: &'static str) -> usize {
        if let Some(&at) = self.by_address.get(&address(id)) {
            return at as usize;
        }
        let next = self.designs.len() as u32;
        let at = *self.by_text.entry(id).or_insert(next);
        if at == next {
            self.designs.push(Design {
                id,
                counts: CardCounts::default(),
                pairs: PairMap::new(),
                last_game: 0,
                last_seat_game: Vec::new(),
            });
        }
        self.by_address.insert(address(id), at);
        at as usize
    }

    /// The totals keyed by text, the strata in order.
    pub(super) fn into_stats(self) -> CardStats {
        let mut order: Vec<(Stratum, u32)> = self
            .strata
            .into_iter()
            .enumerate()
            .map(|(i, (seat, bot))| (Stratum { seat, bot }, i as u32))
            .collect();
        order.sort();
        let mut map = vec![0u32; order.len()];
        for (new, (_, old)) in order.iter().enumerate() {
            map[*old as usize] = new as u32;
        }
        let cell = |c: u32| 2 * map[(c / 2) as usize] + c % 2;
        let renumbered = |pairs: &PairMap| -> Vec<PairSums> {
            let mut to = PairMap::new();
            let list: Vec<PairSums> = pairs.values().cloned().collect();
            add_pairs(&mut to, &list, cell);
            to.into_values().collect()
        };
        CardStats {
            moves_said: self.moves_said,
            all_games: renumbered(&self.all_games),
            designs: self
                .designs
                .iter()
                .map(|d| {
                    let mut counts = d.counts.clone();
                    counts.pairs = renumbered(&d.pairs);
                    (d.id.to_string(), counts)
                })
                .collect(),
            strata: order.into_iter().map(|(s, _)| s).collect(),
        }
    }
}

/// A difference of two rates (second seats minus the others), as shares, with its interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    pub difference: f64,
    pub low: f64,
    pub high: f64,
}

/// One design's row of the cards table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardRow {
    pub id: String,
    pub name: String,
    /// Games in which some seat played or acquired it for its effect.
    pub games: u64,
    /// Times it was played or acquired for its effect.
    pub times: u64,
    /// Times it was discarded for no effect: counted apart, a seat that only did so is a seat
    /// without it.
    #[serde(default)]
    pub dead: u64,
    /// Seat-games in which the seat played or acquired it, and in which it did not, counted
    /// over the seats that could hold it (the seat and bot strata in which some seat ever
    /// played it): a design only one side can hold is compared within that side.
    pub seats_with: u64,
    pub seats_without: u64,
    /// The seats (1 for the first) at which some seat ever played or acquired it.
    #[serde(default)]
    pub held_at: Vec<usize>,
    /// What `seat_controlled` is taken within: `seat`, or `seat and bot` when different bots
    /// played.
    #[serde(default)]
    pub strata: String,
    /// Win rate (points per seat-game) of the seats that played it, and of those that did not.
    pub win_rate_with: Rate,
    pub win_rate_without: Rate,
    /// `win_rate_with` minus `win_rate_without`, with its 95 % interval from the variance over
    /// games (the game is the sample, not the seat); `None` when every seat-game that could
    /// hold it played it (nothing to compare).
    pub difference: Option<Diff>,
    /// The same difference taken seat by seat (and bot by bot, when different bots played)
    /// and combined (Mantel-Haenszel weights), so that a seat's own advantage does not count
    /// for the card; its interval from the variance over games.
    /// `None` when no seat both played it and went without it.
    pub seat_controlled: Option<Diff>,
    /// The Cochran-Mantel-Haenszel test of no difference at any seat, its variance taken over
    /// games; `None` when no seat both played it and went without it.
    pub p_value: Option<f64>,
    /// Benjamini-Hochberg adjusted p-value over every design tested.
    pub q_value: Option<f64>,
    /// Significant after the Benjamini-Hochberg correction at 5 %.
    pub flagged: bool,
}

/// What a flag means and does not: printed with every cards table.
pub const CARDS_EXPLANATION: &str = "\
how to read the cards table:
  times / dead   plays of the design for its effect, and plays that only discarded it for no
                 effect (a \"(no effect)\" play), counted apart.
  with / without  the win rate of seats that played or acquired the design for its effect in
                 a game, and of seats that could have (a seat where it was ever played for
                 its effect) and did not; a seat that only discarded it is without it. A card
                 bought by players who are already ahead wins more without being strong:
                 this is correlation, under these bots, not proof. Every interval counts
                 games, not seats: one seat's win is another's loss.
  by seat        the same difference taken seat by seat and combined, so that a seat's own
                 advantage (moving first, a role) does not count for the card.
  flagged        the seat-controlled difference is unlikely to be chance alone
                 (Cochran-Mantel-Haenszel test, Benjamini-Hochberg false discovery rate 5 %
                 over every design). A flag says where to look, not that the card is too
                 strong or too weak: better bots, another reading of the rules or more
                 games can change it. No flag does not prove a design balanced.";

/// The rule for dead plays, with how many the run met.
pub fn dead_rule(dead: u64) -> String {
    if dead == 0 {
        "No card was discarded for no effect: every play counted is a play for its effect.".into()
    } else {
        format!(
            "{dead} plays discarded a card for no effect (\"dead\"): they are counted apart and left out of the comparison; with and without count only plays for the card's effect."
        )
    }
}

/// Said when no design has seats with it and seats without it at the same seat.
pub const NOTHING_TO_COMPARE: &str = "every seat that could play a design played it in every game: only the counts can be given, there is nothing to compare with.";

/// Why there is no cards table for an engine that does not say.
pub fn not_offered(engine: &str) -> String {
    format!(
        "card statistics are not offered: engine `{engine}` does not say which cards a move plays or acquires (a Rust engine's State::cards_of, a Lua script's game.cards_of)"
    )
}

/// The rows, most telling first (flagged, then by p-value), each design once. `games`: the
/// games of the run, every one of which is a sample (the seats of a game are not).
pub fn rows(stats: &CardStats, games: u64, names: &BTreeMap<String, String>) -> Vec<CardRow> {
    let mut rows: Vec<CardRow> = stats
        .designs
        .iter()
        .map(|(id, c)| row(id, c, stats, games, names))
        .collect();
    benjamini_hochberg(&mut rows);
    rows.sort_by(|a, b| {
        b.flagged
            .cmp(&a.flagged)
            .then(
                a.p_value
                    .unwrap_or(2.0)
                    .total_cmp(&b.p_value.unwrap_or(2.0)),
            )
            .then(a.id.cmp(&b.id))
    });
    rows
}

const Z: f64 = 1.959_963_984_540_054;

/// The variance of a cell's mean as Wilson's interval has it: a rate of 0 or 1 has no spread
/// of its own, and Wilson's half-width keeps an interval honest there.
fn wilson_variance(points: f64, n: f64) -> f64 {
    let (lo, hi) = wilson(points, n);
    ((hi - lo) / (2.0 * Z)).powi(2)
}

/// A rate of `points` over `n` seat-games whose variance over games is `clustered` where
/// seats taken one by one would give `independent`: Wilson's interval on the sample size
/// that variance is worth (`n` over the design effect, at most `most` times `n`).
fn clustered_rate(points: f64, n: f64, clustered: f64, independent: f64, most: f64) -> Rate {
    if n <= 0.0 {
        return Rate::of(0.0, 0.0);
    }
    let effect = if independent > 0.0 {
        (clustered / independent).max(1.0 / most)
    } else {
        1.0
    };
    let n_eff = n / effect;
    let r = Rate::of(points / n * n_eff, n_eff);
    Rate {
        rate: points / n,
        ..r
    }
}

fn row(
    id: &str,
    c: &CardCounts,
    stats: &CardStats,
    games: u64,
    names: &BTreeMap<String, String>,
) -> CardRow {
    let strata = stats.strata.len();
    let cells = Cells::of(&stats.all_games, &c.pairs, strata, games);
    let (with, without) = (|k: usize| 2 * k + 1, |k: usize| 2 * k);
    // The seats that could hold it: the strata in which some seat ever played it. A design
    // only one side can hold is compared within that side.
    let side: Vec<usize> = (0..strata).filter(|&k| cells.n[with(k)] > 0.0).collect();
    let sum = |v: &[f64], cell: fn(usize) -> usize| side.iter().map(|&k| v[cell(k)]).sum::<f64>();
    let (n1, n0) = (sum(&cells.n, with), sum(&cells.n, without));
    let (x1, x0) = (sum(&cells.points, with), sum(&cells.points, without));
    let (p1, p0) = (x1 / n1.max(1.0), x0 / n0.max(1.0));
    let players = stats.strata.iter().map(|s| s.seat + 1).max().unwrap_or(1) as f64;
    let cell_count = 2 * strata;
    let mut centre = vec![0.0; cell_count];
    for &k in &side {
        centre[with(k)] = p1;
        centre[without(k)] = p0;
    }
    // Each rate alone, and their difference, with the game as the sample.
    let group = |cell: fn(usize) -> usize, n: f64| {
        let mut alpha = vec![0.0; cell_count];
        for &k in &side {
            alpha[cell(k)] = 1.0 / n.max(1.0);
        }
        alpha
    };
    let (a1, a0) = (group(with, n1), group(without, n0));
    let rw = clustered_rate(
        x1,
        n1,
        cells.variance(&a1, &centre),
        cells.independent_variance(&a1, &centre),
        players,
    );
    let ro = clustered_rate(
        x0,
        n0,
        cells.variance(&a0, &centre),
        cells.independent_variance(&a0, &centre),
        players,
    );
    let difference = (n1 > 0.0 && n0 > 0.0).then(|| {
        let alpha: Vec<f64> = a1.iter().zip(&a0).map(|(w, o)| w - o).collect();
        let mut v = cells.variance(&alpha, &centre);
        for (x, n, a) in [(x1, n1, &a1), (x0, n0, &a0)] {
            let own = cells.independent_variance(a, &centre);
            v += (wilson_variance(x, n) - own).max(0.0);
        }
        let half = Z * v.sqrt();
        let d = p1 - p0;
        Diff {
            difference: d,
            low: (d - half).max(-1.0),
            high: (d + half).min(1.0),
        }
    });
    // Stratum by stratum (seat, and bot): Mantel-Haenszel weights n1 n0 / n, the variance
    // over games, unpooled for the interval and pooled (no difference) for the test.
    let mut alpha = vec![0.0; cell_count];
    let mut pooled = vec![0.0; cell_count];
    let mut floor = 0.0;
    let mut sum_w = 0.0;
    let mut sum_wd = 0.0;
    let mut tested = Vec::new();
    for k in 0..strata {
        let (m1, m0) = (cells.n[with(k)], cells.n[without(k)]);
        if m1 <= 0.0 || m0 <= 0.0 {
            continue;
        }
        let w = m1 * m0 / (m1 + m0);
        sum_w += w;
        sum_wd += w * (cells.mean(with(k)) - cells.mean(without(k)));
        tested.push((k, w));
    }
    let (seat_controlled, p_value) = if sum_w > 0.0 {
        let mut own = vec![0.0; cell_count];
        for &(k, w) in &tested {
            let (m1, m0) = (cells.n[with(k)], cells.n[without(k)]);
            alpha[with(k)] = w / (sum_w * m1);
            alpha[without(k)] = -w / (sum_w * m0);
            own[with(k)] = cells.mean(with(k));
            own[without(k)] = cells.mean(without(k));
            let p = (cells.points[with(k)] + cells.points[without(k)]) / (m1 + m0);
            pooled[with(k)] = p;
            pooled[without(k)] = p;
            for cell in [with(k), without(k)] {
                let mut one = vec![0.0; cell_count];
                one[cell] = alpha[cell];
                let spread = cells.independent_variance(&one, &own);
                let wilson = alpha[cell].powi(2)
                    * cells.n[cell].powi(2)
                    * wilson_variance(cells.points[cell], cells.n[cell]);
                floor += (wilson - spread).max(0.0);
            }
        }
        let d = sum_wd / sum_w;
        let half = Z * (cells.variance(&alpha, &own) + floor).sqrt();
        let null = cells.variance(&alpha, &pooled);
        let p = if null > 0.0 {
            libm::erfc((d / null.sqrt()).abs() / std::f64::consts::SQRT_2)
        } else {
            1.0
        };
        (
            Some(Diff {
                difference: d,
                low: (d - half).max(-1.0),
                high: (d + half).min(1.0),
            }),
            Some(p.clamp(0.0, 1.0)),
        )
    } else {
        (None, None)
    };
    let mixed_bots = {
        let mut bots: Vec<&str> = stats.strata.iter().map(|s| s.bot.as_str()).collect();
        bots.sort_unstable();
        bots.dedup();
        bots.len() > 1
    };
    CardRow {
        id: id.to_string(),
        name: names.get(id).cloned().unwrap_or_else(|| id.to_string()),
        games: c.games,
        times: c.times,
        dead: c.dead,
        seats_with: n1 as u64,
        seats_without: n0 as u64,
        held_at: {
            let mut seats: Vec<usize> = side.iter().map(|&k| stats.strata[k].seat + 1).collect();
            seats.dedup();
            seats
        },
        strata: if mixed_bots { "seat and bot" } else { "seat" }.to_string(),
        win_rate_with: rw,
        win_rate_without: ro,
        difference,
        seat_controlled,
        p_value,
        q_value: None,
        flagged: false,
    }
}

/// Benjamini-Hochberg step-up: q-values over the designs tested, flagged at [`FDR`].
fn benjamini_hochberg(rows: &mut [CardRow]) {
    let mut tested: Vec<(usize, f64)> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.p_value.map(|p| (i, p)))
        .collect();
    tested.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let m = tested.len() as f64;
    let mut running = 1.0f64;
    for (rank, &(i, p)) in tested.iter().enumerate().rev() {
        running = running.min(p * m / (rank + 1) as f64).min(1.0);
        rows[i].q_value = Some(running);
        rows[i].flagged = running <= FDR;
    }
}

/// Design and piece names by id, from the model.
pub fn names(game: &Game) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for deck in &game.components.decks {
        for card in &deck.cards {
            names.insert(card.id.get_ref().clone(), card.name.clone());
        }
    }
    for piece in &game.components.pieces {
        names.insert(piece.id.get_ref().clone(), piece.name.clone());
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_design_counts_once_per_game_and_seat_whatever_its_address() {
        // The same text at two addresses (an engine that does not intern) is one design.
        let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
        let (a1, a2, b) = (leak("a"), leak("a"), leak("b"));
        assert!(!std::ptr::eq(a1, a2));
        let mut tally = CardTally::default();
        let mut game = GameCards::default();
        game.add_move(0, |out| {
            out.extend([CardUse::effect(a1), CardUse::effect(b)]);
            true
        });
        game.add_move(0, |out| {
            out.push(CardUse::effect(a2));
            true
        });
        game.add_move(1, |out| {
            out.push(CardUse::effect(a2));
            true
        });
        // A move the engine does not name cards for is not counted as said.
        game.add_move(1, |_| false);
        tally.add(&game, &[1.0, 0.0], &[]);
        let mut second = GameCards::default();
        second.add_move(1, |out| {
            out.push(CardUse::effect(a1));
            true
        });
        tally.add(&second, &[0.5, 0.5], &[]);
        let stats = tally.into_stats();
        assert_eq!(stats.moves_said, 4);
        assert_eq!(stats.designs.len(), 2);
        let a = &stats.designs["a"];
        assert_eq!((a.games, a.times), (2, 4));
        assert_eq!(a.seats_with, [1, 2]);
        assert_eq!(a.points_with, [1_000_000, 500_000]);
        let b = &stats.designs["b"];
        assert_eq!((b.games, b.times), (1, 1));
        assert_eq!(b.seats_with, [1, 0]);
        assert_eq!(b.points_with, [1_000_000, 0]);
    }

    #[test]
    fn a_dead_play_is_counted_apart_and_a_seat_that_only_discarded_is_without() {
        let mut tally = CardTally::default();
        // Game 1: seat 0 plays "c" for its effect and wins; seat 1 only discards it.
        let mut g = GameCards::default();
        g.add_move(0, |out| {
            out.push(CardUse::effect("c"));
            true
        });
        g.add_move(1, |out| {
            out.push(CardUse::dead("c"));
            true
        });
        tally.add(&g, &[1.0, 0.0], &[]);
        // Game 2: seat 1 only discards "d", which nobody plays for its effect.
        let mut g = GameCards::default();
        g.add_move(1, |out| {
            out.extend([CardUse::dead("d"), CardUse::effect("c")]);
            true
        });
        tally.add(&g, &[0.0, 1.0], &[]);
        let stats = tally.into_stats();
        let c = &stats.designs["c"];
        assert_eq!((c.games, c.times, c.dead), (2, 2, 1));
        assert_eq!(
            c.seats_with,
            [1, 1],
            "seat 1 discarding in game 1 is not a seat with it"
        );
        let d = &stats.designs["d"];
        assert_eq!((d.games, d.times, d.dead), (0, 0, 1));
        let rows = rows(&stats, 2, &BTreeMap::new());
        let d = rows.iter().find(|r| r.id == "d").unwrap();
        assert_eq!((d.seats_with, d.dead, d.difference), (0, 1, None));
        let c = rows.iter().find(|r| r.id == "c").unwrap();
        assert_eq!((c.times, c.dead, c.seats_with), (2, 1, 2));
    }

    #[test]
    fn a_design_named_twice_in_one_move_is_an_error_not_two_plays() {
        let mut g = GameCards::default();
        g.add_move(0, |out| {
            out.extend([CardUse::effect("c"), CardUse::dead("c")]);
            true
        });
        assert!(g.plays.is_empty(), "{:?}", g.plays);
        let e = g.error.expect("an error");
        assert!(e.contains("`c` twice"), "{e}");
    }

    #[test]
    fn names_in_the_text_table_are_told_apart() {
        let base = row(
            "x",
            &CardCounts::default(),
            &CardStats::default(),
            0,
            &BTreeMap::new(),
        );
        let named = |id: String, name: String| CardRow {
            id,
            name,
            ..base.clone()
        };
        let rows: Vec<CardRow> = (1..=6)
            .map(|i| {
                named(
                    format!("ventilation-systems-integration-{i}"),
                    "Ventilation Systems Integration Research".into(),
                )
            })
            .chain((1..=3).map(|i| {
                named(
                    format!("v{i}"),
                    format!("Ventilation Systems Integration Research, Advanced Part {i}"),
                )
            }))
            .collect();
        let text = text(&rows, None);
        let shown: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("  V") || l.starts_with("  v"))
            .map(|l| l.split("   ").next().unwrap().trim())
            .collect();
        assert_eq!(shown.len(), 9, "{text}");
        let mut unique = shown.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 9, "{shown:#?}");
        assert!(
            shown
                .iter()
                .all(|l| l.chars().count() <= table::LABEL_WIDTH),
            "{shown:#?}"
        );
    }

    /// The card stats of games given as (returns, seats that played design `c`).
    fn games(list: &[(Vec<f64>, Vec<usize>)], bots: &[&str]) -> CardStats {
        let mut tally = CardTally::default();
        let bots: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
        for (returns, seats) in list {
            let mut g = GameCards::default();
            for &s in seats {
                g.add_move(s, |out| {
                    out.push(CardUse::effect("c"));
                    true
                });
            }
            tally.add(&g, returns, &bots);
        }
        tally.into_stats()
    }

    #[test]
    fn a_seat_advantage_alone_does_not_make_a_card_strong() {
        // The first seat wins 70 of 100 games, the second 30. The first seat plays the card in
        // 80 games and wins 56 of them (70 %, as without it); the second plays it in 20 and
        // wins 6 (30 %). Pooled, the card looks strong (62 % against 37 %); seat by seat it
        // makes no difference.
        let list: Vec<(Vec<f64>, Vec<usize>)> = (0..100)
            .map(|i| {
                let returns = if i < 70 {
                    vec![1.0, 0.0]
                } else {
                    vec![0.0, 1.0]
                };
                let mut seats = Vec::new();
                if i < 56 || (70..94).contains(&i) {
                    seats.push(0);
                }
                if (70..76).contains(&i) || i < 14 {
                    seats.push(1);
                }
                (returns, seats)
            })
            .collect();
        let stats = games(&list, &["random", "random"]);
        assert_eq!(stats.designs["c"].seats_with, [80, 20]);
        let rows = rows(&stats, 100, &BTreeMap::new());
        let r = &rows[0];
        assert!(
            r.difference.unwrap().low > 0.0,
            "pooled: {:?}",
            r.difference
        );
        assert!(
            r.seat_controlled.unwrap().difference.abs() < 1e-9,
            "{:?}",
            r.seat_controlled
        );
        assert!(r.p_value.unwrap() > 0.99 && !r.flagged, "{r:?}");
        assert_eq!(r.strata, "seat");
    }

    #[test]
    fn benjamini_hochberg_matches_a_worked_example() {
        // p-values 0.01, 0.04, 0.03, 0.005 (m = 4): q = 0.02, 0.04, 0.04, 0.02.
        let mut rows: Vec<CardRow> = [0.01, 0.04, 0.03, 0.005]
            .iter()
            .map(|&p| {
                let mut r = row(
                    "x",
                    &CardCounts::default(),
                    &CardStats::default(),
                    0,
                    &BTreeMap::new(),
                );
                r.p_value = Some(p);
                r
            })
            .collect();
        benjamini_hochberg(&mut rows);
        let q: Vec<f64> = rows.iter().map(|r| r.q_value.unwrap()).collect();
        for (got, want) in q.iter().zip([0.02, 0.04, 0.04, 0.02]) {
            assert!((got - want).abs() < 1e-12, "{q:?}");
        }
        assert!(rows.iter().all(|r| r.flagged));
    }

    #[test]
    fn the_test_is_the_normal_tail() {
        // z = 1.96 gives p = 0.05.
        let p = libm::erfc(1.959_963_984_540_054 / std::f64::consts::SQRT_2);
        assert!((p - 0.05).abs() < 1e-9, "{p}");
    }
}
