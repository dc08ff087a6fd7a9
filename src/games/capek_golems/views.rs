//! Capek Golems as `printplay replay` shows it: the table every player sees, and each hand.

use std::fmt::Write as _;

use super::state::CapekState;
use crate::engine::Player;

/// The cards of a set of card bits, by name.
fn names(state: &CapekState, set: u64) -> String {
    let names: Vec<&str> = (0..64u8)
        .filter(|&c| set & (1u64 << c) != 0)
        .map(|c| state.rules.card_names[usize::from(c)].as_str())
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// Turn and outrage, the Auction House by price, the piles, and each player's golem cards
/// and hand size.
pub fn public_view(s: &CapekState) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "turn {}, player {} to act; public outrage {} of {}",
        s.turns,
        s.current + 1,
        s.outrage,
        s.rules.outrage_max
    );
    // Where the seat to act is in its turn (what it is paying for, deciding on): every seat
    // sees it, so the public does.
    let _ = writeln!(out, "{}", s.step_in_words());
    let slots: Vec<String> = s
        .auction()
        .iter()
        .zip(&s.rules.prices)
        .map(
            |(&card, price)| match s.rules.card_names.get(usize::from(card)) {
                Some(name) => format!("({price}) {name}"),
                None => format!("({price}) empty"),
            },
        )
        .collect();
    let _ = writeln!(out, "auction house: {}", slots.join("; "));
    let _ = writeln!(
        out,
        "draw pile {}; discard pile: {}",
        crate::messages::count_of(s.draw.count_ones(), "card", "cards"),
        names(s, s.discard)
    );
    for p in 0..usize::from(s.players) {
        let golems: Vec<String> = (0..s.rules.golems[p].len())
            .map(|g| {
                format!(
                    "{} {}/{}{}",
                    s.rules.golem_names[p][g],
                    s.research[p][g],
                    s.rules.golems[p][g].research,
                    if s.set_done(p, g) { " + set" } else { "" }
                )
            })
            .collect();
        // The cards a seat was seen taking into its hand (from the auction house) are known
        // to every seat, so to the public too.
        let seen = if s.known[p] == 0 {
            String::new()
        } else {
            format!(" (seen taken into hand: {})", names(s, s.known[p]))
        };
        let _ = writeln!(
            out,
            "player {}: {} in hand{seen}; golem research {}",
            p + 1,
            crate::messages::count_of(s.hands[p].count_ones(), "card", "cards"),
            golems.join(", ")
        );
    }
    out
}

/// The cards in `seat`'s hand.
pub fn private_view(s: &CapekState, seat: Player) -> String {
    format!("hand: {}\n", names(s, s.hands[seat]))
}

/// The cards of a set of card bits, by name, as data.
fn names_data(state: &CapekState, set: u64) -> Vec<&str> {
    (0..64u8)
        .filter(|&c| set & (1u64 << c) != 0)
        .map(|c| state.rules.card_names[usize::from(c)].as_str())
        .collect()
}

/// [`public_view`] as data: the turn, the outrage track, the Auction House space by space,
/// the piles, and each player's golem cards and hand size.
pub fn public_data(s: &CapekState) -> serde_json::Value {
    let auction: Vec<serde_json::Value> = s
        .auction()
        .iter()
        .zip(&s.rules.prices)
        .map(|(&card, price)| {
            serde_json::json!({
                "price": price,
                "card": s.rules.card_names.get(usize::from(card)),
            })
        })
        .collect();
    let players: Vec<serde_json::Value> = (0..usize::from(s.players))
        .map(|p| {
            let golems: Vec<serde_json::Value> = (0..s.rules.golems[p].len())
                .map(|g| {
                    serde_json::json!({
                        "golem": s.rules.golem_names[p][g],
                        "id": s.rules.golem_ids[p][g],
                        "research": s.research[p][g],
                        "research_needed": s.rules.golems[p][g].research,
                        "set": s.set_done(p, g),
                    })
                })
                .collect();
            serde_json::json!({
                "player": p + 1,
                "hand_size": s.hands[p].count_ones(),
                "golems": golems,
            })
        })
        .collect();
    serde_json::json!({
        "turn": s.turns,
        "to_act": s.current + 1,
        "outrage": { "value": s.outrage, "max": s.rules.outrage_max },
        "auction_house": auction,
        "draw_pile": s.draw.count_ones(),
        "discard_pile": names_data(s, s.discard),
        "players": players,
    })
}

/// [`private_view`] as data: the cards in `seat`'s hand.
pub fn private_data(s: &CapekState, seat: Player) -> serde_json::Value {
    serde_json::json!({ "hand": names_data(s, s.hands[seat]) })
}

/// Where a move acts, as the table's page clicks it: a card of the Auction House to buy
/// it; a card in hand to pay with it, or then the discard pile to discard it for a draw;
/// the field research or the hand for the bought card; a golem card to mark research on it,
/// or a golem card, one of its two options and the set's cards in hand (lowest first) to
/// play a set; the draw pile for the short-hand draw; the end of the turn.
pub fn targets(state: &CapekState, action: super::state::Action) -> Vec<crate::engine::Target> {
    use super::state::Action;
    use crate::engine::Target;
    let card = |c: u8, at: Option<&str>| Target::Card {
        card: state
            .rules
            .card_ids
            .get(usize::from(c))
            .map_or("?", |s| *s)
            .to_string(),
        at: at.map(str::to_string),
    };
    let me = state.current();
    let golem = |g: u8| Target::Card {
        card: state
            .rules
            .golem_ids
            .get(me)
            .and_then(|ids| ids.get(usize::from(g)))
            .map_or("?", String::as_str)
            .to_string(),
        at: Some("players".into()),
    };
    let zone = |z: &str| Target::Zone(z.to_string());
    match action {
        Action::Deal(_) => Vec::new(),
        Action::DrawShort => vec![zone("draw pile")],
        Action::SkipShortDraw => vec![zone("no draw")],
        Action::Buy(slot) => state
            .auction()
            .get(usize::from(slot))
            .map(|&c| vec![card(c, Some("auction house"))])
            .unwrap_or_else(|| vec![zone("auction house")]),
        Action::Pay(c) => vec![card(c, None)],
        Action::Research => vec![zone("field research")],
        Action::Keep => vec![zone("hand")],
        Action::Place(g) => vec![golem(g)],
        Action::Set {
            golem: g,
            option,
            cards,
        } => {
            let (colour, size) = state
                .rules
                .golems
                .get(me)
                .and_then(|gs| gs.get(usize::from(g)))
                .map_or((0, 0), |gc| gc.options[usize::from(option) % 2]);
            let colour = state
                .rules
                .colours
                .get(usize::from(colour))
                .map_or("?", String::as_str);
            let mut out = vec![
                golem(g),
                zone(&format!("option {}: a set of {size} {colour}", option + 1)),
            ];
            out.extend(
                (0..64u8)
                    .filter(|&c| cards & (1u64 << c) != 0)
                    .map(|c| card(c, None)),
            );
            out
        }
        Action::Discard(c) => vec![card(c, None), zone("discard pile")],
        Action::EndTurn => vec![zone("end of turn")],
    }
}
