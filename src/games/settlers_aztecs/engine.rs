//! A solitaire Pray game: the rules of Pray actions and blessing tokens as an engine.
//!
//! Each round (`params.sim_rounds`) deals `sim_prays_per_round` Pray actions from
//! `sim_pray_cards` (chance, with replacement), then the player takes
//! `sim_blessings_per_round` blessing tokens of colours it lacks (plus the Aztec tricolor when
//! `sim_tricolor`), then resolves the Pray actions in order: for each, draw (the cards are
//! chance outcomes with their exact probabilities) or use its tokens instead. Tokens are kept
//! through the round and discarded at its end (rulebook: Blessing). The score is the total
//! yield (matches plus token bonuses, see [`super::pray`]); the game is won at
//! `sim_target_yield`.

use std::fmt::Write as _;
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use super::param_bool;
use super::pray::{CommonDeck, Pile, applicable_tokens, fits, pray_yield};
use crate::engine::{Bot, Config, Engine, Player, State, Turn, Variant};
use crate::model::Game;

/// The rulebook's ambiguities, as `--variant NAME=VALUE`.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "timing",
        values: &["announce", "choose"],
        doc: "A Pray card that lets the player name the colour says either `announce` (before \
              drawing) or `choose` (after seeing the cards); our cards lack the text, so this \
              picks which kind the free-colour Pray actions are.",
    },
    Variant {
        name: "pray-draws",
        values: &["discard", "fresh"],
        doc: "Drawn cards are discarded after a Pray action: `discard` keeps them out of the \
              common deck until it runs out and the discard pile is reshuffled; `fresh` draws \
              every Pray action from the whole deck (as if other players' draws and reshuffles \
              restored it), which is what the odds table assumes.",
    },
    Variant {
        name: "tricolor",
        values: &["stacks", "one-per-colour"],
        doc: "A player may use several tokens in one Pray action, and the tricolor does not \
              stop a player from holding a brown, grey or red token: `stacks` lets both count \
              for the same colour; `one-per-colour` counts at most one token per colour.",
    },
];

/// The rules of the solitaire Pray game, read once from the model.
#[derive(Debug, Clone)]
pub struct PrayRules {
    pub deck: CommonDeck,
    /// The Pray actions rounds are dealt from.
    pub cards: Vec<PrayCard>,
    pub rounds: u32,
    pub prays_per_round: u32,
    pub gains_per_round: u32,
    pub tricolor: bool,
    /// Whether the tricolor counts toward the one-per-colour limit (the rulebook says no):
    /// when it does, a player holding it takes no brown, grey or red token.
    pub tricolor_limits: bool,
    pub target: u32,
    /// Blessing tokens of one colour a player may hold.
    pub limit: u8,
    /// Blessing tokens of each colour in the box (blessing colours only).
    pub supply: Vec<u8>,
}

/// One Pray action of the solitaire game: draw `pray` cards; `colour` is the colour it
/// rewards, or `None` when the player names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrayCard {
    pub pray: u32,
    pub colour: Option<usize>,
}

impl PrayRules {
    /// Reads the rules; the error names the missing or malformed data.
    pub fn from_model(game: &Game) -> Result<Self, String> {
        let deck = CommonDeck::from_model(game)?;
        let uint = |name: &str| -> Result<u32, String> {
            let v = game.param_int(name)?;
            u32::try_from(v)
                .ok()
                .filter(|&v| v <= 1000)
                .ok_or_else(|| format!("parameter `{name}` is {v}; it must be 0 to 1000"))
        };
        let limit = u8::try_from(game.param_int("blessing_limit_per_colour")?)
            .ok()
            .filter(|&l| l >= 1)
            .ok_or("parameter `blessing_limit_per_colour` must be 1 to 255")?;
        let supply = blessing_supply(game, &deck);
        let cards = pray_cards(game, &deck)?;
        let rules = PrayRules {
            cards,
            rounds: uint("sim_rounds")?,
            prays_per_round: uint("sim_prays_per_round")?,
            gains_per_round: uint("sim_blessings_per_round")?,
            tricolor: param_bool(game, "sim_tricolor")?,
            tricolor_limits: param_bool(game, "tricolor_counts_toward_limit")?,
            target: uint("sim_target_yield")?,
            limit,
            supply,
            deck,
        };
        if rules.cards.len() > usize::from(u8::MAX) + 1
            || rules.deck.kinds.len() > usize::from(u8::MAX) + 1
        {
            return Err(
                "the Pray game handles at most 256 Pray actions and 256 common card kinds".into(),
            );
        }
        let total = rules.deck.pile().total();
        for card in &rules.cards {
            if card.pray > total || !fits(total, card.pray) {
                return Err(format!(
                    "a Pray {} in `sim_pray_cards` cannot be drawn from a common deck of {total}",
                    card.pray
                ));
            }
        }
        Ok(rules)
    }

    fn colours(&self) -> usize {
        self.deck.colours.len()
    }

    fn blessing_colours(&self) -> usize {
        self.deck.blessing_colours
    }
}

/// Blessing tokens of each blessing colour in the box.
fn blessing_supply(game: &Game, deck: &CommonDeck) -> Vec<u8> {
    let mut supply = vec![0u8; deck.blessing_colours];
    for p in game.pieces_of_kind("blessing") {
        if let Some(i) = p.symbol.as_deref().and_then(|s| deck.colour_index(s))
            && i < deck.blessing_colours
        {
            supply[i] = supply[i].saturating_add(u8::try_from(p.count.0).unwrap_or(u8::MAX));
        }
    }
    supply
}

/// `params.sim_pray_cards`: a list of `{ pray = N, colour = "id" }` tables (colour optional).
fn pray_cards(game: &Game, deck: &CommonDeck) -> Result<Vec<PrayCard>, String> {
    let wrong = |what: String| format!("parameter `sim_pray_cards`: {what}");
    let list = game
        .param("sim_pray_cards")
        .ok_or_else(|| wrong("missing".into()))?
        .value
        .get_ref()
        .as_array()
        .ok_or_else(|| wrong("must be a list of { pray = N, colour = \"id\" } tables".into()))?;
    if list.is_empty() {
        return Err(wrong("lists no Pray actions".into()));
    }
    list.iter()
        .map(|item| {
            let table = item
                .as_table()
                .ok_or_else(|| wrong(format!("`{item}` is not a table")))?;
            if let Some(key) = table.keys().find(|k| *k != "pray" && *k != "colour") {
                return Err(wrong(format!("unknown key `{key}`")));
            }
            let pray = table
                .get("pray")
                .and_then(|v| v.as_integer())
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n >= 1)
                .ok_or_else(|| {
                    wrong(format!(
                        "`{item}` needs `pray`, a whole number of at least 1"
                    ))
                })?;
            let colour = match table.get("colour") {
                None => None,
                Some(v) => {
                    let id = v
                        .as_str()
                        .ok_or_else(|| wrong(format!("`{item}`: colour must be a text")))?;
                    Some(deck.colour_index(id).ok_or_else(|| {
                        wrong(format!(
                            "colour `{id}` is neither a blessing nor a card colour"
                        ))
                    })?)
                }
            };
            Ok(PrayCard { pray, colour })
        })
        .collect()
}

/// The chosen readings of the variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Readings {
    /// Free-colour Pray actions name the colour after drawing.
    pub choose: bool,
    /// Every Pray action draws from the whole deck.
    pub fresh: bool,
    /// The tricolor adds to an own token of the same colour.
    pub stack: bool,
}

impl Readings {
    fn from_config(config: &Config) -> Result<Self, String> {
        for (name, value) in &config.variants {
            let v = VARIANTS
                .iter()
                .find(|v| v.name == name)
                .ok_or_else(|| format!("unknown variant `{name}`"))?;
            if !v.values.contains(&value.as_str()) {
                return Err(format!(
                    "variant `{name}` has no value `{value}` (values: {})",
                    v.values.join(", ")
                ));
            }
        }
        Ok(Readings {
            choose: config.variant(&VARIANTS[0]) == "choose",
            fresh: config.variant(&VARIANTS[1]) == "fresh",
            stack: config.variant(&VARIANTS[2]) == "stacks",
        })
    }
}

/// The engine: rules read from the model.
#[derive(Debug, Clone)]
pub struct PrayEngine {
    rules: Arc<PrayRules>,
}

impl PrayEngine {
    pub fn rules(&self) -> &PrayRules {
        &self.rules
    }
}

impl Engine for PrayEngine {
    type State = PrayState;

    fn from_model(game: &Game) -> Result<Self, String> {
        Ok(PrayEngine {
            rules: Arc::new(PrayRules::from_model(game)?),
        })
    }

    fn variants(&self) -> &'static [Variant] {
        VARIANTS
    }

    fn player_counts(&self) -> std::ops::RangeInclusive<usize> {
        1..=1
    }

    fn new_game(&self, config: &Config, _rng: &mut ChaCha8Rng) -> Result<PrayState, String> {
        if config.players > 1 {
            return Err(format!(
                "the Pray game is solitaire; {} players were asked for",
                config.players
            ));
        }
        Ok(PrayState::new(
            self.rules.clone(),
            Readings::from_config(config)?,
        ))
    }

    fn bot(&self, name: &str) -> Option<Box<dyn Bot<PrayState>>> {
        (name == "heuristic").then(|| Box::new(ExpectedValueBot) as Box<dyn Bot<PrayState>>)
    }
}

/// A move of the Pray game, or a chance outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrayAction {
    /// Chance: the next Pray action of the round is this one of `sim_pray_cards`.
    Reveal(u8),
    /// Take a blessing token of this colour.
    Gain(u8),
    /// Draw the Pray action's cards; with the colour it resolves for, or `None` when the
    /// colour is chosen after drawing.
    Draw(Option<u8>),
    /// Use the blessing tokens of this colour instead of drawing.
    Skip(u8),
    /// Chance: a drawn common card of this kind.
    Card(u8),
    /// After drawing: resolve for this colour.
    Choose(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Phase {
    Reveal,
    Gain,
    Decide,
    Draw,
    Choose,
    Over,
}

/// One game of the solitaire Pray game.
#[derive(Debug, Clone)]
pub struct PrayState {
    rules: Arc<PrayRules>,
    readings: Readings,
    phase: Phase,
    round: u32,
    /// This round's Pray actions (indices into the rules' cards), and the next to resolve.
    dealt: Vec<u8>,
    next: usize,
    /// Blessing tokens held, per blessing colour.
    tokens: Vec<u8>,
    tricolor: bool,
    gains_left: u32,
    /// Common cards per kind: draw pile, discard pile, drawn for the current Pray action.
    pile: Vec<u32>,
    discard: Vec<u32>,
    drawn: Vec<u32>,
    to_draw: u32,
    /// The colour the current Pray action resolves for, once known.
    colour: Option<usize>,
    stats: Stats,
}

/// What happened, for the simulator's end statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Stats {
    total: u32,
    moves: u32,
    prays: u32,
    skipped: u32,
    /// Drawn with tokens that applied, but no card matched: the bonus was lost.
    failed: u32,
    gained: u32,
    reshuffles: u32,
}

impl PartialEq for PrayState {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.rules, &other.rules)
            && self.readings == other.readings
            && self.phase == other.phase
            && self.round == other.round
            && self.dealt == other.dealt
            && self.next == other.next
            && self.tokens == other.tokens
            && self.tricolor == other.tricolor
            && self.gains_left == other.gains_left
            && self.pile == other.pile
            && self.discard == other.discard
            && self.drawn == other.drawn
            && self.to_draw == other.to_draw
            && self.colour == other.colour
            && self.stats == other.stats
    }
}

impl PrayState {
    fn new(rules: Arc<PrayRules>, readings: Readings) -> Self {
        let kinds = rules.deck.kinds.len();
        let mut s = PrayState {
            readings,
            phase: Phase::Reveal,
            round: 0,
            dealt: Vec::new(),
            next: 0,
            tokens: vec![0; rules.blessing_colours()],
            tricolor: false,
            gains_left: 0,
            pile: rules.deck.counts(),
            discard: vec![0; kinds],
            drawn: vec![0; kinds],
            to_draw: 0,
            colour: None,
            stats: Stats::default(),
            rules,
        };
        s.start_round();
        s
    }

    /// The rules this game follows.
    pub fn rules(&self) -> &PrayRules {
        &self.rules
    }

    /// Total yield so far.
    pub fn yield_total(&self) -> u32 {
        self.stats.total
    }

    /// Blessing tokens held, per blessing colour.
    pub fn tokens(&self) -> &[u8] {
        &self.tokens
    }

    /// Common cards per kind in the draw pile, the discard pile and the current draw.
    pub fn card_piles(&self) -> (&[u32], &[u32], &[u32]) {
        (&self.pile, &self.discard, &self.drawn)
    }

    /// The Pray action being resolved, if any.
    pub fn current(&self) -> Option<PrayCard> {
        matches!(self.phase, Phase::Decide | Phase::Draw | Phase::Choose)
            .then(|| self.rules.cards[usize::from(self.dealt[self.next])])
    }

    fn start_round(&mut self) {
        if self.round >= self.rules.rounds {
            self.phase = Phase::Over;
            return;
        }
        self.dealt.clear();
        self.next = 0;
        self.tricolor = self.rules.tricolor;
        self.gains_left = self.rules.gains_per_round;
        self.phase = Phase::Reveal;
        self.after_reveal();
    }

    /// Moves on once the round's Pray actions are all revealed.
    fn after_reveal(&mut self) {
        if self.dealt.len() < self.rules.prays_per_round as usize {
            self.phase = Phase::Reveal;
        } else {
            self.phase = Phase::Gain;
            self.after_gain();
        }
    }

    fn can_gain(&self, c: usize) -> bool {
        let blocked =
            self.rules.tricolor_limits && self.tricolor && self.rules.deck.tricolor & (1 << c) != 0;
        !blocked && self.tokens[c] < self.rules.limit && self.tokens[c] < self.rules.supply[c]
    }

    fn after_gain(&mut self) {
        let any = (0..self.tokens.len()).any(|c| self.can_gain(c));
        if self.gains_left == 0 || !any {
            self.gains_left = 0;
            self.next_pray();
        }
    }

    /// Starts the next Pray action, or ends the round (tokens are discarded at Cleanup).
    fn next_pray(&mut self) {
        self.colour = None;
        if self.next < self.dealt.len() {
            self.phase = Phase::Decide;
            if self.readings.fresh {
                self.refill();
            }
        } else {
            self.tokens.iter_mut().for_each(|t| *t = 0);
            self.tricolor = false;
            self.round += 1;
            self.start_round();
        }
    }

    /// `fresh` reading: the deck is whole again before a Pray action.
    fn refill(&mut self) {
        for (p, d) in self.pile.iter_mut().zip(self.discard.iter_mut()) {
            *p += *d;
            *d = 0;
        }
    }

    /// Tokens that apply to colour `c` in this Pray action.
    pub fn applicable(&self, c: usize) -> u32 {
        let own = self.tokens.get(c).copied().unwrap_or(0);
        let fits = self.tricolor && self.rules.deck.tricolor & (1 << c) != 0;
        if own == 0 || !fits {
            return u32::from(own) + u32::from(fits);
        }
        u32::from(own) - 1 + applicable_tokens(true, true, self.readings.stack)
    }

    /// Tokens per colour, for every colour.
    fn applicable_all(&self) -> Vec<u32> {
        (0..self.rules.colours())
            .map(|c| self.applicable(c))
            .collect()
    }

    fn resolve(&mut self, amount: u32) {
        self.stats.total += amount;
        self.stats.prays += 1;
        self.next += 1;
        self.next_pray();
    }

    fn draw_card(&mut self, kind: usize) {
        self.pile[kind] -= 1;
        self.drawn[kind] += 1;
        self.to_draw -= 1;
        if self.to_draw > 0 && self.pile.iter().all(|&n| n == 0) {
            self.reshuffle();
        }
        if self.to_draw == 0 {
            match self.colour {
                Some(c) => self.finish_draw(c),
                None => self.phase = Phase::Choose,
            }
        }
    }

    /// The common deck ran out: its discard pile is shuffled into a new deck.
    fn reshuffle(&mut self) {
        std::mem::swap(&mut self.pile, &mut self.discard);
        self.stats.reshuffles += 1;
    }

    /// Resolves the drawn cards for colour `c` and discards them.
    fn finish_draw(&mut self, c: usize) {
        let matches = self.matches_drawn(c);
        let tokens = self.applicable(c);
        if matches == 0 && tokens > 0 {
            self.stats.failed += 1;
        }
        for (d, x) in self.discard.iter_mut().zip(self.drawn.iter_mut()) {
            *d += *x;
            *x = 0;
        }
        self.resolve(pray_yield(matches, tokens));
    }

    fn matches_drawn(&self, c: usize) -> u32 {
        self.draw_source().matches_in(&self.drawn, c)
    }

    /// The cards the next draws come from, as a pile with colour masks.
    pub fn draw_source(&self) -> Pile {
        Pile {
            masks: self.rules.deck.masks(),
            counts: self.pile.clone(),
        }
    }

    /// The colours a Pray action may resolve for: its own, or any.
    fn colour_options(&self, card: PrayCard) -> Vec<usize> {
        match card.colour {
            Some(c) => vec![c],
            None => (0..self.rules.colours()).collect(),
        }
    }

    fn decide_actions(&self) -> Vec<PrayAction> {
        let Some(card) = self.current() else {
            return Vec::new();
        };
        let options = self.colour_options(card);
        let mut out = Vec::new();
        if card.colour.is_none() && self.readings.choose {
            out.push(PrayAction::Draw(None));
        } else {
            out.extend(options.iter().map(|&c| PrayAction::Draw(Some(c as u8))));
        }
        out.extend(
            options
                .iter()
                .filter(|&&c| self.applicable(c) > 0)
                .map(|&c| PrayAction::Skip(c as u8)),
        );
        out
    }

    fn colour_name(&self, c: usize) -> &str {
        &self.rules.deck.colour_names[c]
    }
}

impl State for PrayState {
    type Action = PrayAction;

    fn num_players(&self) -> usize {
        1
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Reveal | Phase::Draw => Turn::Chance,
            Phase::Over => Turn::Terminal,
            Phase::Gain | Phase::Decide | Phase::Choose => Turn::Player(0),
        }
    }

    fn legal_actions(&self) -> Vec<PrayAction> {
        match self.phase {
            Phase::Gain => (0..self.tokens.len())
                .filter(|&c| self.can_gain(c))
                .map(|c| PrayAction::Gain(c as u8))
                .collect(),
            Phase::Decide => self.decide_actions(),
            Phase::Choose => (0..self.rules.colours())
                .map(|c| PrayAction::Choose(c as u8))
                .collect(),
            Phase::Reveal | Phase::Draw | Phase::Over => Vec::new(),
        }
    }

    fn chance_outcomes(&self) -> Vec<(PrayAction, f64)> {
        match self.phase {
            Phase::Reveal => {
                let n = self.rules.cards.len();
                (0..n)
                    .map(|i| (PrayAction::Reveal(i as u8), 1.0 / n as f64))
                    .collect()
            }
            Phase::Draw => {
                let total: u32 = self.pile.iter().sum();
                self.pile
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(k, &n)| (PrayAction::Card(k as u8), f64::from(n) / f64::from(total)))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    fn apply(&mut self, action: PrayAction) {
        match (self.phase, action) {
            (Phase::Reveal, PrayAction::Reveal(i)) => {
                self.dealt.push(i);
                self.after_reveal();
            }
            (Phase::Gain, PrayAction::Gain(c)) => {
                self.tokens[usize::from(c)] += 1;
                self.gains_left -= 1;
                self.stats.gained += 1;
                self.stats.moves += 1;
                self.after_gain();
            }
            (Phase::Decide, PrayAction::Draw(colour)) => {
                self.stats.moves += 1;
                if self.pile.iter().all(|&n| n == 0) {
                    self.reshuffle();
                }
                self.colour = colour.map(usize::from);
                self.to_draw = self.current().map_or(0, |c| c.pray);
                self.phase = Phase::Draw;
            }
            (Phase::Decide, PrayAction::Skip(c)) => {
                self.stats.moves += 1;
                self.stats.skipped += 1;
                let amount = self.applicable(usize::from(c));
                self.resolve(amount);
            }
            (Phase::Draw, PrayAction::Card(k)) => self.draw_card(usize::from(k)),
            (Phase::Choose, PrayAction::Choose(c)) => {
                self.stats.moves += 1;
                self.finish_draw(usize::from(c));
            }
            (phase, action) => panic!("{action:?} is not legal in phase {phase:?}"),
        }
    }

    fn returns(&self) -> Vec<f64> {
        if self.phase != Phase::Over {
            return vec![0.0];
        }
        vec![if self.stats.total >= self.rules.target {
            1.0
        } else {
            0.0
        }]
    }

    fn action_name(&self, action: PrayAction) -> String {
        let pray = self.current().map_or(0, |c| c.pray);
        match action {
            PrayAction::Reveal(i) => {
                let card = self.rules.cards[usize::from(i)];
                match card.colour {
                    Some(c) => format!("deal Pray {} for {}", card.pray, self.colour_name(c)),
                    None => format!("deal Pray {} for a colour of the player's", card.pray),
                }
            }
            PrayAction::Gain(c) => format!("take a {} blessing", self.colour_name(c.into())),
            PrayAction::Draw(Some(c)) => {
                format!("draw {pray} for {}", self.colour_name(c.into()))
            }
            PrayAction::Draw(None) => format!("draw {pray}, colour chosen after"),
            PrayAction::Skip(c) => format!(
                "use {} blessing token(s) as {} instead of drawing",
                self.applicable(c.into()),
                self.colour_name(c.into())
            ),
            PrayAction::Card(k) => {
                format!("draw: {}", self.rules.deck.kinds[usize::from(k)].name)
            }
            PrayAction::Choose(c) => format!("resolve for {}", self.colour_name(c.into())),
        }
    }

    fn action_kind(&self, action: PrayAction) -> &'static str {
        match action {
            PrayAction::Reveal(_) | PrayAction::Card(_) => "chance",
            PrayAction::Gain(_) => "take a blessing",
            PrayAction::Draw(Some(_)) => "draw for a colour",
            PrayAction::Draw(None) => "draw, choose after",
            PrayAction::Skip(_) => "use tokens instead of drawing",
            PrayAction::Choose(_) => "choose the colour",
        }
    }

    fn observation(&self, _player: Player) -> String {
        let mut s = format!(
            "round {} of {}, yield {} (target {})",
            (self.round + 1).min(self.rules.rounds),
            self.rules.rounds,
            self.stats.total,
            self.rules.target
        );
        let held: Vec<&str> = (0..self.tokens.len())
            .filter(|&c| self.tokens[c] > 0)
            .map(|c| self.colour_name(c))
            .collect();
        let _ = write!(s, "; blessings: {}", held.join(", "));
        if self.tricolor {
            s.push_str(" + tricolor");
        }
        if let Some(card) = self.current() {
            let _ = write!(s, "; Pray {}", card.pray);
            if let Some(c) = card.colour {
                let _ = write!(s, " for {}", self.colour_name(c));
            }
        }
        // The common deck's make-up is public (its discards are face up); its order is not.
        let _ = write!(
            s,
            "; common deck {} cards, discard {}",
            self.pile.iter().sum::<u32>(),
            self.discard.iter().sum::<u32>()
        );
        s
    }

    fn determinize(&self, _observer: Player, _rng: &mut ChaCha8Rng) -> Self {
        // Nothing is hidden: the deck's order does not exist until a draw (a chance node).
        self.clone()
    }

    fn moves_played(&self) -> u32 {
        self.stats.moves
    }

    fn end_reason(&self) -> Option<&'static str> {
        (self.phase == Phase::Over).then_some(if self.stats.total >= self.rules.target {
            "target reached"
        } else {
            "target missed"
        })
    }

    fn end_stats(&self) -> Vec<(&'static str, f64)> {
        let s = &self.stats;
        vec![
            ("yield", f64::from(s.total)),
            ("pray actions", f64::from(s.prays)),
            ("prays resolved by tokens", f64::from(s.skipped)),
            ("token bonuses lost", f64::from(s.failed)),
            ("blessings taken", f64::from(s.gained)),
            ("reshuffles", f64::from(s.reshuffles)),
        ]
    }
}

/// The heuristic bot: picks the move of highest expected yield, counted exactly.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExpectedValueBot;

impl Bot<PrayState> for ExpectedValueBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, state: &PrayState, _rng: &mut ChaCha8Rng) -> PrayAction {
        let actions = state.legal_actions();
        let mut best = actions[0];
        let mut best_value = f64::NEG_INFINITY;
        for &a in &actions {
            let v = action_value(state, a);
            // Ties keep the earlier action; skips come after draws, so a strict `>` prefers
            // the certain skip only when it is better.
            if v > best_value + 1e-12
                || (matches!(a, PrayAction::Skip(_)) && v >= best_value - 1e-12)
            {
                best = a;
                best_value = v;
            }
        }
        best
    }
}

/// The expected yield of an action for the rest of the round (gains) or this Pray (others).
pub fn action_value(state: &PrayState, action: PrayAction) -> f64 {
    match action {
        PrayAction::Gain(c) => {
            let mut next = state.clone();
            next.tokens[usize::from(c)] += 1;
            round_value(&next)
        }
        PrayAction::Draw(Some(c)) => {
            let n = state.current().map_or(0, |card| card.pray);
            let c = usize::from(c);
            expected_source(state).draw_value(c, n, state.applicable(c))
        }
        PrayAction::Draw(None) => {
            let n = state.current().map_or(0, |card| card.pray);
            expected_source(state).choose_value(n, state.rules.colours(), &state.applicable_all())
        }
        PrayAction::Skip(c) => f64::from(state.applicable(usize::from(c))),
        PrayAction::Choose(c) => {
            let c = usize::from(c);
            f64::from(pray_yield(state.matches_drawn(c), state.applicable(c)))
        }
        PrayAction::Reveal(_) | PrayAction::Card(_) => 0.0,
    }
}

/// The pile the heuristic counts odds over: the draw pile, or the whole deck when the draw pile
/// is shorter than a Pray (a reshuffle will come).
fn expected_source(state: &PrayState) -> Pile {
    let mut pile = state.draw_source();
    let n = state.current().map_or(0, |c| c.pray);
    if pile.total() < n {
        pile.counts = state.rules.deck.counts();
    }
    pile
}

/// The best expected yield of the round's remaining Pray actions with the current tokens,
/// each valued on the current draw pile (the heuristic ignores depletion within a round).
fn round_value(state: &PrayState) -> f64 {
    let pile = state.draw_source();
    let tokens = state.applicable_all();
    state.dealt[state.next..]
        .iter()
        .map(|&i| {
            let card = state.rules.cards[usize::from(i)];
            let colours = state.colour_options(card);
            let skip = colours.iter().map(|&c| tokens[c]).max().unwrap_or(0);
            let draw = if card.colour.is_none() && state.readings.choose {
                pile.choose_value(card.pray, state.rules.colours(), &tokens)
            } else {
                colours
                    .iter()
                    .map(|&c| pile.draw_value(c, card.pray, tokens[c]))
                    .fold(0.0, f64::max)
            };
            draw.max(f64::from(skip))
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};

    use super::super::testdata::{edited, shipped};
    use super::*;
    use crate::model::GAME_FILE;

    fn engine() -> PrayEngine {
        PrayEngine::from_model(&shipped()).unwrap()
    }

    fn config(variants: &[(&str, &str)]) -> Config {
        Config::with_variants(1, variants)
    }

    fn sample_chance(state: &PrayState, rng: &mut ChaCha8Rng) -> PrayAction {
        let outcomes = state.chance_outcomes();
        let mut x: f64 = rng.random();
        for &(a, p) in &outcomes {
            if x < p {
                return a;
            }
            x -= p;
        }
        outcomes.last().unwrap().0
    }

    /// Plays one game; `bot` chooses the player's moves (uniform random when `None`).
    fn play(
        engine: &PrayEngine,
        cfg: &Config,
        seed: u64,
        mut bot: Option<&mut dyn Bot<PrayState>>,
        mut each_step: impl FnMut(&PrayState),
    ) -> PrayState {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = engine.new_game(cfg, &mut rng).unwrap();
        while state.turn() != Turn::Terminal {
            each_step(&state);
            let action = match state.turn() {
                Turn::Chance => sample_chance(&state, &mut rng),
                Turn::Player(p) => match bot.as_deref_mut() {
                    Some(b) => b.choose(&state.determinize(p, &mut rng), &mut rng),
                    None => {
                        let legal = state.legal_actions();
                        legal[rng.random_range(0..legal.len())]
                    }
                },
                Turn::Terminal => unreachable!(),
            };
            state.apply(action);
        }
        each_step(&state);
        state
    }

    /// Checks the rules' invariants on one state.
    fn check_state(state: &PrayState) {
        let rules = state.rules();
        let (pile, discard, drawn) = state.card_piles();
        for (k, kind) in rules.deck.kinds.iter().enumerate() {
            assert_eq!(
                pile[k] + discard[k] + drawn[k],
                kind.count,
                "card kind {k} conserved"
            );
        }
        for (c, &held) in state.tokens().iter().enumerate() {
            assert!(
                held <= rules.limit && held <= rules.supply[c],
                "token limit, colour {c}"
            );
        }
        assert_eq!(state.clone(), *state, "clone equals original");
        match state.turn() {
            Turn::Player(0) => assert!(!state.legal_actions().is_empty()),
            Turn::Player(_) => panic!("a solitaire game has one seat"),
            Turn::Chance => {
                let outcomes = state.chance_outcomes();
                assert!(!outcomes.is_empty());
                let sum: f64 = outcomes.iter().map(|(_, p)| p).sum();
                assert!((sum - 1.0).abs() < 1e-9);
                assert!(outcomes.iter().all(|&(_, p)| p > 0.0));
            }
            Turn::Terminal => {
                assert!(state.end_reason().is_some());
                let r = state.returns();
                assert!(r == vec![0.0] || r == vec![1.0]);
                let won = r[0] == 1.0;
                assert_eq!(won, state.yield_total() >= rules.target);
            }
        }
    }

    #[test]
    fn random_play_keeps_every_invariant() {
        let engine = engine();
        let rules = engine.rules();
        // Player moves per round: the gains plus at most two per Pray action.
        let cap = rules.rounds * (rules.gains_per_round + 2 * rules.prays_per_round);
        let readings: &[&[(&str, &str)]] = &[
            &[],
            &[("timing", "choose"), ("pray-draws", "fresh")],
            &[("tricolor", "one-per-colour"), ("timing", "choose")],
        ];
        let mut games = 0;
        for (i, r) in readings.iter().enumerate() {
            let cfg = config(r);
            for seed in 0..1000 {
                let end = play(&engine, &cfg, seed * 7 + i as u64, None, |s| {
                    check_state(s);
                    // Applying any legal move to a clone leaves the original untouched.
                    if let Turn::Player(_) = s.turn() {
                        let before = s.clone();
                        let mut copy = s.clone();
                        copy.apply(s.legal_actions()[0]);
                        assert_eq!(before, *s);
                    }
                });
                assert!(end.moves_played() <= cap, "game ended within its cap");
                games += 1;
            }
        }
        assert_eq!(games, 3000);
    }

    /// Expands every draw of the Pray action under way through the engine's chance nodes, the
    /// bot choosing the colour where the player does, and returns the action's exact expected
    /// yield.
    fn expected_yield(state: &PrayState, bot: &mut ExpectedValueBot) -> f64 {
        let prays = state.stats.prays;
        expand(state, prays, bot)
    }

    fn expand(state: &PrayState, prays: u32, bot: &mut ExpectedValueBot) -> f64 {
        if state.stats.prays > prays {
            return f64::from(state.yield_total());
        }
        match state.turn() {
            Turn::Chance => state
                .chance_outcomes()
                .into_iter()
                .map(|(a, p)| {
                    let mut next = state.clone();
                    next.apply(a);
                    p * expand(&next, prays, bot)
                })
                .sum(),
            Turn::Player(_) => {
                let mut next = state.clone();
                next.apply(bot.choose(state, &mut ChaCha8Rng::seed_from_u64(0)));
                expand(&next, prays, bot)
            }
            Turn::Terminal => f64::from(state.yield_total()),
        }
    }

    /// Plays to the first Pray action dealt as `card`, after taking `gains` as blessings.
    fn at_pray(cfg: &Config, card: usize, gains: &[usize]) -> PrayState {
        let engine = engine();
        let mut state = engine
            .new_game(cfg, &mut ChaCha8Rng::seed_from_u64(0))
            .unwrap();
        let mut gains = gains.iter();
        while state.current().is_none() {
            let action = match state.turn() {
                Turn::Chance => PrayAction::Reveal(card as u8),
                _ => PrayAction::Gain(*gains.next().unwrap() as u8),
            };
            state.apply(action);
        }
        state
    }

    #[test]
    fn engine_chance_nodes_give_the_exact_odds() {
        let engine = engine();
        let rules = engine.rules();
        let deck = &rules.deck;
        let (i, card) = rules
            .cards
            .iter()
            .enumerate()
            .find(|(_, c)| c.colour.is_some())
            .unwrap();
        let colour = card.colour.unwrap();
        let other = (0..deck.blessing_colours).find(|&c| c != colour).unwrap();
        let mut state = at_pray(
            &config(&[]),
            i,
            &[colour, other][..rules.gains_per_round as usize],
        );
        let tokens = state.applicable(colour);
        assert!(tokens >= 1);
        let exact = deck.pile().draw_value(colour, card.pray, tokens);
        state.apply(PrayAction::Draw(Some(colour as u8)));
        assert!((expected_yield(&state, &mut ExpectedValueBot) - exact).abs() < 1e-12);

        // Choosing after the draw: the engine's tree agrees with the enumeration of draws.
        let (j, free) = rules
            .cards
            .iter()
            .enumerate()
            .find(|(_, c)| c.colour.is_none())
            .unwrap();
        let mut state = at_pray(
            &config(&[("timing", "choose")]),
            j,
            &[colour, other][..rules.gains_per_round as usize],
        );
        let tokens: Vec<u32> = (0..deck.colours.len())
            .map(|c| state.applicable(c))
            .collect();
        let exact = deck
            .pile()
            .choose_value(free.pray, deck.colours.len(), &tokens);
        state.apply(PrayAction::Draw(None));
        let value = expected_yield(&state, &mut ExpectedValueBot);
        assert!((value - exact).abs() < 1e-12, "{value} vs {exact}");
    }

    #[test]
    fn tricolor_variant_changes_the_token_count() {
        let engine = engine();
        let deck = &engine.rules().deck;
        let brown = (0..deck.blessing_colours)
            .find(|&c| deck.tricolor & (1 << c) != 0)
            .unwrap();
        let (i, _) = engine
            .rules()
            .cards
            .iter()
            .enumerate()
            .find(|(_, c)| c.colour.is_none())
            .unwrap();
        let other = (0..deck.blessing_colours).find(|&c| c != brown).unwrap();
        let gains = &[brown, other][..engine.rules().gains_per_round as usize];
        let stacked = at_pray(&config(&[]), i, gains);
        let single = at_pray(&config(&[("tricolor", "one-per-colour")]), i, gains);
        assert_eq!(stacked.applicable(brown), 2);
        assert_eq!(single.applicable(brown), 1);
        assert!(
            stacked
                .legal_actions()
                .contains(&PrayAction::Skip(brown as u8))
        );
    }

    #[test]
    fn tricolor_outside_the_limit_by_the_data() {
        let engine = engine();
        let deck = &engine.rules().deck;
        let gainable = |engine: &PrayEngine| {
            let state = engine
                .new_game(&config(&[]), &mut ChaCha8Rng::seed_from_u64(3))
                .unwrap();
            let mut state = state;
            while state.turn() == Turn::Chance {
                state.apply(PrayAction::Reveal(0));
            }
            state.legal_actions()
        };
        let brown = (0..deck.blessing_colours)
            .find(|&c| deck.tricolor & (1 << c) != 0)
            .unwrap();
        assert!(gainable(&engine).contains(&PrayAction::Gain(brown as u8)));
        let counted = edited(
            GAME_FILE,
            "[params.tricolor_counts_toward_limit]\nvalue = false",
            "[params.tricolor_counts_toward_limit]\nvalue = true",
        );
        let counted = PrayEngine::from_model(&counted).unwrap();
        assert!(!gainable(&counted).contains(&PrayAction::Gain(brown as u8)));
        assert!(!gainable(&counted).is_empty());
    }

    #[test]
    fn every_move_has_a_kind_and_a_name() {
        let engine = engine();
        for cfg in [config(&[]), config(&[("timing", "choose")])] {
            play(&engine, &cfg, 5, None, |s| {
                let actions = match s.turn() {
                    Turn::Chance => s.chance_outcomes().into_iter().map(|(a, _)| a).collect(),
                    _ => s.legal_actions(),
                };
                for a in actions {
                    let chance = matches!(a, PrayAction::Reveal(_) | PrayAction::Card(_));
                    assert_eq!(s.action_kind(a) == "chance", chance, "{a:?}");
                    assert!(!s.action_name(a).is_empty());
                }
            });
        }
    }

    #[test]
    fn bad_configuration_is_an_error_not_a_panic() {
        let engine = engine();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert!(
            engine
                .new_game(&config(&[("timing", "later")]), &mut rng)
                .is_err()
        );
        assert!(
            engine
                .new_game(&config(&[("weather", "rain")]), &mut rng)
                .is_err()
        );
        let two = Config {
            players: 2,
            ..Config::default()
        };
        assert!(engine.new_game(&two, &mut rng).is_err());
        let bad = edited(
            GAME_FILE,
            "{ pray = 5 }",
            "{ pray = 5, colour = \"plaid\" }",
        );
        let err = PrayEngine::from_model(&bad).unwrap_err();
        assert!(err.contains("plaid"), "{err}");
        let huge = edited(GAME_FILE, "{ pray = 5 }", "{ pray = 500 }");
        assert!(PrayEngine::from_model(&huge).is_err());
    }

    /// Mean yield and win rate of a bot over `games` seeded games.
    fn measure(cfg: &Config, games: u64, heuristic: bool) -> (f64, f64) {
        let engine = engine();
        let mut total = 0.0;
        let mut wins = 0.0;
        for seed in 0..games {
            let mut bot = ExpectedValueBot;
            let end = play(
                &engine,
                cfg,
                seed,
                heuristic.then_some(&mut bot as &mut dyn Bot<PrayState>),
                |_| {},
            );
            total += f64::from(end.yield_total());
            wins += end.returns()[0];
        }
        (total / games as f64, wins / games as f64)
    }

    #[test]
    fn heuristic_prays_better_than_random() {
        // Choosing after the draw makes the heuristic count every possible draw: fewer games.
        for (r, games) in [(&[][..], 150), (&[("timing", "choose")][..], 40)] {
            let cfg = config(r);
            let (h, hw) = measure(&cfg, games, true);
            let (u, uw) = measure(&cfg, games, false);
            assert!(h > u + 5.0, "{r:?}: heuristic {h} vs random {u}");
            assert!(hw > uw, "{r:?}: heuristic wins {hw} vs random {uw}");
        }
    }

    /// Figures for the report: `cargo test engine::tests::report -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn report() {
        let combos: &[&[(&str, &str)]] = &[
            &[],
            &[("timing", "choose")],
            &[("pray-draws", "fresh")],
            &[("tricolor", "one-per-colour")],
        ];
        let games: u64 = std::env::var("PRAY_REPORT_GAMES")
            .ok()
            .and_then(|g| g.parse().ok())
            .unwrap_or(1000);
        for r in combos {
            let cfg = config(r);
            let (h, hw) = measure(&cfg, games, true);
            let (u, uw) = measure(&cfg, games, false);
            println!("{r:?}: heuristic mean {h:.3} win {hw:.3}; random mean {u:.3} win {uw:.3}");
        }
    }
}
