//! The languages a game prints its cards in, as it prints its boards: a game published in
//! one language (`languages` in `game.toml`) prints `cards.pdf`; a game published in several
//! draws each card once per language, with its `name` and `text` in that language (a
//! `name.<lang>` / `text.<lang>` column, `names` / `texts` in TOML; the data's own words
//! where a card has none in it, as a board's title falls back), into `cards.<lang>.pdf`, and
//! its gallery images, print-shop files and Tabletop Simulator object per language. A deck
//! marked `multilingual` carries every language on each card: drawn once, it is printed in
//! each language's files.

use std::borrow::Cow;

use super::{DeckFaces, Faces};
use crate::model::{Card, Deck, Game};
use crate::render::sheets::boards;

/// The languages the build prints cards in, each to `cards.<lang>.pdf`; empty when the game
/// is published in one language, whose cards go to `cards.pdf` (the boards' rule,
/// [`boards::board_languages`]).
pub fn card_languages(game: &Game) -> Vec<&str> {
    boards::board_languages(game)
}

/// The language a single card file is printed in: the game's first.
pub fn first_language(game: &Game) -> &str {
    boards::first_language(game)
}

/// The card PDF's file name: `cards.<lang>.pdf` for one of several languages, else
/// `cards.pdf`.
pub fn cards_file(lang: Option<&str>) -> String {
    match lang {
        Some(l) => format!("cards.{l}.pdf"),
        None => "cards.pdf".to_string(),
    }
}

/// A card's (or piece's) gallery image: `png/<id>.png`, or `png/<lang>/<id>.png` for a card
/// drawn once per language.
pub fn image_file(id: &str, lang: Option<&str>) -> String {
    match lang {
        Some(l) => format!("png/{l}/{id}.png"),
        None => format!("png/{id}.png"),
    }
}

/// A card's name in a language: its `name.<lang>`, else its own `name`.
pub fn card_name<'a>(card: &'a Card, lang: &str) -> &'a str {
    card.names.get(lang).unwrap_or(&card.name)
}

/// A card's text in a language: its `text.<lang>`, else its own `text`.
pub fn card_text<'a>(card: &'a Card, lang: &str) -> Option<&'a str> {
    card.texts
        .get(lang)
        .or(card.text.as_ref())
        .map(String::as_str)
}

/// A deck's name in a language: its `names.<lang>`, else its own `name`.
pub fn deck_name<'a>(deck: &'a Deck, lang: &str) -> &'a str {
    deck.names.get(lang).unwrap_or(&deck.name)
}

/// One other language's decks (those drawn once per language).
#[derive(Debug, Clone)]
pub struct LangDecks {
    pub lang: String,
    pub decks: Vec<DeckFaces>,
}

/// The decks of one card file: its language (`None`: the game's only card file,
/// `cards.pdf`) and its decks in the data's order, the multilingual ones among them.
#[derive(Debug, Clone)]
pub struct CardSet<'a> {
    pub lang: Option<&'a str>,
    pub decks: Cow<'a, [DeckFaces]>,
}

impl CardSet<'_> {
    /// The PDF this set prints to.
    pub fn file(&self) -> String {
        cards_file(self.lang)
    }

    /// A name for one of this set's files: `stem` alone for the only set, else with the
    /// language (`tts/<slug>.<lang>.json`).
    pub fn suffixed(&self, stem: &str, ext: &str) -> String {
        match self.lang {
            Some(l) => format!("{stem}.{l}.{ext}"),
            None => format!("{stem}.{ext}"),
        }
    }
}

impl Faces {
    /// Every card file the build prints: one (`cards.pdf`) for a game published in one
    /// language, else one per language, in the order of `languages` in `game.toml`.
    pub fn card_sets<'a>(&'a self, game: &'a Game) -> Vec<CardSet<'a>> {
        let langs = card_languages(game);
        if langs.is_empty() {
            return vec![CardSet {
                lang: None,
                decks: Cow::Borrowed(&self.decks),
            }];
        }
        langs
            .into_iter()
            .map(|lang| {
                let other = self.translations.iter().find(|t| t.lang == lang);
                let decks: Vec<DeckFaces> = self
                    .decks
                    .iter()
                    .map(|d| match (&d.lang, other) {
                        (Some(_), Some(t)) => {
                            t.decks.iter().find(|x| x.id == d.id).unwrap_or(d).clone()
                        }
                        _ => d.clone(),
                    })
                    .collect();
                CardSet {
                    lang: Some(lang),
                    decks: Cow::Owned(decks),
                }
            })
            .collect()
    }
}

/// The language of the data's own words (a card's `name` and `text`, a deck's `name`), which
/// a language without words of its own falls back to: the source of the game's translations
/// ([`crate::translate::source_language`]: English when the rules have English prose) when
/// the game prints its cards in it, else the game's first language.
pub fn data_language(game: &Game) -> &str {
    let source = crate::translate::source_language(game);
    card_languages(game)
        .into_iter()
        .find(|l| Some(*l) == source.as_deref())
        .unwrap_or_else(|| first_language(game))
}
