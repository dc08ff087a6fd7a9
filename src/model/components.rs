//! `components.toml`: decks and cards, pieces, symbols, boards and tracks.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::{DeclaredFields, Source};
use crate::diag::SourceFile;

/// Largest count any one card or piece may have; larger counts are typing errors.
pub use crate::limits::MAX_COUNT;

/// The whole of `components.toml`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ComponentsFile {
    /// Named colours with a greyscale mark: suits, elements, player colours, kinds of hex (`[[symbol]]`).
    #[serde(default, rename = "symbol")]
    pub symbols: Vec<Symbol>,
    /// The decks of cards (`[[deck]]`), each with its fields and cards.
    #[serde(default, rename = "deck")]
    pub decks: Vec<Deck>,
    /// Tokens, tiles, pawns and cubes (`[[piece]]`).
    #[serde(default, rename = "piece")]
    pub pieces: Vec<Piece>,
    /// Boards and player mats (`[[board]]`): hex or square grids, the designer's own art, or a single sheet.
    #[serde(default, rename = "board")]
    pub boards: Vec<Board>,
    /// Score and other tracks (`[[track]]`).
    #[serde(default, rename = "track")]
    pub tracks: Vec<Track>,
    /// The designer's own icons (`[[icon]]`), drawn inline where text writes `[id]`.
    #[serde(default, rename = "icon")]
    pub icons: Vec<Icon>,
    /// How the free table (`printplay table` without a rule engine) is set out (`[table]`):
    /// which piles start shuffled, what each seat is dealt, its pieces, where boards lie.
    #[serde(default)]
    pub table: Option<super::table::TableSetup>,
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
    /// The symbol's id, unique in the game; text draws it as `[id]`.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// Symbols are grouped; a field of type `symbol` names its group.
    pub group: String,
    /// The symbol's name, as the rules reference's key shows it.
    pub name: String,
    /// The name in other languages, keyed by language code.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// Fill colour as `#rrggbb`.
    pub colour: String,
    /// A shape drawn with the colour so that meaning never rests on colour alone
    /// (circle, square, triangle, diamond, hexagon, star, cross, drop, flame, leaf, wave, none).
    pub mark: String,
    /// Where the symbol comes from (a game that cites a rulebook).
    #[serde(default)]
    pub source: Option<Source>,
}

/// Named card sizes, or a custom size in millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CardSize {
    /// A named size: `size = "poker"`.
    Named(NamedSize),
    /// A custom size in millimetres: `size = { width = 63, height = 88 }`.
    Custom {
        /// The card's width in millimetres (10 to 300).
        width: f64,
        /// The card's height in millimetres (10 to 300).
        height: f64,
    },
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
    /// The deck's id, unique in the game.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The deck's name, as printed on its sheets and in the rules reference.
    pub name: String,
    /// The name in other languages, keyed by language code.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// The card size: `poker`, `bridge`, `tarot`, `mini`, or `{ width = 63, height = 88 }` in
    /// millimetres (each side 10 to 300).
    #[serde(default)]
    pub size: CardSize,
    /// SVG template in `templates/` for the card fronts (without `.svg`): every card's, or
    /// the one of cards that `template_by` does not place and that name no `template` of
    /// their own.
    pub template: String,
    /// More front templates, by the value of the card field `template_by` names:
    /// `templates = { creature = "creature-card", spell = "spell-card" }`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub templates: BTreeMap<String, Spanned<String>>,
    /// The card field (a `text` or `symbol` field of the deck) whose value picks each card's
    /// front from `templates`; a value `templates` does not list draws with `template`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub template_by: Option<Spanned<String>>,
    /// What the back shows (every card's, or the back of cards without one of their own).
    pub back: Back,
    /// The deck's tuck box in `boxes.pdf`: `box = { card_thickness_mm = 0.4, template =
    /// "my-box" }` (every key optional; every printed deck gets one).
    #[serde(default, rename = "box", skip_serializing_if = "TuckBox::is_default")]
    pub tuck_box: TuckBox,
    /// Printed on the card sheets; false for decks the data only describes (a base game's
    /// deck the players already own, a pool of card slots whose texts we do not have).
    #[serde(default = "yes")]
    pub print: bool,
    /// Every card of the deck carries every language of the game at once (a bilingual player
    /// aid, its template naming `card.names.<lang>` and `card.texts.<lang>` itself): drawn
    /// once, and printed in each language's card file. Without it, a game published in
    /// several languages (`languages` in `game.toml`) draws each card once per language,
    /// with its `name` and `text` in that language, into `cards.<lang>.pdf`.
    #[serde(default)]
    pub multilingual: bool,
    /// Where the card counts come from (optional in an original design).
    #[serde(default)]
    pub counts: Source,
    /// The fields every card of this deck may carry, with their types and ranges (in the
    /// order declared, which an exported sheet's columns follow).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, FieldDecl>")]
    pub fields: DeclaredFields,
    /// The deck's cards written in TOML (`[[deck.card]]`); a spreadsheet (`cards`) may add more.
    #[serde(default, rename = "card")]
    pub cards: Vec<Card>,
    /// A spreadsheet of more cards, relative to the game's folder: `cards = "cards.csv"`
    /// (CSV, TSV for `.tsv`, or a workbook: `.xlsx`, `.ods`...). Its header row names the
    /// columns: `id`, `name`, `count`, `text`, `name.<lang>`, `text.<lang>`, the deck's
    /// declared fields and `source.<what>`.
    #[serde(default, rename = "cards")]
    #[schemars(with = "Option<String>")]
    pub sheet: Option<Spanned<String>>,
    /// The worksheet of a workbook `cards` names, by its name (for example `Cards`); the first
    /// worksheet without it.
    #[serde(default, rename = "sheet")]
    #[schemars(with = "Option<String>")]
    pub worksheet: Option<Spanned<String>>,
}

/// A deck's tuck box: its inside is a card's width and height and the deck's thickness
/// (every copy's `count` times `card_thickness_mm`), each with a little room to slide.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TuckBox {
    /// Thickness of one card in millimetres (0.1 to 2). Default 0.3: a game card of 300 gsm
    /// board measures 0.28 to 0.32 mm (a 55-card deck stands about 16.5 mm); two sheets of
    /// 160 gsm paper glued back to back measure about 0.4 mm, and a sleeve adds 0.1 mm or so.
    #[serde(
        default = "default_card_thickness",
        deserialize_with = "super::bounded::card_thickness_mm"
    )]
    pub card_thickness_mm: f64,
    /// SVG template in `templates/` that draws the box's faces over its whole net (without
    /// `.svg`); default `tuck-box`, built in.
    #[serde(default = "default_box_template")]
    pub template: String,
    /// Whether the deck writes `box`: a box it asks for that fits no page is refused, while a
    /// deck that does not ask gets its box only where one fits (a 1,000-card deck is no tuck
    /// box).
    #[serde(skip, default = "asked")]
    #[schemars(skip)]
    pub asked: bool,
}

/// A `box` the data writes is asked for ([`TuckBox::asked`]).
fn asked() -> bool {
    true
}

/// Thickness of a 300 gsm game card, in millimetres ([`TuckBox::card_thickness_mm`]).
pub const DEFAULT_CARD_THICKNESS_MM: f64 = 0.3;

fn default_card_thickness() -> f64 {
    DEFAULT_CARD_THICKNESS_MM
}

fn default_box_template() -> String {
    "tuck-box".to_string()
}

impl Default for TuckBox {
    fn default() -> Self {
        TuckBox {
            card_thickness_mm: DEFAULT_CARD_THICKNESS_MM,
            template: default_box_template(),
            asked: false,
        }
    }
}

impl TuckBox {
    fn is_default(&self) -> bool {
        !self.asked
    }
}

/// A card back: its template and the text it shows.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Back {
    /// SVG template in `templates/` for the deck's back (without `.svg`).
    pub template: String,
    /// The title the back shows.
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

/// A declared card field of a deck:
/// `fields.gold = { type = "int", label = "Gold", min = 1, max = 3, source = { printed = "Cards" } }`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldDecl {
    /// The field's type: `int`, `text`, `symbol`, `symbols`, `ints`, `image`... (`type = "int"`).
    #[serde(rename = "type")]
    pub kind: FieldType,
    /// What the field means on the card.
    pub label: String,
    /// The smallest value an `int` field (or each item of `ints`) may hold.
    #[serde(default)]
    pub min: Option<i64>,
    /// The largest value an `int` field (or each item of `ints`) may hold.
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
    /// The card's id, unique in the game.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The card's name, as printed.
    pub name: String,
    /// The name in other languages, keyed by language code.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// How many copies the deck holds (default 1).
    #[serde(default = "one")]
    #[schemars(with = "u32")]
    pub count: Count,
    /// Short card text (effects, flavour): `**bold**` and `*italic*` runs, `[id]` draws a
    /// symbol or one of the game's icons, `\*` prints an asterisk.
    #[serde(default)]
    pub text: Option<String>,
    /// The text in other languages, keyed by language code.
    #[serde(default)]
    pub texts: BTreeMap<String, String>,
    /// Values of the deck's declared fields.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub fields: BTreeMap<String, Spanned<toml::Value>>,
    /// Per-field provenance that overrides the deck's declaration for this card.
    #[serde(default)]
    pub sources: BTreeMap<String, Source>,
    /// The card's own front template, over the deck's (a `template` column in a sheet).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub template: Option<Spanned<String>>,
    /// The card's own back, over the deck's: a template name, or a table such as
    /// `back = { template = "back", title = "Gold", colour = "#c8a040" }` whose other keys the
    /// template reads as `back.fields.*` (a `back` column in a sheet names a template).
    #[serde(default)]
    #[schemars(with = "Option<CardBackSchema>")]
    pub back: Option<Spanned<CardBack>>,
    /// The spreadsheet the card was read from; `None` for cards of `components.toml`.
    #[serde(skip)]
    pub file: Option<SourceFile>,
}

/// Tokens, tiles, pawns, markers and chits.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    /// The piece's id, unique in the game.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The piece's name.
    pub name: String,
    /// The name in other languages, keyed by language code.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// What sort of piece this is (`element-tile`, `elemental`, `pawn`...); invariants select by kind.
    pub kind: String,
    /// How many of this piece the game holds.
    #[schemars(with = "u32")]
    pub count: Count,
    /// Its outline: `circle`, `square`, `hex`, `pawn`, `cube`...
    pub shape: Shape,
    /// Size across in millimetres (2 to 300); for hexes, flat side to flat side.
    #[serde(deserialize_with = "super::bounded::piece_mm")]
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
    /// Values of its own the piece's template reads (`piece.fields.*`).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub fields: BTreeMap<String, Spanned<toml::Value>>,
    /// Art for the piece's template (`piece.image`), relative to the game's folder.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub image: Option<Spanned<String>>,
    /// The piece's other side, drawn by a template: the piece is printed two-sided.
    #[serde(default)]
    pub back: Option<PieceBack>,
    /// Art that fills the piece's other side to its bleed (instead of `back`), relative to
    /// the game's folder: the piece is printed two-sided.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub back_art: Option<Spanned<String>>,
    /// Where the piece and its count come from (a game that cites a rulebook).
    #[serde(default)]
    pub source: Source,
}

/// The other side of a two-sided piece: `back = { template = "marker-back", label = "Spent" }`.
/// The template sees the piece as `piece` and these values as `back`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieceBack {
    /// SVG template in `templates/` (without `.svg`).
    #[schemars(with = "String")]
    pub template: Spanned<String>,
    /// Text printed on the back.
    #[serde(default)]
    pub label: Option<String>,
    /// The symbol printed on the back, if any.
    #[serde(default)]
    pub symbol: Option<String>,
    /// Art for the back's template (`back.image`), relative to the game's folder.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub image: Option<Spanned<String>>,
    /// Colour as `#rrggbb`, for the template's use.
    #[serde(default)]
    pub colour: Option<String>,
    /// Values of its own the back's template reads.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub fields: BTreeMap<String, Spanned<toml::Value>>,
}

impl Piece {
    /// Whether the piece prints with a back of its own.
    pub fn two_sided(&self) -> bool {
        self.back.is_some() || self.back_art.is_some()
    }
}

/// A card's own back: a template and what it shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardBack {
    pub template: String,
    /// The title the template may print; the deck back's when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Background colour as `#rrggbb`; the deck back's when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// Any other values, for the template as `back.fields.*`.
    #[serde(flatten)]
    pub fields: BTreeMap<String, toml::Value>,
}

/// A card's own back (a card's `back`): a template name, or a table of the template and what
/// it shows.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum CardBackSchema {
    /// A template name.
    Template(String),
    /// A template with what it shows.
    Table {
        /// SVG template in `templates/` for the card's back (without `.svg`).
        template: String,
        /// The title the back shows; the deck back's when absent.
        title: Option<String>,
        /// Background colour as `#rrggbb`; the deck back's when absent.
        colour: Option<String>,
        #[serde(flatten)]
        fields: BTreeMap<String, serde_json::Value>,
    },
}

impl<'de> Deserialize<'de> for CardBack {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CardBackVisitor)
    }
}

struct CardBackVisitor;

impl<'de> serde::de::Visitor<'de> for CardBackVisitor {
    type Value = CardBack;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "a card's own back: a template name, or {{ template = \"...\", title = \"...\", colour = \"#rrggbb\" }}"
        )
    }

    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<CardBack, E> {
        Ok(CardBack {
            template: name.to_string(),
            title: None,
            colour: None,
            fields: BTreeMap::new(),
        })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<CardBack, A::Error> {
        use serde::de::Error;
        let mut back = CardBack {
            template: String::new(),
            title: None,
            colour: None,
            fields: BTreeMap::new(),
        };
        let mut template = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "template" => template = Some(map.next_value::<String>()?),
                "title" => back.title = Some(map.next_value()?),
                "colour" => back.colour = Some(map.next_value()?),
                _ => {
                    back.fields.insert(key, map.next_value()?);
                }
            }
        }
        back.template = template.ok_or_else(|| {
            A::Error::custom(
                "a card's own back names its `template` (a file of templates/ without `.svg`)",
            )
        })?;
        Ok(back)
    }
}

impl Deck {
    /// The template that draws a card's front: the card's own, else the one `template_by`
    /// picks by the card's field, else the deck's.
    pub fn template_for<'a>(&'a self, card: &'a Card) -> &'a str {
        if let Some(own) = &card.template {
            return own.get_ref();
        }
        self.template_by
            .as_ref()
            .and_then(|field| card.fields.get(field.get_ref()))
            .and_then(|v| v.get_ref().as_str())
            .and_then(|v| self.templates.get(v))
            .map_or(self.template.as_str(), |t| t.get_ref().as_str())
    }
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

/// A board: a hex grid, a square grid, the designer's own art, or a single sheet drawn by a
/// template (a player mat). Which one is chosen by its keys ([`BoardKind`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "RawBoard")]
pub struct Board {
    pub id: Spanned<String>,
    pub name: String,
    pub names: BTreeMap<String, String>,
    /// SVG template in `templates/` that draws or frames the board; the built-in `board`
    /// when absent.
    pub template: Option<String>,
    /// Art: for a hex, square or sheet board the template's `board.image`; for an image
    /// board the board itself.
    pub image: Option<Spanned<String>>,
    pub source: Source,
    #[serde(flatten)]
    pub kind: BoardKind,
}

/// What a board is.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum BoardKind {
    Hex(HexGrid),
    Square(SquareGrid),
    /// The designer's art, printed at `width_mm` x `height_mm`.
    Image {
        width_mm: f64,
        height_mm: f64,
    },
    /// One sheet of paper's printable area, drawn by the board's template.
    Sheet {
        size: SheetSize,
    },
}

/// A hex grid: cells in axial coordinates.
#[derive(Debug, Clone, Serialize)]
pub struct HexGrid {
    pub hex_mm: f64,
    pub orientation: HexOrientation,
    pub cell_group: String,
    pub cells: Vec<Cell>,
}

/// A square grid of `rows` x `columns` cells `mm` wide.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SquareGrid {
    /// Rows of cells (1 to 100).
    #[serde(deserialize_with = "super::bounded::grid_cells")]
    pub rows: u32,
    /// Columns of cells (1 to 100).
    #[serde(deserialize_with = "super::bounded::grid_cells")]
    pub columns: u32,
    /// Side of a cell, in millimetres (5 to 300).
    #[serde(deserialize_with = "super::bounded::cell_mm")]
    pub mm: f64,
    /// The ground of every cell not listed in `at`: a symbol id of the board's `cell_group`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub ground: Option<Spanned<String>>,
    /// Cells with their own ground or label.
    #[serde(default)]
    pub at: Vec<SquareCell>,
    /// The symbol group grounds come from (set from the board's `cell_group`).
    #[serde(skip)]
    pub cell_group: Option<String>,
}

/// One cell of a square grid, counted from 1 at the top left.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SquareCell {
    /// The cell's row, from 1.
    pub row: u32,
    /// The cell's column, from 1.
    pub column: u32,
    /// A symbol id of the board's `cell_group`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub ground: Option<Spanned<String>>,
    /// Text printed in the cell.
    #[serde(default)]
    pub label: Option<String>,
}

/// The paper a single-sheet board fills (its printable area).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SheetSize {
    A4,
    Letter,
    A3,
}

/// The kinds of grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GridKind {
    Hex,
    Square,
}

/// A board's `cells`: hexes as a list, a square grid as a table.
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum Cells {
    /// Hexes in axial coordinates: `[{ q = 0, r = 0, kind = "lake" }, ...]`.
    Hex(Vec<Cell>),
    /// A square grid: `{ rows = 4, columns = 6, mm = 30, ground = "...", at = [...] }`.
    Square(SquareGrid),
}

impl<'de> Deserialize<'de> for Cells {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Cells;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(
                    f,
                    "a list of hexes [{{ q, r, kind }}, ...] or a square grid {{ rows, columns, mm }}"
                )
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Cells, A::Error> {
                let mut cells = Vec::new();
                while let Some(c) = seq.next_element::<Cell>()? {
                    cells.push(c);
                }
                Ok(Cells::Hex(cells))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Cells, A::Error> {
                SquareGrid::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(Cells::Square)
            }
        }
        d.deserialize_any(V)
    }
}

/// A board: the keys every kind shares, and the keys of each kind (a hex grid, a square grid,
/// the designer's own image, a single sheet). Which kind it is follows from the keys given.
//  (Parsed as written, then sorted out by `Board::try_from`; serde's `flatten` cannot be
//  combined with `deny_unknown_fields`, hence the one flat list.)
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Board")]
pub struct RawBoard {
    /// The board's id, unique in the game.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The board's name, printed on it.
    pub name: String,
    /// The name in other languages, keyed by language code.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// `hex` (the default when `hex_mm` is given) or `square` (with
    /// `cells = { rows = 8, columns = 8, mm = 25 }`).
    #[serde(default)]
    pub grid: Option<GridKind>,
    /// Hex size, flat side to flat side, in millimetres (hex grids; 5 to 200).
    #[serde(default, deserialize_with = "super::bounded::hex_mm")]
    pub hex_mm: Option<f64>,
    /// `flat` or `pointy` (hex grids).
    #[serde(default)]
    pub orientation: Option<HexOrientation>,
    /// The symbol group that cell kinds and grounds come from.
    #[serde(default)]
    pub cell_group: Option<String>,
    /// The cells: hexes as a list, a square grid as a table.
    #[serde(default)]
    pub cells: Option<Cells>,
    /// Width of an image board, in millimetres (10 to 1000).
    #[serde(default, deserialize_with = "super::bounded::board_mm")]
    pub width_mm: Option<f64>,
    /// Height of an image board, in millimetres (10 to 1000).
    #[serde(default, deserialize_with = "super::bounded::board_mm")]
    pub height_mm: Option<f64>,
    /// A single-sheet board (a player mat): the paper whose printable area it fills.
    #[serde(default)]
    pub size: Option<SheetSize>,
    /// SVG template in `templates/` that draws or frames the board; the built-in `board`
    /// when absent.
    #[serde(default)]
    pub template: Option<String>,
    /// Art, relative to the game's folder: the board itself with `width_mm` and
    /// `height_mm`, else the template's `board.image`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub image: Option<Spanned<String>>,
    /// Where the board comes from (a game that cites a rulebook).
    #[serde(default)]
    pub source: Source,
}

/// What each kind of board needs, for the errors.
const BOARD_KINDS: &str = "a hex grid (`hex_mm`, `orientation`, `cell_group`, `cells = [{ q, r, kind }, ...]`), \
a square grid (`grid = \"square\"`, `cells = { rows, columns, mm }`), the designer's art \
(`image`, `width_mm`, `height_mm`) or a single sheet drawn by a template (`size = \"a4\"`)";

impl TryFrom<RawBoard> for Board {
    type Error = String;

    fn try_from(raw: RawBoard) -> Result<Board, String> {
        let id = raw.id.get_ref().clone();
        let fail = |m: String| Err(format!("board `{id}`: {m}"));
        // The keys of kinds this board is not.
        let stray = |keys: &[(&str, bool)]| -> Option<String> {
            let given: Vec<String> = keys
                .iter()
                .filter(|(_, there)| *there)
                .map(|(k, _)| format!("`{k}`"))
                .collect();
            (!given.is_empty()).then(|| given.join(", "))
        };
        let hex_keys = raw.hex_mm.is_some() || raw.orientation.is_some();
        let image_keys = raw.width_mm.is_some() || raw.height_mm.is_some();
        let kind = match (raw.grid, &raw.cells) {
            (Some(GridKind::Square), _) | (None, Some(Cells::Square(_))) => {
                if let Some(keys) = stray(&[
                    ("hex_mm", raw.hex_mm.is_some()),
                    ("orientation", raw.orientation.is_some()),
                    ("width_mm", raw.width_mm.is_some()),
                    ("height_mm", raw.height_mm.is_some()),
                    ("size", raw.size.is_some()),
                ]) {
                    return fail(format!("a square grid has no {keys}"));
                }
                match raw.cells {
                    Some(Cells::Square(mut grid)) => {
                        grid.cell_group = raw.cell_group.clone();
                        BoardKind::Square(grid)
                    }
                    Some(Cells::Hex(_)) => {
                        return fail(
                            "a square grid's `cells` is a table: { rows = 4, columns = 6, mm = 30 }"
                                .into(),
                        );
                    }
                    None => {
                        return fail(
                            "a square grid needs `cells = { rows = 4, columns = 6, mm = 30 }` \
                             (rows, columns and the side of a cell in millimetres)"
                                .into(),
                        );
                    }
                }
            }
            (Some(GridKind::Hex), _) | (None, Some(Cells::Hex(_))) => hex(&raw, &id)?,
            (None, None) if hex_keys => hex(&raw, &id)?,
            (None, None) => {
                if let Some(size) = raw.size {
                    if let Some(keys) = stray(&[
                        ("width_mm", raw.width_mm.is_some()),
                        ("height_mm", raw.height_mm.is_some()),
                        ("cell_group", raw.cell_group.is_some()),
                    ]) {
                        return fail(format!("a single-sheet board has no {keys}"));
                    }
                    BoardKind::Sheet { size }
                } else if image_keys || raw.image.is_some() {
                    match (raw.image.is_some(), raw.width_mm, raw.height_mm) {
                        (true, Some(w), Some(h))
                            if w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite() =>
                        {
                            BoardKind::Image {
                                width_mm: w,
                                height_mm: h,
                            }
                        }
                        (true, Some(_), Some(_)) => {
                            return fail("`width_mm` and `height_mm` must be more than 0".into());
                        }
                        _ => {
                            return fail(
                                "a board of the designer's art needs `image`, `width_mm` and \
                                 `height_mm` (its printed size in millimetres)"
                                    .into(),
                            );
                        }
                    }
                } else {
                    return fail(format!("say which kind of board it is: {BOARD_KINDS}"));
                }
            }
        };
        Ok(Board {
            id: raw.id,
            name: raw.name,
            names: raw.names,
            template: raw.template,
            image: raw.image,
            source: raw.source,
            kind,
        })
    }
}

fn hex(raw: &RawBoard, id: &str) -> Result<BoardKind, String> {
    let missing: Vec<&str> = [
        ("hex_mm", raw.hex_mm.is_none()),
        ("orientation", raw.orientation.is_none()),
        ("cell_group", raw.cell_group.is_none()),
        ("cells", raw.cells.is_none()),
    ]
    .iter()
    .filter(|(_, m)| *m)
    .map(|(k, _)| *k)
    .collect();
    if !missing.is_empty() {
        return Err(format!(
            "board `{id}`: a hex grid needs `{}`; a board is {BOARD_KINDS}",
            missing.join("`, `")
        ));
    }
    if raw.width_mm.is_some() || raw.height_mm.is_some() || raw.size.is_some() {
        return Err(format!(
            "board `{id}`: a hex grid has no `width_mm`, `height_mm` or `size`"
        ));
    }
    let cells = match &raw.cells {
        Some(Cells::Hex(c)) => c.clone(),
        _ => {
            return Err(format!(
                "board `{id}`: a hex grid's `cells` is a list: [{{ q = 0, r = 0, kind = \"...\" }}, ...]"
            ));
        }
    };
    Ok(BoardKind::Hex(HexGrid {
        hex_mm: raw.hex_mm.unwrap_or_default(),
        orientation: raw.orientation.unwrap_or(HexOrientation::Flat),
        cell_group: raw.cell_group.clone().unwrap_or_default(),
        cells,
    }))
}

impl JsonSchema for Board {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Board".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        RawBoard::json_schema(g)
    }
}

impl Board {
    /// The hex grid, for a hex board.
    pub fn hex(&self) -> Option<&HexGrid> {
        match &self.kind {
            BoardKind::Hex(h) => Some(h),
            _ => None,
        }
    }

    /// The hexes of a hex board; none for other kinds.
    pub fn hex_cells(&self) -> &[Cell] {
        self.hex().map_or(&[], |h| &h.cells[..])
    }

    /// The symbol group cell kinds and grounds come from, if the board has one.
    pub fn cell_group(&self) -> Option<&str> {
        match &self.kind {
            BoardKind::Hex(h) => Some(&h.cell_group),
            BoardKind::Square(s) => s.cell_group.as_deref(),
            _ => None,
        }
    }

    /// What kind of board this is, in words.
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            BoardKind::Hex(_) => "hex grid",
            BoardKind::Square(_) => "square grid",
            BoardKind::Image { .. } => "printed art",
            BoardKind::Sheet { .. } => "single sheet",
        }
    }
}

impl SheetSize {
    /// The paper's size, portrait, in millimetres.
    pub fn mm(self) -> (f64, f64) {
        match self {
            SheetSize::A4 => (210.0, 297.0),
            SheetSize::Letter => (215.9, 279.4),
            SheetSize::A3 => (297.0, 420.0),
        }
    }
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
    /// Axial coordinate q of the hex (-100 to 100).
    #[serde(deserialize_with = "super::bounded::hex_coord")]
    pub q: i32,
    /// Axial coordinate r of the hex (-100 to 100).
    #[serde(deserialize_with = "super::bounded::hex_coord")]
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
    /// The track's id, unique in the game.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The track's name.
    pub name: String,
    /// The name in other languages, keyed by language code.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// Its lowest space.
    pub min: i64,
    /// Its highest space.
    pub max: i64,
    /// Where its marker starts.
    pub start: i64,
    /// The card the track is printed on, if any.
    #[serde(default)]
    pub card: Option<String>,
    /// Where the track comes from (a game that cites a rulebook).
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
            (Some(width), Some(height)) => {
                let width = super::bounded::card_side("width", width).map_err(A::Error::custom)?;
                let height =
                    super::bounded::card_side("height", height).map_err(A::Error::custom)?;
                Ok(CardSize::Custom { width, height })
            }
            _ => Err(A::Error::custom(format!(
                "a custom card size needs both `width` and `height` in millimetres; {}",
                size_advice()
            ))),
        }
    }
}
