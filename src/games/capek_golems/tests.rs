//! Capek Golems: the rulebook's worked example, the outrage track, set legality, variants
//! and thousands of random games with conservation checks.

use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::rules::{MAX_PLAYERS, NO_CARD};
use super::state::Phase;
use super::*;
use crate::engine::testing::{Plan, random_play};
use crate::engine::{Config, Engine, State, Turn};
use crate::model::load_game;

fn engine() -> CapekEngine {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "capek-golems").expect("shipped data loads");
    CapekEngine::from_model(&game).expect("the engine reads the shipped data")
}

fn config(variants: &[(&str, &str)]) -> Config {
    Config::with_variants(2, variants)
}

fn game(e: &CapekEngine, variants: &[(&str, &str)]) -> CapekState {
    e.new_game(&config(variants), &mut ChaCha8Rng::seed_from_u64(7))
        .unwrap()
}

/// The card with this name.
fn card(s: &CapekState, name: &str) -> u8 {
    s.rules.card_names.iter().position(|n| n == name).unwrap() as u8
}

fn golem(s: &CapekState, name: &str) -> u8 {
    s.rules.golem_names[0]
        .iter()
        .position(|n| n == name)
        .unwrap() as u8
}

/// Moves every card to the draw pile, then gives player 1 exactly `hand`.
fn with_hand(mut s: CapekState, hand: &[&str]) -> CapekState {
    let all = (1u64 << s.rules.cards.len()) - 1;
    s.hands = [0; MAX_PLAYERS];
    s.discard = 0;
    s.auction = [NO_CARD; super::rules::MAX_SLOTS];
    for name in hand {
        s.hands[0] |= 1 << card(&s, name);
    }
    s.draw = all & !s.hands[0];
    s
}

/// Puts these cards in the Auction House, from the entry slot down.
fn with_auction(mut s: CapekState, cards: &[&str]) -> CapekState {
    for (slot, name) in cards.iter().enumerate() {
        let c = card(&s, name);
        s.draw &= !(1 << c);
        s.auction[slot] = c;
    }
    s
}

fn pay_all(s: &mut CapekState) {
    while let Phase::Pay { .. } = s.phase {
        let first = s.legal_actions()[0];
        s.apply(first);
    }
}

#[test]
fn auction_slide_example() {
    // Initial Game Setup: buying from the (2) slot moves the (4) and (3) cards down to fill
    // it, and a new card enters the (4) slot.
    let e = engine();
    let s = with_hand(game(&e, &[]), &["Parts Machining 1", "Organ Replacement 1"]);
    let mut s = with_auction(
        s,
        &[
            "Brain Surgery 1",
            "Brain Surgery 2",
            "Brain Surgery 3",
            "Brain Surgery 4",
        ],
    );
    assert_eq!(e.rules().prices, vec![4, 3, 2, 1]);
    let [four, three, two, one] = [0, 1, 2, 3].map(|i| s.auction[i]);
    s.apply(Action::Buy(2));
    pay_all(&mut s);
    assert_eq!(s.bought(), Some(two));
    s.apply(Action::Keep);
    assert_eq!(s.turn(), Turn::Chance, "a new card is turned over");
    assert_eq!(&s.auction[1..4], &[four, three, one]);
    assert_eq!(s.auction[0], NO_CARD);
    let Action::Deal(new) = s.legal_actions()[0] else {
        panic!()
    };
    s.apply(Action::Deal(new));
    assert_eq!(s.auction(), &[new, four, three, one]);
    assert!(s.hands[0] & (1 << two) != 0);
}

#[test]
fn after_buying_variant_slides_once_buying_ends() {
    let e = engine();
    let s = with_hand(
        game(&e, &[("auction-slide", "after-buying")]),
        &[
            "Parts Machining 1",
            "Organ Replacement 1",
            "Brain Surgery 1",
        ],
    );
    let mut s = with_auction(
        s,
        &[
            "Brain Surgery 2",
            "Brain Surgery 3",
            "Brain Surgery 4",
            "Brain Surgery 5",
        ],
    );
    let [four, three, _, _] = [0, 1, 2, 3].map(|i| s.auction[i]);
    s.apply(Action::Buy(3));
    pay_all(&mut s);
    s.apply(Action::Keep);
    s.apply(Action::Buy(2));
    pay_all(&mut s);
    s.apply(Action::Keep);
    assert_eq!(
        s.turn(),
        Turn::Player(0),
        "no card enters while buying goes on"
    );
    assert_eq!(s.auction(), &[four, three, NO_CARD, NO_CARD]);
    s.apply(Action::EndTurn);
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(s.auction(), &[NO_CARD, NO_CARD, four, three]);
}

#[test]
fn outrage_never_goes_below_the_track() {
    let e = engine();
    let s = with_hand(game(&e, &[]), &["Organ Replacement 1", "Parts Machining 1"]);
    let mut s = with_auction(s, &["Brain Surgery 1"]);
    let calming = s.rules.cards[s.auction[0] as usize].outrage;
    assert!(calming < 0, "Brain Surgery 1 calms the public in the data");
    s.outrage = 1;
    s.apply(Action::Buy(0));
    pay_all(&mut s);
    s.apply(Action::Research);
    place_markers(&mut s);
    assert_eq!(s.outrage(), e.rules().outrage_min);
}

#[test]
fn shared_loss_when_outrage_reaches_the_top() {
    let e = engine();
    let s = with_hand(game(&e, &[]), &["Organ Replacement 1", "Parts Machining 1"]);
    let mut s = with_auction(s, &["Parts Machining 6"]);
    let rise = s.rules.cards[s.auction[0] as usize].outrage as i16;
    s.outrage = e.rules().outrage_max - rise;
    s.apply(Action::Buy(0));
    pay_all(&mut s);
    s.apply(Action::Research);
    place_markers(&mut s);
    assert_eq!(s.turn(), Turn::Terminal);
    assert_eq!(s.returns(), vec![0.0, 0.0]);
    assert_eq!(s.end_reason(), Some("public outrage"));
    assert_eq!(s.outrage(), e.rules().outrage_max);
}

/// Places the bought card's field-research markers, each on the first open golem card.
fn place_markers(s: &mut CapekState) {
    while matches!(s.phase, Phase::Place { .. }) && s.turn() != Turn::Terminal {
        let first = s.legal_actions()[0];
        s.apply(first);
    }
}

/// Player 1's golem with every set marker and all field research but `open` spaces.
fn nearly_done(mut s: CapekState, open: u8) -> CapekState {
    let rules = std::sync::Arc::clone(&s.rules);
    for (g, golem) in rules.golems[0].iter().enumerate() {
        s.research[0][g] = golem.research;
    }
    s.sets[0] = ((1u16 << rules.golems[0].len()) - 1) as u8;
    let last = rules.golems[0]
        .iter()
        .position(|g| g.research >= open)
        .unwrap();
    s.research[0][last] -= open;
    s
}

#[test]
fn research_markers_go_on_before_the_outrage_moves() {
    // Play 1A: "Discard a card immediately on the Discard Pile and take the number of Field
    // Research markers as indicated by the circular black icon and distribute them however
    // you like on your Capek Golem cards [...]. Then move the marker up or down the Public
    // Outrage Track as indicated by the number in the circular red icon."
    let e = engine();
    let s = with_hand(game(&e, &[]), &["Organ Replacement 1", "Parts Machining 1"]);
    let mut s = with_auction(s, &["Parts Machining 6"]);
    let info = s.rules.cards[s.auction[0] as usize];
    assert!(info.research >= 2 && info.outrage > 0);
    s.outrage = 5;
    s.apply(Action::Buy(0));
    pay_all(&mut s);
    s.apply(Action::Research);
    let first = s.legal_actions()[0];
    s.apply(first);
    assert_eq!(
        s.outrage(),
        5,
        "the marker waits until every marker is placed"
    );
    place_markers(&mut s);
    assert_eq!(s.outrage(), 5 + info.outrage as i16);
    assert_eq!(s.markers(0).iter().sum::<u8>(), info.research);
}

/// Player 1 buys Parts Machining 6 and discards it for research, its markers activating the
/// last golem card, with the outrage `below` the track's end less the card's outrage; the
/// state once every marker is placed.
fn last_research_at_the_brink(
    e: &CapekEngine,
    variants: &[(&str, &str)],
    below: i16,
) -> CapekState {
    let s = with_hand(
        game(e, variants),
        &["Organ Replacement 1", "Parts Machining 1"],
    );
    let s = with_auction(s, &["Parts Machining 6"]);
    let info = s.rules.cards[s.auction[0] as usize];
    let mut s = nearly_done(s, info.research);
    s.outrage = e.rules().outrage_max - info.outrage as i16 - below;
    s.apply(Action::Buy(0));
    pay_all(&mut s);
    s.apply(Action::Research);
    place_markers(&mut s);
    s
}

#[test]
fn the_last_research_wins_before_its_outrage_could_end_the_game() {
    // Play 1A distributes the markers, "then" moves the outrage marker; To Win: "a player
    // must activate all six cards". Placing the last marker activates the golem, so the
    // purchase wins even though its outrage would reach (25) (`research-outrage=after-win`,
    // the default), whichever reading of the wilds' outrage is played.
    let e = engine();
    for variants in [
        &[][..],
        &[("research-outrage", "after-win")][..],
        &[("wild-outrage", "before-win")][..],
    ] {
        let s = last_research_at_the_brink(&e, variants, 0);
        assert_eq!(s.turn(), Turn::Terminal);
        assert_eq!(s.returns(), vec![1.0, 0.0], "{variants:?}");
        assert_eq!(s.end_reason(), Some("golem activated"));
        assert!(s.outrage() < e.rules().outrage_max);
    }
}

#[test]
fn with_the_research_outrage_first_the_winning_research_ends_the_game_for_both() {
    // `research-outrage=before-win`: To Win, "However, if the marker ever reaches (25) on the
    // Public Outrage Track both players lose the game": the researched card's outrage moves
    // before the win counts, under either reading of the wilds' outrage.
    let e = engine();
    for wild in ["after-win", "before-win"] {
        let variants = [("research-outrage", "before-win"), ("wild-outrage", wild)];
        let s = last_research_at_the_brink(&e, &variants, 0);
        assert_eq!(s.turn(), Turn::Terminal);
        assert_eq!(s.returns(), vec![0.0, 0.0], "{variants:?}");
        assert_eq!(s.end_reason(), Some("public outrage"));
        assert_eq!(s.outrage(), e.rules().outrage_max);
        // One step lower the outrage is paid and the golem still wins.
        let s = last_research_at_the_brink(&e, &variants, 1);
        assert_eq!(s.returns(), vec![1.0, 0.0], "{variants:?}");
        assert_eq!(s.outrage(), e.rules().outrage_max - 1);
    }
}

/// Player 1 about to draw one card, the draw pile's last; two cards in the discard pile and
/// every other card in player 2's hand.
fn one_card_left(e: &CapekEngine, variants: &[(&str, &str)]) -> CapekState {
    let mut s = with_hand(
        game(e, variants),
        &["Organ Replacement 1", "Parts Machining 1"],
    );
    let all = (1u64 << s.rules.cards.len()) - 1;
    s.draw = 1 << card(&s, "Parts Machining 2");
    s.discard = (1 << card(&s, "Parts Machining 3")) | (1 << card(&s, "Parts Machining 4"));
    s.hands[1] = all & !s.hands[0] & !s.draw & !s.discard;
    s.to_hand = 1;
    s
}

fn chance_cards(s: &CapekState) -> u64 {
    s.chance_outcomes().iter().fold(0, |m, (a, _)| match a {
        Action::Deal(c) => m | 1 << c,
        _ => m,
    })
}

#[test]
fn the_discard_pile_becomes_the_draw_pile_the_moment_the_draw_pile_is_empty() {
    // "When the Draw Pile is exhausted, shuffle the Discard Pile and place face down on the
    // left as a new Draw Pile" (`reshuffle=when-empty`, the default): a card discarded after
    // the last card is drawn waits on the new discard pile.
    let e = engine();
    for variants in [&[][..], &[("reshuffle", "when-empty")][..]] {
        let mut s = one_card_left(&e, variants);
        let earlier = s.discard;
        assert_eq!(s.turn(), Turn::Chance);
        s.apply(Action::Deal(card(&s, "Parts Machining 2")));
        assert_eq!(s.reshuffles, 1, "{variants:?}");
        assert_eq!((s.draw, s.discard), (earlier, 0));
        let cycled = card(&s, "Organ Replacement 1");
        s.apply(Action::Discard(cycled));
        assert_eq!(
            chance_cards(&s),
            earlier,
            "the cycled card is not drawn again"
        );
        assert_eq!(s.discard, 1 << cycled);
    }
}

#[test]
fn at_the_next_draw_the_reshuffle_takes_in_the_cards_discarded_meanwhile() {
    let e = engine();
    let mut s = one_card_left(&e, &[("reshuffle", "at-next-draw")]);
    let earlier = s.discard;
    s.apply(Action::Deal(card(&s, "Parts Machining 2")));
    // The empty pile waits beside the discard pile until a card must come off it.
    assert_eq!((s.draw, s.discard, s.reshuffles), (0, earlier, 0));
    let cycled = card(&s, "Organ Replacement 1");
    s.apply(Action::Discard(cycled));
    assert_eq!(chance_cards(&s), earlier | 1 << cycled);
    s.apply(Action::Deal(cycled));
    assert_eq!(s.reshuffles, 1);
    assert_eq!((s.draw, s.discard), (earlier, 0));
    assert!(s.hands[0] & 1 << cycled != 0);
}

/// The last golem card activated by a set holding The Engineer while the outrage stands
/// exactly the Engineer's price below the track's end, under `variants`; the state after.
fn last_set_at_the_brink(e: &CapekEngine, variants: &[(&str, &str)]) -> CapekState {
    let s = with_hand(
        game(e, variants),
        &["Parts Machining 1", "Parts Machining 2", "The Engineer"],
    );
    let mut s = nearly_done(s, 0);
    let torso = golem(&s, "Torso Motor");
    s.sets[0] &= !(1 << torso);
    let engineer = card(&s, "The Engineer");
    let cost = s.rules.cards[engineer as usize].outrage as i16;
    s.outrage = e.rules().outrage_max - cost;
    let set = sets_for_actions(&s, torso)
        .into_iter()
        .find(|a| matches!(a, Action::Set { cards, .. } if cards & (1 << engineer) != 0))
        .unwrap();
    s.apply(set);
    s
}

#[test]
fn a_set_that_activates_the_last_card_wins_before_its_wilds_outrage() {
    // Special Wild Cards: using a wild in a set "comes at a price": the marker moves by its
    // red number. As in Play 1A, the resource is marked first; the golem is then complete
    // (`wild-outrage=after-win`, the default).
    let e = engine();
    for variants in [&[][..], &[("wild-outrage", "after-win")][..]] {
        let s = last_set_at_the_brink(&e, variants);
        assert_eq!(s.returns(), vec![1.0, 0.0]);
        assert_eq!(s.end_reason(), Some("golem activated"));
        assert!(
            s.outrage() < e.rules().outrage_max,
            "the price is never paid"
        );
    }
}

#[test]
fn with_the_price_first_the_same_set_reaches_the_end_of_the_track() {
    // `wild-outrage=before-win`: the wild's price is paid first; the marker reaches (25) and
    // "the game ends immediately and both players lose".
    let e = engine();
    let s = last_set_at_the_brink(&e, &[("wild-outrage", "before-win")]);
    assert_eq!(s.turn(), Turn::Terminal);
    assert_eq!(s.returns(), vec![0.0, 0.0]);
    assert_eq!(s.outrage(), e.rules().outrage_max);
    assert_ne!(s.end_reason(), Some("golem activated"));
    // One step lower, the price is paid and the golem still wins.
    let mut lower = with_hand(
        game(&e, &[("wild-outrage", "before-win")]),
        &["Parts Machining 1", "Parts Machining 2", "The Engineer"],
    );
    lower = nearly_done(lower, 0);
    let torso = golem(&lower, "Torso Motor");
    lower.sets[0] &= !(1 << torso);
    let engineer = card(&lower, "The Engineer");
    let cost = lower.rules.cards[engineer as usize].outrage as i16;
    lower.outrage = e.rules().outrage_max - cost - 1;
    let set = sets_for_actions(&lower, torso)
        .into_iter()
        .find(|a| matches!(a, Action::Set { cards, .. } if cards & (1 << engineer) != 0))
        .unwrap();
    lower.apply(set);
    assert_eq!(lower.returns(), vec![1.0, 0.0]);
    assert_eq!(
        lower.outrage(),
        e.rules().outrage_max - 1,
        "the price was paid"
    );
}

#[test]
fn an_empty_auction_space_is_refilled_before_the_next_turn() {
    // Play never leaves a space empty (a purchase discards its payment before the row is
    // refilled); a state that has one, as set up here, has it filled as the next turn starts.
    // The `auction-refill` variant that once let it wait for the next slide is withdrawn: it
    // never changed a game (`tests/readings.rs`).
    let e = engine();
    let s = with_hand(game(&e, &[]), &["Parts Machining 1"]);
    let mut s = with_auction(s, &["Parts Machining 6", "Parts Machining 5"]);
    assert!(s.auction.contains(&NO_CARD));
    s.apply(Action::EndTurn);
    while s.turn() == Turn::Chance {
        let first = s.chance_outcomes()[0].0;
        s.apply(first);
    }
    assert_eq!(s.current(), 1);
    assert!(
        !s.auction[..e.rules().prices.len()].contains(&NO_CARD),
        "{:?}",
        s.auction
    );
    assert!(
        e.new_game(
            &config(&[("auction-refill", "next-slide")]),
            &mut ChaCha8Rng::seed_from_u64(1)
        )
        .is_err()
    );
}

#[test]
fn every_golem_card_needs_a_different_number_of_resources() {
    // To Win: "Each Capek Golem card has a different number of resources needed to
    // activate it."
    let e = engine();
    for golems in &e.rules().golems {
        let mut needs: Vec<u8> = golems
            .iter()
            .flat_map(|g| g.options.map(|(_, size)| g.research + size))
            .collect();
        needs.sort();
        needs.dedup();
        assert_eq!(needs.len(), golems.len(), "{golems:?}");
    }
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut game = load_game(&data, "capek-golems").unwrap();
    let module = crate::games::module(ID).unwrap();
    assert!(module.check(&game).is_empty());
    let deck = game
        .components
        .decks
        .iter_mut()
        .find(|d| d.id.get_ref() == "golem")
        .unwrap();
    let torso = deck
        .cards
        .iter()
        .position(|c| c.id.get_ref() == "golem-1-torso")
        .unwrap();
    let twin = deck
        .cards
        .iter()
        .position(|c| c.id.get_ref() == "golem-1-left-manipulator")
        .unwrap();
    deck.cards[twin].fields = deck.cards[torso].fields.clone();
    let problems = module.check(&game);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let text = problems[0].render(false);
    assert!(
        text.contains("golem-1-left-manipulator")
            && text.contains("golem-1-torso")
            && text.contains("To Win"),
        "{text}"
    );
}

#[test]
fn coloured_cards_count_one_so_no_inquiry_value_variant() {
    // Play, action 2: "Each card counts for one in that set (See Special Wild Cards rule
    // below for an exception)"; the example card "is worth one card in that set".
    let e = engine();
    for c in e.rules().cards.iter().filter(|c| !c.is_wild()) {
        assert_eq!(c.value, 1);
    }
    assert!(VARIANTS.iter().all(|v| v.name != "inquiry-value"));
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut game = load_game(&data, "capek-golems").unwrap();
    let deck = game
        .components
        .decks
        .iter_mut()
        .find(|d| d.id.get_ref() == "game")
        .unwrap();
    let first = &mut deck.cards[0];
    assert_eq!(first.str("kind"), Some("inquiry"));
    first.fields.insert(
        "value".into(),
        toml::Spanned::new(0..0, toml::Value::Integer(2)),
    );
    let problems = crate::check::check_game(&game);
    assert!(
        problems
            .iter()
            .any(|p| p.render(false).contains("coloured-cards-count-one")),
        "{problems:?}"
    );
}

fn sets_for(s: &CapekState, golem: u8) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    s.set_actions(&mut out);
    let mut sets: Vec<Vec<String>> = out
        .into_iter()
        .filter_map(|a| match a {
            Action::Set {
                golem: g, cards, ..
            } if g == golem => Some(
                (0..64)
                    .filter(|i| cards & (1 << i) != 0)
                    .map(|i| s.rules.card_names[i].clone())
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect(),
            ),
            _ => None,
        })
        .collect();
    sets.sort();
    sets
}

#[test]
fn sets_are_one_colour_of_the_exact_size_with_wilds_as_marked() {
    let e = engine();
    // The Torso Motor asks for 3 Ventilation Systems Integration or 3 Parts Machining.
    let hand = [
        "Parts Machining 1",
        "Parts Machining 2",
        "Ventilation Systems Integration 1",
        "The Engineer",
        "The Assistant",
    ];
    let s = with_hand(game(&e, &[]), &hand);
    let torso = golem(&s, "Torso Motor");
    let names = |v: &[&str]| {
        let mut v: Vec<String> = v.iter().map(|n| n.to_string()).collect();
        v.sort();
        v
    };
    let sets = sets_for(&s, torso);
    for expected in [
        names(&["Parts Machining 1", "Parts Machining 2", "The Assistant"]),
        names(&["Parts Machining 1", "The Engineer"]),
        names(&["Ventilation Systems Integration 1", "The Engineer"]),
    ] {
        assert!(
            sets.contains(&expected),
            "{expected:?} missing from {sets:?}"
        );
    }
    for set in &sets {
        let colours: std::collections::BTreeSet<&str> = set
            .iter()
            .filter(|n| !n.starts_with("The "))
            .map(|n| n.rsplit_once(' ').unwrap().0)
            .collect();
        assert_eq!(colours.len(), 1, "a set mixes colours or has none: {set:?}");
    }
    // 1 + 2 is 3 but 2 + 2 overshoots: no set of both Parts Machining and the Engineer.
    assert!(!sets.contains(&names(&[
        "Parts Machining 1",
        "Parts Machining 2",
        "The Engineer"
    ])));
    // Wilds alone only under the variant.
    let wild_only = names(&["The Assistant", "The Engineer"]);
    assert!(!sets.contains(&wild_only));
    let s = with_hand(game(&e, &[("wild-only-set", "yes")]), &hand);
    assert!(sets_for(&s, torso).contains(&wild_only));
}

#[test]
fn wilds_move_outrage_when_used_in_a_set() {
    let e = engine();
    let mut s = with_hand(game(&e, &[]), &["Parts Machining 1", "The Engineer"]);
    let torso = golem(&s, "Torso Motor");
    let engineer = card(&s, "The Engineer");
    let cost = s.rules.cards[engineer as usize].outrage as i16;
    let set = *sets_for_actions(&s, torso).first().unwrap();
    s.apply(set);
    assert_eq!(s.outrage(), e.rules().outrage_start + cost);
    assert!(s.set_done(0, torso as usize));
    assert!(s.discard & (1 << engineer) != 0);
}

fn sets_for_actions(s: &CapekState, golem: u8) -> Vec<Action> {
    let mut out = Vec::new();
    s.set_actions(&mut out);
    out.retain(|a| matches!(a, Action::Set { golem: g, .. } if *g == golem));
    out
}

#[test]
fn short_hand_draw_should_or_may() {
    let e = engine();
    for (reading, forced) in [("should", true), ("may", false)] {
        let mut s = with_hand(
            game(&e, &[("short-hand-draw", reading)]),
            &["Parts Machining 1"],
        );
        s = with_auction(
            s,
            &[
                "Brain Surgery 1",
                "Brain Surgery 2",
                "Brain Surgery 3",
                "Brain Surgery 4",
            ],
        );
        s.hands[1] = 1 << card(&s, "Organ Replacement 1");
        s.draw &= !s.hands[1];
        s.apply(Action::EndTurn);
        if forced {
            assert_eq!(s.turn(), Turn::Chance, "player 2 must draw");
        } else {
            assert_eq!(
                s.legal_actions(),
                vec![Action::DrawShort, Action::SkipShortDraw]
            );
        }
    }
}

#[test]
fn winning_needs_every_golem_card_active() {
    let e = engine();
    let mut s = with_hand(
        game(&e, &[]),
        &[
            "Parts Machining 1",
            "Parts Machining 2",
            "Parts Machining 3",
        ],
    );
    let torso = golem(&s, "Torso Motor") as usize;
    for (g, golem) in e.rules().golems[0].iter().enumerate() {
        s.research[0][g] = golem.research;
    }
    s.sets[0] = ((1u16 << e.rules().golems[0].len()) - 1) as u8 & !(1 << torso);
    assert_eq!(s.activated(0), e.rules().golems[0].len() - 1);
    let set = sets_for_actions(&s, torso as u8)[0];
    s.apply(set);
    assert_eq!(s.turn(), Turn::Terminal);
    assert_eq!(s.returns(), vec![1.0, 0.0]);
    assert_eq!(s.end_reason(), Some("golem activated"));
}

#[test]
fn unknown_variants_are_refused() {
    let e = engine();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert!(
        e.new_game(&config(&[("short-hand-draw", "must")]), &mut rng)
            .is_err()
    );
    assert!(e.new_game(&config(&[("no-such", "x")]), &mut rng).is_err());
    assert!(
        e.new_game(
            &Config {
                players: 3,
                ..config(&[])
            },
            &mut rng
        )
        .is_err()
    );
}

/// Every card is in exactly one place; the outrage marker stays on its track.
fn conserved(s: &CapekState) -> Result<(), String> {
    let n = s.rules.cards.len() as u32;
    let mut places = vec![s.draw, s.discard];
    places.extend(&s.hands[..s.num_players()]);
    let mut slots = 0u64;
    for &c in s.auction() {
        if c != NO_CARD {
            if slots & (1 << c) != 0 {
                return Err(format!("card {c} twice in the Auction House"));
            }
            slots |= 1 << c;
        }
    }
    places.push(slots);
    if let Phase::Decide { card } = s.phase {
        places.push(1 << card);
    }
    let total: u32 = places.iter().map(|p| p.count_ones()).sum();
    let union = places.iter().fold(0, |a, p| a | p);
    if total != n || union.count_ones() != n {
        return Err(format!(
            "{total} cards in play, {} distinct, of {n}",
            union.count_ones()
        ));
    }
    let (min, max) = (s.rules.outrage_min, s.rules.outrage_max);
    if !(min..=max).contains(&s.outrage()) {
        return Err(format!(
            "outrage {} off the track {min}..={max}",
            s.outrage()
        ));
    }
    for p in 0..s.num_players() {
        for (g, golem) in s.rules.golems[p].iter().enumerate() {
            if s.research[p][g] > golem.research {
                return Err(format!("golem card {g} of player {p} is over-marked"));
            }
        }
    }
    Ok(())
}

#[test]
fn random_play_keeps_every_invariant() {
    let e = engine();
    assert_eq!(e.rules().cards.len(), 39);
    for (variants, games) in [
        (vec![], 2000),
        (
            vec![
                ("short-hand-draw", "may"),
                ("auction-slide", "after-buying"),
            ],
            500,
        ),
        (vec![("wild-only-set", "yes")], 500),
    ] {
        let plan = Plan {
            games,
            seed: 11,
            cap: 5000,
            deep_games: 100,
        };
        let seen = random_play(&e, &config(&variants), plan, conserved).unwrap();
        assert_eq!(seen.games, games);
    }
}

/// What `d`, a determinization of `s` for `observer`, must keep: the observer's hand, every
/// hand's size and its cards seen taken in, the unseen cards as a whole, and a draw pile
/// within the cards it can hold since the last reshuffle.
fn consistent(s: &CapekState, d: &CapekState, observer: usize) -> Result<(), String> {
    conserved(d)?;
    let n = s.num_players();
    let unseen = |x: &CapekState| {
        (0..n)
            .filter(|&q| q != observer)
            .fold(x.draw, |acc, q| acc | x.hands[q])
    };
    if d.hands[observer] != s.hands[observer] || unseen(d) != unseen(s) {
        return Err("the observer's hand or the unseen cards changed".into());
    }
    for q in 0..n {
        if d.hands[q].count_ones() != s.hands[q].count_ones()
            || d.hands[q] & s.known[q] != s.known[q]
        {
            return Err(format!("hand {q} lost its size or a card seen going in"));
        }
    }
    if d.draw & !s.drawable != 0 {
        return Err("the draw pile holds a card that was not reshuffled into it".into());
    }
    Ok(())
}

#[test]
fn determinizing_keeps_what_every_player_knows() {
    let e = engine();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut checked, mut resampled, mut after_reshuffle) = (0, 0, 0);
    for _ in 0..30 {
        let mut s = game(&e, &[]);
        while let Turn::Player(_) | Turn::Chance = s.turn() {
            if let Turn::Player(p) = s.turn() {
                let observer = (p + checked) % 2;
                let d = s.determinize(observer, &mut rng);
                consistent(&s, &d, observer).unwrap_or_else(|e| panic!("{e}: {s:?} {d:?}"));
                checked += 1;
                resampled += usize::from(d.hands != s.hands);
                after_reshuffle += usize::from(s.drawable != u64::MAX);
            }
            let action = match s.turn() {
                Turn::Chance => s.sample_chance(&mut rng),
                _ => crate::engine::Bot::choose(&mut Heuristic, &s, &mut rng),
            };
            s.apply(action);
        }
    }
    assert!(
        resampled > checked / 2,
        "{resampled} of {checked} resampled"
    );
    assert!(
        after_reshuffle > checked / 4,
        "{after_reshuffle} of {checked}"
    );
}

#[test]
fn heuristic_bot_avoids_the_shared_loss() {
    use crate::simulate::{SimOptions, run_games};
    let e = engine();
    let opts = SimOptions {
        games: 100,
        seed: 3,
        bots: vec!["heuristic".into()],
        ..Default::default()
    };
    let stats = run_games(&e, &opts).unwrap();
    assert_eq!(stats.shared_losses, 0, "{stats:?}");
    assert!(stats.decided >= 90, "{stats:?}");
}

#[test]
fn check_reports_data_the_engine_cannot_read() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut game = load_game(&data, "capek-golems").unwrap();
    assert!(crate::check::check_game(&game).is_empty());
    game.params.remove("discard_draw");
    let problems = crate::games::module(ID).unwrap().check(&game);
    assert_eq!(problems.len(), 1);
    let text = problems[0].render(false);
    assert!(
        text.contains("discard_draw") && text.contains("rulebook: Setup"),
        "{text}"
    );
}

#[test]
fn risky_bot_spends_outrage_the_heuristic_bot_keeps_in_reserve() {
    // Research that lifts the marker to within one card's outrage of (25): `heuristic`
    // keeps the card instead, `risky` pays the price for three markers.
    use crate::engine::Bot;
    let e = engine();
    let s = with_hand(game(&e, &[]), &["Organ Replacement 1", "Parts Machining 1"]);
    let s = with_auction(s, &["Parts Machining 6"]);
    let mut s = nearly_done(s, 3);
    let braincase = golem(&s, "Braincase Assembly");
    s.sets[0] &= !(1 << braincase);
    let info = s.rules.cards[s.auction[0] as usize];
    s.outrage = e.rules().outrage_max - e.rules().max_card_outrage() - info.outrage as i16 + 1;
    assert!(s.outrage() + (info.outrage as i16) < e.rules().outrage_max);
    s.apply(Action::Buy(0));
    pay_all(&mut s);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert_eq!(Heuristic.choose(&s, &mut rng), Action::Keep);
    assert_eq!(Risky.choose(&s, &mut rng), Action::Research);
}

/// The observation is plain words for every caller: no Rust debug text (`Decide { card: 37 }`,
/// `Some(`, enum names) at any step of seeded random games.
#[test]
fn observations_hold_no_debug_text() {
    let e = engine();
    for seed in 0..5 {
        let mut s = game(&e, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while s.turn() != Turn::Terminal {
            for p in 0..s.num_players() {
                let text = s.observation(p);
                for bad in ["{", "}", "Some(", "None", "Decide", "NotYet", "Phase"] {
                    assert!(!text.contains(bad), "seed {seed}: {bad} in {text}");
                }
            }
            let action = match s.turn() {
                Turn::Chance => s.sample_chance(&mut rng),
                _ => s.random_action(&mut rng),
            };
            s.apply(action);
        }
    }
}

#[test]
fn every_legal_move_says_where_it_acts_and_the_clicks_name_one_move() {
    let seen = crate::engine::testing::check_targets(&engine(), &Config::default(), 30, 5, &[])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(seen.moves > 1000, "{seen:?}");
    // Cards (in hand, in the Auction House, golem cards) and zones.
    let kinds: Vec<&str> = seen.kinds.iter().map(String::as_str).collect();
    assert_eq!(kinds, ["card", "zone"]);
}
