//! Capek Golems' rules as numbers, read once from the model: the cards, the golem cards,
//! the Auction House prices, the draws and the Public Outrage track.

use crate::engine::readings::ReadingPoint;
use crate::engine::{Config, Variant};
use crate::model::{Card, Game};

/// Most game cards the engine handles (piles are bit sets of one `u64`).
pub const MAX_CARDS: usize = 64;
/// Most Auction House slots.
pub const MAX_SLOTS: usize = 8;
/// Most golem cards per player.
pub const MAX_GOLEM: usize = 8;
/// Most seats.
pub const MAX_PLAYERS: usize = 4;
/// An empty Auction House slot.
pub const NO_CARD: u8 = u8::MAX;

/// Play section vs Additional Rules: a player short of cards "should" or "may" draw.
pub const SHORT_HAND_DRAW: Variant = Variant {
    name: "short-hand-draw",
    values: &["should", "may"],
    doc: "A player starting a turn short of cards draws: Play says they should (forced), Additional Rules says they may (their choice).",
};

/// The Auction House slides after each purchase (Play, action 1) or once buying is over
/// (Initial Game Setup: "after the player is done buying cards").
pub const AUCTION_SLIDE: Variant = Variant {
    name: "auction-slide",
    values: &["each-purchase", "after-buying"],
    doc: "The Auction House slides and refills after each purchase (action 1) or once the player is done buying (Initial Game Setup).",
};

/// Whether a set may consist of wild cards only.
pub const WILD_ONLY_SET: Variant = Variant {
    name: "wild-only-set",
    values: &["no", "yes"],
    doc: "Wilds take the place of cards in a set; whether a set may be made of wilds alone is not said.",
};

/// No `inquiry-value` variant: the rulebook says each coloured card "counts for one in that
/// set" and its example card is "worth one card", so the printed value of a coloured card is
/// 1 (an invariant in `game.toml`) and counting it or counting one are the same reading.
/// When a set with wilds activates the last golem card: does the win come before the wilds'
/// outrage moves, or does the outrage move first (and may end the game for both)?
pub const WILD_OUTRAGE: Variant = Variant {
    name: "wild-outrage",
    values: &["after-win", "before-win"],
    doc: "A set with wilds that activates a player's last golem card: Play 1A marks the resource before its price is paid, so the win comes first (after-win); Special Wild Cards only says using a wild comes at a price, which may be paid first and reach the track's end (before-win).",
};

/// No `auction-refill` variant: a space of the Auction House is emptied only by a purchase,
/// and every purchase discards at least one card before the row is refilled, so a card is
/// always left to fill it and no reading of when an empty space is filled can change play
/// (`tests/readings.rs` found none in thousands of games before it was withdrawn).
/// When a research move activates the last golem card: does the win come before the
/// researched card's outrage moves, or does the outrage move first (and may end the game for
/// both)?
pub const RESEARCH_OUTRAGE: Variant = Variant {
    name: "research-outrage",
    values: &["after-win", "before-win"],
    doc: "A card discarded for research whose markers activate a player's last golem card: Play 1A says to distribute the markers 'Then move the marker up or down the Public Outrage Track', so the golem is complete, and the game won, before the outrage moves (after-win, our reading); To Win adds 'However, if the marker ever reaches (25) on the Public Outrage Track both players lose the game', so the move may still be made and end the game for both (before-win).",
};

/// When the draw pile is refilled from the discard pile: the moment it is empty, or only when
/// a card is next drawn from it.
pub const RESHUFFLE: Variant = Variant {
    name: "reshuffle",
    values: &["when-empty", "at-next-draw"],
    doc: "'When the Draw Pile is exhausted, shuffle the Discard Pile and place face down on the left as a new Draw Pile' and 'If the Draw Pile is ever exhausted, shuffle the Discard Pile and create a new Draw Pile' (Initial Game Setup; Additional Rules of Play): by default the discard pile becomes the draw pile the moment the draw pile is empty, so cards discarded after that wait for the next reshuffle (when-empty); `at-next-draw` reshuffles only when a card must be drawn from the empty pile, taking in every card discarded meanwhile.",
};

pub const VARIANTS: &[Variant] = &[
    SHORT_HAND_DRAW,
    AUCTION_SLIDE,
    WILD_ONLY_SET,
    WILD_OUTRAGE,
    RESEARCH_OUTRAGE,
    RESHUFFLE,
];

/// Where the engine branches on each variant (see [`crate::engine::readings`]).
pub const READING_POINTS: &[ReadingPoint] = &[
    ReadingPoint {
        variant: "short-hand-draw",
        at: "state.rs, begin_turn",
        decides: "whether a player short of cards draws at once or chooses to",
    },
    ReadingPoint {
        variant: "auction-slide",
        at: "state.rs, close_buying and finish_purchase",
        decides: "whether the Auction House slides after each purchase or once buying is over",
    },
    ReadingPoint {
        variant: "wild-only-set",
        at: "state.rs, set_actions and choose_set",
        decides: "whether a set may hold wilds only",
    },
    ReadingPoint {
        variant: "wild-outrage",
        at: "state.rs, play_set",
        decides: "whether a winning set's wilds move the outrage before the win counts",
    },
    ReadingPoint {
        variant: "research-outrage",
        at: "state.rs, apply_move (Action::Place)",
        decides: "whether a winning research move's outrage moves before the win counts",
    },
    ReadingPoint {
        variant: "reshuffle",
        at: "state.rs, settle and apply_deal",
        decides: "whether the discard pile becomes the draw pile when the draw pile empties or at the next draw",
    },
];

/// One game card, as play needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardInfo {
    /// Index into [`Rules::colours`]; wild cards have [`WILD`].
    pub colour: u8,
    /// Cards this one counts for in a set, as printed: 1 for a coloured card (Play, action
    /// 2), one or two for a wild "as marked" (Special Wild Cards).
    pub value: u8,
    pub gold: u8,
    pub research: u8,
    /// Signed move of the outrage marker.
    pub outrage: i8,
}

/// The colour index of wild cards.
pub const WILD: u8 = u8::MAX;

impl CardInfo {
    pub fn is_wild(&self) -> bool {
        self.colour == WILD
    }
}

/// One golem body-part card: research spaces and two set options (colour, size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GolemCard {
    pub research: u8,
    pub options: [(u8, u8); 2],
}

/// Everything the engine reads from the model, plus the chosen variants.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub cards: Vec<CardInfo>,
    pub card_names: Vec<String>,
    /// The design id of each game card, for `simulate --cards`.
    pub card_ids: Vec<&'static str>,
    /// Cards that play alike once in hand share a key (colour, value, gold, and a wild's
    /// outrage): the engine offers one of them where the choice makes no difference.
    pub hand_keys: Vec<u32>,
    /// The cards of each colour, as bits.
    pub colour_masks: Vec<u64>,
    /// The wild cards, as bits.
    pub wild_mask: u64,
    pub colours: Vec<String>,
    /// Golem cards per seat, by figure number.
    pub golems: Vec<Vec<GolemCard>>,
    pub golem_names: Vec<Vec<String>>,
    /// Each golem card's design id, as `golem_names`.
    pub golem_ids: Vec<Vec<String>>,
    /// Price of each Auction House slot, from the entry slot to the cheapest.
    pub prices: Vec<u8>,
    pub initial_hand: u8,
    pub short_hand_below: u8,
    pub short_hand_draw: u8,
    pub discard_draw: u8,
    pub outrage_min: i16,
    pub outrage_max: i16,
    pub outrage_start: i16,
    pub players: std::ops::RangeInclusive<usize>,
}

/// The readings of the rulebook's ambiguities chosen for one game (see [`VARIANTS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags {
    pub short_draw_optional: bool,
    pub slide_after_buying: bool,
    pub wild_only_sets: bool,
    /// `wild-outrage=before-win`: a set's wilds move the outrage before the win is checked.
    pub wild_outrage_first: bool,
    /// `research-outrage=before-win`: a researched card's outrage moves before the win counts.
    pub research_outrage_first: bool,
    /// `reshuffle=at-next-draw`: the empty draw pile is refilled only when a card is drawn.
    pub reshuffle_at_draw: bool,
}

impl Rules {
    /// Reads the rules from the model; the error names what is missing or out of range.
    pub fn from_model(game: &Game) -> Result<Rules, String> {
        let (symbols, colours): (Vec<String>, Vec<String>) = game
            .symbols_in("inquiry")
            .map(|s| (s.id.get_ref().clone(), s.name.clone()))
            .unzip();
        let colour_of = |id: &str| {
            symbols
                .iter()
                .position(|s| s == id)
                .map(|i| i as u8)
                .ok_or_else(|| format!("unknown inquiry colour `{id}`"))
        };
        let (cards, card_names) = read_game_cards(game, &colour_of)?;
        let card_ids = game
            .deck("game")
            .into_iter()
            .flat_map(|deck| &deck.cards)
            .flat_map(|card| {
                std::iter::repeat_n(
                    crate::engine::lua::intern(card.id.get_ref()),
                    card.count.0 as usize,
                )
            })
            .collect();
        let (golems, golem_names, golem_ids) = read_golems(game, &colour_of)?;
        let prices = game
            .param_ints("auction_prices")?
            .into_iter()
            .map(|p| small(p, "auction price"))
            .collect::<Result<Vec<_>, _>>()?;
        if prices.is_empty() || prices.len() > MAX_SLOTS {
            return Err(format!("auction_prices must list 1 to {MAX_SLOTS} slots"));
        }
        let track = game
            .track("outrage")
            .ok_or("capek-golems needs a track `outrage`")?;
        let players = game.info.players.min as usize..=game.info.players.max as usize;
        if golems.len() < *players.end() || *players.end() > MAX_PLAYERS || *players.start() < 1 {
            return Err(format!(
                "the golem deck has cards for {} players; the game says up to {} (engine limit {MAX_PLAYERS})",
                golems.len(),
                players.end()
            ));
        }
        let int = |name: &str| game.param_int(name).and_then(|v| small(v, name));
        let hand_keys = cards.iter().map(hand_key).collect();
        let mut colour_masks = vec![0u64; colours.len()];
        let mut wild_mask = 0u64;
        for (i, c) in cards.iter().enumerate() {
            match c.is_wild() {
                true => wild_mask |= 1 << i,
                false => colour_masks[c.colour as usize] |= 1 << i,
            }
        }
        Ok(Rules {
            cards,
            card_names,
            card_ids,
            hand_keys,
            colour_masks,
            wild_mask,
            colours,
            golems,
            golem_names,
            golem_ids,
            prices,
            initial_hand: int("initial_hand")?,
            short_hand_below: int("short_hand_below")?,
            short_hand_draw: int("short_hand_draw")?,
            discard_draw: int("discard_draw")?,
            outrage_min: track.min as i16,
            outrage_max: track.max as i16,
            outrage_start: track.start as i16,
            players,
        })
    }

    /// The variant readings `config` chooses; unknown names or values are an error.
    pub fn flags(config: &Config) -> Result<Flags, String> {
        for (name, value) in &config.variants {
            let v = VARIANTS
                .iter()
                .find(|v| v.name == name)
                .ok_or_else(|| format!("capek-golems has no variant `{name}`"))?;
            if !v.values.contains(&value.as_str()) {
                return Err(format!(
                    "variant `{name}` takes one of {}, not `{value}`",
                    v.values.join(", ")
                ));
            }
        }
        Ok(Flags {
            short_draw_optional: config.variant(&SHORT_HAND_DRAW) == "may",
            slide_after_buying: config.variant(&AUCTION_SLIDE) == "after-buying",
            wild_only_sets: config.variant(&WILD_ONLY_SET) == "yes",
            wild_outrage_first: config.variant(&WILD_OUTRAGE) == "before-win",
            research_outrage_first: config.variant(&RESEARCH_OUTRAGE) == "before-win",
            reshuffle_at_draw: config.variant(&RESHUFFLE) == "at-next-draw",
        })
    }

    /// What a card counts for in a set: its printed value.
    pub fn set_value(&self, card: usize) -> u8 {
        self.cards[card].value
    }

    /// The largest outrage one card adds: the heuristic's safety margin.
    pub fn max_card_outrage(&self) -> i16 {
        self.cards
            .iter()
            .map(|c| c.outrage as i16)
            .max()
            .unwrap_or(0)
            .max(0)
    }
}

fn hand_key(c: &CardInfo) -> u32 {
    let outrage = if c.is_wild() { c.outrage as u8 } else { 0 };
    u32::from_le_bytes([c.colour, c.value, c.gold, outrage])
}

fn small(v: i64, what: &str) -> Result<u8, String> {
    u8::try_from(v).map_err(|_| format!("{what} {v} is out of range 0..=255"))
}

fn field(card: &Card, name: &str) -> Result<i64, String> {
    card.int(name)
        .ok_or_else(|| format!("card `{}` has no integer `{name}`", card.id.get_ref()))
}

type ColourOf<'a> = dyn Fn(&str) -> Result<u8, String> + 'a;

fn read_game_cards(
    game: &Game,
    colour_of: &ColourOf,
) -> Result<(Vec<CardInfo>, Vec<String>), String> {
    let deck = game
        .deck("game")
        .ok_or("capek-golems needs a deck `game`")?;
    let mut cards = Vec::new();
    let mut names = Vec::new();
    for card in &deck.cards {
        let wild = card.str("kind") == Some("wild");
        let colour = if wild {
            WILD
        } else {
            colour_of(card.str("colour").unwrap_or_default())?
        };
        let info = CardInfo {
            colour,
            value: small(field(card, "value")?, "inquiry value")?,
            gold: small(field(card, "gold")?, "gold")?,
            research: small(field(card, "research")?, "field research")?,
            outrage: i8::try_from(field(card, "outrage")?).map_err(|e| e.to_string())?,
        };
        for _ in 0..card.count.0 {
            cards.push(info);
            names.push(card.name.clone());
        }
    }
    if cards.len() > MAX_CARDS {
        return Err(format!(
            "the game deck has {} cards; the engine handles at most {MAX_CARDS}",
            cards.len()
        ));
    }
    Ok((cards, names))
}

type Golems = (Vec<Vec<GolemCard>>, Vec<Vec<String>>, Vec<Vec<String>>);

fn read_golems(game: &Game, colour_of: &ColourOf) -> Result<Golems, String> {
    let deck = game
        .deck("golem")
        .ok_or("capek-golems needs a deck `golem`")?;
    let mut by_player: Vec<Vec<(i64, GolemCard, String, String)>> = Vec::new();
    for card in &deck.cards {
        let seat = field(card, "player")?;
        if !(1..=MAX_PLAYERS as i64).contains(&seat) {
            return Err(format!(
                "golem card `{}` has player {seat}",
                card.id.get_ref()
            ));
        }
        let option = |c: &str, n: &str| -> Result<(u8, u8), String> {
            Ok((
                colour_of(card.str(c).unwrap_or_default())?,
                small(field(card, n)?, n)?,
            ))
        };
        let golem = GolemCard {
            research: small(field(card, "research")?, "research spaces")?,
            options: [option("colour_a", "set_a")?, option("colour_b", "set_b")?],
        };
        let seat = seat as usize - 1;
        if by_player.len() <= seat {
            by_player.resize_with(seat + 1, Vec::new);
        }
        by_player[seat].push((
            field(card, "figure")?,
            golem,
            card.name.clone(),
            card.id.get_ref().clone(),
        ));
    }
    let mut golems = Vec::new();
    let mut names = Vec::new();
    let mut ids = Vec::new();
    for mut cards in by_player {
        if cards.is_empty() || cards.len() > MAX_GOLEM {
            return Err(format!(
                "each player needs 1 to {MAX_GOLEM} golem cards, one has {}",
                cards.len()
            ));
        }
        cards.sort_by_key(|c| c.0);
        golems.push(cards.iter().map(|c| c.1).collect());
        ids.push(cards.iter().map(|c| c.3.clone()).collect());
        names.push(cards.into_iter().map(|c| c.2).collect());
    }
    Ok((golems, names, ids))
}
