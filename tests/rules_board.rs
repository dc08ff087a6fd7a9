//! A board in each language its game is published in: `board.<lang>.pdf` carries the words of
//! that language (`[print_labels]` of `rules.<lang>.toml`, the interface words of
//! `templates/i18n/`), each reference links its own, and `check` reports a missing word at the
//! language's file.

mod common;

use std::path::Path;

use common::Fixture;
use printplay::model::{Game, load_game};
use printplay::render::faces::template::Templates;
use printplay::render::sheets::boards::{board_file, board_languages, board_svg_in, label_names};

const GAME: &str = "aether";

fn aether() -> Game {
    load_game(Path::new("data"), GAME).unwrap()
}

/// The board's drawing in a language, its text's entities decoded.
fn board_in(game: &Game, lang: &str) -> String {
    let templates = Templates::new(game).unwrap();
    board_svg_in(game, &game.components.boards[0], &templates, lang)
        .unwrap()
        .0
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn each_language_board_carries_its_own_words_only() {
    let game = aether();
    assert_eq!(board_languages(&game), ["fi", "en"]);
    // The printed words the board's template takes (the cards' templates take others).
    let template = std::fs::read_to_string("data/aether/templates/aether-board.svg").unwrap();
    let on_board = label_names(&template);
    assert!(!on_board.is_empty());
    let labels = |lang: &str| {
        let mut words = game.rules.texts[lang].text.print_labels.clone();
        words.retain(|name, _| on_board.contains(name));
        words
    };
    for (lang, other) in [("fi", "en"), ("en", "fi")] {
        let svg = board_in(&game, lang);
        assert!(!labels(lang).is_empty(), "{lang}: no [print_labels]");
        for (name, word) in labels(lang) {
            // Long words may wrap: every word of the label is drawn.
            for part in word.split_whitespace() {
                assert!(
                    svg.contains(part),
                    "{lang}: `{name}` ({word}) is not on the board"
                );
            }
        }
        for (name, word) in labels(other) {
            assert!(
                !svg.contains(&word),
                "{lang}: the {other} `{name}` ({word}) is on the board"
            );
        }
    }
    // The title is the board's name in the language, from the reference's components.
    let fi_name = game.rules.texts["fi"].text.components["board.board"]
        .name
        .clone()
        .unwrap();
    assert!(board_in(&game, "fi").contains(&fi_name));
    assert!(!board_in(&game, "en").contains(&fi_name));
}

#[test]
fn a_game_in_one_language_keeps_one_board_file() {
    assert_eq!(board_file(None), "board.pdf");
    assert_eq!(board_file(Some("fi")), "board.fi.pdf");
    let mut game = aether();
    game.info.languages = vec!["fi".into()];
    assert!(board_languages(&game).is_empty());
}

#[test]
fn a_missing_board_word_is_a_check_error_at_the_language_file() {
    let f = Fixture::with_games(&[GAME]);
    let line = f.edit(GAME, "rules.fi.toml", "pit = \"Uhrikuoppa\"\n", "");
    assert!(line > 1);
    let run = f.run(&["check", GAME]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(said.contains("labels.pit"), "{said}");
    let table = std::fs::read_to_string(f.file(GAME, "rules.fi.toml"))
        .unwrap()
        .lines()
        .position(|l| l == "[print_labels]")
        .unwrap()
        + 1;
    assert!(
        said.contains(&format!("rules.fi.toml:{table}:1")),
        "not placed at [print_labels] (line {table}): {said}"
    );
    assert!(
        !said.contains("rules.en.toml"),
        "the English file is complete: {said}"
    );
}

#[test]
fn the_build_writes_a_board_per_language_and_each_reference_links_its_own() {
    let f = Fixture::with_games(&[GAME]);
    let out = tempfile::tempdir().unwrap();
    let run = f.run(&["build", GAME, "--out", out.path().to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let dir = out.path().join(GAME);
    assert!(
        !dir.join("board.pdf").exists(),
        "a board.pdf beside the languages' boards"
    );
    let title = |lang: &str| {
        let doc = lopdf::Document::load(dir.join(format!("board.{lang}.pdf"))).unwrap();
        let info = doc.trailer.get(b"Info").unwrap().as_reference().unwrap();
        let title = doc
            .get_dictionary(info)
            .unwrap()
            .get(b"Title")
            .unwrap()
            .as_str()
            .unwrap()
            .to_vec();
        String::from_utf8_lossy(&title).into_owned()
    };
    assert!(title("fi").contains("pelilauta"), "{}", title("fi"));
    assert!(title("en").contains("board"), "{}", title("en"));
    for (lang, other) in [("fi", "en"), ("en", "fi")] {
        let html = std::fs::read_to_string(dir.join(format!("rules.{lang}.html"))).unwrap();
        assert!(
            html.contains(&format!("href=\"board.{lang}.pdf\"")),
            "{lang}"
        );
        assert!(
            !html.contains(&format!("href=\"board.{other}.pdf\"")),
            "{lang}"
        );
    }
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for lang in ["fi", "en"] {
        assert!(
            index.contains(&format!("href=\"board.{lang}.pdf\"")),
            "gallery: {lang}"
        );
    }
}
