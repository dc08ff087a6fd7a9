//! The Search's rules as numbers and effects, read once from the model.
//!
//! Both the checker and the engine read the data through [`Rules::read`], so a value the engine
//! cannot play with is a `printplay check` problem that names its rule.

use crate::diag::Problem;
use crate::diag::place::{in_components, rule_problem};
use crate::model::{Card, Deck, Game};

/// Engine capacity: the state keeps fixed-size arrays so that play never allocates.
pub const MAX_CELLS: usize = 64;
pub const MAX_OFFICERS: usize = 8;
pub const MAX_BARRICADES: usize = 8;
pub const MAX_CARDS: usize = 32;
pub const MAX_KINDS: usize = 8;
/// Longest single move, in cards (a move is stored as packed directions).
pub const MAX_STEPS: usize = 5;

pub const MAP_DECK: &str = "map";
pub const POLICE_DECK: &str = "police";
pub const CRIMINAL_DECK: &str = "criminal";

/// Symbol ids of the map icons the rules give a meaning to.
pub const CRIME_SCENE: &str = "crime-scene";
pub const SEWER: &str = "sewer";
pub const POLICE_STATION: &str = "police-station";

/// The two sides; the index is the seat (the criminal, who moves first, sits at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Criminal = 0,
    Police = 1,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Criminal => Side::Police,
            Side::Police => Side::Criminal,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Criminal => "criminal",
            Side::Police => "police",
        }
    }

    fn parse(s: &str) -> Option<Side> {
        match s {
            "criminal" => Some(Side::Criminal),
            "police" => Some(Side::Police),
            _ => None,
        }
    }
}

/// What a map card means to the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Icon {
    Plain,
    CrimeScene,
    Sewer,
    Station,
}

/// An action card's effect, with the numbers the card carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Questioning Witnesses / Anonymous in the Crowd: the opponent discards at random.
    OpponentDiscard { cards: u8 },
    /// Set Up a Barricade: place one, or move one once all are out.
    Barricade,
    /// Call in Reinforcements: a wounded officer returns at the police station.
    Reinforce,
    /// Canvassing the District: look at the top cards of the draw pile and reorder them.
    ArrangeTop { look: u8 },
    /// In Pursuit: draw extra cards at the end of the turn.
    ExtraDraw { cards: u8 },
    /// Mistaken Identity: move one officer.
    MoveOfficer { distance: u8 },
    /// One Step Ahead: a longer move instead of the usual one, possibly diagonal.
    FastMove { steps: u8, diagonal: u8 },
    /// A Shot in the Dark: officers on the map go to the hospital.
    WoundOfficer { officers: u8 },
    /// Take to the Sewers: from one sewer entrance to another.
    SewerTravel,
}

/// Effect names the data may use, per side.
pub const POLICE_EFFECTS: &[&str] = &[
    "opponent-discard",
    "barricade",
    "reinforce",
    "arrange-top",
    "extra-draw",
];
pub const CRIMINAL_EFFECTS: &[&str] = &[
    "opponent-discard",
    "move-officer",
    "fast-move",
    "wound-officer",
    "sewer-travel",
];

/// One kind of action card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kind {
    pub id: String,
    /// `id` as the simulator's card statistics name it (kept for the life of the process).
    pub design: &'static str,
    pub name: String,
    pub count: u8,
    pub effect: Effect,
}

/// Every rule number and component the engine plays with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    pub columns: u8,
    pub rows: u8,
    /// One icon per physical map card, in data order (the layout shuffles them).
    pub map: Vec<Icon>,
    pub hand_size: u8,
    pub officers: u8,
    pub barricades: u8,
    pub scenes_to_mark: u8,
    pub move_distance: u8,
    pub police_pawns_moved: u8,
    pub cards_played: u8,
    pub first_player: Side,
    pub first_to_place: Side,
    /// Card kinds per side, indexed by [`Side::index`].
    pub kinds: [Vec<Kind>; 2],
    /// The design id of the map card of each icon (the first the map deck has), for the
    /// table's drawn map.
    pub map_designs: Vec<(Icon, String)>,
    /// The data's piece ids of the criminal, an officer, a crime-scene marker and a
    /// barricade, for the table's drawn map ([`PIECE_WORDS`]).
    pub pieces: [String; 4],
}

/// The word each piece the map shows is found by in the data's piece ids (the first piece
/// whose id holds it): the criminal, an officer, a crime-scene marker, a barricade.
pub const PIECE_WORDS: [&str; 4] = ["criminal", "police", "scene", "barricade"];

const SETUP: &str = "Setup and Map Card Overview";
const PLAY: &str = "Play";

impl Rules {
    /// Reads the rules; every problem found is returned together.
    pub fn read(game: &Game) -> Result<Rules, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut int = |name: &str, min: i64, max: usize, rule: &str| -> u8 {
            match game.param_int(name) {
                Ok(v) if (min..=max as i64).contains(&v) => v as u8,
                Ok(v) => {
                    problems.push(rule_problem(
                        game,
                        rule,
                        Some(name),
                        format!("parameter `{name}` is {v}; the engine plays {min} to {max}"),
                    ));
                    0
                }
                Err(e) => {
                    problems.push(rule_problem(game, rule, None, e));
                    0
                }
            }
        };
        let grid_rule = format!("the map is a grid of map cards (rulebook: {SETUP})");
        let columns = int("grid_columns", 1, MAX_CELLS, &grid_rule);
        let rows = int("grid_rows", 1, MAX_CELLS, &grid_rule);
        let hand_size = int(
            "hand_size",
            1,
            MAX_CARDS,
            "each player draws a hand of 3 (rulebook: Setup and Map Card Overview)",
        );
        let officers = int(
            "officers",
            1,
            MAX_OFFICERS,
            "the police have 4 officers (rulebook: Needed to Play)",
        );
        let barricades = int(
            "barricades",
            0,
            MAX_BARRICADES,
            "the police have 3 barricades (rulebook: Needed to Play)",
        );
        let scenes_to_mark = int(
            "crime_scenes_to_mark",
            1,
            MAX_CELLS,
            "the criminal marks each crime scene (rulebook: Win)",
        );
        let move_rule = "a pawn moves one card orthogonally (rulebook: Play)";
        let move_distance = int("move_distance", 1, MAX_STEPS, move_rule);
        let police_pawns_moved = int("police_pawns_moved", 1, MAX_OFFICERS, move_rule);
        let cards_played = int(
            "cards_played",
            0,
            MAX_CARDS,
            "a turn holds one card play (rulebook: Play)",
        );
        let first_player = side_param(game, "first_player", PLAY, &mut problems);
        let first_to_place = side_param(game, "first_to_place", SETUP, &mut problems);
        let map = read_map(game, &mut problems);
        let map_designs = game
            .deck(MAP_DECK)
            .map(|deck| {
                let mut out: Vec<(Icon, String)> = Vec::new();
                for card in &deck.cards {
                    let icon = match card.str("icon") {
                        Some(CRIME_SCENE) => Icon::CrimeScene,
                        Some(SEWER) => Icon::Sewer,
                        Some(POLICE_STATION) => Icon::Station,
                        _ => Icon::Plain,
                    };
                    if !out.iter().any(|(i, _)| *i == icon) {
                        out.push((icon, card.id.get_ref().clone()));
                    }
                }
                out
            })
            .unwrap_or_default();
        let pieces = PIECE_WORDS.map(|word| {
            game.components
                .pieces
                .iter()
                .map(|p| p.id.get_ref())
                .find(|id| id.contains(word))
                .map_or_else(|| word.to_string(), Clone::clone)
        });
        let police = read_kinds(game, POLICE_DECK, Side::Police, &mut problems);
        let criminal = read_kinds(game, CRIMINAL_DECK, Side::Criminal, &mut problems);
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Rules {
            columns,
            rows,
            map,
            hand_size,
            officers,
            barricades,
            scenes_to_mark,
            move_distance,
            police_pawns_moved,
            cards_played,
            first_player: first_player.unwrap_or(Side::Criminal),
            first_to_place: first_to_place.unwrap_or(Side::Police),
            kinds: [criminal, police],
            map_designs,
            pieces,
        })
    }

    pub fn cells(&self) -> usize {
        usize::from(self.columns) * usize::from(self.rows)
    }

    pub fn count(&self, icon: Icon) -> usize {
        self.map.iter().filter(|&&i| i == icon).count()
    }

    /// Physical cards in a side's deck.
    pub fn deck_size(&self, side: Side) -> usize {
        self.kinds[side.index()]
            .iter()
            .map(|k| usize::from(k.count))
            .sum()
    }
}

fn side_param(game: &Game, name: &str, section: &str, problems: &mut Vec<Problem>) -> Option<Side> {
    let rule = format!("the sides are `criminal` and `police` (rulebook: {section})");
    match game.param_str(name) {
        Ok(s) => {
            let side = Side::parse(s);
            if side.is_none() {
                problems.push(rule_problem(
                    game,
                    &rule,
                    Some(name),
                    format!("parameter `{name}` is `{s}`, not a side"),
                ));
            }
            side
        }
        Err(e) => {
            problems.push(rule_problem(game, &rule, None, e));
            None
        }
    }
}

fn missing_deck(game: &Game, id: &str, section: &str) -> Problem {
    rule_problem(
        game,
        &format!("the game has a `{id}` deck (rulebook: {section})"),
        None,
        format!("components.toml has no deck `{id}`"),
    )
}

fn read_map(game: &Game, problems: &mut Vec<Problem>) -> Vec<Icon> {
    let Some(deck) = game.deck(MAP_DECK) else {
        problems.push(missing_deck(game, MAP_DECK, SETUP));
        return Vec::new();
    };
    let mut map = Vec::new();
    for card in &deck.cards {
        let icon = match card.str("icon") {
            None => Icon::Plain,
            Some(CRIME_SCENE) => Icon::CrimeScene,
            Some(SEWER) => Icon::Sewer,
            Some(POLICE_STATION) => Icon::Station,
            Some(other) => {
                problems.push(card_problem(
                    game,
                    card,
                    "map icons are crime scenes, sewer entrances and the police station (rulebook: Setup and Map Card Overview)",
                    format!("map card `{}` shows the icon `{other}`, which has no rule", card.id.get_ref()),
                ));
                Icon::Plain
            }
        };
        map.extend(std::iter::repeat_n(icon, card.count.0 as usize));
    }
    if map.len() > MAX_CELLS {
        problems.push(
            in_components(
                game,
                deck.id.span(),
                format!(
                    "the map deck has {} cards; the engine plays at most {MAX_CELLS}",
                    map.len()
                ),
            )
            .rule(format!("the map cards form the grid (rulebook: {SETUP})")),
        );
    }
    map
}

fn card_problem(game: &Game, card: &Card, rule: &str, message: String) -> Problem {
    in_components(game, card.id.span(), message).rule(rule)
}

fn read_kinds(game: &Game, deck_id: &str, side: Side, problems: &mut Vec<Problem>) -> Vec<Kind> {
    let section = match side {
        Side::Police => "Card Explanations: Police Cards",
        Side::Criminal => "Card Explanations: Criminal Cards",
    };
    let Some(deck) = game.deck(deck_id) else {
        problems.push(missing_deck(game, deck_id, "Needed to Play"));
        return Vec::new();
    };
    let kinds: Vec<Kind> = deck
        .cards
        .iter()
        .filter_map(|card| {
            let effect = read_effect(game, card, side, section);
            effect
                .map_err(|p| problems.push(p))
                .ok()
                .map(|effect| Kind {
                    id: card.id.get_ref().clone(),
                    design: crate::engine::lua::intern(card.id.get_ref()),
                    name: card.name.clone(),
                    count: card.count.0.min(255) as u8,
                    effect,
                })
        })
        .collect();
    check_deck_capacity(game, deck, &kinds, problems);
    kinds
}

fn check_deck_capacity(game: &Game, deck: &Deck, kinds: &[Kind], problems: &mut Vec<Problem>) {
    let cards: u32 = deck.cards.iter().map(|c| c.count.0).sum();
    if deck.cards.len() > MAX_KINDS || cards as usize > MAX_CARDS {
        problems.push(
            in_components(
                game,
                deck.id.span(),
                format!(
                    "deck `{}` has {} kinds and {cards} cards; the engine plays at most {MAX_KINDS} kinds and {MAX_CARDS} cards",
                    deck.id.get_ref(),
                    kinds.len()
                ),
            )
            .rule("each side has its own action deck (rulebook: Needed to Play)"),
        );
    }
}

/// The card's effect, with the numbers it needs.
fn read_effect(game: &Game, card: &Card, side: Side, section: &str) -> Result<Effect, Problem> {
    let rule =
        format!("each action card does what its kind's explanation says (rulebook: {section})");
    let known = match side {
        Side::Police => POLICE_EFFECTS,
        Side::Criminal => CRIMINAL_EFFECTS,
    };
    let id = card.id.get_ref();
    let name = card.str("effect").unwrap_or("");
    if !known.contains(&name) {
        return Err(card_problem(
            game,
            card,
            &rule,
            format!(
                "{} card `{id}` has the effect `{name}`; a {} card does one of: {}",
                side.name(),
                side.name(),
                known.join(", ")
            ),
        ));
    }
    let number = |field: &str| -> Result<u8, Problem> {
        match card.int(field) {
            Some(n) if (0..=MAX_STEPS as i64).contains(&n) => Ok(n as u8),
            Some(n) => Err(card_problem(
                game,
                card,
                &rule,
                format!("card `{id}` has {field} = {n}; the engine plays 0 to {MAX_STEPS}"),
            )),
            None => Err(card_problem(
                game,
                card,
                &rule,
                format!("card `{id}` with the effect `{name}` needs the field `{field}`"),
            )),
        }
    };
    Ok(match name {
        "opponent-discard" => Effect::OpponentDiscard {
            cards: number("discard")?,
        },
        "barricade" => Effect::Barricade,
        "reinforce" => Effect::Reinforce,
        "arrange-top" => Effect::ArrangeTop {
            look: number("look")?,
        },
        "extra-draw" => Effect::ExtraDraw {
            cards: number("extra_draw")?,
        },
        "move-officer" => Effect::MoveOfficer {
            distance: number("distance")?,
        },
        "fast-move" => Effect::FastMove {
            steps: number("steps")?,
            diagonal: number("diagonal_steps")?,
        },
        "wound-officer" => Effect::WoundOfficer {
            officers: number("wound")?,
        },
        _ => Effect::SewerTravel,
    })
}
