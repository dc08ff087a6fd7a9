//! Every page that shows a translated text says when that text may be out of date, the way the
//! full page always did: for each text of Aether's Finnish rules, its English source is changed
//! in a copy of the game, and each generated Finnish page (the full reference and the quick
//! reference, HTML and Markdown) must carry the "out of date" note in exactly the places that
//! show the text: the sections of the full page, the quick page as a whole. Where a text shows
//! is found by rendering the pages with the Finnish text replaced by a marker (a noun: every
//! form of it, since a placeholder picks the form). Every text is located; one text of each
//! kind and set of places is made stale (a render takes a while in a debug build).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use printplay::model::load_game;
use printplay::rules::{Assets, Format, render};
use printplay::translate::texts;

const SLUG: &str = "aether";
const MARKER: &str = "QZMARKQZ";
const NOTE: &str = "Käännös voi olla vanhentunut";

/// A copy of the game with some literals of a rules file replaced (`(span, new literal)`).
fn copy_with(
    file: &str,
    edits: &[(std::ops::Range<usize>, String)],
) -> (tempfile::TempDir, printplay::model::Game) {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join(SLUG);
    common::copy_dir(&Path::new("data").join(SLUG), &dest);
    let path = dest.join(file);
    let mut text = std::fs::read_to_string(&path).unwrap();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    for (range, literal) in edits {
        text.replace_range(range, &literal);
    }
    std::fs::write(&path, text).unwrap();
    let game = load_game(dir.path(), SLUG).unwrap_or_else(|p| panic!("{file}: {p:#?}"));
    (dir, game)
}

/// The generated Finnish pages by name, each split into its parts: `""` for what precedes
/// the first section, then each section by its id (HTML) or title (Markdown), with the
/// figures it shows from files of their own.
fn pages(
    game: &printplay::model::Game,
    assets: &Assets,
) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for format in [Format::Html, Format::Md] {
        let files = render(game, "fi", format, assets).unwrap_or_else(|p| panic!("{p:#?}"));
        let pages = files.iter().filter(|f| !f.name.ends_with(".svg"));
        for f in pages {
            let mut parts = BTreeMap::new();
            let (cut, name_end): (&str, &str) = match format {
                Format::Html => ("<section id=\"", "\""),
                Format::Md => ("\n## ", "\n"),
            };
            let mut pieces = f.text.split(cut);
            parts.insert(String::new(), pieces.next().unwrap_or("").to_string());
            for p in pieces {
                let name = p.split(name_end).next().unwrap().to_string();
                parts.entry(name).or_insert_with(String::new).push_str(p);
            }
            // A Markdown page's figures are files of their own: each belongs to the section
            // that shows it.
            for svg in files.iter().filter(|s| s.name.ends_with(".svg")) {
                if let Some(part) = parts.values_mut().find(|p| p.contains(&svg.name)) {
                    part.push_str(&svg.text);
                }
            }
            out.insert(f.name.clone(), parts);
        }
    }
    assert_eq!(out.len(), 4, "{:?}", out.keys().collect::<Vec<_>>());
    out
}

/// Where each text shows: `(page, part)` by key. Every Finnish text that is not a noun is
/// replaced by a marker of its own in one copy, every noun (all its forms) in another, since a
/// noun shows through the placeholders of the other texts.
fn places(
    shipped: &printplay::model::Game,
    assets: &Assets,
) -> BTreeMap<String, Vec<(String, String)>> {
    let fi = texts(&shipped.rules.texts["fi"].file).unwrap();
    let noun_of = |key: &str| {
        key.strip_prefix("nouns.")
            .and_then(|r| r.rsplit_once('.'))
            .map(|(n, _)| n.to_string())
    };
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for nouns in [false, true] {
        let mut markers: Vec<(String, String)> = Vec::new();
        let mut edits = Vec::new();
        for t in fi.iter().filter(|t| noun_of(&t.key).is_some() == nouns) {
            // A noun's forms share its marker.
            let id = noun_of(&t.key).unwrap_or_else(|| t.key.clone());
            let marker = match markers.iter().find(|(k, _)| *k == id) {
                Some((_, m)) => m.clone(),
                None => {
                    let m = format!("{MARKER}{:03}Q", markers.len());
                    markers.push((id.clone(), m.clone()));
                    m
                }
            };
            edits.push((t.span.clone(), format!("\"{marker}\"")));
        }
        let (_dir, marked) = copy_with("rules.fi.toml", &edits);
        let pages = pages(&marked, assets);
        for t in fi.iter().filter(|t| noun_of(&t.key).is_some() == nouns) {
            let id = noun_of(&t.key).unwrap_or_else(|| t.key.clone());
            let marker = &markers.iter().find(|(k, _)| *k == id).unwrap().1;
            let at = out.entry(t.key.clone()).or_default();
            for (page, parts) in &pages {
                for (part, text) in parts {
                    if text.contains(marker.as_str()) {
                        at.push((page.clone(), part.clone()));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_page_showing_a_stale_text_says_so_where_it_shows() {
    let assets = Assets::load_default().unwrap();
    let shipped = load_game(Path::new("data"), SLUG).unwrap();
    let en = texts(&shipped.rules.texts["en"].file).unwrap();
    // The shipped pages are all up to date.
    let pristine = pages(&shipped, &assets);
    for (name, parts) in &pristine {
        assert!(
            parts.values().all(|p| !p.contains(NOTE)),
            "{name} notes a stale text in the shipped game"
        );
    }
    let places = places(&shipped, &assets);
    assert!(
        places.len() >= 60,
        "Aether's Finnish texts: {}",
        places.len()
    );
    let mut problems = Vec::new();
    let mut on_quick = 0;
    // One text of each kind (`variant.*.title`, `nouns.*.one`...) per set of places it shows
    // in: a page's note follows a text's kind and places, and a render takes a while.
    let mut tried = std::collections::BTreeSet::new();
    for t in &en {
        let Some(shown) = places.get(&t.key) else {
            continue;
        };
        let kind = (
            t.key.split('.').next().unwrap_or("").to_string(),
            t.key.rsplit('.').next().unwrap_or("").to_string(),
        );
        if !tried.insert((kind, shown.clone())) {
            continue;
        }
        // The English source changed (in the loaded game: the marks are read from the folder
        // and the sources from the English file's text): the Finnish text is stale.
        let mut stale = shipped.clone();
        let lr = stale.rules.texts.get_mut("en").unwrap();
        let mut text = lr.file.text.to_string();
        let changed = toml::Value::String(format!("{} Changed.", t.value)).to_string();
        text.replace_range(t.span.clone(), &changed);
        lr.file.text = text.into();
        assert_eq!(
            printplay::translate::stale_keys(&stale, "fi"),
            std::slice::from_ref(&t.key),
            "only {} is stale",
            t.key
        );
        let noted = pages(&stale, &assets);
        for (page, parts) in &noted {
            for (part, text) in parts {
                let shows = shown.contains(&(page.clone(), part.clone()));
                let has_note = text.contains(NOTE);
                on_quick += usize::from(shows && page.starts_with("quick."));
                if shows != has_note {
                    problems.push(format!(
                        "{}: {page} `{part}` {} the text but {} the note",
                        t.key,
                        if shows { "shows" } else { "does not show" },
                        if has_note { "has" } else { "lacks" }
                    ));
                }
            }
        }
        // Print labels are for the board's print file, not a page.
        if shown.is_empty() && !t.key.starts_with("print_labels.") {
            problems.push(format!("{}: no page shows it", t.key));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(tried.len() >= 15, "{} kinds of text tried", tried.len());
    assert!(
        on_quick >= 4,
        "the quick page's texts were tried: {on_quick}"
    );
}
