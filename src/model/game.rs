//! `game.toml`: what the game is, its rule parameters and its declared invariants.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::Source;

/// The whole of `game.toml`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// The `[game]` table: names, players, credits, where the rules come from.
    pub game: GameInfo,
    /// Rule parameters the engines, templates and checks read by name.
    #[serde(default)]
    pub params: BTreeMap<String, Param>,
    /// Count-style invariants, checked by `printplay check`.
    #[serde(default, rename = "invariant")]
    pub invariants: Vec<Invariant>,
}

/// Names, credits and where the rules come from.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameInfo {
    /// The game's name in its rulebook's language.
    pub name: String,
    /// The name in other languages, keyed by language code:
    /// `names = { fi = "Eetteri" }`.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// One line for `printplay list`.
    pub summary: String,
    /// How many can play: `players = { min = 2, max = 4 }`.
    pub players: PlayerRange,
    /// Who designed the game.
    pub designer: String,
    /// Who publishes it, if anyone.
    #[serde(default)]
    pub publisher: Option<String>,
    /// The year the game was published.
    #[serde(default)]
    pub year: Option<u16>,
    /// File name of the source rulebook. A game without one is an original design: its
    /// values need no provenance and its rules reference is optional.
    #[serde(default)]
    pub rulebook: Option<String>,
    /// Language of the source rulebook.
    #[serde(default = "english")]
    pub rulebook_language: String,
    /// Languages the rules reference is published in.
    #[serde(default = "only_english")]
    pub languages: Vec<String>,
    /// The rule engine that plays this game, if any (`printplay list` shows the known ones).
    #[serde(default)]
    pub engine: Option<String>,
    /// Smallest type on this game's cards and sheets, in points: at least 6 (the default).
    #[serde(default)]
    pub min_text_pt: Option<f64>,
    /// How far inside the cut every text of a card stays, in millimetres (3 by default):
    /// `check` and `build` warn of a card whose text comes closer to its trim.
    #[serde(default)]
    pub safe_zone_mm: Option<f64>,
}

fn english() -> String {
    "en".into()
}

fn only_english() -> Vec<String> {
    vec![english()]
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerRange {
    /// The fewest players.
    pub min: u8,
    /// The most players.
    pub max: u8,
}

/// A named rule parameter, `params.hand_size = { value = 3, source = { printed = "Setup" } }`
/// (or a `[params.hand_size]` table of those keys), optionally with its declared `type` (and `min`/`max` for numbers), which `check` enforces.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Param {
    /// The value, of the declared `type`; engines and templates read it by the parameter's name.
    #[schemars(with = "serde_json::Value")]
    pub value: Spanned<toml::Value>,
    /// Where the value comes from; optional in an original design.
    #[serde(default)]
    pub source: Source,
    /// What the parameter means, in a sentence.
    #[serde(default)]
    pub doc: String,
    /// The value's declared type.
    #[serde(default, rename = "type")]
    pub kind: Option<ParamType>,
    /// Smallest allowed value (numbers, and every item of a list of integers).
    #[serde(default)]
    pub min: Option<f64>,
    /// Largest allowed value.
    #[serde(default)]
    pub max: Option<f64>,
}

/// The type a parameter declares for its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ParamType {
    /// A whole number.
    Int,
    /// Any number.
    Number,
    Bool,
    Text,
    /// A list of whole numbers.
    Ints,
    /// A list of texts.
    Texts,
    /// A list of anything (pairs, tables).
    List,
}

impl ParamType {
    /// Whether a value has this type.
    pub fn accepts(self, v: &toml::Value) -> bool {
        match self {
            ParamType::Int => v.is_integer(),
            ParamType::Number => v.is_integer() || v.is_float(),
            ParamType::Bool => v.is_bool(),
            ParamType::Text => v.is_str(),
            ParamType::Ints => v
                .as_array()
                .is_some_and(|a| a.iter().all(toml::Value::is_integer)),
            ParamType::Texts => v
                .as_array()
                .is_some_and(|a| a.iter().all(toml::Value::is_str)),
            ParamType::List => v.is_array(),
        }
    }

    /// The type in words, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            ParamType::Int => "an integer",
            ParamType::Number => "a number",
            ParamType::Bool => "true or false",
            ParamType::Text => "a text",
            ParamType::Ints => "a list of integers",
            ParamType::Texts => "a list of texts",
            ParamType::List => "a list",
        }
    }
}

/// What an invariant adds up for each selected card or piece.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Measure {
    /// Physical copies: the sum of counts.
    Cards,
    /// Distinct designs, whatever their counts.
    Designs,
    /// A numeric field, summed over every copy.
    Sum(String),
}

/// A declarative count rule, e.g. "the game deck holds 6 cards of each inquiry colour".
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Invariant {
    /// The rule's id, unique in the game; messages name it.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The rule in words, as the rulebook gives it.
    pub rule: String,
    /// The rulebook section the rule comes from.
    pub section: String,
    /// What is added up; several measures are added together.
    #[serde(default = "cards_measure")]
    pub measure: Vec<Measure>,
    /// Decks whose cards are counted (ids).
    #[serde(default)]
    pub decks: Vec<String>,
    /// Piece kinds whose pieces are counted.
    #[serde(default)]
    pub pieces: Vec<String>,
    /// Only items whose fields equal these values (`count`, `id` and `kind` also work).
    #[serde(default, rename = "where")]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub filter: BTreeMap<String, toml::Value>,
    /// Check the rule separately for each value of this field.
    #[serde(default)]
    pub group_by: Option<String>,
    /// With `group_by`: how many distinct groups there must be.
    #[serde(default)]
    pub groups: Option<i64>,
    /// The measure must equal this.
    #[serde(default)]
    pub equals: Option<i64>,
    /// The measure must be at least this.
    #[serde(default)]
    pub min: Option<i64>,
    /// The measure must be at most this.
    #[serde(default)]
    pub max: Option<i64>,
    /// Compare with the integer value of this parameter instead of a literal.
    #[serde(default)]
    pub equals_param: Option<String>,
    /// A lower bound read from an integer parameter.
    #[serde(default)]
    pub min_param: Option<String>,
    /// An upper bound read from an integer parameter.
    #[serde(default)]
    pub max_param: Option<String>,
}

fn cards_measure() -> Vec<Measure> {
    vec![Measure::Cards]
}
