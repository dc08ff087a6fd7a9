//! Engine tests: the rulebook's corner example, every card effect, the variants, and
//! thousands of random games checked at every step.

use std::path::Path as FsPath;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::engine::{Config, Engine, State, Turn};
use crate::model::load_game;

fn engine() -> SearchEngine {
    let data = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "the-search").expect("shipped data loads");
    SearchEngine::from_model(&game).expect("engine reads the shipped data")
}

/// A fixed legal map, row by row (cells A1..E1 are 0..4, A2 is 5, ...):
/// ```text
/// X . o . .
/// . o . X P
/// o . o . o
/// . X . o .
/// ```
fn test_layout() -> Vec<Icon> {
    use Icon::*;
    vec![
        CrimeScene, Plain, Sewer, Plain, Plain, //
        Plain, Sewer, Plain, CrimeScene, Station, //
        Sewer, Plain, Sewer, Plain, Sewer, //
        Plain, CrimeScene, Plain, Sewer, Plain,
    ]
}

fn config(variants: &[(&str, &str)]) -> Config {
    Config::with_variants(2, variants)
}

/// A game on the test map with the officers and the criminal placed; the criminal to act.
fn placed(officers: &[u8], criminal: u8, variants: &[(&str, &str)]) -> SearchState {
    let e = engine();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut s = e
        .new_game_on(&test_layout(), &config(variants), &mut rng)
        .unwrap();
    for &c in officers {
        assert!(
            s.legal_actions().contains(&Action::Place(c)),
            "officer on {c}"
        );
        s.apply(Action::Place(c));
    }
    s.apply(Action::Place(criminal));
    s
}

fn kind(s: &SearchState, side: Side, wanted: fn(Effect) -> bool) -> u8 {
    s.table.rules.kinds[side.index()]
        .iter()
        .position(|k| wanted(k.effect))
        .expect("a kind with that effect") as u8
}

/// Gives a side exactly these cards in hand, the rest of its cards going to the draw pile.
fn set_hand(s: &mut SearchState, side: Side, hand: &[u8]) {
    let c = &mut s.cards[side.index()];
    let mut pool: Vec<u8> = c.hand.as_slice().to_vec();
    pool.extend_from_slice(c.draw.as_slice());
    pool.extend_from_slice(c.discard.as_slice());
    for k in hand {
        let i = pool.iter().position(|p| p == k).expect("card available");
        pool.remove(i);
    }
    c.hand = Pile::EMPTY;
    c.draw = Pile::EMPTY;
    c.discard = Pile::EMPTY;
    hand.iter().for_each(|&k| c.hand.push(k));
    pool.iter().for_each(|&k| c.draw.push(k));
    c.known_top = 0;
}

fn step(from: u8, dirs: &[usize]) -> Path {
    dirs.iter().fold(Path::start(from), |p, &d| p.then(d))
}

const N: usize = 0;
const E: usize = 1;
const S: usize = 2;
const W: usize = 3;
const NE: usize = 4;
const SE: usize = 5;

fn end_criminal_turn(s: &mut SearchState) {
    assert_eq!(s.side_to_act(), Some(Side::Criminal));
    s.apply(Action::EndTurn);
}

#[test]
fn corner_enclosure_example() {
    // The rulebook's example: the criminal in a map corner is surrounded by pawns on the two
    // orthogonally adjacent cards; the map edges close the other two sides.
    let mut s = placed(&[18, 13, 1, 3], 19, &[]);
    assert_eq!(s.turn(), Turn::Player(0), "the criminal moves first");
    end_criminal_turn(&mut s);
    assert_eq!(s.turn(), Turn::Player(1));
    let close = Action::Move(step(13, &[E]));
    assert!(s.legal_actions().contains(&close));
    s.apply(close);
    assert_eq!(s.turn(), Turn::Terminal);
    assert_eq!(s.end_reason(), Some(SURROUNDED));
    assert_eq!(s.returns(), vec![0.0, 1.0]);
}

#[test]
fn barricades_and_edges_surround_too() {
    let mut s = placed(&[18, 11, 1, 3], 19, &[]);
    let barricade = kind(&s, Side::Police, |e| e == Effect::Barricade);
    end_criminal_turn(&mut s);
    set_hand(&mut s, Side::Police, &[barricade]);
    s.apply(Action::Play {
        kind: barricade,
        target: Target::Cell(14),
    });
    assert_eq!(s.end_reason(), Some(SURROUNDED));
}

#[test]
fn an_open_side_is_not_surrounded() {
    let s = placed(&[18, 11, 1, 3], 19, &[]);
    assert_eq!(s.turn(), Turn::Player(0));
    assert!(s.legal_actions().contains(&Action::Move(step(19, &[N]))));
}

#[test]
fn setup_keeps_pawns_off_crime_scenes() {
    let e = engine();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut s = e
        .new_game_on(&test_layout(), &config(&[]), &mut rng)
        .unwrap();
    assert_eq!(s.turn(), Turn::Player(1), "the police place first");
    assert!(!s.legal_actions().contains(&Action::Place(0)));
    for c in [1, 3, 5, 7] {
        s.apply(Action::Place(c));
    }
    assert_eq!(s.turn(), Turn::Player(0));
    let places = s.legal_actions();
    assert!(!places.contains(&Action::Place(0)), "not on a crime scene");
    assert!(!places.contains(&Action::Place(1)), "not on an officer");
    assert!(places.contains(&Action::Place(4)));
    // C1 (2) is boxed in by the officers on B1, D1 and C2: by default not a starting card.
    assert!(
        !places.contains(&Action::Place(2)),
        "not already surrounded"
    );
    let hand = usize::from(s.table.rules.hand_size);
    assert_eq!(s.pile_sizes(Side::Police).0, hand);
    assert_eq!(s.pile_sizes(Side::Criminal).0, hand);
}

#[test]
fn criminal_cannot_enter_police_or_barricades() {
    // Criminal on B1 (1): officers on C1 and B2; A1 is a crime scene, free.
    let mut s = placed(&[2, 6, 18, 19], 1, &[]);
    let moves: Vec<Action> = s
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Move(_)))
        .collect();
    assert_eq!(moves, vec![Action::Move(step(1, &[W]))]);
    s.apply(Action::Move(step(1, &[W])));
    assert_eq!(
        s.marked().count_ones(),
        1,
        "visiting a crime scene marks it"
    );
    assert!(
        !s.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Move(_))),
        "one move per turn"
    );
}

#[test]
fn required_move_variant_makes_the_criminal_move_first() {
    let mut s = placed(&[2, 6, 18, 19], 1, &[("criminal-move", "required")]);
    assert!(!s.legal_actions().contains(&Action::EndTurn));
    s.apply(Action::Move(step(1, &[W])));
    assert!(
        s.legal_actions().contains(&Action::EndTurn),
        "moved already"
    );
}

#[test]
fn police_move_one_pawn_one_card() {
    let mut s = placed(&[11, 13, 17, 7], 19, &[]);
    end_criminal_turn(&mut s);
    let moves: Vec<Action> = s
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Move(_)))
        .collect();
    // 4 officers, each with its orthogonal neighbours (none is the criminal's card).
    let expected: usize = [11u8, 13, 17, 7]
        .iter()
        .map(|&c| s.table.grid.orthogonal[usize::from(c)].count_ones() as usize)
        .sum();
    assert_eq!(moves.len(), expected);
    s.apply(Action::Move(step(13, &[E])));
    assert!(
        !s.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Move(_)))
    );
}

#[test]
fn questioning_witnesses_discards_from_the_criminal() {
    let mut s = placed(&[11, 13, 17, 7], 19, &[]);
    end_criminal_turn(&mut s);
    let q = kind(&s, Side::Police, |e| {
        matches!(e, Effect::OpponentDiscard { .. })
    });
    set_hand(&mut s, Side::Police, &[q]);
    let before = s.pile_sizes(Side::Criminal);
    s.apply(Action::Play {
        kind: q,
        target: Target::None,
    });
    let after = s.pile_sizes(Side::Criminal);
    assert_eq!((after.0, after.2), (before.0 - 1, before.2 + 1));
    s.apply(Action::EndTurn);
    // The criminal starts with one card fewer and draws back only at the end of the turn.
    assert_eq!(s.pile_sizes(Side::Criminal).0, before.0 - 1);
    s.apply(Action::EndTurn);
    assert_eq!(s.pile_sizes(Side::Criminal).0, before.0);
}

#[test]
fn anonymous_in_the_crowd_discards_from_the_police() {
    let mut s = placed(&[11, 13, 17, 7], 19, &[]);
    let a = kind(&s, Side::Criminal, |e| {
        matches!(e, Effect::OpponentDiscard { .. })
    });
    set_hand(&mut s, Side::Criminal, &[a]);
    let before = s.pile_sizes(Side::Police);
    s.apply(Action::Play {
        kind: a,
        target: Target::None,
    });
    let after = s.pile_sizes(Side::Police);
    assert_eq!((after.0, after.2), (before.0 - 1, before.2 + 1));
}

#[test]
fn set_up_a_barricade_then_move_one() {
    let mut s = placed(&[11, 13, 17, 7], 19, &[("police-on-criminal", "forbidden")]);
    let b = kind(&s, Side::Police, |e| e == Effect::Barricade);
    let limit = usize::from(s.table.rules.barricades);
    for i in 0..limit {
        end_criminal_turn(&mut s);
        set_hand(&mut s, Side::Police, &[b]);
        let targets: Vec<Target> = s
            .legal_actions()
            .into_iter()
            .filter_map(|a| match a {
                Action::Play { target, .. } => Some(target),
                _ => None,
            })
            .collect();
        assert!(!targets.contains(&Target::Cell(0)), "not on a crime scene");
        assert!(!targets.contains(&Target::Cell(19)), "not on the criminal");
        assert!(targets.iter().all(|t| matches!(t, Target::Cell(_))));
        s.apply(Action::Play {
            kind: b,
            target: Target::Cell(1 + i as u8),
        });
        s.apply(Action::EndTurn);
    }
    assert_eq!(s.barricade_cells().count(), limit);
    end_criminal_turn(&mut s);
    set_hand(&mut s, Side::Police, &[b]);
    let shifts: Vec<Action> = s.legal_actions();
    assert!(shifts.contains(&Action::Play {
        kind: b,
        target: Target::Shift { from: 1, to: 5 }
    }));
    assert!(!shifts.iter().any(|a| matches!(
        a,
        Action::Play {
            target: Target::Cell(_),
            ..
        }
    )));
    s.apply(Action::Play {
        kind: b,
        target: Target::Shift { from: 1, to: 5 },
    });
    let mut cells: Vec<u8> = s.barricade_cells().collect();
    cells.sort();
    assert_eq!(cells, vec![2, 3, 5]);
}

#[test]
fn a_shot_in_the_dark_and_call_in_reinforcements() {
    // An officer on the police station (J = 9).
    let mut s = placed(&[9, 13, 17, 7], 19, &[]);
    let shot = kind(&s, Side::Criminal, |e| {
        matches!(e, Effect::WoundOfficer { .. })
    });
    set_hand(&mut s, Side::Criminal, &[shot]);
    s.apply(Action::Play {
        kind: shot,
        target: Target::Cell(13),
    });
    assert_eq!(s.wounded(), 1);
    s.apply(Action::EndTurn);
    let r = kind(&s, Side::Police, |e| e == Effect::Reinforce);
    set_hand(&mut s, Side::Police, &[r]);
    assert!(s.legal_actions().contains(&Action::Play {
        kind: r,
        target: Target::Cell(9)
    }));
    s.apply(Action::Play {
        kind: r,
        target: Target::Cell(9),
    });
    assert_eq!(s.wounded(), 0);
    assert_eq!(s.officer_cells().filter(|&c| c == 9).count(), 2);
}

#[test]
fn reinforcements_need_an_officer_on_the_station() {
    let mut s = placed(&[7, 13, 17, 11], 19, &[]);
    let shot = kind(&s, Side::Criminal, |e| {
        matches!(e, Effect::WoundOfficer { .. })
    });
    set_hand(&mut s, Side::Criminal, &[shot]);
    s.apply(Action::Play {
        kind: shot,
        target: Target::Cell(13),
    });
    s.apply(Action::EndTurn);
    let r = kind(&s, Side::Police, |e| e == Effect::Reinforce);
    set_hand(&mut s, Side::Police, &[r]);
    let plays: Vec<Action> = s
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Play { .. }))
        .collect();
    assert_eq!(
        plays,
        vec![Action::Play {
            kind: r,
            target: Target::None
        }]
    );
    s.apply(plays[0]);
    assert_eq!(s.wounded(), 1, "played for no effect");
}

#[test]
fn wounding_every_officer_wins_for_the_criminal() {
    let mut s = placed(&[9, 13, 17, 7], 19, &[]);
    let shot = kind(&s, Side::Criminal, |e| {
        matches!(e, Effect::WoundOfficer { .. })
    });
    for target in [9, 13, 17, 7] {
        assert_eq!(s.side_to_act(), Some(Side::Criminal));
        set_hand(&mut s, Side::Criminal, &[shot]);
        s.apply(Action::Play {
            kind: shot,
            target: Target::Cell(target),
        });
        if s.turn() == Turn::Terminal {
            break;
        }
        s.apply(Action::EndTurn);
        s.apply(Action::EndTurn);
    }
    assert_eq!(s.end_reason(), Some(OFFICERS_WOUNDED));
    assert_eq!(s.returns(), vec![1.0, 0.0]);
}

#[test]
fn cumulative_wounds_variant_counts_reinforced_officers() {
    let mut s = placed(&[9, 13, 17, 7], 19, &[("wound-win", "cumulative")]);
    let shot = kind(&s, Side::Criminal, |e| {
        matches!(e, Effect::WoundOfficer { .. })
    });
    let r = kind(&s, Side::Police, |e| e == Effect::Reinforce);
    set_hand(&mut s, Side::Criminal, &[shot]);
    s.apply(Action::Play {
        kind: shot,
        target: Target::Cell(13),
    });
    s.apply(Action::EndTurn);
    set_hand(&mut s, Side::Police, &[r]);
    s.apply(Action::Play {
        kind: r,
        target: Target::Cell(9),
    });
    s.apply(Action::EndTurn);
    for target in [9, 9, 17] {
        set_hand(&mut s, Side::Criminal, &[shot]);
        s.apply(Action::Play {
            kind: shot,
            target: Target::Cell(target),
        });
        if s.turn() == Turn::Terminal {
            break;
        }
        s.apply(Action::EndTurn);
        s.apply(Action::EndTurn);
    }
    assert_eq!(s.end_reason(), Some(OFFICERS_WOUNDED));
    assert_eq!(s.officer_cells().count(), 1, "one officer still on the map");
}

#[test]
fn canvassing_the_district_reorders_the_top_cards() {
    let mut s = placed(&[11, 13, 17, 7], 19, &[]);
    end_criminal_turn(&mut s);
    let c = kind(&s, Side::Police, |e| matches!(e, Effect::ArrangeTop { .. }));
    let Effect::ArrangeTop { look } = s.effect(Side::Police, c) else {
        unreachable!()
    };
    set_hand(&mut s, Side::Police, &[c]);
    s.apply(Action::Play {
        kind: c,
        target: Target::None,
    });
    assert_eq!(s.arrange_look(), Some(look));
    let top = s.top_cards(look);
    let orders = s.legal_actions();
    let distinct: std::collections::BTreeSet<Vec<u8>> = (0..factorial(look))
        .map(|p| permuted(&top, look, p)[..usize::from(look)].to_vec())
        .collect();
    assert_eq!(orders.len(), distinct.len());
    let last = *orders.last().unwrap();
    let Action::Arrange(p) = last else {
        panic!("arrange actions only")
    };
    let wanted = permuted(&top, look, usize::from(p));
    s.apply(last);
    assert_eq!(s.top_cards(look), wanted);
    let known: Vec<u8> = s.known_top(Side::Police).iter().rev().copied().collect();
    assert_eq!(known, wanted[..usize::from(look)].to_vec());
    assert!(s.observation(1).contains("your draw pile, top first"));
    assert!(!s.observation(0).contains("your draw pile, top first"));
    // The police draw exactly those cards next.
    s.apply(Action::EndTurn);
    let hand = s.hand(Side::Police);
    assert_eq!(hand.len(), usize::from(s.table.rules.hand_size));
    assert_eq!(hand, &wanted[..hand.len()]);
}

#[test]
fn in_pursuit_draws_an_extra_card() {
    let mut s = placed(&[11, 13, 17, 7], 19, &[]);
    end_criminal_turn(&mut s);
    let p = kind(&s, Side::Police, |e| matches!(e, Effect::ExtraDraw { .. }));
    let q = kind(&s, Side::Police, |e| {
        matches!(e, Effect::OpponentDiscard { .. })
    });
    set_hand(&mut s, Side::Police, &[p, q, q]);
    s.apply(Action::Play {
        kind: p,
        target: Target::None,
    });
    s.apply(Action::EndTurn);
    let hand = usize::from(s.table.rules.hand_size);
    assert_eq!(s.pile_sizes(Side::Police).0, hand + 1);
    // Next turn, playing one card leaves a full hand: nothing more is drawn.
    s.apply(Action::EndTurn);
    s.apply(Action::Play {
        kind: q,
        target: Target::None,
    });
    s.apply(Action::EndTurn);
    assert_eq!(s.pile_sizes(Side::Police).0, hand);
}

#[test]
fn mistaken_identity_moves_an_officer_but_not_onto_the_criminal() {
    let mut s = placed(&[18, 13, 1, 3], 19, &[("police-on-criminal", "forbidden")]);
    let m = kind(&s, Side::Criminal, |e| {
        matches!(e, Effect::MoveOfficer { .. })
    });
    set_hand(&mut s, Side::Criminal, &[m]);
    let plays = s.legal_actions();
    assert!(plays.contains(&Action::Play {
        kind: m,
        target: Target::Path(step(18, &[W]))
    }));
    assert!(!plays.contains(&Action::Play {
        kind: m,
        target: Target::Path(step(18, &[E]))
    }));
    s.apply(Action::Play {
        kind: m,
        target: Target::Path(step(18, &[N])),
    });
    assert!(s.officer_cells().any(|c| c == 13));
    assert!(!s.officer_cells().any(|c| c == 18));
}

#[test]
fn officers_and_barricades_may_enter_the_criminals_card_as_the_book_forbids_only_the_criminal() {
    // "The criminal player cannot move onto any map card occupied by a police pawn or on to
    // any map card with a barricade marker on it"; Set Up a Barricade places one "on any non
    // crime scene map card". Nothing keeps the police off the criminal's card
    // (`police-on-criminal=allowed`, the default) unless cards are not shared.
    let offered = |variants: &[(&str, &str)]| {
        // The officer on E3 (18) next to the criminal on E4 (19).
        let mut s = placed(&[18, 13, 1, 3], 19, variants);
        let m = kind(&s, Side::Criminal, |e| {
            matches!(e, Effect::MoveOfficer { .. })
        });
        set_hand(&mut s, Side::Criminal, &[m]);
        let pushed = s.legal_actions().contains(&Action::Play {
            kind: m,
            target: Target::Path(step(18, &[E])),
        });
        end_criminal_turn(&mut s);
        let walks = s.legal_actions().contains(&Action::Move(step(18, &[E])));
        let b = kind(&s, Side::Police, |e| e == Effect::Barricade);
        set_hand(&mut s, Side::Police, &[b]);
        let barricade = s.legal_actions().contains(&Action::Play {
            kind: b,
            target: Target::Cell(19),
        });
        (pushed, walks, barricade, s)
    };
    for variants in [&[][..], &[("police-on-criminal", "allowed")][..]] {
        let (pushed, walks, barricade, mut s) = offered(variants);
        assert!(pushed && walks && barricade, "{variants:?}");
        // An officer on the criminal's card blocks nothing around it.
        s.apply(Action::Move(step(18, &[E])));
        assert_eq!(s.officer_cells().filter(|&c| c == 19).count(), 1);
        assert_ne!(s.exits(19), 0);
        assert_eq!(s.turn(), Turn::Player(1));
    }
    for variants in [
        &[("police-on-criminal", "forbidden")][..],
        &[("stacking", "exclusive")][..],
    ] {
        let (pushed, walks, barricade, _) = offered(variants);
        assert!(!pushed && !walks && !barricade, "{variants:?}");
    }
}

/// The criminal holding three Anonymous in the Crowd, one card left in the draw pile and the
/// rest discarded; it plays one card and ends the turn, drawing the pile's last card.
fn last_card_drawn(variants: &[(&str, &str)]) -> SearchState {
    let mut s = placed(&[11, 13, 17, 7], 19, variants);
    let a = kind(&s, Side::Criminal, |e| {
        matches!(e, Effect::OpponentDiscard { .. })
    });
    set_hand(&mut s, Side::Criminal, &[a, a, a]);
    let c = &mut s.cards[Side::Criminal.index()];
    while c.draw.len > 1 {
        let k = c.draw.pop().unwrap();
        c.discard.push(k);
    }
    s.apply(Action::Play {
        kind: a,
        target: Target::None,
    });
    end_criminal_turn(&mut s);
    s
}

#[test]
fn a_side_reshuffles_the_moment_its_draw_pile_is_empty() {
    // "When the draw deck is exhausted, shuffle the discard deck and create a new draw deck"
    // (`reshuffle=when-empty`, the default): the last card drawn, the discard pile is the new
    // draw pile at once, and a card played afterwards waits on the new discard pile.
    for variants in [&[][..], &[("reshuffle", "when-empty")][..]] {
        let s = last_card_drawn(variants);
        let (hand, draw, discard) = s.pile_sizes(Side::Criminal);
        let total = usize::from(s.table.rules.kinds[0].iter().map(|k| k.count).sum::<u8>());
        assert_eq!((hand, draw, discard), (3, total - 3, 0), "{variants:?}");
        assert_eq!(s.reshuffles_and_draws(Side::Criminal).0, 1);
    }
}

#[test]
fn at_the_next_draw_a_side_reshuffles_the_cards_played_meanwhile_too() {
    let s = last_card_drawn(&[("reshuffle", "at-next-draw")]);
    let total = usize::from(s.table.rules.kinds[0].iter().map(|k| k.count).sum::<u8>());
    assert_eq!(s.pile_sizes(Side::Criminal), (3, 0, total - 3));
    assert_eq!(s.reshuffles_and_draws(Side::Criminal).0, 0);
    // The police pass; the criminal plays a card, which joins the discard pile that the next
    // draw shuffles into the new draw pile.
    let mut s = s;
    s.apply(Action::EndTurn);
    let before = s.clone();
    let a = s.hand(Side::Criminal)[0];
    s.apply(Action::Play {
        kind: a,
        target: Target::None,
    });
    end_criminal_turn(&mut s);
    assert_eq!(s.pile_sizes(Side::Criminal), (3, total - 3, 0));
    assert_eq!(s.reshuffles_and_draws(Side::Criminal).0, 1);
    let events = super::super::views::hidden_events(&before, &s);
    assert!(
        events
            .iter()
            .any(|e| e == "the criminal shuffles the discard pile into a new draw pile"),
        "{events:?}"
    );
}

#[test]
fn one_step_ahead_moves_two_or_one_diagonally() {
    // Criminal on D2 (8 is a scene: use C3 = 12, a sewer). Officer on C2 (7).
    let mut s = placed(&[7, 18, 1, 3], 12, &[]);
    let f = kind(&s, Side::Criminal, |e| matches!(e, Effect::FastMove { .. }));
    set_hand(&mut s, Side::Criminal, &[f]);
    let ends: std::collections::BTreeSet<u8> = s
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Play {
                target: Target::Path(p),
                ..
            } => Some(p.end(&s.table.grid)),
            _ => None,
        })
        .collect();
    // Two orthogonal steps avoiding C2, or one diagonal step; D2 (8) is diagonal.
    assert!(ends.contains(&8), "one diagonal step");
    assert!(ends.contains(&14), "two steps east");
    assert!(ends.contains(&10), "two steps west");
    assert!(!ends.contains(&2), "C1 lies behind the officer on C2");
    assert!(
        !ends.contains(&0),
        "no diagonal within a two-card move by default"
    );
    let jump = Action::Play {
        kind: f,
        target: Target::Path(step(12, &[NE])),
    };
    s.apply(jump);
    assert_eq!(s.criminal(), Some(8));
    assert_eq!(s.marked().count_ones(), 1);
    assert!(
        !s.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Move(_))),
        "One Step Ahead replaces the move"
    );
}

/// The ends of the One Step Ahead plays open to the criminal.
fn fast_move_ends(s: &SearchState) -> std::collections::BTreeSet<u8> {
    s.legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Play {
                target: Target::Path(p),
                ..
            } => Some(p.end(&s.table.grid)),
            _ => None,
        })
        .collect()
}

#[test]
fn one_step_ahead_never_makes_a_one_card_orthogonal_move() {
    // Card Explanations: One Step Ahead moves "across two map cards with your criminal
    // pawn, instead of one": a single orthogonal card is the usual move, not the card's.
    for variants in [vec![], vec![("one-step-ahead", "diagonal-within-two")]] {
        let mut s = placed(&[7, 18, 1, 3], 12, &variants);
        let f = kind(&s, Side::Criminal, |e| matches!(e, Effect::FastMove { .. }));
        set_hand(&mut s, Side::Criminal, &[f]);
        let grid = &s.table.grid;
        let paths: Vec<Path> = s
            .legal_actions()
            .into_iter()
            .filter_map(|a| match a {
                Action::Play {
                    target: Target::Path(p),
                    ..
                } => Some(p),
                _ => None,
            })
            .collect();
        assert!(!paths.is_empty());
        for p in paths {
            let diagonal_jump = p.len == 1 && grid.diagonal[12] & (1 << p.end(grid)) != 0;
            assert!(
                p.len == 2 || (variants.is_empty() && diagonal_jump),
                "{variants:?}: {p:?}"
            );
        }
        if variants.is_empty() {
            let ends = fast_move_ends(&s);
            for neighbour in [11, 13, 17] {
                assert!(!ends.contains(&neighbour), "{neighbour}");
            }
        }
    }
}

#[test]
fn one_step_ahead_there_and_back_is_a_declared_reading() {
    // One Step Ahead moves "across two map cards": D3 (13) -> D2 (8, a crime scene) -> D3
    // marks the scene and ends where it started. Allowed by default, forbidden under
    // `one-step-ahead-return=forbidden`; D3 -> D2 -> D1 marks it either way.
    for (variants, back) in [
        (vec![], true),
        (vec![("one-step-ahead-return", "allowed")], true),
        (vec![("one-step-ahead-return", "forbidden")], false),
    ] {
        let mut s = placed(&[1, 2, 4, 19], 13, &variants);
        let f = kind(&s, Side::Criminal, |e| matches!(e, Effect::FastMove { .. }));
        set_hand(&mut s, Side::Criminal, &[f]);
        let plays = s.legal_actions();
        let there_and_back = Action::Play {
            kind: f,
            target: Target::Path(step(13, &[N, S])),
        };
        let onward = Action::Play {
            kind: f,
            target: Target::Path(step(13, &[N, N])),
        };
        assert_eq!(plays.contains(&there_and_back), back, "{variants:?}");
        assert!(plays.contains(&onward), "{variants:?}");
        // No move that ends where it started without marking anything, in any reading.
        assert!(!plays.contains(&Action::Play {
            kind: f,
            target: Target::Path(step(13, &[E, W])),
        }));
        if back {
            s.apply(there_and_back);
            assert_eq!(s.criminal(), Some(13));
            assert_eq!(s.marked(), 1 << 8);
        }
    }
}

#[test]
fn the_printed_one_step_ahead_states_the_default_reading() {
    use crate::games::GameModule;
    let data = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut game = load_game(&data, "the-search").unwrap();
    assert!(super::super::check::TheSearch.check(&game).is_empty());
    let deck = game
        .components
        .decks
        .iter_mut()
        .find(|d| d.id.get_ref() == "criminal")
        .unwrap();
    let card = deck
        .cards
        .iter_mut()
        .find(|c| c.id.get_ref() == "one-step-ahead")
        .unwrap();
    assert_eq!(card.str("reading"), Some(VARIANTS[3].values[0]));
    card.fields.insert(
        "reading".into(),
        toml::Spanned::new(0..0, toml::Value::String(DIAGONAL_WITHIN_TWO.into())),
    );
    let problems = super::super::check::TheSearch.check(&game);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].render(false).contains(TWO_OR_DIAGONAL));
}

#[test]
fn enclosed_start_variant() {
    // Setup: "The criminal player then places his pawn on any remaining non crime scene map
    // card"; Win: the police win by surrounding the criminal. E1 (4) is a corner: officers on
    // D1 (3) and E2 (9) box it in, as in the rulebook's corner example.
    for (variants, legal) in [(vec![], false), (vec![("enclosed-start", "allowed")], true)] {
        let e = engine();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut s = e
            .new_game_on(&test_layout(), &config(&variants), &mut rng)
            .unwrap();
        for c in [3, 9, 18, 19] {
            s.apply(Action::Place(c));
        }
        assert_eq!(s.legal_actions().contains(&Action::Place(4)), legal);
        if legal {
            s.apply(Action::Place(4));
            assert_eq!(s.winner(), Some(Side::Police));
        }
    }
}

#[test]
fn empty_play_variant() {
    // Play: "Play an action card, discarding it". Take to the Sewers off a sewer does nothing.
    for (variants, legal) in [(vec![], true), (vec![("empty-play", "forbidden")], false)] {
        let mut s = placed(&[7, 18, 2, 3], 11, &variants);
        let t = kind(&s, Side::Criminal, |e| e == Effect::SewerTravel);
        set_hand(&mut s, Side::Criminal, &[t]);
        let empty = Action::Play {
            kind: t,
            target: Target::None,
        };
        assert_eq!(s.legal_actions().contains(&empty), legal, "{variants:?}");
        assert_eq!(s.legal_count(), s.legal_actions().len());
    }
}

#[test]
fn passing_variant() {
    // Play: "Players may do any one action or all of them during their turn". By default a
    // turn holds a move or a play when one is possible; `passing=allowed` lets it be the draw.
    for (variants, may_pass) in [(vec![], false), (vec![("passing", "allowed")], true)] {
        let mut s = placed(&[2, 6, 18, 19], 1, &variants);
        assert_eq!(
            s.legal_actions().contains(&Action::EndTurn),
            may_pass,
            "{variants:?}"
        );
        s.apply(Action::Move(step(1, &[W])));
        assert!(s.legal_actions().contains(&Action::EndTurn), "after a move");
    }
}

#[test]
fn one_step_ahead_marks_scenes_passed_over_unless_the_variant_says_otherwise() {
    // Criminal on B4 is a scene; use A4 (15): east is B4 (16, scene), then C4 (17).
    for (variants, marks) in [(vec![], 1), (vec![("scene-marking", "end-of-move")], 0)] {
        let mut s = placed(&[7, 18, 1, 3], 15, &variants);
        let f = kind(&s, Side::Criminal, |e| matches!(e, Effect::FastMove { .. }));
        set_hand(&mut s, Side::Criminal, &[f]);
        s.apply(Action::Play {
            kind: f,
            target: Target::Path(step(15, &[E, E])),
        });
        assert_eq!(s.criminal(), Some(17));
        assert_eq!(s.marked().count_ones(), marks);
    }
}

#[test]
fn diagonal_within_two_variant() {
    let mut s = placed(
        &[7, 18, 1, 3],
        12,
        &[("one-step-ahead", "diagonal-within-two")],
    );
    let f = kind(&s, Side::Criminal, |e| matches!(e, Effect::FastMove { .. }));
    set_hand(&mut s, Side::Criminal, &[f]);
    let target = Target::Path(step(12, &[NE, E]));
    assert!(
        s.legal_actions()
            .contains(&Action::Play { kind: f, target })
    );
    let twice = Target::Path(step(12, &[NE, SE]));
    assert!(!s.legal_actions().contains(&Action::Play {
        kind: f,
        target: twice
    }));
    let single = Target::Path(step(12, &[NE]));
    assert!(
        !s.legal_actions().contains(&Action::Play {
            kind: f,
            target: single
        }),
        "exactly two steps in this reading"
    );
}

#[test]
fn take_to_the_sewers_links_open_sewer_entrances() {
    // Criminal on the sewer C3 (12); officer on E3 (14), a sewer; barricade nowhere.
    let mut s = placed(&[14, 17, 1, 3], 12, &[]);
    let t = kind(&s, Side::Criminal, |e| e == Effect::SewerTravel);
    set_hand(&mut s, Side::Criminal, &[t]);
    let targets: Vec<u8> = s
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Play {
                target: Target::Cell(c),
                ..
            } => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(targets, vec![2, 6, 10, 18]);
    s.apply(Action::Play {
        kind: t,
        target: Target::Cell(2),
    });
    assert_eq!(s.criminal(), Some(2));
    assert!(
        s.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Move(_))),
        "the card is not the move"
    );
}

#[test]
fn take_to_the_sewers_does_nothing_off_a_sewer() {
    let mut s = placed(&[14, 17, 1, 3], 19, &[]);
    let t = kind(&s, Side::Criminal, |e| e == Effect::SewerTravel);
    set_hand(&mut s, Side::Criminal, &[t]);
    assert!(s.legal_actions().contains(&Action::Play {
        kind: t,
        target: Target::None
    }));
}

#[test]
fn marking_three_crime_scenes_wins() {
    let mut s = placed(&[4, 9, 14, 19], 1, &[]);
    let route: [&[usize]; 3] = [&[W], &[E, E, S, E], &[S, S, W, W]];
    let mut at = 1u8;
    'outer: for leg in route {
        for &d in leg {
            set_hand(&mut s, Side::Criminal, &[]);
            let mv = Action::Move(step(at, &[d]));
            assert!(s.legal_actions().contains(&mv), "{mv:?}");
            s.apply(mv);
            at = s.criminal().unwrap();
            if s.turn() == Turn::Terminal {
                break 'outer;
            }
            s.apply(Action::EndTurn);
            s.apply(Action::EndTurn);
        }
    }
    assert_eq!(s.end_reason(), Some(CRIME_SCENES));
    assert_eq!(s.returns(), vec![1.0, 0.0]);
}

#[test]
fn unknown_variants_are_refused() {
    let e = engine();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert!(
        e.new_game(&config(&[("stacking", "piled")]), &mut rng)
            .is_err()
    );
    assert!(
        e.new_game(&config(&[("teleport", "yes")]), &mut rng)
            .is_err()
    );
    for v in e.variants() {
        for value in v.values {
            assert!(e.new_game(&config(&[(v.name, value)]), &mut rng).is_ok());
        }
    }
}

/// Checks one state's invariants against what the rules say must hold.
fn check_invariants(s: &SearchState, rng: &mut ChaCha8Rng) {
    let rules = &s.table.rules;
    let legal = s.legal_actions();
    if s.turn() != Turn::Terminal {
        assert!(!legal.is_empty(), "no legal action:\n{}", s.observation(0));
    }
    assert_eq!(s.legal_count(), legal.len(), "counting agrees with listing");
    for (k, &a) in legal.iter().enumerate() {
        assert_eq!(
            s.nth_legal(k),
            Some(a),
            "the {k}-th action is the listed one"
        );
    }
    assert_eq!(s.nth_legal(legal.len()), None);
    if !legal.is_empty() {
        let (mut a, mut b) = (rng.clone(), rng.clone());
        let listed = legal[a.random_range(0..legal.len())];
        assert_eq!(
            s.random_action(&mut b),
            listed,
            "a random move is the listed one"
        );
        assert!(a == b, "drawing a move uses the generator as listing does");
    }
    for side in [Side::Criminal, Side::Police] {
        let counts = s.card_counts(side);
        let expected: Vec<usize> = rules.kinds[side.index()]
            .iter()
            .map(|k| usize::from(k.count))
            .collect();
        assert_eq!(counts, expected, "{} cards conserved", side.name());
    }
    let (on_map, hospital, unplaced) = s.officer_places();
    assert_eq!(on_map + hospital + unplaced, usize::from(rules.officers));
    assert!(s.barricade_cells().count() <= usize::from(rules.barricades));
    assert_eq!(
        s.barricade_mask() & s.scenes(),
        0,
        "no barricade on a crime scene"
    );
    let closed = s.readings().criminal_card_closed || s.readings().exclusive;
    if let (Some(c), true) = (s.criminal(), closed) {
        assert_eq!(s.blocked() & 1 << c, 0, "the criminal never shares a card");
    }
    assert!(s.marked() & !s.scenes() == 0);
    assert_eq!(&s.clone(), s);
    for observer in 0..2 {
        let d = s.determinize(observer, rng);
        assert_eq!(d.observation(observer), s.observation(observer));
        for side in [Side::Criminal, Side::Police] {
            assert_eq!(d.card_counts(side), s.card_counts(side));
        }
    }
}

fn random_games(games: u64, variants: &[(&str, &str)], cap: u32) {
    let e = engine();
    let cfg = config(variants);
    let mut reasons = std::collections::BTreeMap::new();
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = e.new_game(&cfg, &mut rng).unwrap();
        while s.turn() != Turn::Terminal {
            check_invariants(&s, &mut rng);
            assert!(
                s.moves_played() < cap,
                "game {seed} did not end within {cap} moves"
            );
            let actions = s.legal_actions();
            if let Turn::Player(_) = s.turn() {
                // The sampler that counts instead of listing draws what the list would, under
                // every reading.
                let (mut fast, mut listed) = (rng.clone(), rng.clone());
                let drawn = s.random_action(&mut fast);
                let from_list = actions[listed.random_range(0..actions.len())];
                assert_eq!(drawn, from_list, "game {seed}, {variants:?}: random_action");
            }
            let a = actions[rng.random_range(0..actions.len())];
            let _ = s.action_name(a);
            let (from, blocked) = (s.criminal(), s.blocked());
            let name = s.action_name(a);
            s.apply(a);
            if let (Some(_), Some(to)) = (from, s.criminal()) {
                assert!(
                    from == Some(to) || blocked & 1 << to == 0,
                    "game {seed}: the criminal moved onto an officer or a barricade: {}",
                    name
                );
            }
        }
        check_invariants(&s, &mut rng);
        *reasons.entry(s.end_reason().unwrap()).or_insert(0) += 1;
    }
    for reason in [CRIME_SCENES, SURROUNDED] {
        assert!(
            reasons.contains_key(reason),
            "{reason} never ended a game: {reasons:?}"
        );
    }
}

#[test]
fn random_games_keep_every_invariant() {
    random_games(2000, &[], 5000);
}

#[test]
fn random_games_under_the_other_readings() {
    random_games(
        500,
        &[
            ("criminal-move", "required"),
            ("scene-marking", "end-of-move"),
            ("wound-win", "cumulative"),
            ("one-step-ahead", "diagonal-within-two"),
            ("stacking", "exclusive"),
            ("police-on-scenes", "forbidden"),
            ("enclosed-start", "allowed"),
            ("empty-play", "forbidden"),
            ("passing", "allowed"),
            ("one-step-ahead-return", "forbidden"),
            ("reshuffle", "at-next-draw"),
            ("police-on-criminal", "forbidden"),
        ],
        5000,
    );
}

#[test]
fn same_seed_same_game() {
    let e = engine();
    let play = |seed| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = e.new_game(&config(&[]), &mut rng).unwrap();
        let mut log = Vec::new();
        while s.turn() != Turn::Terminal {
            let actions = s.legal_actions();
            let a = actions[rng.random_range(0..actions.len())];
            log.push(s.action_name(a));
            s.apply(a);
        }
        log
    };
    assert_eq!(play(42), play(42));
    assert_ne!(play(42), play(43));
}

#[test]
fn every_legal_move_says_where_it_acts_and_the_clicks_name_one_move() {
    let variants: [&[(&str, &str)]; 3] = [
        &[],
        &[
            (ONE_STEP_AHEAD, DIAGONAL_WITHIN_TWO),
            ("stacking", "exclusive"),
        ],
        &[("criminal-move", "required"), ("empty-play", "forbidden")],
    ];
    for variant in variants {
        let config = Config::with_variants(2, variant);
        let seen = crate::engine::testing::check_targets(&engine(), &config, 40, 11, &[])
            .unwrap_or_else(|e| panic!("{variant:?}: {e}"));
        assert!(seen.moves > 2000, "{seen:?}");
        // Map cards, pawns and barricades, cards in hand, the draw and discard piles.
        let kinds: Vec<&str> = seen.kinds.iter().map(String::as_str).collect();
        assert_eq!(kinds, ["card", "cell", "piece", "zone"], "{variant:?}");
    }
}

#[test]
fn the_map_is_twenty_map_cards_with_the_pawns_on_them() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut s = engine().new_game(&Config::default(), &mut rng).unwrap();
    // Setup: every officer and the criminal placed.
    while s.moves_played() < 5 {
        let a = s.legal_actions()[0];
        s.apply(a);
    }
    let b = s.board().expect("a map");
    assert_eq!((b.columns, b.rows, b.cells.len()), (5, 4, 20));
    assert!(
        b.cells
            .iter()
            .all(|(_, d)| d.as_deref().is_some_and(|d| d.starts_with("map-")))
    );
    let count = |id: &str| -> u32 {
        b.pieces
            .iter()
            .filter(|p| p.piece == id)
            .map(|p| p.count)
            .sum()
    };
    assert_eq!(count("police-pawn"), 4);
    assert_eq!(count("criminal-pawn"), 1);
}
