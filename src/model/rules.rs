//! The rules reference's data: `rules.toml` (diagrams and glossary, the same in every language)
//! and one `rules.<lang>.toml` per language (the prose, in Markdown with `{placeholders}` for
//! every number that lives in the rest of the data).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// `rules.toml`: what the reference draws and the glossary, shared by all languages.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesMeta {
    /// Diagrams, drawn as inline SVG in the section they name.
    #[serde(default, rename = "diagram")]
    pub diagrams: Vec<DiagramSpec>,
    /// Glossary terms: one entry per term, its word in every language.
    #[serde(default, rename = "term")]
    pub terms: Vec<Term>,
    /// The source rulebook's title as printed on it (the reference names the rulebook by its
    /// title and publisher, never by a file name).
    #[serde(default)]
    pub rulebook_title: Option<String>,
}

/// The sections of a rules reference that prose and diagrams go into.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum SectionId {
    Overview,
    Goal,
    Components,
    Setup,
    Turn,
    End,
    Variants,
    Glossary,
    Unprinted,
    Options,
    Quick,
}

impl SectionId {
    /// The sections of the full reference a player reads, in order.
    pub const RULES: [SectionId; 8] = [
        SectionId::Overview,
        SectionId::Goal,
        SectionId::Components,
        SectionId::Setup,
        SectionId::Turn,
        SectionId::End,
        SectionId::Variants,
        SectionId::Glossary,
    ];

    /// The appendix of the full reference: where the values come from, and engine matters.
    pub const APPENDIX: [SectionId; 2] = [SectionId::Unprinted, SectionId::Options];

    /// The HTML anchor and message key of the section.
    pub fn key(self) -> &'static str {
        match self {
            SectionId::Overview => "overview",
            SectionId::Goal => "goal",
            SectionId::Components => "components",
            SectionId::Setup => "setup",
            SectionId::Turn => "turn",
            SectionId::End => "end",
            SectionId::Variants => "variants",
            SectionId::Glossary => "glossary",
            SectionId::Unprinted => "unprinted",
            SectionId::Options => "options",
            SectionId::Quick => "quick",
        }
    }
}

/// One diagram: where it goes and what it draws. Its words are in each `rules.<lang>.toml`
/// under `[diagram.ID]`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiagramSpec {
    /// The diagram's id; its words are `[diagram.ID]` of each `rules.<lang>.toml`.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The section the diagram is shown in.
    pub section: SectionId,
    /// What to draw: `kind` and that kind's settings (`map-layout`, `cycle`, `card-parts`...).
    pub draw: Drawing,
}

/// What a diagram draws. Each kind reads its numbers from the game's data.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Drawing {
    /// One card of a deck, its printed parts labelled: its name, its `number` field, its
    /// `spaces` field drawn as that many empty spaces, and its `choices` as coloured circles
    /// (pairs of a symbol field and an integer field: a colour and a set size).
    CardParts {
        /// The deck the card is in (its id).
        deck: String,
        /// The card drawn (its id in `deck`).
        card: String,
        /// The card's field printed as its number, labelled on the drawing.
        #[serde(default)]
        number: Option<String>,
        /// The card's integer field drawn as that many empty spaces.
        spaces: String,
        /// Pairs `[symbol field, integer field]`: each drawn as a circle in the symbol's colour
        /// holding the integer (a colour and a set size).
        #[serde(default)]
        choices: Vec<[String; 2]>,
    },
    /// The symbols of a group in a cycle, each arrow pointing from a symbol to the one it beats;
    /// the order is the list parameter `param`.
    Cycle {
        /// The symbol group the cycle's ids belong to (drawn with their colours and marks).
        group: String,
        /// The list parameter of `game.toml` giving the cycle: symbol ids each beating the next
        /// (the last beats the first), or `[winner, loser]` pairs that form one.
        param: String,
    },
    /// A hex with an elemental on it and its ring of neighbours: `centre` and `ring` are symbol
    /// ids (`""` for an empty hex); the strength is computed from the `beats` cycle parameter.
    StrengthExample {
        /// The symbol group of `centre` and `ring`.
        group: String,
        /// The list parameter of `game.toml` giving the cycle, as `cycle`'s `param` reads it.
        beats_param: String,
        /// The symbol id on the middle hex, whose strength is shown.
        centre: String,
        /// The six neighbours clockwise from the top: symbol ids, `""` for an empty hex.
        ring: Vec<String>,
    },
    /// A sample grid of a deck's map cards, `columns_param` x `rows_param`, shuffled with
    /// `seed`; cards showing the `spread` symbol in `icon_field` never share a row or column.
    MapLayout {
        /// The deck whose cards fill the grid (every copy, exactly once).
        deck: String,
        /// The integer parameter of `game.toml` giving the grid's columns.
        columns_param: String,
        /// The integer parameter of `game.toml` giving the grid's rows.
        rows_param: String,
        /// The cards' symbol field (or list of symbols) drawn as each card's icon.
        icon_field: String,
        /// The symbol group of `icon_field`'s symbols.
        icon_group: String,
        /// A symbol of `icon_field` whose cards never share a row or column.
        #[serde(default)]
        spread: Option<String>,
        /// The shuffle's seed: the same seed draws the same grid.
        seed: u64,
    },
    /// The exact odds of Pray actions, by colour and Pray size, as a table (Imperial Settlers:
    /// Aztecs; computed by the game's own odds function from the common deck in the data).
    PrayOdds {},
}

/// A glossary term: its word in each language
/// (`words = { fi = "näkösuoja", en = "screen" }`), the stem that finds its inflected forms
/// in the prose, and words the prose must not use instead.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// The term in each language, keyed by language code.
    #[schemars(with = "BTreeMap<String, String>")]
    pub words: BTreeMap<String, Spanned<String>>,
    /// Per language: the stem every inflected form starts with (`näkösuoj` finds `näkösuojan`).
    #[serde(default)]
    pub stems: BTreeMap<String, String>,
    /// Per language: synonyms the prose must not use for this term.
    #[serde(default)]
    pub avoid: BTreeMap<String, Vec<String>>,
    /// Per language: a short explanation.
    #[serde(default)]
    pub notes: BTreeMap<String, String>,
}

/// A Markdown text with its place in the file, for pointing problems at it.
pub type Prose = Spanned<String>;

/// `rules.<lang>.toml`: the rules reference's prose in one language.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesText {
    /// What the game is about, in a paragraph or two.
    #[schemars(with = "String")]
    pub overview: Prose,
    /// How a player wins (and how everybody loses).
    #[schemars(with = "String")]
    pub goal: Prose,
    /// How to set the game up (Markdown).
    #[schemars(with = "String")]
    pub setup: Prose,
    /// The turn: its steps and every action.
    #[schemars(with = "String")]
    pub turn: Prose,
    /// End of the game and scoring.
    #[schemars(with = "String")]
    pub end: Prose,
    /// The one-page quick reference.
    #[schemars(with = "String")]
    pub quick: Prose,
    /// Optional text shown above the variants.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub variants_intro: Option<Prose>,
    /// What each component is for, keyed `deck.ID`, `piece.ID`, `board.ID` or `track.ID`.
    #[serde(default)]
    pub components: BTreeMap<String, ComponentText>,
    /// Each ambiguity of the rulebook and the reading the engine plays.
    #[serde(default, rename = "variant")]
    pub variants: Vec<VariantText>,
    /// Questions a new player asks that the rulebook leaves open and the engine settles, each
    /// answered as our reading.
    #[serde(default, rename = "question")]
    pub questions: Vec<QuestionText>,
    /// The words for values the rulebook does not print, keyed by the value's path in the data
    /// (`piece.aether-1`) or a pattern with one `*` (`piece.aether-*`): `value` says in words
    /// what the value is, `reason` why it was chosen. Needed in every language but English for
    /// each unprinted value (the data's reasons are English); in English they override the
    /// words made from the data's names.
    #[serde(default)]
    pub provenance: BTreeMap<String, ProvenanceText>,
    /// The name of each symbol group of the data
    /// (`symbol_groups = { inquiry = "Scientific Inquiry colours" }`),
    /// the headings of the reference's key of colours and symbols.
    #[serde(default)]
    pub symbol_groups: BTreeMap<String, String>,
    /// The words of each diagram of `rules.toml`, keyed by diagram id.
    #[serde(default)]
    pub diagram: BTreeMap<String, DiagramText>,
    /// Nouns for `{value noun}` placeholders, with their plural forms.
    #[serde(default)]
    pub nouns: BTreeMap<String, PluralForms>,
    /// The words the game's printed parts carry in this language (a board's legend, captions),
    /// by the name its templates give them (`labels.pit`); `board.<lang>.pdf` prints them.
    #[serde(default)]
    pub print_labels: BTreeMap<String, String>,
}

/// A component's row in the components table.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ComponentText {
    /// The component's name in this language, when it differs from the data's name.
    #[serde(default)]
    pub name: Option<String>,
    /// What it is for, in a sentence (Markdown, placeholders allowed).
    #[schemars(with = "String")]
    pub purpose: Prose,
}

/// One ambiguity of the rulebook.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VariantText {
    /// The engine's variant name (`--variant NAME=VALUE`).
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// The variant's heading in this language.
    pub title: String,
    /// What the rulebook leaves open, stated plainly.
    #[schemars(with = "String")]
    pub ambiguity: Prose,
    /// The reading the engine plays by default, and the alternatives.
    #[schemars(with = "String")]
    pub reading: Prose,
    /// The engine's default value for this variant.
    pub default: String,
    /// Every value the engine accepts.
    #[serde(default)]
    pub values: Vec<String>,
}

/// A question a new player asks, and our answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuestionText {
    /// The question, as a player would ask it.
    pub question: String,
    /// Our reading (Markdown, placeholders allowed).
    #[schemars(with = "String")]
    pub answer: Prose,
}

/// Words for unprinted values in one language.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProvenanceText {
    /// What the value is, in words ("the gold on each game card").
    #[serde(default)]
    pub value: Option<String>,
    /// Why it was chosen, in this language.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A diagram's words in one language.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiagramText {
    /// A short title, read out by screen readers.
    pub title: String,
    /// What the picture shows, for readers who cannot see it.
    pub alt: String,
    /// The caption under the picture (Markdown, placeholders allowed).
    #[schemars(with = "String")]
    pub caption: Prose,
    /// Labels the drawing puts on its parts, keyed by the part.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
}

/// A noun's forms by plural category (`one`, `other`, and `zero`/`two`/`few`/`many` where a
/// language has them). A case variant is a separate noun: `card` and `card:adessive`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PluralForms {
    /// The form after one (`1 card`).
    pub one: String,
    /// The form after other numbers (`4 cards`).
    pub other: String,
    /// The form after zero, where the language has one.
    #[serde(default)]
    pub zero: Option<String>,
    /// The form after two, where the language has one.
    #[serde(default)]
    pub two: Option<String>,
    /// The "few" form, where the language has one.
    #[serde(default)]
    pub few: Option<String>,
    /// The "many" form, where the language has one.
    #[serde(default)]
    pub many: Option<String>,
}
