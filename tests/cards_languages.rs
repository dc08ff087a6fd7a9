//! Cards in every language the game is published in: Aether (`languages = ["fi", "en"]`)
//! prints `cards.fi.pdf` and `cards.en.pdf`, each with its language's words and not the
//! other's, its gallery images per language (`png/<lang>/<id>.png`) and both in the gallery;
//! a deck marked `multilingual` is drawn once and printed in both; `check` warns, once per
//! cause and at the card's line or row, where a card lacks its words in a language, and
//! refuses a card template's word a language does not give, as the build would.

mod common;

use std::path::Path;
use std::process::Command;

use common::Fixture;
use printplay::pipeline::{self, Outcome};
use printplay::render::BuildOptions;
use printplay::render::faces::drawn::{Kind, every_face};

/// Builds `slug` of `data` into `out` with only the card, image and gallery stages.
fn build(data: &Path, slug: &str, out: &Path) -> Vec<String> {
    let options = BuildOptions {
        out: out.to_path_buf(),
        only: ["cards", "png", "index"].map(str::to_string).into(),
        ..BuildOptions::default()
    };
    let report = pipeline::build(data, &[slug.to_string()], &options, &|_| {});
    match &report.games[0].outcome {
        Outcome::Built(files) => files
            .iter()
            .map(|f| {
                f.strip_prefix(out.join(slug))
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect(),
        other => panic!("{slug} did not build: {other:?}"),
    }
}

/// The text of a PDF, as `pdftotext` reads it.
fn pdf_text(path: &Path) -> String {
    let out = Command::new("pdftotext")
        .arg(path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    assert!(out.status.success(), "pdftotext {}", path.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn aether_prints_a_card_file_in_each_language_with_that_languages_words() {
    let tmp = tempfile::tempdir().unwrap();
    let files = build(Path::new("data"), "aether", tmp.path());
    assert!(
        files.contains(&"cards.fi.pdf".to_string()) && files.contains(&"cards.en.pdf".to_string()),
        "{files:?}"
    );
    assert!(!files.contains(&"cards.pdf".to_string()), "{files:?}");
    let dir = tmp.path().join("aether");
    let fi = pdf_text(&dir.join("cards.fi.pdf"));
    let en = pdf_text(&dir.join("cards.en.pdf"));
    // The card's name, the heading and the turn in its own language only.
    for word in [
        "Pelaajan muistilappu",
        "Vuorosi",
        "Halutessasi uhraa",
        "vesi › tuli",
    ] {
        assert!(fi.contains(word), "`{word}` not in cards.fi.pdf: {fi}");
        assert!(!en.contains(word), "`{word}` in cards.en.pdf: {en}");
    }
    for word in [
        "Player aid",
        "Your turn",
        "You may sacrifice",
        "Water beats Fire",
    ] {
        assert!(en.contains(word), "`{word}` not in cards.en.pdf: {en}");
        assert!(!fi.contains(word), "`{word}` in cards.fi.pdf: {fi}");
    }
    // The gallery's images per language, differing, and the gallery showing each.
    let (img_fi, img_en) = (dir.join("png/fi/aid.png"), dir.join("png/en/aid.png"));
    assert_ne!(
        std::fs::read(&img_fi).unwrap(),
        std::fs::read(&img_en).unwrap()
    );
    assert!(!dir.join("png/aid.png").exists());
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for needle in [
        "src=\"png/fi/aid.png\"",
        "src=\"png/en/aid.png\"",
        "Pelaajien muistilaput (fi)",
        "Player aid (en)",
        "href=\"cards.fi.pdf\"",
        "href=\"cards.en.pdf\"",
    ] {
        assert!(index.contains(needle), "`{needle}` not in index.html");
    }
}

/// The one list of faces that `check` and `build` both walk holds each card's faces in
/// each language, named with it; a multilingual deck's once.
#[test]
fn every_face_lists_each_language_of_a_card() {
    let fixture = Fixture::with_games(&["aether"]);
    for multilingual in [false, true] {
        if multilingual {
            fixture.edit(
                "aether",
                "components.toml",
                "template = \"aether-aid\"",
                "template = \"aether-aid\"\nmultilingual = true",
            );
        }
        let game = printplay::model::load_game(fixture.data(), "aether").unwrap();
        let faces = printplay::render::draw_faces(&game, &BuildOptions::default()).unwrap();
        let list = every_face(&game, Some(&faces), &[]);
        let fronts: Vec<_> = list.iter().filter(|f| f.kind == Kind::CardFront).collect();
        let thumbs = list
            .iter()
            .filter(|f| f.kind == Kind::Thumbnail && f.deck.is_some());
        let backs = list.iter().filter(|f| f.kind == Kind::DeckBack).count();
        match multilingual {
            false => {
                let langs: Vec<_> = fronts.iter().map(|f| f.lang).collect();
                assert_eq!(langs, [Some("fi"), Some("en")]);
                assert!(fronts[1].what.contains("in `en`"), "{}", fronts[1].what);
                assert_eq!(thumbs.count(), 2);
                assert_eq!(backs, 2);
            }
            true => {
                assert_eq!(fronts.len(), 1);
                assert_eq!(fronts[0].lang, None);
                assert_eq!(thumbs.count(), 1);
                assert_eq!(backs, 1);
            }
        }
    }
}

/// A multilingual deck is drawn once, with the data's own words, and printed in each
/// language's file; its image is `png/<id>.png`, and `check` says nothing of languages.
#[test]
fn a_multilingual_deck_is_drawn_once_and_printed_in_each_file() {
    let fixture = Fixture::with_games(&["aether"]);
    fixture.edit(
        "aether",
        "components.toml",
        "template = \"aether-aid\"",
        "template = \"aether-aid\"\nmultilingual = true",
    );
    let tmp = tempfile::tempdir().unwrap();
    let files = build(fixture.data(), "aether", tmp.path());
    assert!(files.contains(&"png/aid.png".to_string()), "{files:?}");
    assert!(!files.iter().any(|f| f.starts_with("png/fi/")), "{files:?}");
    let dir = tmp.path().join("aether");
    let fi = pdf_text(&dir.join("cards.fi.pdf"));
    let en = pdf_text(&dir.join("cards.en.pdf"));
    assert!(fi.contains("Player aid") && en.contains("Player aid"));
    let run = fixture.run(&["check", "aether"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("has no text in"), "{}", run.stdout);
}

/// A card without its text in a language is one warning at the card's line in TOML; a
/// sheet whose cards all lack a column is one warning at the first card's row, naming the
/// others. The build still prints (the data's own words).
#[test]
fn check_warns_once_per_cause_where_a_card_lacks_a_language() {
    let fixture = Fixture::with_games(&["aether"]);
    let path = fixture.file("aether", "components.toml");
    let toml = std::fs::read_to_string(&path).unwrap();
    let cut = toml.find("texts = { fi = \"\"\"").unwrap();
    std::fs::write(&path, &toml[..cut]).unwrap();
    let line = toml[..toml.find("id = \"aid\"").unwrap()]
        .matches('\n')
        .count()
        + 1;
    let run = fixture.run(&["check", "aether"]);
    assert_eq!(run.code, 0, "a warning stops nothing: {}", run.stderr);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(said.matches("has no text in `fi`").count(), 1, "{said}");
    assert!(
        said.contains(&format!("components.toml:{line}:")),
        "not at line {line}: {said}"
    );
    assert!(!said.contains("has no name in"), "{said}");

    // The same cards from a sheet without a `text.fi` column: one warning, at row 2.
    let fixture = Fixture::with_games(&["aether"]);
    let at = toml.find("[[deck.card]]\nid = \"aid\"").unwrap();
    let sheet_toml = format!("{}cards = \"aid.csv\"\n", &toml[..at]);
    std::fs::write(fixture.file("aether", "components.toml"), sheet_toml).unwrap();
    std::fs::write(
        fixture.file("aether", "aid.csv"),
        "id,name,name.fi,count,text\n\
         aid,Player aid,Pelaajan muistilappu,2,Place a tile.\n\
         aid-2,Second aid,Toinen muistilappu,2,Draw a tile.\n",
    )
    .unwrap();
    let run = fixture.run(&["check", "aether"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(said.matches("has no text in `fi`").count(), 1, "{said}");
    assert!(said.contains("aid.csv:2:1"), "{said}");
    assert!(said.contains("card `aid-2` of deck `player-aid`"), "{said}");
    assert!(!said.contains("has no name in"), "{said}");
}

/// A word a card's template takes from `[print_labels]` that one language lacks is an error
/// at that language's rules file, and the build refuses the game as the check does.
#[test]
fn a_card_word_missing_in_one_language_is_refused_at_its_rules_file() {
    let fixture = Fixture::with_games(&["aether"]);
    fixture.edit("aether", "rules.en.toml", "aid_turn = \"Your turn\"\n", "");
    let run = fixture.run(&["check", "aether"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(said.contains("rules.en.toml"), "{said}");
    assert!(said.contains("labels.aid_turn"), "{said}");
    // One cause, said once: not again as the template's failure to find the word.
    assert!(!said.contains("not found in context"), "{said}");
    let out = tempfile::tempdir().unwrap();
    let run = fixture.run(&["build", "aether", "--out", out.path().to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(!out.path().join("aether/cards.fi.pdf").exists());
}

/// The word a card's template lacks is said once, at the line of `[print_labels]` in that
/// language's rules file: the template's own failure to find it is the same cause (known by
/// its type, not by the template engine's words), and leaves neither a second error nor
/// the template's place in its stead.
#[test]
fn a_card_word_missing_in_one_language_is_said_once_at_its_rules_line() {
    let fixture = Fixture::with_games(&["aether"]);
    fixture.edit("aether", "rules.en.toml", "aid_turn = \"Your turn\"\n", "");
    let table = std::fs::read_to_string(fixture.file("aether", "rules.en.toml"))
        .unwrap()
        .lines()
        .position(|l| l == "[print_labels]")
        .unwrap()
        + 1;
    let run = fixture.run(&["check", "aether"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains(&format!("rules.en.toml:{table}:1")),
        "not placed at [print_labels] (line {table}): {said}"
    );
    assert_eq!(said.matches("`labels.aid_turn`").count(), 1, "{said}");
    assert!(said.contains("1 problem found"), "{said}");
    assert!(!said.contains("aether-aid.svg"), "{said}");
}
