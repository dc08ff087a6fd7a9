//! The appendix's table of values the rulebook does not print: each value described in words
//! (from the data's names, or the language file's `[provenance]` words), rows that share a
//! reason merged into one.

use std::collections::BTreeMap;

use crate::diag::Problem;
use crate::messages::Messages;
use crate::model::{Game, LangRules, ProvenanceText};

/// One row: the values in words, how they were found (`inferred`, `reconstructed`) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub values: Vec<String>,
    pub kind: &'static str,
    pub reason: String,
    /// The reason's language when the language file gives none (the data's reasons are English).
    pub reason_lang: Option<String>,
}

/// The language the data's own reasons and labels are written in.
pub const DATA_LANGUAGE: &str = "en";

/// The language file's words for a value: an exact key first, then a `prefix*suffix` pattern.
pub fn words_for<'a>(lr: &'a LangRules, path: &str) -> Option<&'a ProvenanceText> {
    let t = &lr.text.provenance;
    t.get(path).or_else(|| {
        t.iter()
            .find(|(k, _)| pattern_matches(k, path))
            .map(|(_, v)| v)
    })
}

fn pattern_matches(pattern: &str, path: &str) -> bool {
    match pattern.split_once('*') {
        Some((pre, post)) => {
            path.len() >= pre.len() + post.len() && path.starts_with(pre) && path.ends_with(post)
        }
        None => false,
    }
}

/// The merged rows of a game's unprinted values in one language.
pub fn rows(game: &Game, lr: &LangRules, lang: &str, msgs: &Messages) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for p in game.unprinted() {
        let words = words_for(lr, &p.path);
        let value = words
            .and_then(|w| w.value.clone())
            .unwrap_or_else(|| describe(game, &p.path, lang, msgs));
        let (reason, reason_lang) = match words.and_then(|w| w.reason.clone()) {
            Some(r) => (r, None),
            None => (
                p.source.reason().to_string(),
                (lang != DATA_LANGUAGE).then(|| DATA_LANGUAGE.to_string()),
            ),
        };
        let kind = p.source.kind();
        match rows
            .iter_mut()
            .find(|r| r.kind == kind && r.reason == reason)
        {
            Some(row) => {
                if !row.values.contains(&value) {
                    row.values.push(value);
                }
            }
            None => rows.push(Row {
                values: vec![value],
                kind,
                reason,
                reason_lang,
            }),
        }
    }
    rows
}

/// A value of the data in words made from its names: `deck.game.fields.gold` is "Game cards:
/// gold coins".
pub fn describe(game: &Game, path: &str, lang: &str, msgs: &Messages) -> String {
    let parts: Vec<&str> = path.splitn(5, '.').collect();
    let c = &game.components;
    let pattern = |key: &str, args: &[&str]| -> String {
        let mut text = msgs.get(key).unwrap_or("{}").to_string();
        for a in args {
            text = text.replacen("{}", a, 1);
        }
        text
    };
    let deck_name = |id: &str| {
        game.deck(id)
            .map(|d| d.names.get(lang).unwrap_or(&d.name).clone())
            .unwrap_or_else(|| id.to_string())
    };
    let field_label = |deck: &str, field: &str| {
        game.deck(deck)
            .and_then(|d| d.fields.get(field))
            .map(|f| lower_first(&f.label))
            .unwrap_or_else(|| field.to_string())
    };
    match parts.as_slice() {
        ["params", name] => game
            .param(name)
            .map(|p| p.doc.trim_end_matches('.').to_string())
            .unwrap_or_else(|| name.to_string()),
        ["symbol", id] => {
            let name = c
                .symbols
                .iter()
                .find(|s| s.id.get_ref() == id)
                .map(|s| s.names.get(lang).unwrap_or(&s.name).clone())
                .unwrap_or_else(|| id.to_string());
            pattern("value_symbol", &[&name])
        }
        ["deck", deck, "counts"] => pattern("value_counts", &[&deck_name(deck)]),
        ["deck", deck, "fields", field] => pattern(
            "value_field",
            &[&deck_name(deck), &field_label(deck, field)],
        ),
        ["deck", deck, "card", card, field] => {
            let name = game
                .deck(deck)
                .and_then(|d| d.cards.iter().find(|x| x.id.get_ref() == card))
                .map(|x| x.names.get(lang).unwrap_or(&x.name).clone())
                .unwrap_or_else(|| card.to_string());
            let what = if *field == "count" {
                msgs.get("value_copies").unwrap_or("copies").to_string()
            } else {
                field_label(deck, field)
            };
            pattern("value_card", &[&name, &what])
        }
        ["piece", id] => game
            .piece(id)
            .map(|p| p.names.get(lang).unwrap_or(&p.name).clone())
            .unwrap_or_else(|| id.to_string()),
        ["board", id] => {
            let name = game
                .board(id)
                .map(|b| b.names.get(lang).unwrap_or(&b.name).clone())
                .unwrap_or_else(|| id.to_string());
            pattern("value_board", &[&name])
        }
        ["track", id] => game
            .track(id)
            .map(|t| t.names.get(lang).unwrap_or(&t.name).clone())
            .unwrap_or_else(|| id.to_string()),
        _ => path.to_string(),
    }
}

/// A label in running text: its first letter lowered, unless the label opens with a name that
/// goes on in capitals: an acronym ("TTS") or a term of several capitalised words ("Scientific
/// Inquiry colour", not "scientific Inquiry colour").
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    let second_word = text
        .split_whitespace()
        .nth(1)
        .and_then(|w| w.chars().next());
    match (chars.next(), chars.clone().next()) {
        (Some(first), Some(second))
            if !second.is_uppercase() && !second_word.is_some_and(char::is_uppercase) =>
        {
            first.to_lowercase().chain(chars).collect()
        }
        _ => text.to_string(),
    }
}

/// `check`: in every language but the data's own, each unprinted value has its words and its
/// reason; every `[provenance]` key names an unprinted value.
pub fn problems(game: &Game, lang: &str, lr: &LangRules) -> Vec<Problem> {
    let unprinted = game.unprinted();
    let mut out = Vec::new();
    if lang != DATA_LANGUAGE {
        let mut missing: BTreeMap<String, ()> = BTreeMap::new();
        for p in &unprinted {
            let w = words_for(lr, &p.path);
            if w.is_none_or(|w| w.value.is_none() || w.reason.is_none()) {
                missing.insert(p.path.clone(), ());
            }
        }
        for path in missing.keys() {
            out.push(
                Problem::data(format!(
                    "the rulebook does not print `{path}`, and {} does not say in its language what it is and why it was chosen",
                    crate::model::rules_text_file(lang)
                ))
                .in_file(&lr.file)
                .help(format!(
                    "add [provenance.\"{path}\"] with `value` and `reason` (a key may use one `*`)"
                )),
            );
        }
    }
    for key in lr.text.provenance.keys() {
        let used = unprinted
            .iter()
            .any(|p| p.path == *key || pattern_matches(key, &p.path));
        if !used {
            out.push(
                Problem::data(format!(
                    "[provenance.\"{key}\"] names no value the rulebook leaves unprinted"
                ))
                .in_file(&lr.file),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{lower_first, pattern_matches};

    #[test]
    fn labels_keep_the_case_of_a_term() {
        assert_eq!(lower_first("Gold coins"), "gold coins");
        assert_eq!(
            lower_first("Scientific Inquiry colour"),
            "Scientific Inquiry colour"
        );
        assert_eq!(lower_first("TTS name"), "TTS name");
        assert_eq!(
            lower_first("Card shows the Draw Pile"),
            "card shows the Draw Pile"
        );
    }

    #[test]
    fn patterns_match_one_star() {
        assert!(pattern_matches("piece.aether-*", "piece.aether-12"));
        assert!(pattern_matches(
            "deck.*.fields.copies",
            "deck.romans-cards.fields.copies"
        ));
        assert!(!pattern_matches("piece.aether-*", "piece.elemental"));
        assert!(!pattern_matches("piece.aether-1", "piece.aether-1"));
    }
}
