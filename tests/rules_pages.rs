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

/// The games by slug.
fn games() -> std::collections::BTreeMap<String, Game> {
    SHIPPED
        .iter()
        .map(|s| (s.to_string(), load_game(Path::new("data"), s).unwrap()))
        .collect()
}

/// The game a page belongs to.
fn game_of<'a>(games: &'a std::collections::BTreeMap<String, Game>, page: &Page) -> &'a Game {
    &games[page.name.split('/').next().unwrap()]
}

/// The cells (`<th>`/`<td>`) of each body row of the table a caption opens, as text.
fn table_rows(html: &str, caption: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (i, _) in html.match_indices("<caption") {
        let end = i + html[i..].find("</table>").unwrap();
        let table = &html[i..end];
        let cap_end = table.find("</caption>").unwrap();
        if common::html_text(&table[..cap_end + 10]) != caption {
            continue;
        }
        let body = &table[table.find("<tbody").unwrap_or(0)..];
        for row in body.split("<tr").skip(1) {
            let cells: Vec<String> = row
                .split("<td")
                .skip(1)
                .chain(row.split("<th").skip(1))
                .map(|c| common::html_text(&format!("<td{c}")))
                .collect();
            // Header cells come first in a row: put them back in front.
            let mut ordered: Vec<String> = row
                .split("<th")
                .skip(1)
                .map(|c| common::html_text(&format!("<th{c}")))
                .collect();
            if ordered.is_empty() {
                ordered = cells;
            } else {
                ordered.extend(
                    row.split("<td")
                        .skip(1)
                        .map(|c| common::html_text(&format!("<td{c}"))),
                );
            }
            out.push(ordered);
        }
    }
    out
}

/// A message of the page's language.
fn msg(lang: &str, key: &str) -> String {
    let assets = Assets::load_default().unwrap();
    assets.messages(lang).unwrap().get(key).unwrap().to_string()
}

fn lang_of(page: &Page) -> String {
    // `…/rules.fi.html`, `…/quick.en.html`
    let name = page.name.rsplit('/').next().unwrap();
    name.split('.').nth(1).unwrap().to_string()
}

/// The Search plays (and its full page states) that a turn must hold a move or a card play
/// whenever one is possible: the quick reference says so too and calls no action optional.
#[test]
fn quick_references_state_the_no_passing_reading() {
    let games = games();
    let mut checked = 0;
    for page in pages(Format::Html) {
        if !page.name.contains("/quick.") {
            continue;
        }
        let game = game_of(&games, &page);
        let lang = lang_of(&page);
        let Some(passing) = game.rules.texts[&lang]
            .text
            .variants
            .iter()
            .find(|v| v.id.get_ref() == "passing" && v.default == "must-act")
        else {
            continue;
        };
        checked += 1;
        let text = common::html_text(&page.text).to_lowercase();
        let reading = passing.reading.get_ref().to_lowercase();
        let rule: String = reading
            .split(',')
            .next()
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            text.contains(&rule),
            "{}: the quick reference leaves out `{rule}`",
            page.name
        );
        for word in ["optional", "vapaaehtoi"] {
            assert!(
                !text.contains(word),
                "{}: the quick reference calls an action {word}",
                page.name
            );
        }
    }
    assert!(checked >= 1, "no game declares the passing reading");
}

/// A card's text that we wrote is not "the printed card": every page, every language.
#[test]
fn no_page_cites_a_printed_card_for_our_card_text() {
    for page in pages(Format::Html) {
        let text = common::html_text(&page.text).to_lowercase();
        for phrase in [
            "the printed card",
            "card as printed",
            "painettu kortti",
            "painetun kortin",
        ] {
            assert!(
                !text.contains(phrase),
                "{}: `{phrase}`, though the card texts are ours",
                page.name
            );
        }
    }
}

/// The components table lists each thing once (a track printed on a card counts with that
/// card's deck), and a row whose Source says the rulebook prints it does not call it
/// unprinted in its purpose.
#[test]
fn the_components_table_lists_each_thing_once_and_agrees_with_its_source() {
    let games = games();
    for page in pages(Format::Html) {
        if page.name.contains("/quick.") {
            continue;
        }
        let game = game_of(&games, &page);
        let lang = lang_of(&page);
        let rows = table_rows(&page.text, &msg(&lang, "components_caption"));
        assert!(
            rows.len() >= 3,
            "{}: {} component rows",
            page.name,
            rows.len()
        );
        let mut names = BTreeSet::new();
        for row in &rows {
            assert!(
                names.insert(row[0].to_lowercase()),
                "{}: `{}` twice",
                page.name,
                row[0]
            );
        }
        for t in game.components.tracks.iter().filter(|t| t.card.is_some()) {
            let name = game.rules.texts[&lang]
                .text
                .components
                .get(&format!("track.{}", t.id.get_ref()))
                .and_then(|c| c.name.clone())
                .unwrap_or_else(|| t.names.get(&lang).unwrap_or(&t.name).clone());
            assert!(
                !names.contains(&name.to_lowercase()),
                "{}: the track `{name}` has a row of its own though its card is in a deck's row",
                page.name
            );
        }
        let printed = msg(&lang, "printed");
        for row in &rows {
            let (purpose, source) = (row[2].to_lowercase(), &row[3]);
            let unprinted = [
                "not printed",
                "do not print",
                "ei tulosteta",
                "emme tulosta",
            ]
            .iter()
            .find(|w| purpose.contains(*w));
            assert!(
                !(source.starts_with(&printed) && unprinted.is_some()),
                "{}: `{}` is `{printed}` by its Source but its purpose says `{}`",
                page.name,
                row[0],
                unprinted.unwrap()
            );
        }
    }
}

/// The data's ids with a hyphen (`common-base`): words of the data, never of a page.
fn hyphenated_ids(game: &Game) -> BTreeSet<String> {
    let c = &game.components;
    let mut ids: Vec<String> = Vec::new();
    for d in &c.decks {
        ids.push(d.id.get_ref().clone());
        ids.extend(d.cards.iter().map(|x| x.id.get_ref().clone()));
    }
    ids.extend(c.pieces.iter().map(|p| p.id.get_ref().clone()));
    ids.extend(c.symbols.iter().map(|s| s.id.get_ref().clone()));
    ids.extend(c.boards.iter().map(|b| b.id.get_ref().clone()));
    ids.extend(c.tracks.iter().map(|t| t.id.get_ref().clone()));
    // An id that is also a word of the game's names ("crime-scene markers") is a word.
    let mut names: Vec<String> = Vec::new();
    for d in &c.decks {
        names.push(d.name.clone());
        names.extend(d.cards.iter().map(|x| x.name.clone()));
    }
    names.extend(c.pieces.iter().map(|p| p.name.clone()));
    names.extend(c.symbols.iter().map(|s| s.name.clone()));
    names.extend(c.boards.iter().map(|b| b.name.clone()));
    names.extend(c.tracks.iter().map(|t| t.name.clone()));
    for lr in game.rules.texts.values() {
        names.extend(lr.text.components.values().filter_map(|x| x.name.clone()));
    }
    // And so is one the prose writes as a word ("the light-grey hexes"), outside its
    // placeholders and table names.
    for entry in std::fs::read_dir(Path::new("data").join(&game.slug)).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if file.starts_with("rules.") && file.ends_with(".toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut prose = String::new();
            let mut depth = 0;
            for line in text.lines().filter(|l| !l.starts_with('[')) {
                for ch in line.chars() {
                    match ch {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        c if depth == 0 => prose.push(c),
                        _ => {}
                    }
                }
                prose.push('\n');
            }
            names.push(prose);
        }
    }
    let names = names.join("\n").to_lowercase();
    ids.into_iter()
        .filter(|i| i.contains('-') && !has_word(&names, i))
        .collect()
}

/// A page's text as read: no code (the simulator's readings name their options in code), no
/// tags, no attributes.
fn read_text(html: &str) -> String {
    let mut html = html.to_string();
    while let Some(i) = html.find("<code") {
        let j = i + html[i..].find("</code>").unwrap() + "</code>".len();
        html.replace_range(i..j, " ");
    }
    common::html_text(&html).to_lowercase()
}

#[test]
fn no_data_id_reaches_a_page() {
    let games = games();
    for page in pages(Format::Html) {
        let text = read_text(&page.text);
        for id in hyphenated_ids(game_of(&games, &page)) {
            assert!(
                !has_word(&text, &id),
                "{}: the data id `{id}` on the page",
                page.name
            );
        }
    }
    assert!(has_word(
        &read_text("<p>See common-base.</p>"),
        "common-base"
    ));
}

/// A label in running text keeps the case of its term: "Scientific Inquiry colour", not
/// "scientific Inquiry colour" (a lowered first word before a capitalised one).
fn mixed_case(text: &str) -> Option<String> {
    text.split([':', ';', '(', ','])
        .map(str::trim)
        .find(|s| {
            let mut words = s.split_whitespace();
            let (Some(a), Some(b)) = (words.next(), words.next()) else {
                return false;
            };
            a.chars().next().is_some_and(char::is_lowercase)
                && a.chars().all(char::is_alphabetic)
                && b.chars().next().is_some_and(char::is_uppercase)
                && b.chars().skip(1).any(char::is_lowercase)
        })
        .map(str::to_string)
}

#[test]
fn appendix_labels_keep_the_case_of_their_terms() {
    assert!(mixed_case("Golem cards: scientific Inquiry colour").is_some());
    assert!(mixed_case("Golem cards: Scientific Inquiry colour").is_none());
    assert!(mixed_case("card shows the Draw Pile").is_none());
    for page in pages(Format::Html) {
        let Some(start) = page.text.find("<section id=\"unprinted\"") else {
            continue;
        };
        let end = start + page.text[start..].find("</section>").unwrap();
        // The first cell of each row names the values; the reasons are sentences.
        for row in page.text[start..end].split("<tr").skip(1) {
            let Some(cell) = row.split("<td").nth(1) else {
                continue;
            };
            let text = common::html_text(&format!("<td{}", &cell[..cell.find("</td>").unwrap()]));
            assert!(
                mixed_case(&text).is_none(),
                "{}: a label in mixed case: `{}`",
                page.name,
                mixed_case(&text).unwrap()
            );
        }
    }
}
