//! The rule-based Capek bots: both build toward their golem. `heuristic` above all keeps
//! the shared outrage marker a card's worth away from the top of the track; `risky` treats
//! the room left on the track as a resource, spending it faster when ahead and taking a
//! move toward the top when what it buys is worth the risk.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::state::{Action, CapekState};
use crate::engine::{Bot, State};

/// The bot names.
pub const HEURISTIC: &str = "heuristic";
pub const RISKY: &str = "risky";

/// Scores every legal move and plays the best (ties broken at random); never lets the
/// outrage marker come within one card's outrage of the top.
pub struct Heuristic;

/// The same scoring, but outrage is a price that rises as the track fills instead of a
/// hard margin: it pays more readily when ahead, and only the move that ends the game for
/// both is ruled out.
pub struct Risky;

impl Bot<CapekState> for Heuristic {
    fn name(&self) -> &str {
        HEURISTIC
    }

    fn choose(&mut self, state: &CapekState, rng: &mut ChaCha8Rng) -> Action {
        best_move(View::new(state, false), rng)
    }
}

impl Bot<CapekState> for Risky {
    fn name(&self) -> &str {
        RISKY
    }

    fn choose(&mut self, state: &CapekState, rng: &mut ChaCha8Rng) -> Action {
        best_move(View::new(state, true), rng)
    }
}

fn best_move(view: View, rng: &mut ChaCha8Rng) -> Action {
    let mut best = Vec::new();
    let mut top = f64::NEG_INFINITY;
    for action in view.s.legal_actions() {
        let score = view.score(action);
        if score > top {
            top = score;
            best.clear();
        }
        if score == top {
            best.push(action);
        }
    }
    best[rng.random_range(0..best.len())]
}

/// What the bot weighs, computed once per decision.
struct View<'a> {
    s: &'a CapekState,
    me: usize,
    /// For each colour, how many of my unfinished golem cards could take a set of it.
    need: Vec<u32>,
    /// Outrage one card can add: `heuristic` keeps that much room below the top.
    margin: i16,
    /// `risky`: outrage is priced by the room left, not kept off a margin.
    risky: bool,
}

impl<'a> View<'a> {
    fn new(s: &'a CapekState, risky: bool) -> View<'a> {
        let rules = s.rules();
        let me = s.current();
        let mut need = vec![0; rules.colours.len()];
        for (g, golem) in rules.golems[me].iter().enumerate() {
            if !s.set_done(me, g) {
                for &(colour, _) in &golem.options {
                    need[colour as usize] += 1;
                }
            }
        }
        View {
            s,
            me,
            need,
            margin: rules.max_card_outrage(),
            risky,
        }
    }

    /// Markers (research and set markers) a player still needs for a whole golem.
    fn still_needed(&self, p: usize) -> u32 {
        let golems = self.s.rules().golems[p].len();
        self.s.open_research(p) + (golems - self.s.sets_done(p)) as u32
    }

    /// What moving the outrage marker up by `delta` costs this bot, in score points.
    /// `heuristic`: a little, rising with the track, and 100 more inside the safety margin.
    /// `risky`: each step costs more the less room it leaves (a step to the last space
    /// before the top costs about 7 times one at the bottom), at half price when the bot
    /// needs fewer markers than the opponent, since a full track then stops the opponent
    /// more than it stops the bot.
    fn outrage_cost(&self, delta: i16) -> f64 {
        if delta <= 0 {
            return 0.0;
        }
        let rules = self.s.rules();
        let outrage = self.s.outrage();
        if !self.risky {
            let pressure = 1.0 + 3.0 * outrage as f64 / rules.outrage_max as f64;
            let unsafe_penalty = if self.safe(delta) { 0.0 } else { 100.0 };
            return delta as f64 * pressure + unsafe_penalty;
        }
        let me = self.me;
        let ahead = (0..self.s.num_players())
            .filter(|&p| p != me)
            .all(|p| self.still_needed(me) < self.still_needed(p));
        let share = if ahead { 0.5 } else { 1.0 };
        let cost: f64 = (1..=delta)
            .map(|step| {
                let room = (rules.outrage_max - (outrage + step)).max(1) as f64;
                1.0 + 6.0 / room
            })
            .sum();
        cost * share
    }

    /// Whether discarding this bought card for research activates the whole golem (the
    /// markers go on first, Play 1A; whether its outrage then still counts is the
    /// `research-outrage` reading).
    fn research_wins(&self, card: u8) -> bool {
        let rules = self.s.rules();
        let open = self.s.open_research(self.me);
        let sets_done = self.s.sets_done(self.me) == rules.golems[self.me].len();
        sets_done && open > 0 && open <= rules.cards[card as usize].research as u32
    }

    /// Whether moving the outrage marker by `delta` keeps a safe distance from the top.
    fn safe(&self, delta: i16) -> bool {
        delta <= 0 || self.s.outrage() + delta < self.s.rules().outrage_max - self.margin
    }

    fn fatal(&self, delta: i16) -> bool {
        self.s.outrage() + delta >= self.s.rules().outrage_max
    }

    /// Worth of holding a card: wilds and needed colours for sets, otherwise its gold.
    fn keep_value(&self, card: u8) -> f64 {
        let info = self.s.rules().cards[card as usize];
        if info.is_wild() {
            4.0
        } else if self.need[info.colour as usize] > 0 {
            3.0 + self.need[info.colour as usize] as f64
        } else {
            info.gold as f64 * 0.5
        }
    }

    fn research_value(&self, card: u8) -> f64 {
        let rules = self.s.rules();
        let info = rules.cards[card as usize];
        let delta = info.outrage as i16;
        // With `research-outrage=before-win` the outrage moves before the win counts, so a
        // winning research that tips the track loses for both.
        let price_first = self.s.flags().research_outrage_first;
        if self.research_wins(card) && !(price_first && self.fatal(delta)) {
            return 1000.0;
        }
        if self.fatal(delta) {
            return -1000.0;
        }
        let open = self.s.open_research(self.me);
        let pressure = 1.0 + 3.0 * self.s.outrage() as f64 / rules.outrage_max as f64;
        let useful = (info.research as u32).min(open) as f64;
        let mut value = useful * 4.0 - self.outrage_cost(delta);
        if delta < 0 && self.s.outrage() > 0 {
            value += 3.0 * pressure;
        }
        value
    }

    fn score(&self, action: Action) -> f64 {
        let s = self.s;
        let rules = s.rules();
        match action {
            Action::Deal(_) => 0.0,
            Action::DrawShort => 10.0,
            Action::SkipShortDraw => 0.0,
            Action::Buy(slot) => {
                let card = s.auction()[slot as usize];
                let want = self.research_value(card).max(self.keep_value(card));
                // Gold is cheap to a full hand.
                let hand = s.hand(self.me).count_ones().max(1) as f64;
                // Buying also turns the Auction House over, which a stuck table needs.
                // Each further purchase in a turn must be clearly worth it (no endless swaps).
                want + 1.0
                    - rules.prices[slot as usize] as f64 * (6.0 / hand).min(1.0)
                    - 3.0 * s.purchases() as f64
            }
            Action::Pay(card) => {
                let gold = rules.cards[card as usize].gold as f64;
                let due = s.payment_due().unwrap_or(0) as f64;
                -self.keep_value(card) - (gold - due).max(0.0) * 0.5
            }
            Action::Research => self.research_value(s.bought().unwrap_or(0)),
            Action::Keep => self.keep_value(s.bought().unwrap_or(0)),
            Action::Place(g) => {
                let golem = rules.golems[self.me][g as usize];
                let left = golem.research - s.markers(self.me)[g as usize];
                let set_bonus = if s.set_done(self.me, g as usize) {
                    5.0
                } else {
                    0.0
                };
                10.0 + set_bonus - left as f64
            }
            Action::Set { golem, cards, .. } => self.set_score(golem as usize, cards),
            // Two cards for one: worth it unless the card is needed.
            Action::Discard(card) => 2.5 - 0.5 * self.keep_value(card),
            Action::EndTurn => 0.0,
        }
    }

    fn set_score(&self, golem: usize, cards: u64) -> f64 {
        let rules = self.s.rules();
        let mut outrage = 0i16;
        let mut gold = 0.0;
        let mut rest = cards;
        while rest != 0 {
            let info = rules.cards[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            gold += info.gold as f64;
            if info.is_wild() {
                outrage += info.outrage as i16;
            }
        }
        let research_done = self.s.markers(self.me)[golem] >= rules.golems[self.me][golem].research;
        let last_card = self.s.activated(self.me) + 1 == rules.golems[self.me].len();
        // With `wild-outrage=after-win` the set is marked before its wilds move the outrage
        // marker, so the last one wins whatever its price; with `before-win` the price comes
        // first and a fatal one loses.
        let price_first = self.s.flags().wild_outrage_first;
        if research_done && last_card && !(price_first && self.fatal(outrage)) {
            return 1000.0;
        }
        if self.fatal(outrage) {
            return -1000.0;
        }
        // Beside the track's price, a wild's outrage costs `heuristic` 3 a step (and the
        // margin); `risky` pays the track's price only.
        let outrage_price = if self.risky {
            self.outrage_cost(outrage)
        } else {
            let unsafe_penalty = if self.safe(outrage) { 0.0 } else { 100.0 };
            outrage.max(0) as f64 * 3.0 + unsafe_penalty
        };
        50.0 + if research_done { 20.0 } else { 0.0 } - gold * 0.5 - outrage_price
    }
}
