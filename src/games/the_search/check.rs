//! The Search's logical invariants: what the declarative counts in `game.toml` cannot say.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::engine::{ONE_STEP_AHEAD, ONE_STEP_AHEAD_RETURN, VARIANTS};
use super::layout::{Grid, LayoutError, layout_possible, random_layout, validate};
use super::rules::{Icon, Rules, Side};
use crate::diag::Problem;
use crate::diag::place::{in_components, rule_problem};
use crate::games::GameModule;
use crate::model::Game;

/// The engine id `game.toml` names.
pub const ENGINE_ID: &str = "the-search";

/// The Search's rules that need logic.
pub struct TheSearch;

impl GameModule for TheSearch {
    fn id(&self) -> &'static str {
        ENGINE_ID
    }

    fn check(&self, game: &Game) -> Vec<Problem> {
        match Rules::read(game) {
            Ok(rules) => logical(game, &rules),
            Err(problems) => problems,
        }
    }
}

/// The invariants that hold between rule numbers and components.
pub fn logical(game: &Game, rules: &Rules) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Err(e) = layout_possible(rules) {
        out.push(layout_problem(game, &e));
    } else if let Some(p) = generated_layout_problem(game, rules) {
        out.push(p);
    }
    out.extend(setup_room(game, rules));
    out.extend(hands(game, rules));
    out.extend(printed_reading(game));
    out
}

/// A card whose text depends on how the rulebook is read (One Step Ahead) names each reading
/// it states in a field (`reading` for `one-step-ahead`, `out_and_back` for
/// `one-step-ahead-return`); its text is chosen by them, and each must be the engine's
/// default, so the printed card, the reference and the engine say the same.
fn printed_reading(game: &Game) -> Vec<Problem> {
    let Some(deck) = game.deck(super::rules::CRIMINAL_DECK) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, field) in [
        (ONE_STEP_AHEAD, "reading"),
        (ONE_STEP_AHEAD_RETURN, "out_and_back"),
    ] {
        let Some(variant) = VARIANTS.iter().find(|v| v.name == name) else {
            continue;
        };
        let default = variant.values[0];
        out.extend(
            deck.cards
                .iter()
                .filter(|c| c.str("effect") == Some("fast-move"))
                .filter(|c| c.str(field) != Some(default))
                .map(|c| {
                    in_components(
                        game,
                        c.id.span(),
                        format!(
                            "card `{}` states the reading `{}` of the `{name}` variant; the engine plays `{default}` by default, and the printed card must say the same (set `{field} = \"{default}\"`)",
                            c.id.get_ref(),
                            c.str(field).unwrap_or("(none)"),
                        ),
                    )
                    .rule("One Step Ahead: move across two map cards, and the criminal may move one card diagonally (rulebook: Card Explanations)")
                }),
        );
    }
    out
}

fn layout_problem(game: &Game, e: &LayoutError) -> Problem {
    rule_problem(game, e.rule(), Some("grid_columns"), e.to_string())
}

/// A seeded run of the layout generator must produce a layout that passes the row and column
/// rule; a failure here is a generator fault, reported like any broken rule.
fn generated_layout_problem(game: &Game, rules: &Rules) -> Option<Problem> {
    let grid = Grid::new(rules.columns, rules.rows);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    (0..16).find_map(|_| {
        let layout = random_layout(rules, &mut rng);
        layout
            .and_then(|l| validate(&grid, &l))
            .err()
            .map(|e| layout_problem(game, &e))
    })
}

/// Setup: the officers go on cards that are not crime scenes, then the criminal on a card left
/// free; the rulebook's setup needs that many such cards.
fn setup_room(game: &Game, rules: &Rules) -> Option<Problem> {
    let free = rules.map.len() - rules.count(Icon::CrimeScene);
    let needed = usize::from(rules.officers) + 1;
    (free < needed).then(|| {
        rule_problem(
            game,
            "the police place their pawns, then the criminal, on cards that are not crime scenes (rulebook: Setup and Map Card Overview)",
            Some("officers"),
            format!("{needed} pawns need {needed} cards that are not crime scenes; the map has {free}"),
        )
    })
}

/// Setup: each side draws a full hand from its own deck.
fn hands(game: &Game, rules: &Rules) -> Vec<Problem> {
    [Side::Criminal, Side::Police]
        .into_iter()
        .filter(|&side| rules.deck_size(side) < usize::from(rules.hand_size))
        .map(|side| {
            rule_problem(
                game,
                "each player draws 3 cards from their own action deck (rulebook: Setup and Map Card Overview)",
                Some("hand_size"),
                format!(
                    "the {} deck has {} cards, fewer than a hand of {}",
                    side.name(),
                    rules.deck_size(side),
                    rules.hand_size
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use toml::{Spanned, Value};

    use crate::check::check_game;
    use crate::model::{Count, Game, load_game};

    fn shipped() -> Game {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        load_game(&data, "the-search").expect("the shipped data loads")
    }

    fn set_param(game: &mut Game, name: &str, value: Value) {
        let p = game.params.get_mut(name).expect("parameter exists");
        *p.value.get_mut() = value;
    }

    fn card_count(game: &mut Game, deck: &str, card: &str, n: u32) {
        let deck = game
            .components
            .decks
            .iter_mut()
            .find(|d| d.id.get_ref() == deck)
            .expect("deck");
        let card = deck
            .cards
            .iter_mut()
            .find(|c| c.id.get_ref() == card)
            .expect("card");
        card.count = Count(n);
    }

    fn card_field(game: &mut Game, deck: &str, card: &str, field: &str, value: Option<Value>) {
        let deck = game
            .components
            .decks
            .iter_mut()
            .find(|d| d.id.get_ref() == deck)
            .expect("deck");
        let card = deck
            .cards
            .iter_mut()
            .find(|c| c.id.get_ref() == card)
            .expect("card");
        match value {
            Some(v) => {
                card.fields.insert(field.into(), Spanned::new(0..0, v));
            }
            None => {
                card.fields.remove(field);
            }
        }
    }

    fn piece_count(game: &mut Game, piece: &str, n: u32) {
        let p = game
            .components
            .pieces
            .iter_mut()
            .find(|p| p.id.get_ref() == piece)
            .expect("piece");
        p.count = Count(n);
    }

    /// The problems' messages and rules, one line each.
    fn problems(game: &Game) -> Vec<String> {
        check_game(game)
            .iter()
            .map(|p| format!("{} [rule: {}]", p.message, p.rule.as_deref().unwrap_or("")))
            .collect()
    }

    fn assert_found(game: &Game, wanted: &[&str]) {
        let found = problems(game);
        for w in wanted {
            assert!(
                found.iter().any(|p| p.contains(w)),
                "expected a problem containing {w:?}, found {found:#?}"
            );
        }
    }

    #[test]
    fn shipped_data_is_sound() {
        assert_eq!(problems(&shipped()), Vec::<String>::new());
    }

    #[test]
    fn declarative_invariants_catch_broken_counts() {
        type Mutation = fn(&mut Game);
        let cases: &[(Mutation, &[&str])] = &[
            (
                |g| card_count(g, "map", "map-street", 11),
                &["`map-cards-20`", "`plain-map-cards-10`"],
            ),
            (
                |g| {
                    card_count(g, "map", "map-crime-scene", 2);
                    card_count(g, "map", "map-street", 11);
                },
                &["`crime-scenes-3`"],
            ),
            (
                |g| {
                    card_count(g, "map", "map-sewer-entrance", 5);
                    card_count(g, "map", "map-street", 11);
                },
                &["`sewers-6`"],
            ),
            (
                |g| {
                    card_count(g, "map", "map-police-station", 2);
                    card_count(g, "map", "map-street", 9);
                },
                &["`police-station-1`"],
            ),
            (
                |g| card_count(g, "police", "in-pursuit", 4),
                &["`police-cards-17`"],
            ),
            (
                |g| card_count(g, "criminal", "take-to-the-sewers", 2),
                &["`criminal-cards-17`"],
            ),
            (
                |g| {
                    card_count(g, "police", "in-pursuit", 0);
                    card_count(g, "police", "set-up-a-barricade", 7);
                    let deck = g
                        .components
                        .decks
                        .iter_mut()
                        .find(|d| d.id.get_ref() == "police")
                        .unwrap();
                    deck.cards.retain(|c| c.id.get_ref() != "in-pursuit");
                },
                &["`police-kinds-5`"],
            ),
            (
                |g| {
                    let deck = g
                        .components
                        .decks
                        .iter_mut()
                        .find(|d| d.id.get_ref() == "criminal")
                        .unwrap();
                    let mut extra = deck.cards[0].clone();
                    extra.id = Spanned::new(0..0, "mistaken-identity-2".into());
                    deck.cards[0].count = Count(2);
                    extra.count = Count(2);
                    deck.cards.push(extra);
                },
                &["`criminal-kinds-5`"],
            ),
            (
                |g| piece_count(g, "criminal-pawn", 2),
                &["`criminal-pawn-1`"],
            ),
            (|g| piece_count(g, "police-pawn", 5), &["`police-pawns-4`"]),
            (
                |g| piece_count(g, "crime-scene-marker", 2),
                &["`crime-scene-markers-3`"],
            ),
            (
                |g| piece_count(g, "barricade-marker", 4),
                &["`barricades-3`"],
            ),
        ];
        for (mutate, wanted) in cases {
            let mut game = shipped();
            mutate(&mut game);
            assert_found(&game, wanted);
        }
    }

    #[test]
    fn grid_must_hold_exactly_the_map_cards() {
        let mut game = shipped();
        set_param(&mut game, "grid_columns", Value::Integer(4));
        assert_found(
            &game,
            &[
                "the grid has 16 places but there are 20 map cards",
                "grid of 5 by 4 cards (rulebook: Setup and Map Card Overview)",
            ],
        );
    }

    #[test]
    fn no_layout_when_scenes_outnumber_rows() {
        let mut game = shipped();
        set_param(&mut game, "grid_columns", Value::Integer(10));
        set_param(&mut game, "grid_rows", Value::Integer(2));
        assert_found(
            &game,
            &[
                "3 crime scenes cannot take distinct rows and columns of a 10 x 2 grid",
                "no two crime scenes share a row or a column (rulebook: Setup and Map Card Overview)",
            ],
        );
    }

    #[test]
    fn setup_needs_room_for_every_pawn() {
        let mut game = shipped();
        set_param(&mut game, "officers", Value::Integer(8));
        card_count(&mut game, "map", "map-street", 1);
        card_count(&mut game, "map", "map-sewer-entrance", 1);
        card_count(&mut game, "map", "map-crime-scene", 13);
        set_param(&mut game, "grid_columns", Value::Integer(16));
        set_param(&mut game, "grid_rows", Value::Integer(1));
        // 3 non-scene cards for 9 pawns (and 13 scenes in one row).
        assert_found(
            &game,
            &[
                "9 pawns need 9 cards that are not crime scenes; the map has 3",
                "(rulebook: Setup and Map Card Overview)",
            ],
        );
    }

    #[test]
    fn hands_must_fit_in_the_decks() {
        let mut game = shipped();
        set_param(&mut game, "hand_size", Value::Integer(18));
        assert_found(
            &game,
            &[
                "the police deck has 17 cards, fewer than a hand of 18",
                "the criminal deck has 17 cards",
            ],
        );
    }

    #[test]
    fn effects_must_be_known_and_complete() {
        let mut game = shipped();
        card_field(
            &mut game,
            "criminal",
            "take-to-the-sewers",
            "effect",
            Some(Value::String("barricade".into())),
        );
        card_field(&mut game, "criminal", "one-step-ahead", "steps", None);
        assert_found(
            &game,
            &[
                "criminal card `take-to-the-sewers` has the effect `barricade`",
                "(rulebook: Card Explanations: Criminal Cards)",
                "card `one-step-ahead` with the effect `fast-move` needs the field `steps`",
            ],
        );
    }

    #[test]
    fn map_icons_must_have_a_rule() {
        let mut game = shipped();
        game.components.symbols.push(crate::model::Symbol {
            id: Spanned::new(0..0, "fountain".into()),
            group: "map-icon".into(),
            name: "Fountain".into(),
            names: Default::default(),
            colour: "#00ffff".into(),
            mark: "drop".into(),
            source: None,
        });
        card_field(
            &mut game,
            "map",
            "map-street",
            "icon",
            Some(Value::String("fountain".into())),
        );
        assert_found(&game, &["shows the icon `fountain`, which has no rule"]);
    }

    #[test]
    fn rule_numbers_must_be_playable() {
        let mut game = shipped();
        set_param(&mut game, "officers", Value::Integer(0));
        set_param(&mut game, "first_player", Value::String("detective".into()));
        assert_found(
            &game,
            &[
                "parameter `officers` is 0",
                "the police have 4 officers (rulebook: Needed to Play)",
                "parameter `first_player` is `detective`, not a side",
            ],
        );
    }

    #[test]
    fn generated_layouts_keep_scenes_apart() {
        use super::*;
        let game = shipped();
        let rules = Rules::read(&game).unwrap();
        let grid = Grid::new(rules.columns, rules.rows);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..500 {
            let layout = random_layout(&rules, &mut rng).unwrap();
            validate(&grid, &layout).unwrap();
            let mut icons = layout.clone();
            icons.sort_by_key(|i| *i as u8);
            let mut expected = rules.map.clone();
            expected.sort_by_key(|i| *i as u8);
            assert_eq!(icons, expected, "the layout uses every map card once");
            seen.insert(format!("{layout:?}"));
        }
        assert!(seen.len() > 400, "layouts vary with the seed");
        let mut bad = vec![Icon::Plain; grid.cells()];
        bad[0] = Icon::CrimeScene;
        bad[4] = Icon::CrimeScene;
        assert_eq!(
            validate(&grid, &bad),
            Err(LayoutError::SharedLine {
                first: 0,
                second: 4
            })
        );
    }
}
