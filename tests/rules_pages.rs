//! What a player reads on every page (the full reference and the quick one, in each language
//! of each shipped game): cross-references are links to ids the page has, the player's text
//! holds no developer words, and the quick references give each card effect in one line.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use printplay::model::{Game, load_game};
use printplay::rules::{Assets, Format, OutFile, render};

const SHIPPED: &[&str] = &[
    "capek-golems",
    "the-search",
    "aether",
    "imperial-settlers-aztecs",
];

/// One rendered page: where it comes from and its text.
struct Page {
    name: String,
    text: String,
}

/// The full and the quick page of every shipped game in every language, in a format.
fn pages(format: Format) -> Vec<Page> {
    let assets = Assets::load_default().expect("templates load");
    let mut out = Vec::new();
    for slug in SHIPPED {
        let game: Game = load_game(Path::new("data"), slug).unwrap();
        for lang in printplay::rules::languages(&game) {
            let files: Vec<OutFile> = render(&game, &lang, format, &assets)
                .unwrap_or_else(|p| panic!("{slug} {lang}: {p:#?}"));
            out.extend(files.into_iter().take(2).map(|f| Page {
                name: format!("{slug}/{}", f.name),
                text: f.text,
            }));
        }
    }
    assert!(out.len() >= 10, "{} pages", out.len());
    out
}

/// The values of an attribute (`id="..."`) in HTML.
fn attribute_values(html: &str, attribute: &str) -> Vec<String> {
    let open = format!(" {attribute}=\"");
    html.match_indices(&open)
        .map(|(i, _)| {
            let rest = &html[i + open.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

/// What a player reads on an HTML page: its `<main>` without the appendix (where the values
/// come from and the simulator's readings) and without inline drawings.
fn player_part(html: &str) -> String {
    let start = html.find("<main").expect("a <main>");
    let end = html
        .find("<details class=\"appendix\"")
        .or_else(|| html.find("</main>"))
        .unwrap();
    let mut part = html[start..end].to_string();
    while let Some(i) = part.find("<svg") {
        let j = i + part[i..].find("</svg>").expect("a closed <svg>") + "</svg>".len();
        part.replace_range(i..j, " ");
    }
    part
}

#[test]
fn every_link_within_a_page_names_an_id_it_has() {
    for page in pages(Format::Html) {
        let ids: BTreeSet<String> = attribute_values(&page.text, "id").into_iter().collect();
        for href in attribute_values(&page.text, "href") {
            if let Some(target) = href.strip_prefix('#') {
                assert!(
                    ids.contains(target),
                    "{}: a link to #{target}, which the page does not have",
                    page.name
                );
            }
        }
    }
}

#[test]
fn every_link_within_a_markdown_page_names_one_of_its_headings() {
    for page in pages(Format::Md) {
        let anchors: BTreeSet<String> = page
            .text
            .lines()
            .filter_map(|l| {
                l.trim_start_matches('#')
                    .strip_prefix(' ')
                    .filter(|_| l.starts_with('#'))
            })
            .map(printplay::rules::document::heading_anchor)
            .collect();
        for (i, _) in page.text.match_indices("](#") {
            let rest = &page.text[i + 3..];
            let target = &rest[..rest.find(')').unwrap()];
            assert!(
                anchors.contains(target),
                "{}: a link to #{target}, which no heading has ({anchors:?})",
                page.name
            );
        }
    }
}

/// The words that announce a cross-reference, per language.
const SEE: &[&str] = &["see ", "See ", "katso ", "Katso "];

#[test]
fn cross_references_in_the_prose_are_links() {
    for page in pages(Format::Html) {
        let html = player_part(&page.text);
        // "see X": X is a link.
        for word in SEE {
            for (i, _) in html.match_indices(word) {
                let before = html[..i].chars().next_back().unwrap_or(' ');
                if before.is_alphanumeric() {
                    continue;
                }
                let after = html[i + word.len()..].trim_start();
                let context: String = html[i..].chars().take(80).collect();
                assert!(
                    after.starts_with("<a href=\"#"),
                    "{}: an unlinked cross-reference: {context}",
                    page.name
                );
            }
        }
        // A section or subheading named in emphasis is a link to it, not just italics.
        let titles: Vec<String> = ["<h2", "<h3"]
            .iter()
            .flat_map(|tag| html.match_indices(tag).map(|(i, _)| i).collect::<Vec<_>>())
            .map(|i| {
                let end = i + html[i..].find("</h").unwrap();
                common::html_text(&html[i..end])
                    .trim_end_matches('#')
                    .trim()
                    .to_string()
            })
            .filter(|t| !t.is_empty())
            .collect();
        for title in &titles {
            let emphasised = format!("<em>{title}</em>");
            assert!(
                !html.contains(&emphasised),
                "{}: the section `{title}` is named in italics, not linked",
                page.name
            );
        }
    }
}

/// Words of the program, not of the game: option names, the program's and the engine's
/// names, data paths and files, code.
fn developer_words(text: &str, html: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    // Whole words, and stems that any ending keeps a developer word.
    let words = [
        "printplay",
        "the engine",
        "our engine",
        "engine's",
        "our data",
        "the data",
        "timeout",
    ];
    let stems = [
        "--", "moottori", "simulat", "simuloi", "simulaat", ".toml", ".txt",
    ];
    let mut found: Vec<String> = words
        .iter()
        .filter(|w| has_word(&lower, w))
        .chain(stems.iter().filter(|s| lower.contains(*s)))
        .map(|w| w.to_string())
        .collect();
    found.extend(data_paths(&lower));
    // Identifiers of the data (`set_a`, `hand_size`).
    found.extend(
        lower
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.trim_matches('_').contains('_'))
            .map(str::to_string),
    );
    if has_word(&lower, "bot") || has_word(&lower, "bots") {
        found.push("bot".into());
    }
    if html.contains("<code") {
        found.push("<code>".into());
    }
    found
}

/// Whether `word` stands in `text` as a whole word (`the engine`, not `the engineer`).
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Data paths in a text (`params.hand_size`, `deck.police`): a kind of value, a dot and a
/// name right after it (a sentence that ends with "board." is not one).
fn data_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for kind in [
        "params.", "deck.", "piece.", "pieces.", "board.", "track.", "symbol.",
    ] {
        for (i, _) in text.match_indices(kind) {
            let starts_word = !text[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
            let named = text[i + kind.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_lowercase());
            if starts_word && named {
                found.push(kind.to_string());
            }
        }
    }
    found
}

#[test]
fn the_player_text_holds_no_developer_words() {
    for page in pages(Format::Html) {
        let html = player_part(&page.text);
        // File links (`board.fi.pdf`) are the gallery's, not text.
        let text = common::html_text(&html);
        let words = developer_words(&text, &html);
        let context = |w: &str| {
            let lower = text.to_lowercase();
            lower
                .find(w)
                .map(|i| lower[i.saturating_sub(60)..(i + 60).min(lower.len())].to_string())
                .unwrap_or_default()
        };
        assert!(
            words.is_empty(),
            "{}: developer words {words:?}: …{}…",
            page.name,
            context(words.first().map(String::as_str).unwrap_or(""))
        );
    }
}

#[test]
fn the_developer_word_check_finds_an_option_a_data_path_and_code() {
    for (html, word) in [
        ("<p>Run it with --variant x.</p>", "--"),
        ("<p>The value of params.hand_size.</p>", "params."),
        ("<p>Cards: deck.police.</p>", "deck."),
        ("<p>Deck <code>common-base</code>.</p>", "<code>"),
        ("<p>The simulator stops it.</p>", "simulat"),
        ("<p>The same as set_a.</p>", "set_a"),
    ] {
        let words = developer_words(&common::html_text(html), html);
        assert!(words.contains(&word.to_string()), "{html}: {words:?}");
    }
    let clean = "<p>Steam Engine Dynamics: see <a href=\"#turn\">Turn</a> on the board.</p>";
    assert!(developer_words(&common::html_text(clean), clean).is_empty());
}

/// The longest card effect that prints on one line of the quick reference (A4 and Letter).
const EFFECT_LINE: usize = 100;

#[test]
fn quick_references_give_each_card_effect_one_line() {
    // The games whose cards carry effects; Aether's tiles have none beyond their element.
    for slug in ["capek-golems", "the-search", "imperial-settlers-aztecs"] {
        let quick: Vec<Page> = pages(Format::Html)
            .into_iter()
            .filter(|p| p.name.starts_with(&format!("{slug}/quick.")))
            .collect();
        assert!(!quick.is_empty(), "{slug}: no quick reference");
        for page in quick {
            // Effects are list items that open with the card's or the mark's name in italics.
            let effects: Vec<String> = page
                .text
                .match_indices("<li><em>")
                .map(|(i, _)| {
                    let end = i + page.text[i..].find("</li>").unwrap();
                    page.text[i..end].to_string()
                })
                .collect();
            assert!(
                effects.len() >= 5,
                "{}: {} card effects in one-line items",
                page.name,
                effects.len()
            );
            for item in effects {
                let text = common::html_text(&item);
                assert!(
                    !item.contains("<br") && !item.contains("<p>") && !item.contains("<ul"),
                    "{}: an effect of several lines: {text}",
                    page.name
                );
                assert!(
                    text.chars().count() <= EFFECT_LINE,
                    "{}: an effect longer than a printed line: {text}",
                    page.name
                );
            }
        }
    }
}

#[test]
fn the_appendix_names_values_and_reasons_in_words() {
    for page in pages(Format::Html) {
        let Some(start) = page.text.find("<section id=\"unprinted\"") else {
            continue;
        };
        let end = start + page.text[start..].find("</section>").unwrap();
        let html = &page.text[start..end];
        let text = common::html_text(html);
        let words = developer_words(&text, html);
        assert!(
            words.is_empty() && !text.contains('`'),
            "{}: the values not printed say {words:?} or hold code: {text}",
            page.name
        );
    }
}
