//! `components.toml`: decks and cards, pieces, symbols, boards and tracks.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::{DeclaredFields, Source};
use crate::diag::SourceFile;

/// Largest count any one card or piece may have; larger counts are typing errors.
pub const MAX_COUNT: u32 = 999;

/// The whole of `components.toml`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ComponentsFile {
    #[serde(default, rename = "symbol")]
    pub symbols: Vec<Symbol>,
    #[serde(default, rename = "deck")]
    pub decks: Vec<Deck>,
    #[serde(default, rename = "piece")]
    pub pieces: Vec<Piece>,
    #[serde(default, rename = "board")]
    pub boards: Vec<Board>,
    #[serde(default, rename = "track")]
    pub tracks: Vec<Track>,
    #[serde(default, rename = "icon")]
    pub icons: Vec<Icon>,
}

/// A designer's own icon: `[id]` in any text draws its image at the text's size on the
/// baseline, and the rules reference shows it in its glossary.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Icon {
    /// What text writes between brackets: lower-case letters, digits and dashes.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The image: an SVG (drawn as vector), PNG or JPEG inside the game's folder.
    #[schemars(with = "String")]
    pub image: Spanned<String>,
    /// Its name in the glossary (the id when left out).
    #[serde(default)]
    pub name: Option<String>,
    /// The name in other languages, keyed by language code.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
}

/// How many copies of a card or piece exist: 0 to [`MAX_COUNT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "i64", into = "i64")]
#[schemars(with = "u32")]
pub struct Count(pub u32);

impl TryFrom<i64> for Count {
    type Error = String;
    fn try_from(n: i64) -> Result<Self, String> {
        if (0..=i64::from(MAX_COUNT)).contains(&n) {
            Ok(Count(n as u32))
        } else {
            Err(format!(
                "a count must be between 0 and {MAX_COUNT}, not {n}"
            ))
        }
    }
}

impl From<Count> for i64 {
    fn from(c: Count) -> i64 {
        i64::from(c.0)
    }
}

fn one() -> Count {
    Count(1)
}

/// A named value with a colour and a mark that reads in greyscale: an inquiry colour,
/// an element, a map icon, a player colour, a kind of board hex.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Symbol {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// Symbols are grouped; a field of type `symbol` names its group.
    pub group: String,
    pub name: String,
    /// The name in other languages, keyed by language code.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// Fill colour as `#rrggbb`.
    pub colour: String,
    /// A shape drawn with the colour so that meaning never rests on colour alone
    /// (circle, square, triangle, diamond, hexagon, star, cross, drop, flame, leaf, wave, none).
    pub mark: String,
    #[serde(default)]
    pub source: Option<Source>,
}

/// Named card sizes, or a custom size in millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CardSize {
    Named(NamedSize),
    Custom { width: f64, height: f64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum NamedSize {
    /// 63 x 88 mm
    Poker,
    /// 56 x 87 mm
    Bridge,
    /// 70 x 120 mm
    Tarot,
    /// 44 x 63 mm (mini American)
    Mini,
}

impl Default for CardSize {
    fn default() -> Self {
        CardSize::Named(NamedSize::Poker)
    }
}

impl CardSize {
    /// Width and height in millimetres.
    pub fn mm(self) -> (f64, f64) {
        match self {
            CardSize::Named(NamedSize::Poker) => (63.0, 88.0),
            CardSize::Named(NamedSize::Bridge) => (56.0, 87.0),
            CardSize::Named(NamedSize::Tarot) => (70.0, 120.0),
            CardSize::Named(NamedSize::Mini) => (44.0, 63.0),
            CardSize::Custom { width, height } => (width, height),
        }
    }
}

/// A deck: cards that share a size, a back, a template and a field schema.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deck {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    #[serde(default)]
    pub size: CardSize,
    /// SVG template in `templates/` for the card fronts (without `.svg`).
    pub template: String,
    /// What the back shows.
    pub back: Back,
    /// Printed on the card sheets; false for decks the data only describes (a base game's
    /// deck the players already own, a pool of card slots whose texts we do not have).
    #[serde(default = "yes")]
    pub print: bool,
    /// Where the card counts come from (optional in an original design).
    #[serde(default)]
    pub counts: Source,
    /// The fields every card of this deck may carry, with their types and ranges (in the
    /// order declared, which an exported sheet's columns follow).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, FieldDecl>")]
    pub fields: DeclaredFields,
    #[serde(default, rename = "card")]
    pub cards: Vec<Card>,
    /// A spreadsheet of more cards, relative to the game's folder: `cards = "cards.csv"`
    /// (CSV, TSV for `.tsv`, or a workbook: `.xlsx`, `.ods`...). Its header row names the
    /// columns: `id`, `name`, `count`, `text`, `name.<lang>`, `text.<lang>`, the deck's
    /// declared fields and `source.<what>`.
    #[serde(default, rename = "cards")]
    #[schemars(with = "Option<String>")]
    pub sheet: Option<Spanned<String>>,
    /// The worksheet of a workbook `cards` names (`sheet = "Cards"`); the first without it.
    #[serde(default, rename = "sheet")]
    #[schemars(with = "Option<String>")]
    pub worksheet: Option<Spanned<String>>,
}

/// A card back: its template and the text it shows.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Back {
    pub template: String,
    pub title: String,
    /// Background colour as `#rrggbb`.
    pub colour: String,
}

/// The type of a card field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    Int,
    Text,
    Bool,
    /// The id of a symbol of the field's `group`.
    Symbol,
    /// A list of symbol ids of the field's `group`.
    Symbols,
    /// A list of integers.
    Ints,
    /// An image file (PNG, JPEG, WebP or SVG), relative to the game's folder.
    Image,
}

/// A declared card field: `gold = { type = "int", min = 1, max = 3, source = {...} }`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldDecl {
    #[serde(rename = "type")]
    pub kind: FieldType,
    /// What the field means on the card.
    pub label: String,
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    /// Longest text, in characters.
    #[serde(default)]
    pub max_len: Option<usize>,
    /// For symbol fields: the symbol group the values come from.
    #[serde(default)]
    pub group: Option<String>,
    /// Cards without the field are allowed.
    #[serde(default)]
    pub optional: bool,
    /// Where this field's values come from, for every card of the deck (optional in an
    /// original design).
    #[serde(default)]
    pub source: Source,
}

/// One card design; `count` copies of it are printed.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Card {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    #[serde(default = "one")]
    #[schemars(with = "u32")]
    pub count: Count,
    /// Short card text (effects, flavour), Markdown-free.
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub texts: BTreeMap<String, String>,
    /// Values of the deck's declared fields.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub fields: BTreeMap<String, Spanned<toml::Value>>,
    /// Per-field provenance that overrides the deck's declaration for this card.
    #[serde(default)]
    pub sources: BTreeMap<String, Source>,
    /// The spreadsheet the card was read from; `None` for cards of `components.toml`.
    #[serde(skip)]
    pub file: Option<SourceFile>,
}

/// Tokens, tiles, pawns, markers and chits.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// What sort of piece this is (`element-tile`, `elemental`, `pawn`...); invariants select by kind.
    pub kind: String,
    #[schemars(with = "u32")]
    pub count: Count,
    pub shape: Shape,
    /// Size across in millimetres; for hexes, flat side to flat side.
    pub size_mm: f64,
    /// The symbol printed on the piece, if any.
    #[serde(default)]
    pub symbol: Option<String>,
    /// Text printed on the piece (a value, a letter).
    #[serde(default)]
    pub label: Option<String>,
    /// Printed on the token sheet; false for pieces bought elsewhere (cubes, bags, screens).
    #[serde(default = "yes")]
    pub print: bool,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub fields: BTreeMap<String, Spanned<toml::Value>>,
    /// Art for the piece's template (`piece.image`), relative to the game's folder.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub image: Option<Spanned<String>>,
    #[serde(default)]
    pub source: Source,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    Circle,
    Square,
    Hex,
    Pawn,
    Cube,
    Other,
}

/// A board. Hex boards list their cells in axial coordinates.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Board {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// Hex size, flat side to flat side, in millimetres.
    pub hex_mm: f64,
    pub orientation: HexOrientation,
    /// The symbol group that cell kinds come from.
    pub cell_group: String,
    pub cells: Vec<Cell>,
    /// SVG template in `templates/` that frames the cells (title, decorations); the
    /// built-in `board` when absent.
    #[serde(default)]
    pub template: Option<String>,
    /// Art for the board's template (`board.image`), relative to the game's folder.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub image: Option<Spanned<String>>,
    #[serde(default)]
    pub source: Source,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HexOrientation {
    Flat,
    Pointy,
}

/// One hex of a board, in axial coordinates.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    pub q: i32,
    pub r: i32,
    /// A symbol id of the board's `cell_group`.
    #[schemars(with = "String")]
    pub kind: Spanned<String>,
    /// A piece that starts on this cell (an aether tile).
    #[serde(default)]
    pub piece: Option<String>,
}

/// A numbered track such as the public outrage track.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Track {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub name: String,
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    pub min: i64,
    pub max: i64,
    pub start: i64,
    /// The card the track is printed on, if any.
    #[serde(default)]
    pub card: Option<String>,
    #[serde(default)]
    pub source: Source,
}

impl NamedSize {
    /// Every preset with its name, for advice on a misspelt size.
    pub const ALL: [(NamedSize, &'static str); 4] = [
        (NamedSize::Poker, "poker (63 x 88 mm)"),
        (NamedSize::Bridge, "bridge (56 x 87 mm)"),
        (NamedSize::Tarot, "tarot (70 x 120 mm)"),
        (NamedSize::Mini, "mini (44 x 63 mm)"),
    ];

    fn parse(name: &str) -> Option<NamedSize> {
        match name {
            "poker" => Some(NamedSize::Poker),
            "bridge" => Some(NamedSize::Bridge),
            "tarot" => Some(NamedSize::Tarot),
            "mini" => Some(NamedSize::Mini),
            _ => None,
        }
    }
}

/// A card size reads as a preset's name or `{ width, height }`; anything else is answered
/// with the presets, not with serde's "did not match any variant of untagged enum".
impl<'de> Deserialize<'de> for CardSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CardSizeVisitor)
    }
}

struct CardSizeVisitor;

fn size_advice() -> String {
    let presets: Vec<&str> = NamedSize::ALL.iter().map(|(_, n)| *n).collect();
    format!(
        "the presets are {}; or give millimetres as {{ width = 63, height = 88 }}",
        presets.join(", ")
    )
}

impl<'de> serde::de::Visitor<'de> for CardSizeVisitor {
    type Value = CardSize;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a card size: {}", size_advice())
    }

    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<CardSize, E> {
        NamedSize::parse(name)
            .map(CardSize::Named)
            .ok_or_else(|| E::custom(format!("unknown card size `{name}`: {}", size_advice())))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<CardSize, A::Error> {
        use serde::de::Error;
        let (mut width, mut height) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "width" => width = Some(map.next_value::<f64>()?),
                "height" => height = Some(map.next_value::<f64>()?),
                other => {
                    return Err(A::Error::custom(format!(
                        "a card size has `width` and `height`, not `{other}`"
                    )));
                }
            }
        }
        match (width, height) {
            (Some(width), Some(height)) => Ok(CardSize::Custom { width, height }),
            _ => Err(A::Error::custom(format!(
                "a custom card size needs both `width` and `height` in millimetres; {}",
                size_advice()
            ))),
        }
    }
}
