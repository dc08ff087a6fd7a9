//! Interface words per language (`templates/i18n/<lang>.toml`): headings, table headers,
//! provenance words, and nouns with their plural forms. Adding a language is adding a file.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::assets::TemplateSource;
use crate::diag::Problem;
use crate::model::PluralForms;

/// How a language picks a plural form for a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PluralRule {
    /// `one` for 1, `other` for everything else (English, Finnish, German, Swedish...).
    OneOther,
    /// `one` for 0 and 1, `other` otherwise (French).
    ZeroOneOther,
    /// No plural: always `other` (Japanese, Chinese).
    Other,
}

impl PluralRule {
    /// The plural category of a number.
    pub fn category(self, n: i64) -> &'static str {
        let n = n.unsigned_abs();
        match self {
            PluralRule::OneOther if n == 1 => "one",
            PluralRule::ZeroOneOther if n <= 1 => "one",
            _ => "other",
        }
    }
}

/// The form of a noun for a plural category; a missing optional category falls back to `other`.
pub fn form<'a>(forms: &'a PluralForms, category: &str) -> &'a str {
    let optional = match category {
        "one" => return &forms.one,
        "zero" => forms.zero.as_deref(),
        "two" => forms.two.as_deref(),
        "few" => forms.few.as_deref(),
        "many" => forms.many.as_deref(),
        _ => None,
    };
    optional.unwrap_or(&forms.other)
}

/// One language's message file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Messages {
    /// The language's name in itself (`suomi`).
    pub language: String,
    pub plural: PluralRule,
    /// Between the items of a list of numbers (`4, 3, 2, 1`).
    pub list_separator: String,
    /// Between the whole and the fractional part of a number (`.` or `,`).
    #[serde(default = "point")]
    pub decimal_separator: String,
    /// Interface words by key.
    pub text: BTreeMap<String, String>,
    /// Nouns every game may use in `{value noun}` placeholders.
    #[serde(default)]
    pub nouns: BTreeMap<String, PluralForms>,
    /// Numbers from zero as words, by grammatical case, for `{value noun words}`.
    #[serde(default)]
    pub numerals: BTreeMap<String, Vec<String>>,
    /// What `check` asks of every game's prose in this language (see [`Style`]).
    #[serde(default)]
    pub style: Style,
}

/// A language's style rules for prose, from `[style]` of its message file: words to avoid
/// whatever the game, and constructions a reader can take two ways. `check` warns at the key
/// of each text that has one.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Style {
    /// Words no game's prose uses in this language, each with the word to use.
    #[serde(default)]
    pub avoid: Vec<AvoidWord>,
    /// Constructions found ambiguous by a native reading, each with why and how to fix it.
    #[serde(default)]
    pub flagged: Vec<Flagged>,
    /// A sentence has at most one colon (the label the page prints before a text counts).
    #[serde(default)]
    pub one_colon: bool,
    /// A text does not repeat the label it is printed under ("Sääntökirja: … sääntökirja").
    #[serde(default)]
    pub label_not_repeated: bool,
}

/// A word to avoid and the term to use instead.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AvoidWord {
    /// The word (any form starting so is found: `heksa` finds `heksat`).
    pub word: String,
    /// The term to use.
    #[serde(rename = "use")]
    pub instead: String,
}

/// A construction a reader can take two ways (`heikentää sitä`: the strength or the
/// elemental?), found anywhere in a text, case-insensitively.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flagged {
    pub text: String,
    /// Why it is ambiguous and what to write instead.
    pub why: String,
}

impl Messages {
    /// An interface word; a missing key is an error naming the file to fix.
    pub fn get(&self, key: &str) -> Result<&str, String> {
        self.text.get(key).map(String::as_str).ok_or_else(|| {
            format!(
                "the message file for {} has no `{key}` in [text]",
                self.language
            )
        })
    }

    /// `n noun` in the right plural form, e.g. `3 korttia`.
    pub fn count(&self, n: i64, forms: &PluralForms) -> String {
        format!("{n} {}", form(forms, self.plural.category(n)))
    }
}

/// `n noun` in English in the number's form by the English plural rule: `1 card`, `3 cards`.
/// Every count with a noun the program prints in English (replay, play, simulate, check, the
/// table log) goes through it; a language's own pages use [`Messages::count`].
pub fn count(n: impl Into<i64>, one: &str, other: &str) -> String {
    let n = n.into();
    let word = if PluralRule::OneOther.category(n) == "one" {
        one
    } else {
        other
    };
    format!("{n} {word}")
}

/// [`count`] for a count held as a `usize` or `u64` (saturating past `i64`).
pub fn count_of(n: impl TryInto<i64>, one: &str, other: &str) -> String {
    count(n.try_into().unwrap_or(i64::MAX), one, other)
}

fn point() -> String {
    ".".into()
}

/// Loads every `<lang>.toml` of an i18n folder, keyed by language code.
pub fn load_all(source: &TemplateSource) -> Result<BTreeMap<String, Messages>, Problem> {
    let mut out = BTreeMap::new();
    for rel in source.list("i18n", "toml")? {
        let lang = Path::new(&rel)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = source.read(&rel)?;
        let messages: Messages = crate::model::parse(&file)?;
        out.insert(lang, messages);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(one: &str, other: &str) -> PluralForms {
        PluralForms {
            one: one.into(),
            other: other.into(),
            zero: None,
            two: None,
            few: None,
            many: None,
        }
    }

    #[test]
    fn finnish_style_plural_uses_partitive_after_numbers_above_one() {
        let m = Messages {
            language: "suomi".into(),
            plural: PluralRule::OneOther,
            list_separator: ", ".into(),
            decimal_separator: ",".into(),
            text: BTreeMap::new(),
            nouns: BTreeMap::new(),
            numerals: BTreeMap::new(),
            style: Style::default(),
        };
        let kortti = forms("kortti", "korttia");
        assert_eq!(m.count(1, &kortti), "1 kortti");
        assert_eq!(m.count(3, &kortti), "3 korttia");
        assert_eq!(m.count(0, &kortti), "0 korttia");
        assert_eq!(m.count(-1, &kortti), "-1 kortti");
    }

    #[test]
    fn english_counts_take_the_singular_for_one_only() {
        assert_eq!(count(1, "card", "cards"), "1 card");
        assert_eq!(count(-1, "point", "points"), "-1 point");
        assert_eq!(count(0, "card", "cards"), "0 cards");
        assert_eq!(count_of(2usize, "move", "moves"), "2 moves");
    }

    #[test]
    fn rules_choose_categories() {
        assert_eq!(PluralRule::ZeroOneOther.category(0), "one");
        assert_eq!(PluralRule::OneOther.category(0), "other");
        assert_eq!(PluralRule::Other.category(1), "other");
    }
}
