//! One game of Capek Golems in progress. Piles are bit sets over the game cards: the draw
//! pile is a set (its order is a chance event at each draw), so reshuffling the discard pile
//! is simply turning that set into the new draw pile.

use std::fmt::Write;
use std::sync::Arc;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::rules::{Flags, MAX_GOLEM, MAX_PLAYERS, MAX_SLOTS, NO_CARD, Rules};
use crate::engine::view::Observer;
use crate::engine::{CardUse, Player, State, Turn};

/// A move or a chance outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Chance: this card comes off the draw pile (into a hand or the Auction House).
    Deal(u8),
    /// Variant `short-hand-draw=may`: take the short-hand draw, or not.
    DrawShort,
    SkipShortDraw,
    /// Action 1: buy the card in this Auction House slot (then pay for it).
    Buy(u8),
    /// Discard this hand card towards the price.
    Pay(u8),
    /// The bought card: discard it for its field research, or take it into hand.
    Research,
    Keep,
    /// Put one field-research marker on this golem card (index by figure order).
    Place(u8),
    /// Action 2: discard these cards as a set for one option of a golem card.
    Set {
        golem: u8,
        option: u8,
        cards: u64,
    },
    /// Action 3: discard this card to draw.
    Discard(u8),
    EndTurn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    ShortChoice,
    Main,
    Pay {
        slot: u8,
        paid: u8,
    },
    Decide {
        card: u8,
    },
    /// Play 1A: field-research markers still to place, and the outrage move that follows.
    Place {
        left: u8,
        outrage: i8,
    },
}

/// Where action 1 stands this turn: it may hold several purchases in a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Buying {
    NotYet,
    Open,
    Done,
}

const SET_USED: u8 = 1;
const DRAW_USED: u8 = 2;

fn bit(card: u8) -> u64 {
    1u64 << card
}

fn cards_of(set: u64) -> impl Iterator<Item = u8> {
    let mut rest = set;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let c = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            c
        })
    })
}

/// The `k`-th card of a set, counting from the lowest.
fn nth_card(set: u64, k: u32) -> u8 {
    let mut rest = set;
    for _ in 0..k {
        rest &= rest - 1;
    }
    rest.trailing_zeros() as u8
}

#[derive(Debug, Clone, PartialEq)]
pub struct CapekState {
    pub(super) rules: Arc<Rules>,
    pub(super) flags: Flags,
    pub(super) players: u8,
    pub(super) hands: [u64; MAX_PLAYERS],
    /// Cards of each hand every player saw go in (kept from the Auction House) and has not
    /// seen leave: determinizing leaves them where they are.
    pub(super) known: [u64; MAX_PLAYERS],
    pub(super) draw: u64,
    /// Cards the draw pile may hold, as every player knows: all at the start, then the
    /// discard pile that became the draw pile at the last reshuffle.
    pub(super) drawable: u64,
    pub(super) discard: u64,
    pub(super) auction: [u8; MAX_SLOTS],
    /// Field-research markers on each golem card.
    pub(super) research: [[u8; MAX_GOLEM]; MAX_PLAYERS],
    /// Golem cards holding their set marker, as bits.
    pub(super) sets: [u8; MAX_PLAYERS],
    pub(super) outrage: i16,
    pub(super) current: u8,
    pub(super) phase: Phase,
    pub(super) buying: Buying,
    pub(super) purchases: u8,
    pub(super) used: u8,
    pub(super) to_auction: u8,
    pub(super) to_hand: u8,
    pub(super) end_turn_pending: bool,
    pub(super) winner: Option<u8>,
    pub(super) lost: bool,
    pub(super) moves: u32,
    pub(super) turns: u32,
    pub(super) reshuffles: u32,
    /// Cards the last reshuffle turned into the draw pile.
    pub(super) reshuffled: u8,
    pub(super) wilds_used: u32,
    pub(super) researched: u32,
    pub(super) sets_played: u32,
}

impl CapekState {
    /// Setup: shuffle, deal the hands, fill the Auction House; the first seat starts.
    pub fn new(
        rules: Arc<Rules>,
        flags: Flags,
        players: usize,
        rng: &mut ChaCha8Rng,
    ) -> Result<CapekState, String> {
        let n = rules.cards.len();
        let slots = rules.prices.len();
        if players * rules.initial_hand as usize + slots > n {
            return Err(format!(
                "{n} game cards cannot deal {} to each of {players} players and fill {slots} slots",
                rules.initial_hand
            ));
        }
        let mut order: Vec<u8> = (0..n as u8).collect();
        rand::seq::SliceRandom::shuffle(order.as_mut_slice(), rng);
        let mut deck = order.into_iter();
        let mut hands = [0u64; MAX_PLAYERS];
        for hand in hands.iter_mut().take(players) {
            for c in deck.by_ref().take(rules.initial_hand as usize) {
                *hand |= bit(c);
            }
        }
        let mut auction = [NO_CARD; MAX_SLOTS];
        for slot in auction.iter_mut().take(slots) {
            *slot = deck.next().unwrap_or(NO_CARD);
        }
        let outrage = rules.outrage_start;
        let mut s = CapekState {
            rules,
            flags,
            players: players as u8,
            hands,
            known: [0; MAX_PLAYERS],
            draw: deck.fold(0, |acc, c| acc | bit(c)),
            drawable: u64::MAX,
            discard: 0,
            auction,
            research: [[0; MAX_GOLEM]; MAX_PLAYERS],
            sets: [0; MAX_PLAYERS],
            outrage,
            current: 0,
            phase: Phase::Main,
            buying: Buying::NotYet,
            purchases: 0,
            used: 0,
            to_auction: 0,
            to_hand: 0,
            end_turn_pending: false,
            winner: None,
            lost: false,
            moves: 0,
            turns: 1,
            reshuffles: 0,
            reshuffled: 0,
            wilds_used: 0,
            researched: 0,
            sets_played: 0,
        };
        s.begin_turn();
        s.settle();
        Ok(s)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn flags(&self) -> Flags {
        self.flags
    }
    pub fn outrage(&self) -> i16 {
        self.outrage
    }
    /// Where the turn stands, in words: the step under way and the actions used so far
    /// (the observation carries it so that equal observations mean equal choices).
    pub(super) fn step_in_words(&self) -> String {
        let step = match self.phase {
            Phase::ShortChoice => "short of cards: draw or not".to_string(),
            Phase::Main => "choosing an action".to_string(),
            Phase::Pay { slot, paid } => format!(
                "paying for auction space ({}): {paid} gold so far",
                self.rules.prices[slot as usize]
            ),
            Phase::Decide { card } => {
                format!("research or keep {}", self.card_name(card))
            }
            Phase::Place { left, outrage } => {
                format!("placing {left} field research markers, then outrage {outrage:+}")
            }
        };
        let buying = match self.buying {
            Buying::NotYet => "nothing bought yet",
            Buying::Open => "buying",
            Buying::Done => "buying done",
        };
        let mut used = Vec::new();
        if self.used & SET_USED != 0 {
            used.push("set played");
        }
        if self.used & DRAW_USED != 0 {
            used.push("drawn");
        }
        let used = if used.is_empty() {
            "no action used".to_string()
        } else {
            used.join(", ")
        };
        let dealing = match (self.to_hand, self.to_auction) {
            (0, 0) => String::new(),
            (h, 0) => format!(
                "; {} to draw",
                crate::messages::count_of(h, "card", "cards")
            ),
            (0, a) => format!(
                "; {} to deal into the Auction House",
                crate::messages::count_of(a, "card", "cards")
            ),
            (h, a) => format!(
                "; {} to draw, {a} to deal into the Auction House",
                crate::messages::count_of(h, "card", "cards")
            ),
        };
        format!("{step}; {buying}; {used}{dealing}")
    }

    pub fn current(&self) -> usize {
        self.current as usize
    }
    pub fn hand(&self, p: Player) -> u64 {
        self.hands[p]
    }
    pub fn draw_pile(&self) -> u64 {
        self.draw
    }
    pub fn discard_pile(&self) -> u64 {
        self.discard
    }
    pub fn auction(&self) -> &[u8] {
        &self.auction[..self.rules.prices.len()]
    }
    pub fn markers(&self, p: Player) -> &[u8] {
        &self.research[p][..self.rules.golems[p].len()]
    }
    /// Cards bought so far this turn.
    pub fn purchases(&self) -> u8 {
        self.purchases
    }
    /// Golem cards of a player holding their set marker.
    pub fn sets_done(&self, p: Player) -> usize {
        self.sets[p].count_ones() as usize
    }
    pub fn set_done(&self, p: Player, golem: usize) -> bool {
        self.sets[p] & (1 << golem) != 0
    }
    /// The card being bought, once paid for and before it is researched or kept.
    pub fn bought(&self) -> Option<u8> {
        match self.phase {
            Phase::Decide { card } => Some(card),
            _ => None,
        }
    }
    /// Gold still owed for the card being paid for.
    pub fn payment_due(&self) -> Option<u8> {
        match self.phase {
            Phase::Pay { slot, paid } => {
                Some(self.rules.prices[slot as usize].saturating_sub(paid))
            }
            _ => None,
        }
    }

    /// Open field-research spaces on a player's golem cards.
    pub fn open_research(&self, p: Player) -> u32 {
        self.rules.golems[p]
            .iter()
            .zip(&self.research[p])
            .map(|(g, &m)| g.research.saturating_sub(m) as u32)
            .sum()
    }

    /// Golem cards of a player with all research and their set marker.
    pub fn activated(&self, p: Player) -> usize {
        (0..self.rules.golems[p].len())
            .filter(|&g| self.golem_active(p, g))
            .count()
    }

    fn golem_active(&self, p: Player, g: usize) -> bool {
        self.research[p][g] >= self.rules.golems[p][g].research && self.set_done(p, g)
    }

    fn hand_gold(&self, p: Player) -> u32 {
        cards_of(self.hands[p])
            .map(|c| self.rules.cards[c as usize].gold as u32)
            .sum()
    }

    /// One card of each kind that plays alike from a hand (same colour, value, gold and,
    /// for wilds, outrage): offering each once keeps the choices distinct.
    pub fn distinct_cards(&self, set: u64) -> impl Iterator<Item = u8> + '_ {
        let mut seen: u64 = 0;
        cards_of(set).filter(move |&c| {
            let twin = cards_of(seen).any(|s| self.same_in_hand(s, c));
            seen |= bit(c);
            !twin
        })
    }

    fn same_in_hand(&self, a: u8, b: u8) -> bool {
        self.rules.hand_keys[a as usize] == self.rules.hand_keys[b as usize]
    }

    fn begin_turn(&mut self) {
        self.used = 0;
        self.buying = Buying::NotYet;
        self.purchases = 0;
        self.phase = Phase::Main;
        // A space still empty (which play never leaves: a purchase discards its payment
        // before the row is refilled) is filled before the player acts.
        if self.auction().contains(&NO_CARD) {
            self.slide_auction();
        }
        // Play / Additional Rules: a player short of cards draws before acting.
        if self.hands[self.current()].count_ones() < self.rules.short_hand_below as u32 {
            if self.flags.short_draw_optional {
                self.phase = Phase::ShortChoice;
            } else {
                self.to_hand += self.rules.short_hand_draw;
            }
        }
    }

    /// Resolves what needs no decision: cancels draws when no card is left anywhere and
    /// passes the turn once its last draws are done.
    fn settle(&mut self) {
        // `reshuffle=when-empty` (the rulebook's "When the Draw Pile is exhausted"): the
        // moment the draw pile is empty the discard pile becomes the new one, so cards
        // discarded later wait for the next reshuffle; `at-next-draw` waits for a draw.
        if !self.flags.reshuffle_at_draw && self.draw == 0 && self.discard != 0 {
            self.reshuffle();
        }
        while !self.is_over() {
            if self.to_auction + self.to_hand > 0 {
                if self.draw | self.discard != 0 {
                    return;
                }
                self.to_auction = 0;
                self.to_hand = 0;
            }
            if !self.end_turn_pending {
                return;
            }
            self.end_turn_pending = false;
            self.current = (self.current + 1) % self.players;
            self.turns += 1;
            self.begin_turn();
        }
    }

    fn is_over(&self) -> bool {
        self.lost || self.winner.is_some()
    }

    /// Moves the outrage marker, never below the track's start of scale; reaching the top
    /// ends the game for everyone (Initial Game Setup).
    fn move_outrage(&mut self, delta: i16) {
        self.outrage = (self.outrage + delta).clamp(self.rules.outrage_min, self.rules.outrage_max);
        if self.outrage >= self.rules.outrage_max {
            self.lost = true;
        }
    }

    fn check_win(&mut self) {
        let p = self.current();
        if (0..self.rules.golems[p].len()).all(|g| self.golem_active(p, g)) {
            self.winner = Some(self.current);
        }
    }

    /// Action 1 ends as soon as another action starts (or the turn ends).
    fn close_buying(&mut self) {
        if self.buying == Buying::Open && self.flags.slide_after_buying {
            self.slide_auction();
        }
        if self.buying != Buying::NotYet {
            self.buying = Buying::Done;
        }
    }

    /// Remaining cards slide toward the cheap end; new cards enter at the top price.
    fn slide_auction(&mut self) {
        let n = self.rules.prices.len();
        let mut to = n;
        for from in (0..n).rev() {
            let c = self.auction[from];
            if c != NO_CARD {
                to -= 1;
                self.auction[to] = c;
            }
        }
        for slot in &mut self.auction[..to] {
            *slot = NO_CARD;
        }
        self.to_auction += to as u8;
    }

    /// Play 1A, after the markers: the researched card's outrage, then the purchase ends.
    fn research_outrage(&mut self, outrage: i8) {
        self.move_outrage(outrage as i16);
        self.finish_purchase();
    }

    fn finish_purchase(&mut self) {
        self.phase = Phase::Main;
        if !self.flags.slide_after_buying {
            self.slide_auction();
        }
    }

    /// The discard pile becomes the draw pile (rulebook: "When the Draw Pile is exhausted,
    /// shuffle the Discard Pile and place face down on the left as a new Draw Pile").
    fn reshuffle(&mut self) {
        self.draw = self.discard;
        self.drawable = self.discard;
        self.reshuffled = self.discard.count_ones() as u8;
        self.discard = 0;
        self.reshuffles += 1;
    }

    fn apply_deal(&mut self, card: u8) {
        if self.draw == 0 {
            // `reshuffle=at-next-draw`: the pile is refilled only now, when a card must come
            // off it (with `when-empty` it never waits empty beside a discard pile).
            self.reshuffle();
        }
        self.draw &= !bit(card);
        if self.to_auction > 0 {
            self.to_auction -= 1;
            let n = self.rules.prices.len();
            if let Some(slot) = (0..n).rev().find(|&s| self.auction[s] == NO_CARD) {
                self.auction[slot] = card;
            }
        } else {
            self.to_hand -= 1;
            self.hands[self.current()] |= bit(card);
        }
    }

    fn apply_move(&mut self, action: Action) {
        let p = self.current();
        match action {
            Action::Deal(_) => unreachable!("chance outcomes are applied apart"),
            Action::DrawShort => {
                self.to_hand += self.rules.short_hand_draw;
                self.phase = Phase::Main;
            }
            Action::SkipShortDraw => self.phase = Phase::Main,
            Action::Buy(slot) => {
                self.buying = Buying::Open;
                self.purchases = self.purchases.saturating_add(1);
                self.phase = Phase::Pay { slot, paid: 0 };
            }
            Action::Pay(card) => self.pay(card),
            Action::Research => {
                let Phase::Decide { card } = self.phase else {
                    unreachable!()
                };
                let info = self.rules.cards[card as usize];
                self.discard |= bit(card);
                self.researched += 1;
                // Play 1A: take the markers and distribute them, *then* move the outrage
                // marker: the move waits in the phase until the last marker is placed.
                let left = (info.research as u32).min(self.open_research(p)) as u8;
                if left > 0 {
                    self.phase = Phase::Place {
                        left,
                        outrage: info.outrage,
                    };
                } else {
                    self.research_outrage(info.outrage);
                }
            }
            Action::Keep => {
                let Phase::Decide { card } = self.phase else {
                    unreachable!()
                };
                self.hands[p] |= bit(card);
                self.known[p] |= bit(card);
                self.finish_purchase();
            }
            Action::Place(g) => {
                let Phase::Place { left, outrage } = self.phase else {
                    unreachable!()
                };
                self.research[p][g as usize] += 1;
                if left > 1 && self.open_research(p) > 0 {
                    // Markers still to place: no golem card is complete while a space of
                    // it is open, so nothing is won yet.
                    self.phase = Phase::Place {
                        left: left - 1,
                        outrage,
                    };
                } else if self.flags.research_outrage_first {
                    // `research-outrage=before-win`: the outrage moves (and may end the game
                    // for both, To Win: "However, if the marker ever reaches (25)"), then
                    // the win is checked.
                    self.research_outrage(outrage);
                    if !self.is_over() {
                        self.check_win();
                    }
                } else {
                    // `research-outrage=after-win`: the last marker activates the whole
                    // golem and the game is won before the outrage marker would move (To
                    // Win; Play 1A: the markers, "Then" the outrage).
                    self.check_win();
                    if !self.is_over() {
                        self.research_outrage(outrage);
                    }
                }
            }
            Action::Set { golem, cards, .. } => self.play_set(golem, cards),
            Action::Discard(card) => {
                self.close_buying();
                self.used |= DRAW_USED;
                self.hands[p] &= !bit(card);
                self.known[p] &= !bit(card);
                self.discard |= bit(card);
                self.to_hand += self.rules.discard_draw;
            }
            Action::EndTurn => {
                self.close_buying();
                self.end_turn_pending = true;
            }
        }
    }

    fn pay(&mut self, card: u8) {
        let Phase::Pay { slot, paid } = self.phase else {
            unreachable!()
        };
        let p = self.current();
        self.hands[p] &= !bit(card);
        self.known[p] &= !bit(card);
        self.discard |= bit(card);
        let paid = paid + self.rules.cards[card as usize].gold;
        if paid >= self.rules.prices[slot as usize] {
            let bought = self.auction[slot as usize];
            self.auction[slot as usize] = NO_CARD;
            self.phase = Phase::Decide { card: bought };
        } else {
            self.phase = Phase::Pay { slot, paid };
        }
    }

    fn play_set(&mut self, golem: u8, cards: u64) {
        self.close_buying();
        let p = self.current();
        self.used |= SET_USED;
        self.sets_played += 1;
        self.hands[p] &= !cards;
        self.known[p] &= !cards;
        self.discard |= cards;
        self.sets[p] |= 1 << golem;
        // As in Play 1A, the resource is marked first and its price paid after: a set that
        // activates the last golem card wins before its wilds' outrage would move
        // (`wild-outrage=after-win`). With `before-win` the price is paid first, and an
        // outrage that reaches the track's end loses the game for both before the win counts.
        if !self.flags.wild_outrage_first {
            self.check_win();
            if self.is_over() {
                self.wilds_used += (cards & self.rules.wild_mask).count_ones();
                return;
            }
        }
        // Special Wild Cards: each wild used moves the outrage marker.
        for c in cards_of(cards) {
            let info = self.rules.cards[c as usize];
            if info.is_wild() {
                self.wilds_used += 1;
                self.move_outrage(info.outrage as i16);
            }
        }
        if self.flags.wild_outrage_first && !self.is_over() {
            self.check_win();
        }
    }

    fn main_actions(&self, out: &mut Vec<Action>) {
        let p = self.current();
        if self.buying != Buying::Done {
            let gold = self.hand_gold(p);
            for (slot, &price) in self.rules.prices.iter().enumerate() {
                if self.auction[slot] != NO_CARD && gold >= price as u32 {
                    out.push(Action::Buy(slot as u8));
                }
            }
        }
        if self.used & SET_USED == 0 {
            self.set_actions(out);
        }
        if self.used & DRAW_USED == 0 {
            out.extend(self.distinct_cards(self.hands[p]).map(Action::Discard));
        }
        out.push(Action::EndTurn);
    }

    /// Every set the hand can form for a golem card without its set marker: one colour of
    /// the card's two options, wilds standing for as many cards as they are marked, adding
    /// up to the option's set size exactly.
    pub fn set_actions(&self, out: &mut Vec<Action>) {
        let p = self.current();
        let hand = self.hands[p];
        let wilds = hand & self.rules.wild_mask;
        for (g, golem) in self.rules.golems[p].iter().enumerate() {
            if self.set_done(p, g) {
                continue;
            }
            for (o, &(colour, size)) in golem.options.iter().enumerate() {
                if o == 1 && golem.options[0] == golem.options[1] {
                    continue;
                }
                let coloured = hand & self.rules.colour_masks[colour as usize];
                if coloured == 0 && !self.flags.wild_only_sets {
                    continue;
                }
                let eligible = coloured | wilds;
                let total: u32 = cards_of(eligible)
                    .map(|c| self.rules.set_value(c as usize) as u32)
                    .sum();
                if total < size as u32 {
                    continue;
                }
                // Cards alike in hand form one group; a set takes some of each group.
                let mut groups = [0u64; super::rules::MAX_CARDS];
                let mut n = 0;
                for c in cards_of(eligible) {
                    let key = self.rules.hand_keys[c as usize];
                    match groups[..n]
                        .iter_mut()
                        .find(|g| self.rules.hand_keys[g.trailing_zeros() as usize] == key)
                    {
                        Some(group) => *group |= bit(c),
                        None => {
                            groups[n] = bit(c);
                            n += 1;
                        }
                    }
                }
                let mut emit = |cards| {
                    out.push(Action::Set {
                        golem: g as u8,
                        option: o as u8,
                        cards,
                    })
                };
                self.choose_set(&groups[..n], size, 0, &mut emit);
            }
        }
    }

    fn choose_set(&self, groups: &[u64], left: u8, chosen: u64, emit: &mut impl FnMut(u64)) {
        let Some((&group, rest)) = groups.split_first() else {
            let coloured = chosen & !self.rules.wild_mask != 0;
            if left == 0 && chosen != 0 && (coloured || self.flags.wild_only_sets) {
                emit(chosen);
            }
            return;
        };
        let value = self.rules.set_value(group.trailing_zeros() as usize);
        let mut taken = 0u64;
        let mut used = 0u8;
        self.choose_set(rest, left, chosen, emit);
        for c in cards_of(group) {
            used = used.saturating_add(value);
            if used > left || value == 0 {
                break;
            }
            taken |= bit(c);
            self.choose_set(rest, left - used, chosen | taken, emit);
        }
    }

    fn card_name(&self, card: u8) -> &str {
        &self.rules.card_names[card as usize]
    }

    fn list(&self, set: u64) -> String {
        let names: Vec<&str> = cards_of(set).map(|c| self.card_name(c)).collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    }
}

impl State for CapekState {
    type Action = Action;

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Terminal
        } else if self.to_auction + self.to_hand > 0 {
            Turn::Chance
        } else {
            Turn::Player(self.current())
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match self.turn() {
            Turn::Terminal => {}
            Turn::Chance => out.extend(cards_of(self.chance_pile()).map(Action::Deal)),
            Turn::Player(p) => match self.phase {
                Phase::ShortChoice => out.extend([Action::DrawShort, Action::SkipShortDraw]),
                Phase::Main => self.main_actions(&mut out),
                Phase::Pay { .. } => {
                    out.extend(self.distinct_cards(self.hands[p]).map(Action::Pay))
                }
                Phase::Decide { .. } => out.extend([Action::Research, Action::Keep]),
                Phase::Place { .. } => {
                    for (g, golem) in self.rules.golems[p].iter().enumerate() {
                        if self.research[p][g] < golem.research {
                            out.push(Action::Place(g as u8));
                        }
                    }
                }
            },
        }
        out
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        let pile = self.chance_pile();
        let p = 1.0 / pile.count_ones() as f64;
        cards_of(pile).map(|c| (Action::Deal(c), p)).collect()
    }

    fn sample_chance(&self, rng: &mut ChaCha8Rng) -> Action {
        let pile = self.chance_pile();
        Action::Deal(nth_card(pile, rng.random_range(0..pile.count_ones())))
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Deal(card) => self.apply_deal(card),
            _ => {
                self.moves += 1;
                self.apply_move(action);
            }
        }
        self.settle();
    }

    fn returns(&self) -> Vec<f64> {
        (0..self.players)
            .map(|p| if self.winner == Some(p) { 1.0 } else { 0.0 })
            .collect()
    }

    /// A card dealt into a hand is hidden from the other player: they learn only that a card
    /// was drawn (the Auction House deals stay public).
    fn chance_name(&self, action: Action, observer: Observer) -> String {
        match action {
            Action::Deal(_) if self.to_auction == 0 && !observer.sees_hand(self.current()) => {
                format!("player {} draws a card", self.current + 1)
            }
            _ => self.action_name(action),
        }
    }

    /// The reshuffle (rulebook: "When the Draw Pile is exhausted, shuffle the Discard Pile
    /// and place face down on the left as a new Draw Pile"), seen by every seat alike.
    fn hidden_events(&self, before: &Self, _observer: Observer) -> Vec<String> {
        if self.reshuffles > before.reshuffles {
            vec![format!(
                "the draw pile is empty: the discard pile ({} cards) is shuffled into a new draw pile",
                self.reshuffled
            )]
        } else {
            Vec::new()
        }
    }

    fn action_name(&self, action: Action) -> String {
        let who = format!("player {}", self.current + 1);
        let price = |slot: u8| self.rules.prices[slot as usize];
        match action {
            Action::Deal(c) if self.to_auction > 0 => {
                format!("{} enters the Auction House", self.card_name(c))
            }
            Action::Deal(c) => format!("{who} draws {}", self.card_name(c)),
            Action::DrawShort => format!("{who} is short of cards and draws"),
            Action::SkipShortDraw => format!("{who} is short of cards but does not draw"),
            Action::Buy(slot) => format!(
                "{who} buys {} from auction space ({})",
                self.card_name(self.auction[slot as usize]),
                price(slot)
            ),
            Action::Pay(c) => format!(
                "{who} pays with {} ({} gold)",
                self.card_name(c),
                self.rules.cards[c as usize].gold
            ),
            Action::Research => {
                let card = self.bought().unwrap_or(0);
                let info = self.rules.cards[card as usize];
                format!(
                    "{who} discards {} for {} field research, outrage {:+}",
                    self.card_name(card),
                    info.research,
                    info.outrage
                )
            }
            Action::Keep => format!(
                "{who} takes {} into hand",
                self.card_name(self.bought().unwrap_or(0))
            ),
            Action::Place(g) => format!(
                "{who} marks field research on the {}",
                self.rules.golem_names[self.current()][g as usize]
            ),
            Action::Set {
                golem,
                option,
                cards,
            } => {
                let (colour, size) =
                    self.rules.golems[self.current()][golem as usize].options[option as usize];
                format!(
                    "{who} plays a set of {size} {} on the {}: {}",
                    self.rules.colours[colour as usize],
                    self.rules.golem_names[self.current()][golem as usize],
                    self.list(cards)
                )
            }
            Action::Discard(c) => format!(
                "{who} discards {} to draw {}",
                self.card_name(c),
                self.rules.discard_draw
            ),
            Action::EndTurn => format!("{who} ends the turn"),
        }
    }

    fn observation(&self, player: Player) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "turn {}, player {} to act; outrage {}/{}",
            self.turns,
            self.current + 1,
            self.outrage,
            self.rules.outrage_max
        );
        let _ = writeln!(s, "{}", self.step_in_words());
        let slots: Vec<String> = self
            .auction()
            .iter()
            .zip(&self.rules.prices)
            .map(|(&c, price)| match c {
                NO_CARD => format!("{price}: empty"),
                c => format!("{price}: {}", self.card_name(c)),
            })
            .collect();
        let _ = writeln!(s, "auction: {}", slots.join("; "));
        let _ = writeln!(
            s,
            "draw pile {}; discard pile: {}",
            crate::messages::count_of(self.draw.count_ones(), "card", "cards"),
            self.list(self.discard)
        );
        for p in 0..self.num_players() {
            if p == player {
                let _ = writeln!(s, "your hand: {}", self.list(self.hands[p]));
            } else {
                let _ = writeln!(
                    s,
                    "player {} holds {} cards, seen taken into hand: {}",
                    p + 1,
                    self.hands[p].count_ones(),
                    self.list(self.known[p])
                );
            }
            let golems: Vec<String> = (0..self.rules.golems[p].len())
                .map(|g| {
                    format!(
                        "{} {}/{}{}",
                        self.rules.golem_names[p][g],
                        self.research[p][g],
                        self.rules.golems[p][g].research,
                        if self.set_done(p, g) { " set" } else { "" }
                    )
                })
                .collect();
            let _ = writeln!(s, "player {} golem: {}", p + 1, golems.join(", "));
        }
        s
    }

    /// Deals the other players' unseen cards afresh from the cards `observer` cannot see,
    /// keeping what everyone knows: cards seen going into a hand stay there, and a card that
    /// was not in the discard pile at the last reshuffle cannot be in the draw pile, so it is
    /// in some other hand. Every deal consistent with that is equally likely.
    fn determinize(&self, observer: Player, rng: &mut ChaCha8Rng) -> CapekState {
        let others = || (0..self.num_players()).filter(move |&q| q != observer);
        let mut pool = self.draw;
        let mut slots: Vec<Player> = Vec::new();
        for q in others() {
            let unseen = self.hands[q] & !self.known[q];
            pool |= unseen;
            slots.extend(std::iter::repeat_n(q, unseen.count_ones() as usize));
        }
        let mut d = self.clone();
        for q in others() {
            d.hands[q] = self.known[q];
        }
        // Cards that cannot be in the draw pile take random unseen slots first.
        let mut forced = pool & !self.drawable;
        while forced != 0 && !slots.is_empty() {
            let c = forced.trailing_zeros() as u8;
            forced &= forced - 1;
            let q = slots.swap_remove(rng.random_range(0..slots.len()));
            d.hands[q] |= bit(c);
            pool &= !bit(c);
        }
        for q in slots {
            let c = nth_card(pool, rng.random_range(0..pool.count_ones()));
            pool &= !bit(c);
            d.hands[q] |= bit(c);
        }
        d.draw = pool;
        d
    }

    fn moves_played(&self) -> u32 {
        self.moves
    }

    fn turns_played(&self) -> Option<u32> {
        Some(self.turns)
    }

    fn public_view(&self) -> String {
        super::views::public_view(self)
    }

    fn private_view(&self, seat: Player) -> String {
        super::views::private_view(self, seat)
    }

    fn public_data(&self) -> serde_json::Value {
        super::views::public_data(self)
    }

    fn private_data(&self, seat: Player) -> serde_json::Value {
        super::views::private_data(self, seat)
    }

    fn end_reason(&self) -> Option<&'static str> {
        if self.winner.is_some() {
            Some("golem activated")
        } else if self.lost {
            Some("public outrage")
        } else {
            None
        }
    }

    fn end_stats(&self) -> Vec<(&'static str, f64)> {
        const PARTS: [&str; MAX_PLAYERS] = [
            "parts activated, player 1",
            "parts activated, player 2",
            "parts activated, player 3",
            "parts activated, player 4",
        ];
        let mut stats = vec![
            ("outrage", self.outrage as f64),
            ("turns", self.turns as f64),
            ("reshuffles", self.reshuffles as f64),
            ("cards researched", self.researched as f64),
            ("sets played", self.sets_played as f64),
            ("wilds used", self.wilds_used as f64),
        ];
        for (p, name) in PARTS.iter().enumerate().take(self.num_players()) {
            stats.push((name, self.activated(p) as f64));
        }
        stats
    }

    fn targets(&self, action: Action) -> Vec<crate::engine::Target> {
        super::views::targets(self, action)
    }

    /// The game card a purchase acquires, and the cards a set plays: each for its effect (a
    /// card discarded towards a price or to draw is not named).
    fn cards_of(&self, action: Action, out: &mut Vec<CardUse>) -> bool {
        let id = |card: u8| CardUse::effect(self.rules.card_ids[card as usize]);
        match action {
            Action::Buy(slot) => match self.auction.get(slot as usize) {
                Some(&card) if card != NO_CARD => out.push(id(card)),
                _ => {}
            },
            Action::Set { cards, .. } => out.extend(cards_of(cards).map(id)),
            _ => {}
        }
        true
    }

    fn action_kind(&self, action: Action) -> &'static str {
        match action {
            Action::Deal(_) => "deal",
            Action::DrawShort => "short-hand draw",
            Action::SkipShortDraw => "skip short-hand draw",
            Action::Buy(_) => "buy",
            Action::Pay(_) => "pay",
            Action::Research => "research bought card",
            Action::Keep => "keep bought card",
            Action::Place(_) => "place research marker",
            Action::Set { .. } => "play set",
            Action::Discard(_) => "discard to draw",
            Action::EndTurn => "end turn",
        }
    }

    /// Progress toward a full golem (markers placed over markers needed), shared out and
    /// scaled down as the outrage marker nears the top.
    fn estimate(&self) -> Vec<f64> {
        let n = self.num_players();
        if let Some(w) = self.winner {
            return self.returns_with(w);
        }
        if self.lost {
            return vec![0.0; n];
        }
        let progress: Vec<f64> = (0..n)
            .map(|p| {
                let golems = &self.rules.golems[p];
                let need: u32 = golems.iter().map(|g| g.research as u32 + 1).sum();
                let have = need - self.open_research(p) - (golems.len() as u32)
                    + self.sets[p].count_ones();
                (have as f64 / need as f64).powi(2)
            })
            .collect();
        let span = (self.rules.outrage_max - self.rules.outrage_min).max(1) as f64;
        let risk = ((self.outrage - self.rules.outrage_min) as f64 / span).powi(2);
        let total: f64 = progress.iter().sum();
        progress
            .iter()
            .map(|&x| {
                let share = if total > 0.0 {
                    x / total
                } else {
                    1.0 / n as f64
                };
                share * (1.0 - risk)
            })
            .collect()
    }
}

impl CapekState {
    fn returns_with(&self, winner: u8) -> Vec<f64> {
        (0..self.players)
            .map(|p| if p == winner { 1.0 } else { 0.0 })
            .collect()
    }

    /// The pile the next card comes from: the draw pile, or the discard pile about to be
    /// reshuffled into it.
    fn chance_pile(&self) -> u64 {
        if self.draw != 0 {
            self.draw
        } else {
            self.discard
        }
    }
}
