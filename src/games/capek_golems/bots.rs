//! The rule-based Capek bot: builds toward its golem, and above all keeps the shared
//! outrage marker away from the top of the track.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::state::{Action, CapekState};
use crate::engine::{Bot, State};

/// Scores every legal move and plays the best (ties broken at random).
pub struct Heuristic;

impl Bot<CapekState> for Heuristic {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, state: &CapekState, rng: &mut ChaCha8Rng) -> Action {
        let view = View::new(state);
        let mut best = Vec::new();
        let mut top = f64::NEG_INFINITY;
        for action in state.legal_actions() {
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
}

/// What the bot weighs, computed once per decision.
struct View<'a> {
    s: &'a CapekState,
    me: usize,
    /// For each colour, how many of my unfinished golem cards could take a set of it.
    need: Vec<u32>,
    /// Outrage one card can add: the bot keeps that much room below the top.
    margin: i16,
}

impl<'a> View<'a> {
    fn new(s: &'a CapekState) -> View<'a> {
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
        }
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
        if self.fatal(delta) {
            return -1000.0;
        }
        let open = self.s.open_research(self.me);
        let pressure = 1.0 + 3.0 * self.s.outrage() as f64 / rules.outrage_max as f64;
        let useful = (info.research as u32).min(open) as f64;
        let mut value = useful * 4.0 - delta.max(0) as f64 * pressure;
        // The last research a golem needs is worth almost any price.
        let sets_done = self.s.sets_done(self.me) == rules.golems[self.me].len();
        if open > 0 && open <= info.research as u32 && sets_done {
            value += 20.0;
        }
        if !self.safe(delta) {
            value -= 100.0;
        }
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
        if self.fatal(outrage) {
            return -1000.0;
        }
        let research_done = self.s.markers(self.me)[golem] >= rules.golems[self.me][golem].research;
        let unsafe_penalty = if self.safe(outrage) { 0.0 } else { 100.0 };
        50.0 + if research_done { 20.0 } else { 0.0 }
            - outrage.max(0) as f64 * 3.0
            - gold * 0.5
            - unsafe_penalty
    }
}
