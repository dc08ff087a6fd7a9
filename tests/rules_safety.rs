//! Rules references are safe by construction: hostile data (a `javascript:` link, a remote
//! image, `<script>` in a title and in prose) fails `check` at its place and writes nothing;
//! the Markdown escapes the title; `printplay rules` writes to `--out DIR/<slug>/` like `build`
//! and keeps the previous files when the data has problems.

mod common;

use std::path::Path;

use common::Fixture;
use printplay::model::load_game;
use printplay::rules::{Assets, Format, render};

const GAME: &str = "the-search";

/// The Search with hostile data in its title and its prose; returns the lines of each edit.
fn hostile(f: &Fixture) -> Vec<(&'static str, usize)> {
    let title = f.edit(
        GAME,
        "game.toml",
        "name = \"Aether Captains: The Search\"",
        "name = \"The Search<script>alert(1)</script>\"",
    );
    let link = f.edit(
        GAME,
        "rules.en.toml",
        "A criminal is loose",
        "[Click](javascript:alert(document.cookie)) A criminal is loose",
    );
    let image = f.edit(
        GAME,
        "rules.en.toml",
        "**The criminal wins** by either",
        "![tracker](https://evil.example/pixel.png) **The criminal wins** by either",
    );
    let script = f.edit(
        GAME,
        "rules.en.toml",
        "The game ends the moment",
        "<script>alert(2)</script> The game ends the moment",
    );
    vec![
        ("game.toml", title),
        ("rules.en.toml", link),
        ("rules.en.toml", image),
        ("rules.en.toml", script),
    ]
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.path().is_dir() {
                out.extend(files_under(&e.path()));
            } else {
                out.push(e.path().display().to_string());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn hostile_data_fails_check_at_each_place_and_writes_nothing() {
    let f = Fixture::with_games(&[GAME]);
    let places = hostile(&f);
    let check = f.run(&["check", GAME]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    for (file, line) in &places {
        assert!(
            check.stderr.contains(&format!("{file}:{line}:")),
            "no problem at {file}:{line}: {}",
            check.stderr
        );
    }
    assert!(check.stderr.contains("javascript:"), "{}", check.stderr);
    assert!(check.stderr.contains("remote"), "{}", check.stderr);
    assert!(check.stderr.contains("raw HTML"), "{}", check.stderr);
    assert!(check.stderr.contains("HTML markup"), "{}", check.stderr);

    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    let rules = f.run(&["rules", GAME, "--out", out_dir]);
    assert_eq!(rules.code, 1, "{}", rules.stderr);
    assert!(
        files_under(out.path()).is_empty(),
        "{:?}",
        files_under(out.path())
    );
    let build = f.run(&["build", GAME, "--out", out_dir]);
    assert_eq!(build.code, 1, "{}", build.stderr);
    assert!(
        files_under(out.path()).is_empty(),
        "{:?}",
        files_under(out.path())
    );
}

#[test]
fn rules_writes_under_out_slug_and_keeps_the_previous_files_on_problems() {
    let f = Fixture::with_games(&[GAME]);
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    let good = f.run(&["rules", GAME, "--out", out_dir]);
    assert_eq!(good.code, 0, "{}", good.stderr);
    let page = out.path().join(GAME).join("rules.en.html");
    let quick = out.path().join(GAME).join("quick.en.md");
    assert!(page.is_file() && quick.is_file(), "{}", good.stdout);
    let before = std::fs::read(&page).unwrap();
    f.edit(
        GAME,
        "rules.en.toml",
        "A criminal is loose",
        "[x](javascript:void(0)) A criminal is loose",
    );
    let bad = f.run(&["rules", GAME, "--out", out_dir]);
    assert_eq!(bad.code, 1, "{}", bad.stderr);
    assert!(bad.stdout.contains("not written"), "{}", bad.stdout);
    assert_eq!(
        std::fs::read(&page).unwrap(),
        before,
        "the previous page is kept"
    );
}

#[test]
fn renderers_drop_unsafe_links_and_images_even_unchecked() {
    let f = Fixture::with_games(&[GAME]);
    hostile(&f);
    let game = load_game(f.data(), GAME).unwrap();
    let assets = Assets::load_default().unwrap();
    for file in render(&game, "en", Format::Html, &assets).unwrap() {
        let text = file.text.to_lowercase();
        assert!(!text.contains("javascript:"), "{}", file.name);
        assert!(!text.contains("evil.example"), "{}", file.name);
        assert!(!text.contains("<script"), "{}", file.name);
    }
    // Markdown: what a renderer would make of it holds no raw HTML, no unsafe link or image.
    for file in render(&game, "en", Format::Md, &assets).unwrap() {
        if !file.name.ends_with(".md") {
            continue;
        }
        let opts = printplay::rules::markdown::options();
        for event in pulldown_cmark::Parser::new_ext(&file.text, opts) {
            match event {
                pulldown_cmark::Event::Html(h) | pulldown_cmark::Event::InlineHtml(h) => {
                    panic!("{}: raw HTML {h}", file.name)
                }
                pulldown_cmark::Event::Start(pulldown_cmark::Tag::Link { dest_url, .. })
                | pulldown_cmark::Event::Start(pulldown_cmark::Tag::Image { dest_url, .. }) => {
                    assert!(
                        !dest_url.contains("javascript") && !dest_url.contains("evil.example"),
                        "{}: {dest_url}",
                        file.name
                    );
                }
                _ => {}
            }
        }
    }
}

#[test]
fn the_markdown_title_and_names_are_escaped() {
    let f = Fixture::with_games(&[GAME]);
    f.edit(
        GAME,
        "game.toml",
        "name = \"Aether Captains: The Search\"",
        "name = \"*The* [Search](http://x) # _1_\"",
    );
    let game = load_game(f.data(), GAME).unwrap();
    let assets = Assets::load_default().unwrap();
    for file in render(&game, "en", Format::Md, &assets).unwrap() {
        if !file.name.ends_with(".md") {
            continue;
        }
        let html = printplay::rules::markdown::to_html(&file.text);
        let h1_start = html.find("<h1").unwrap();
        let h1 = &html[h1_start..html[h1_start..].find("</h1>").unwrap() + h1_start];
        assert!(
            h1.contains("*The* [Search](http://x) # _1_"),
            "{}: the title is shown as written: {h1}",
            file.name
        );
        assert!(!html.contains("href=\"http://x\""), "{}", file.name);
    }
}

#[test]
fn en_and_fi_pages_link_to_each_other_with_hreflang() {
    let game = load_game(Path::new("data"), "aether").unwrap();
    let assets = Assets::load_default().unwrap();
    for (lang, other, name) in [("en", "fi", "suomi"), ("fi", "en", "English")] {
        for (i, page) in ["rules", "quick"].iter().enumerate() {
            let files = render(&game, lang, Format::Html, &assets).unwrap();
            let html = &files[i].text;
            let target = format!("{page}.{other}.html");
            assert!(
                html.contains(&format!(
                    "<link rel=\"alternate\" hreflang=\"{other}\" href=\"{target}\">"
                )),
                "{lang} {page}: no alternate link"
            );
            assert!(
                html.contains(&format!(
                    "<a href=\"{target}\" hreflang=\"{other}\" lang=\"{other}\">{name}</a>"
                )),
                "{lang} {page}: no visible switch"
            );
        }
    }
}

#[test]
fn the_full_page_links_its_quick_reference_and_back() {
    let game = load_game(Path::new("data"), GAME).unwrap();
    let assets = Assets::load_default().unwrap();
    let files = render(&game, "en", Format::Html, &assets).unwrap();
    assert_eq!(files[0].name, "rules.en.html");
    assert_eq!(files[1].name, "quick.en.html");
    assert!(files[0].text.contains("href=\"quick.en.html\""));
    assert!(files[1].text.contains("href=\"rules.en.html\""));
    // The appendix is collapsed, after the rules.
    let page = &files[0].text;
    let appendix = page.find("<details class=\"appendix\"").unwrap();
    assert!(page.find("id=\"turn\"").unwrap() < appendix);
    assert!(page.find("id=\"unprinted\"").unwrap() > appendix);
}

#[test]
fn the_gallery_shows_the_images_the_build_wrote_and_links_the_print_files() {
    let f = Fixture::with_games(&[GAME]);
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    // `rules` alone: no images beside the reference, so no gallery.
    let alone = f.run(&["rules", GAME, "--out", out_dir]);
    assert_eq!(alone.code, 0, "{}", alone.stderr);
    let page = out.path().join(GAME).join("rules.en.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("class=\"gallery\""),
        "a gallery of missing images"
    );
    // The build writes the images first, then the reference that shows them.
    let build = f.run(&["build", GAME, "--out", out_dir]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    let game = load_game(f.data(), GAME).unwrap();
    for card in game.components.decks.iter().flat_map(|d| &d.cards) {
        let src = format!("src=\"png/{}.png\"", card.id.get_ref());
        assert!(html.contains(&src), "the gallery lacks {src}");
        assert!(
            out.path()
                .join(GAME)
                .join(format!("png/{}.png", card.id.get_ref()))
                .is_file()
        );
    }
    assert!(html.contains("<a href=\"cards.pdf\">") && html.contains("<a href=\"tokens.pdf\">"));
    // Every image has its size, so the page does not jump while they load.
    for (i, _) in html.match_indices("<img ") {
        let tag: String = html[i..].chars().take_while(|c| *c != '>').collect();
        assert!(
            tag.contains(" width=\"") && tag.contains(" height=\"") && tag.contains(" alt=\""),
            "{tag}"
        );
    }
}
