//! Cards of a game published in several languages (`languages` in `game.toml`) are printed
//! once per language ([`crate::render::faces::languages`]): a card or deck without its words
//! in one of them prints the data's own words there instead. Each such gap is one warning
//! per cause (a file's cards lacking one field in one language: a `name.en` column the sheet
//! does not have is one warning, not one a row), at the first card (its row in a
//! spreadsheet, its line in `components.toml`) and naming how many more lack it.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::diag::{Problem, SourceFile};
use crate::model::Game;
use crate::render::faces::languages::{card_languages, cards_file, data_language};

/// One gap: where it is first found, what it is, and the others of the same cause.
struct Gap<'a> {
    file: &'a SourceFile,
    at: Range<usize>,
    what: String,
    others: Vec<String>,
}

/// The warnings of words a card or deck lacks in a language its cards are printed in.
pub fn warnings(game: &Game) -> Vec<Problem> {
    let langs = card_languages(game);
    if langs.is_empty() {
        return Vec::new();
    }
    let own = data_language(game);
    // (file, field, language) -> the gap, in the data's order.
    let mut gaps: BTreeMap<(String, &str, &str), Gap> = BTreeMap::new();
    let mut order: Vec<(String, &str, &str)> = Vec::new();
    for deck in game
        .components
        .decks
        .iter()
        .filter(|d| d.print && !d.multilingual)
    {
        let deck_id = deck.id.get_ref();
        for &lang in langs.iter().filter(|l| **l != own) {
            if !deck.names.contains_key(lang) {
                note(
                    &mut gaps,
                    &mut order,
                    (&game.components_file, deck.id.span()),
                    ("deck name", lang),
                    format!("deck `{deck_id}`"),
                );
            }
        }
        for card in &deck.cards {
            let file = game.card_file(card);
            let what = format!("card `{}` of deck `{deck_id}`", card.id.get_ref());
            for &lang in &langs {
                let name = lang == own || card.names.contains_key(lang);
                let text = match &card.text {
                    Some(_) => lang == own || card.texts.contains_key(lang),
                    // A card with texts in some languages but no `text` of its own.
                    None => card.texts.is_empty() || card.texts.contains_key(lang),
                };
                for (field, has) in [("name", name), ("text", text)] {
                    if !has {
                        note(
                            &mut gaps,
                            &mut order,
                            (file, card.id.span()),
                            (field, lang),
                            what.clone(),
                        );
                    }
                }
            }
        }
    }
    order
        .iter()
        .filter_map(|key| gaps.remove(key).map(|g| (key, g)))
        .map(|((_, field, lang), gap)| problem(field, lang, own, gap))
        .collect()
}

fn note<'a>(
    gaps: &mut BTreeMap<(String, &'a str, &'a str), Gap<'a>>,
    order: &mut Vec<(String, &'a str, &'a str)>,
    (file, at): (&'a SourceFile, Range<usize>),
    (field, lang): (&'a str, &'a str),
    what: String,
) {
    let key = (file.path.display().to_string(), field, lang);
    match gaps.get_mut(&key) {
        Some(gap) => gap.others.push(what),
        None => {
            order.push(key.clone());
            gaps.insert(
                key,
                Gap {
                    file,
                    at,
                    what,
                    others: Vec::new(),
                },
            );
        }
    }
}

fn problem(field: &str, lang: &str, own: &str, gap: Gap) -> Problem {
    let file = cards_file(Some(lang));
    let (message, add) = match field {
        "deck name" => (
            format!(
                "{} has no name in `{lang}`: {file} names it by its `name`",
                gap.what
            ),
            format!("add `{lang} = \"...\"` to the deck's `names`"),
        ),
        _ if lang == own => (
            format!(
                "{} has no `{field}` of its own, in `{own}` (the language of the data's own \
                 words), though it has a `{field}.<lang>`: {file} prints none",
                gap.what
            ),
            format!("give the card its `{field}`"),
        ),
        _ => (
            format!(
                "{} has no {field} in `{lang}`: {file} prints its `{field}` (in `{own}`) instead",
                gap.what
            ),
            format!(
                "add a `{field}.{lang}` column to the sheet, or `{lang} = \"...\"` to the card's \
                 `{}` in TOML",
                if field == "name" { "names" } else { "texts" }
            ),
        ),
    };
    let others = match gap.others.len() {
        0 => String::new(),
        n => format!(
            "; {n} more in {} lack it too: {}",
            gap.file.path.display(),
            gap.others.join(", ")
        ),
    };
    Problem::warning(message)
        .at(gap.file, gap.at, format!("no {field} in `{lang}`"))
        .help(format!(
            "{add} (or mark the deck `multilingual = true` when each card carries every \
             language){others}"
        ))
}
