//! The style checks of `templates/i18n/en.toml` `[style]` are on for English, as for Finnish: a
//! sentence has at most one colon (the label the page prints before a text, `Our reading:` or
//! `The rulebook:`, counts), and a text does not repeat the label it stands under. Every shipped
//! game's English reads clean, and each pattern, put back as the shipped prose once had it, is
//! warned about at its key in `rules.en.toml`.

mod common;

use std::path::Path;

use common::Fixture;
use printplay::model::load_game;

const SHIPPED: &[&str] = &[
    "aether",
    "capek-golems",
    "imperial-settlers-aztecs",
    "the-search",
];

const RULES: [&str; 2] = [
    "a sentence has at most one colon",
    "a sentence does not repeat its label",
];

/// The style warnings of the rules check (`check` runs it among its stages).
fn style_warnings(game: &printplay::model::Game) -> Vec<printplay::diag::Problem> {
    printplay::rules::check(game)
        .into_iter()
        .filter(|w| w.rule.as_deref().is_some_and(|r| RULES.contains(&r)))
        .collect()
}

#[test]
fn english_style_rules_are_on() {
    let msgs: toml::Table = toml::from_str(
        &std::fs::read_to_string(common::repo().join("templates/i18n/en.toml")).unwrap(),
    )
    .unwrap();
    let style = msgs["style"].as_table().unwrap();
    assert_eq!(style["one_colon"].as_bool(), Some(true));
    assert_eq!(style["label_not_repeated"].as_bool(), Some(true));
}

#[test]
fn every_shipped_games_english_reads_clean() {
    for slug in SHIPPED {
        let game = load_game(Path::new("data"), slug).unwrap();
        assert!(game.rules.texts.contains_key("en"), "{slug} has English");
        let found: Vec<String> = style_warnings(&game)
            .iter()
            .filter(|w| w.location().is_some_and(|l| l.contains("rules.en.toml")))
            .map(|w| format!("{}: {}", w.location().unwrap_or_default(), w.message))
            .collect();
        assert!(found.is_empty(), "{slug}: {found:#?}");
    }
}

/// Each kind, as the shipped English had it before the rules were on: `(game, the text now,
/// the text then, where the warning points, what it says)`.
const CASES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "the-search",
        "They may. A reinforced officer",
        "They may: a reinforced officer",
        "They may: a reinforced officer",
        "`variant.stacking.reading`: a sentence with 2 colons (the page prints `Our reading:` before it)",
    ),
    (
        "the-search",
        "diagonally (the only diagonal move\n  in the game).",
        "diagonally: the only diagonal move\n  in the game.",
        "move exactly",
        "`turn`: a sentence with 2 colons;",
    ),
    (
        "aether",
        "Nothing printed says whether a player",
        "The rulebook does not say whether a player",
        "The rulebook does not say",
        "`variant.aether-contenders.ambiguity`: the label `The rulebook:` is repeated",
    ),
    (
        "capek-golems",
        "No other move places these markers: cards from your hand never give any.",
        "This is the only way to gain field research: cards from your hand never give it.",
        "research: cards",
        "`turn`: the label `Research:` is repeated",
    ),
    (
        "imperial-settlers-aztecs",
        "*Each card:* only the cards drawn",
        "*Each card:* each card drawn",
        "*Each card:* each card drawn",
        "`quick`: the label `Each card:` is repeated",
    ),
];

#[test]
fn each_pattern_is_warned_about_at_its_key() {
    for (slug, now, then, at, message) in CASES {
        let f = Fixture::with_games(&[slug]);
        f.edit(slug, "rules.en.toml", now, then);
        let text = std::fs::read_to_string(f.file(slug, "rules.en.toml")).unwrap();
        let game = load_game(f.data(), slug).unwrap();
        let found = style_warnings(&game);
        let hit = found
            .iter()
            .find(|p| p.message.contains(message))
            .unwrap_or_else(|| panic!("{slug}: no `{message}` in {found:#?}"));
        // At the words (or the start of the text's sentence, for a colon the page's label
        // adds): the line the edited words are on, or the first line of their sentence.
        let offset = text.find(at).unwrap();
        let line = text[..offset].matches('\n').count() + 1;
        let place = hit.location().unwrap();
        let at_line: usize = place
            .rsplit(':')
            .nth(1)
            .and_then(|l| l.parse().ok())
            .unwrap_or(0);
        assert!(
            place.contains("rules.en.toml:") && (line.saturating_sub(3)..=line).contains(&at_line),
            "{slug}: `{message}` at {place}, not near line {line}"
        );
        assert_eq!(found.len(), 1, "{slug}: one warning, {found:#?}");
    }
}
