//! A designer's own game (tests/fixtures/designer-game): an original design with a CSV deck,
//! PNG and SVG art and its own font. It checks clean and prints its art and font; each kind
//! of mistake is exactly one error at its file:line:col.

mod common;

use std::path::{Path, PathBuf};

use common::{Fixture, Run, repo};
use printplay::model::{Game, load_game, sheet::export_csv};
use printplay::render::{BuildOptions, cards_pdf, draw_faces};

const SLUG: &str = "designer-game";

fn fixture() -> Fixture {
    Fixture::with_folder(&repo().join("tests/fixtures").join(SLUG), SLUG)
}

fn load(f: &Fixture) -> Game {
    load_game(f.data(), SLUG).unwrap_or_else(|p| panic!("{p:?}"))
}

/// The problems a run reported: the `×` headings of its report.
fn errors(run: &Run) -> Vec<String> {
    run.stderr
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("× "))
        .map(str::to_string)
        .collect()
}

/// Runs `check` and asserts exactly one error, at `place` (`file:line:col`), saying `says`.
fn one_error(f: &Fixture, place: &str, says: &str) {
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let errors = errors(&run);
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    let at = f.data().join(SLUG).join(place);
    assert!(
        errors[0].starts_with(&format!("{}: ", at.display())),
        "expected at {place}: {}",
        errors[0]
    );
    // The report wraps long lines; compare the words.
    let words = |s: &str| {
        s.split_whitespace()
            .filter(|w| *w != "│")
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(
        words(&run.stderr).contains(&words(says)),
        "expected `{says}`: {}",
        run.stderr
    );
}

#[test]
fn the_fixture_checks_clean_without_provenance_or_rules_prose() {
    let f = fixture();
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let game = load(&f);
    assert!(game.is_original());
    // Ten designs from the sheet after the one TOML card.
    let deck = game.deck("emblems").unwrap();
    assert_eq!(deck.cards.len(), 11);
    assert_eq!(deck.cards[10].id.get_ref(), "moon-5");
    assert_eq!(deck.cards[10].count.0, 2);
}

/// Names of the PDF's image XObjects (by object id) and of its fonts.
fn images_and_fonts(pdf: &[u8]) -> (Vec<lopdf::ObjectId>, Vec<String>) {
    let doc = lopdf::Document::load_mem(pdf).expect("a readable PDF");
    let mut images = Vec::new();
    let mut fonts = Vec::new();
    for (id, obj) in &doc.objects {
        let dict = match obj {
            lopdf::Object::Stream(s) => &s.dict,
            lopdf::Object::Dictionary(d) => d,
            _ => continue,
        };
        let is = |key: &[u8], value: &[u8]| {
            dict.get(key)
                .and_then(|v| v.as_name())
                .is_ok_and(|n| n == value)
        };
        if is(b"Subtype", b"Image") {
            images.push(*id);
        }
        if is(b"Type", b"Font")
            && let Ok(name) = dict.get(b"BaseFont").and_then(|v| v.as_name())
        {
            fonts.push(String::from_utf8_lossy(name).into_owned());
        }
    }
    (images, fonts)
}

#[test]
fn the_pdf_holds_the_raster_art_once_and_the_games_font() {
    let f = fixture();
    let game = load(&f);
    let options = BuildOptions::default();
    let faces = draw_faces(&game, &options).unwrap();
    // Eleven faces show art: ten the PNG, one the SVG.
    assert_eq!(faces.placed.len(), 12, "{:?}", faces.placed); // and the token's
    let pdf = cards_pdf(&game, &faces, &options).unwrap();
    let (images, fonts) = images_and_fonts(&pdf);
    // The PNG, shown on ten designs (eleven cards), is one image object; the SVG crest is
    // drawn as vector paths, not as an image.
    assert_eq!(images.len(), 1, "{images:?}");
    assert!(
        fonts.iter().any(|f| f.ends_with("+DejaVuSansMono-Bold")),
        "the game's own font is embedded as a subset: {fonts:?}"
    );
}

#[test]
fn a_removed_image_is_one_error_at_the_first_cell_that_names_it() {
    let f = fixture();
    std::fs::remove_file(f.file(SLUG, "art/emblem.png")).unwrap();
    one_error(
        &f,
        "cards.csv:2:32",
        "image `art/emblem.png` does not exist",
    );
}

#[test]
fn a_bad_csv_cell_is_one_error_at_its_row_and_column() {
    let f = fixture();
    f.edit(
        SLUG,
        "cards.csv",
        "art/emblem.png,sun,2",
        "art/emblem.png,sun,two",
    );
    one_error(&f, "cards.csv:3:51", "field `power` must be an integer");
}

#[test]
fn an_unknown_icon_is_one_error_listing_the_symbols() {
    let f = fixture();
    f.edit(SLUG, "cards.csv", "Lose 1 [coin]", "Lose 1 [coinn]");
    one_error(&f, "cards.csv:7:26", "known: coin, moon, sun");
}

#[test]
fn an_unknown_face_is_one_error_at_the_template_listing_the_faces() {
    let f = fixture();
    f.edit(
        SLUG,
        "templates/emblem-card.svg",
        "DejaVu Sans Mono Bold",
        "Comic Sans",
    );
    one_error(
        &f,
        "templates/emblem-card.svg:5:64",
        "sans, bold, serif-italic, italic, bold-italic, DejaVu Sans Mono Bold",
    );
}

#[test]
fn a_path_out_of_the_game_folder_is_one_error_at_its_toml_line() {
    for (path, says) in [
        ("../designer-game/art/crest.svg", "leaves the game's folder"),
        ("/etc/hostname", "absolute path"),
    ] {
        let f = fixture();
        f.edit(
            SLUG,
            "components.toml",
            "\"art/crest.svg\", suit",
            &format!("\"{path}\", suit"),
        );
        one_error(&f, "components.toml:49:18", says);
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_game_folder_is_refused() {
    let f = fixture();
    let outside = f.data().join("outside.png");
    std::fs::copy(f.file(SLUG, "art/emblem.png"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, f.file(SLUG, "art/link.png")).unwrap();
    f.edit(
        SLUG,
        "components.toml",
        "\"art/crest.svg\", suit",
        "\"art/link.png\", suit",
    );
    one_error(&f, "components.toml:49:18", "outside the game's folder");
}

#[test]
fn an_undecodable_image_is_one_error() {
    let f = fixture();
    let png = f.file(SLUG, "art/emblem.png");
    let bytes = std::fs::read(&png).unwrap();
    std::fs::write(&png, &bytes[..bytes.len() / 2]).unwrap();
    one_error(&f, "cards.csv:2:32", "does not decode");
}

#[test]
fn a_wrongly_typed_parameter_is_one_error_at_its_game_toml_line() {
    let f = fixture();
    f.edit(SLUG, "game.toml", "value = 4", "value = \"four\"");
    one_error(&f, "game.toml:12:9", "declared an integer");
}

#[test]
fn a_misspelt_card_size_names_the_presets() {
    let f = fixture();
    f.edit(
        SLUG,
        "components.toml",
        "size = \"poker\"",
        "size = \"mni\"",
    );
    one_error(&f, "components.toml:25:8", "poker (63 x 88 mm), bridge");
}

#[test]
fn duplicate_invariant_ids_are_an_error() {
    let f = fixture();
    let text = std::fs::read_to_string(f.file(SLUG, "game.toml")).unwrap();
    let at = text.find("[[invariant]]").unwrap();
    std::fs::write(
        f.file(SLUG, "game.toml"),
        format!("{text}\n{}", &text[at..]),
    )
    .unwrap();
    one_error(&f, "game.toml:23:6", "duplicate invariant id `deck-size`");
}

#[test]
fn a_game_that_cites_a_rulebook_needs_provenance() {
    let f = fixture();
    f.edit(
        SLUG,
        "game.toml",
        "designer = ",
        "rulebook = \"rules.pdf\"\ndesigner = ",
    );
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("parameter `hand_size` gives no source"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("has no rules.en.toml"),
        "{}",
        run.stderr
    );
}

#[test]
fn low_resolution_art_is_a_warning_not_an_error() {
    let f = fixture();
    // The card art box is 57 x 40 mm: placing the 480 x 360 px art over a whole tarot card
    // would print it below 200 dpi.
    f.edit(
        SLUG,
        "templates/emblem-card.svg",
        "w=w - 6, h=40",
        "w=w * 3, h=h * 3",
    );
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("image `art/emblem.png` prints at"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("cards.csv:2:32"), "{}", run.stderr);
}

/// Bytes of every file under a folder, by path.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(snapshot(&path));
        } else {
            out.push((path.clone(), std::fs::read(&path).unwrap()));
        }
    }
    out.sort();
    out
}

#[test]
fn a_broken_game_keeps_the_previous_output_and_never_panics() {
    let f = fixture();
    let out = f.data().join("out");
    let previous = out.join(SLUG).join("cards.pdf");
    std::fs::create_dir_all(previous.parent().unwrap()).unwrap();
    std::fs::write(&previous, b"the previous build").unwrap();
    let before = snapshot(&out);
    std::fs::remove_file(f.file(SLUG, "art/emblem.png")).unwrap();
    f.edit(SLUG, "cards.csv", "Lose 1 [coin]", "Lose 1 [coinn]");
    let run = f.run(&["build", SLUG, "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(errors(&run).len(), 2, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert_eq!(snapshot(&out), before);
}

#[test]
fn bad_sheets_are_errors_at_the_cell_not_panics() {
    for (from, to, place) in [
        ("id,name,count", "id,name,colour", "cards.csv:1:9"),
        ("sun-4,Sun Four,1", "sun-4,Sun Four,-3", "cards.csv:5:16"),
        ("sun,5\n", "sun,5,extra\n", "cards.csv:6:40"),
    ] {
        let f = fixture();
        f.edit(SLUG, "cards.csv", from, to);
        let run = f.run(&["check", SLUG]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        let errors = errors(&run);
        assert_eq!(errors.len(), 1, "{}", run.stderr);
        assert!(errors[0].contains(place), "{place}: {}", run.stderr);
    }
}

/// Every kind of sheet mistake is one error at the same line and column whether the sheet
/// ends its lines with LF, CRLF (Excel on Windows) or CR, with or without a byte order mark.
#[test]
fn sheet_problems_keep_their_place_whatever_the_line_ends() {
    let cases = [
        (
            "art/emblem.png,sun,2",
            "art/emblem.png,sun,two",
            "3:51",
            "must be an integer",
        ),
        ("moon,4\n", "moon,four\n", "10:41", "must be an integer"),
        (
            "Lose 1 [coin]",
            "Lose 1 [coinn]",
            "7:26",
            "known: coin, moon, sun",
        ),
        (
            "id,name,count",
            "id,name,colour",
            "1:9",
            "is not a field of deck",
        ),
        (
            "sun-4,Sun Four,1",
            "sun-4,Sun Four,-3",
            "5:16",
            "`count` is `-3`",
        ),
        (
            "sun,5\n",
            "sun,5,extra\n",
            "6:40",
            "has no column in the header row",
        ),
        (
            "sun-2,Sun Two",
            "crest,Sun Two",
            "3:1",
            "duplicate id `crest`",
        ),
        ("Sun Five,1,,", "Sun Five,1,\"Gain,", "6:18", "never closed"),
    ];
    let original = std::fs::read_to_string(fixture().file(SLUG, "cards.csv")).unwrap();
    for (from, to, place, says) in cases {
        assert!(original.contains(from), "{from}");
        let lf = original.replacen(from, to, 1);
        for (ends, text) in [
            ("LF", lf.clone()),
            ("CRLF", lf.replace('\n', "\r\n")),
            ("CR", lf.replace('\n', "\r")),
            (
                "BOM and CRLF",
                format!("\u{feff}{}", lf.replace('\n', "\r\n")),
            ),
        ] {
            let f = fixture();
            std::fs::write(f.file(SLUG, "cards.csv"), &text).unwrap();
            let run = f.run(&["check", SLUG]);
            assert_eq!(run.code, 1, "{ends}: {}", run.stderr);
            let errors = errors(&run);
            assert_eq!(errors.len(), 1, "{ends}: {}", run.stderr);
            let at = format!("{}:{place}: ", f.file(SLUG, "cards.csv").display());
            assert!(
                errors[0].starts_with(&at),
                "{ends}: expected {place}: {}",
                errors[0]
            );
            assert!(run.stderr.contains(says), "{ends}: {}", run.stderr);
        }
    }
}

/// A quoted cell is kept as written, spaces and all; an unquoted one loses its surrounding
/// spaces.
#[test]
fn a_quoted_sheet_value_keeps_its_spaces() {
    let f = fixture();
    f.edit(SLUG, "cards.csv", "Sun Two,", "\"  Sun Two \",");
    f.edit(SLUG, "cards.csv", "Sun Three,", "  Sun Three  ,");
    let game = load(&f);
    let deck = game.deck("emblems").unwrap();
    let name = |id: &str| {
        deck.cards
            .iter()
            .find(|c| c.id.get_ref() == id)
            .map(|c| c.name.clone())
            .unwrap()
    };
    assert_eq!(name("sun-2"), "  Sun Two ");
    assert_eq!(name("sun-3"), "Sun Three");
}

/// A TOML deck exported as CSV reads back as the same cards, and exports the same again.
#[test]
fn decks_round_trip_through_csv() {
    let f = Fixture::with_games(&["capek-golems"]);
    let game = load_game(f.data(), "capek-golems").unwrap();
    let path = f.file("capek-golems", "components.toml");
    let mut exported = Vec::new();
    // The file as a designer edits it: each deck's `[[deck.card]]`s deleted and
    // `cards = "DECK.csv"` added under its id, the rest (the fields' order) as it was.
    let mut text = String::new();
    let (mut header, mut skipping) = (String::new(), false);
    for line in std::fs::read_to_string(&path).unwrap().lines() {
        if line.starts_with('[') {
            header = line.trim().to_string();
            skipping = header == "[[deck.card]]" || header.starts_with("[deck.card.");
        }
        if skipping {
            continue;
        }
        text.push_str(line);
        text.push('\n');
        if let Some(id) = line
            .strip_prefix("id = \"")
            .filter(|_| header == "[[deck]]")
        {
            let id = id.trim_end_matches('"').to_string();
            let csv = export_csv(&game, &id).unwrap();
            std::fs::write(f.file("capek-golems", &format!("{id}.csv")), &csv).unwrap();
            text.push_str(&format!("cards = \"{id}.csv\"\n"));
            exported.push((id, csv));
        }
    }
    assert_eq!(exported.len(), game.components.decks.len());
    std::fs::write(&path, text).unwrap();
    let from_sheets = load_game(f.data(), "capek-golems").unwrap_or_else(|p| panic!("{p:?}"));
    assert!(printplay::check::check_game(&from_sheets).is_empty());
    for (id, csv) in exported {
        let before = &game.deck(&id).unwrap().cards;
        let after = &from_sheets.deck(&id).unwrap().cards;
        assert_eq!(before.len(), after.len());
        for (a, b) in before.iter().zip(after) {
            assert_eq!(
                (a.id.get_ref(), &a.name, a.count, &a.text),
                (b.id.get_ref(), &b.name, b.count, &b.text)
            );
            let values = |c: &printplay::model::Card| {
                c.fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.get_ref().clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(values(a), values(b), "card {}", a.id.get_ref());
        }
        assert_eq!(export_csv(&from_sheets, &id).unwrap(), csv, "deck {id}");
    }
}

#[test]
fn export_csv_writes_the_sheet_the_cli_reads() {
    let f = fixture();
    let run = f.run(&["export-csv", SLUG, "emblems"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("id,name,count,text,art,suit,power\ncrest,The Crest,1,Gain 2 [coin].,art/crest.svg,moon,5\n"), "{}", run.stdout);
    let run = f.run(&["export-csv", SLUG, "nope"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("its decks: emblems"), "{}", run.stderr);
}

#[test]
fn an_unwritable_output_folder_is_one_io_error_naming_the_path() {
    let f = fixture();
    let blocker = f.data().join("not-a-folder");
    std::fs::write(&blocker, b"a file").unwrap();
    let out = blocker.join("out");
    let run = f.run(&["build", SLUG, "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let errors = errors(&run);
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    assert!(
        errors[0].contains(&format!("cannot write {}", blocker.display())),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&blocker).unwrap(), b"a file");
}

#[test]
fn a_template_mistake_is_one_error_at_the_template_line_not_one_per_card() {
    let f = fixture();
    f.edit(
        SLUG,
        "templates/emblem-card.svg",
        "card.fields.power",
        "card.fields.pwr",
    );
    one_error(&f, "templates/emblem-card.svg:7:25", "card.fields.pwr");
    let f = fixture();
    f.edit(
        SLUG,
        "templates/emblem-card.svg",
        "what=\"power\") }}",
        "what=\"power\") }",
    );
    let run = f.run(&["check", SLUG]);
    let errors = errors(&run);
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    assert!(
        errors[0].contains("templates/emblem-card.svg:"),
        "{}",
        run.stderr
    );
    assert!(
        errors[0].contains("template `emblem-card` does not parse"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_broken_font_file_is_one_error_naming_it() {
    let f = fixture();
    std::fs::write(f.file(SLUG, "fonts/Broken.ttf"), b"not a font").unwrap();
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let errors = errors(&run);
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    assert!(
        errors[0].contains("fonts/Broken.ttf: not a font"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_game_modules_complaint_about_a_parameter_is_placed_at_it() {
    let f = Fixture::with_games(&["capek-golems"]);
    let line = f.edit("capek-golems", "game.toml", "value = 4", "value = \"four\"");
    let run = f.run(&["check", "capek-golems"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let engine = errors(&run)
        .into_iter()
        .find(|e| e.contains("the Capek engine cannot read"))
        .expect("the engine's complaint");
    assert!(
        engine.contains(&format!("game.toml:{line}:")),
        "{}",
        run.stderr
    );
}

#[test]
fn ids_stay_unique_across_the_toml_cards_and_the_sheet() {
    let f = fixture();
    f.edit(SLUG, "cards.csv", "sun-2,Sun Two", "crest,Sun Two");
    one_error(&f, "cards.csv:3:1", "duplicate id `crest`");
    let run = f.run(&["check", SLUG]);
    assert!(run.stderr.contains("components.toml:46"), "{}", run.stderr);
}

#[test]
fn an_original_design_builds_its_cards_without_a_rules_reference() {
    let f = fixture();
    let out = f.data().join("out");
    let run = f.run(&[
        "build",
        SLUG,
        "--only",
        "cards,rules",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let names: Vec<String> = std::fs::read_dir(out.join(SLUG))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["cards.pdf".to_string()]);
}

/// The fixture with its sheet replaced by a workbook from tests/fixtures/sheets/.
fn with_workbook(name: &str) -> Fixture {
    let f = fixture();
    let from = repo().join("tests/fixtures/sheets").join(name);
    std::fs::copy(from, f.file(SLUG, "cards.xlsx")).unwrap();
    std::fs::remove_file(f.file(SLUG, "cards.csv")).unwrap();
    f.edit(
        SLUG,
        "components.toml",
        "cards = \"cards.csv\"",
        "cards = \"cards.xlsx\"",
    );
    f
}

#[test]
fn a_workbook_deck_reads_as_the_same_cards_as_its_csv() {
    let csv = fixture();
    let xlsx = with_workbook("cards.xlsx");
    let run = xlsx.run(&["check", SLUG]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        export_csv(&load(&xlsx), "emblems").unwrap(),
        export_csv(&load(&csv), "emblems").unwrap()
    );
}

#[test]
fn a_bad_workbook_cell_names_its_worksheet_and_cell() {
    let f = with_workbook("cards-bad.xlsx");
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let errors = errors(&run);
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    let cards = f.file(SLUG, "cards.xlsx");
    assert!(
        errors[0].starts_with(&format!("{}, sheet `cards`, cell G3: ", cards.display())),
        "{}",
        run.stderr
    );
    assert!(
        errors[0].contains("field `power` must be an integer"),
        "{}",
        run.stderr
    );
    // The CSV text the workbook is read as is not shown: the designer never sees it.
    assert!(
        !run.stderr.contains("art/emblem.png,sun,two"),
        "{}",
        run.stderr
    );
}

/// A cell with a line break in it makes no later row's cell one line off.
#[test]
fn a_workbook_cell_is_named_after_a_cell_of_two_lines() {
    let f = with_workbook("cards-bad-multiline.xlsx");
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let errors = errors(&run);
    assert_eq!(errors.len(), 1, "{}", run.stderr);
    let cards = f.file(SLUG, "cards.xlsx");
    assert!(
        errors[0].starts_with(&format!("{}, sheet `Cards`, cell G11: ", cards.display())),
        "{}",
        run.stderr
    );
}

#[test]
fn a_sheet_saved_with_a_byte_order_mark_reads_the_same() {
    let f = fixture();
    let path = f.file(SLUG, "cards.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("\u{feff}{text}")).unwrap();
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn a_hand_written_image_element_is_an_error_not_silently_dropped() {
    let f = fixture();
    let path = f.file(SLUG, "templates/emblem-card.svg");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        format!("{text}<image href=\"art/missing.png\" width=\"5\" height=\"5\"/>\n"),
    )
    .unwrap();
    one_error(&f, "templates/emblem-card.svg:11:14", "pages never load");
}

#[test]
fn the_same_game_in_another_folder_prints_the_same_bytes() {
    let pdf = |f: &Fixture| {
        let game = load(f);
        let options = BuildOptions::default();
        cards_pdf(&game, &draw_faces(&game, &options).unwrap(), &options).unwrap()
    };
    assert!(
        pdf(&fixture()) == pdf(&fixture()),
        "art paths leak into the PDF"
    );
}

/// A copy of a TrueType font with every advance width `extra` units wider: the same family
/// and style names, different metrics and so different pages.
fn widened(font: &[u8], extra: u16) -> Vec<u8> {
    let be16 = |at: usize| u16::from_be_bytes([font[at], font[at + 1]]);
    let be32 = |at: usize| u32::from_be_bytes([font[at], font[at + 1], font[at + 2], font[at + 3]]);
    let table = |tag: &[u8]| {
        (0..usize::from(be16(4)))
            .map(|i| 12 + 16 * i)
            .find(|&r| &font[r..r + 4] == tag)
            .map(|r| be32(r + 8) as usize)
            .expect("the font has the table")
    };
    let metrics = usize::from(be16(table(b"hhea") + 34));
    let hmtx = table(b"hmtx");
    let mut out = font.to_vec();
    for at in (0..metrics).map(|i| hmtx + 4 * i) {
        let wider = be16(at).saturating_add(extra).to_be_bytes();
        out[at..at + 2].copy_from_slice(&wider);
    }
    out
}

#[test]
fn a_game_never_prints_with_another_games_font_of_the_same_name() {
    let f = fixture();
    let font = "fonts/DejaVuSansMono-Bold.ttf";
    common::copy_dir(&f.data().join(SLUG), &f.data().join("twin"));
    let twin_font = f.file("twin", font);
    std::fs::write(
        &twin_font,
        widened(&std::fs::read(&twin_font).unwrap(), 200),
    )
    .unwrap();
    let options = BuildOptions::default();
    let pdf =
        |game: &Game| cards_pdf(game, &draw_faces(game, &options).unwrap(), &options).unwrap();
    let own = load(&f);
    let before = pdf(&own);
    // The twin's font has the same family and style, loaded after the game's own.
    let twin = load_game(f.data(), "twin").unwrap_or_else(|p| panic!("{p:?}"));
    let twins = pdf(&twin);
    assert!(before != twins, "the wider font should print differently");
    assert!(
        pdf(&own) == before,
        "the game printed with the twin's font once the twin was loaded"
    );
    // Built in one process, each game's cards are those it prints alone.
    let out = f.data().join("out");
    let alone = |slug: &str| {
        let dir = out.join("alone").join(slug);
        let run = f.run(&[
            "build",
            slug,
            "--only",
            "cards",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        std::fs::read(dir.join(slug).join("cards.pdf")).unwrap()
    };
    let together = out.join("together");
    let run = f.run(&[
        "build",
        SLUG,
        "twin",
        "--only",
        "cards",
        "--out",
        together.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for slug in [SLUG, "twin"] {
        let both = std::fs::read(together.join(slug).join("cards.pdf")).unwrap();
        assert!(
            both == alone(slug),
            "{slug} printed differently beside its twin"
        );
    }
}

#[test]
fn build_prints_the_checks_warnings_once() {
    let f = fixture();
    f.edit(
        SLUG,
        "templates/emblem-card.svg",
        "w=w - 6, h=40",
        "w=w * 3, h=h * 3",
    );
    let out = f.data().join("out");
    let run = f.run(&[
        "build",
        SLUG,
        "--only",
        "cards",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        run.code, 0,
        "a warning does not stop the build: {}",
        run.stderr
    );
    assert_eq!(
        run.stderr
            .matches("image `art/emblem.png` prints at")
            .count(),
        1,
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("cards.csv:2:32"), "{}", run.stderr);
    assert!(out.join(SLUG).join("cards.pdf").is_file());
}

/// The rules reference of `printplay new`'s game, an original design: each page in HTML and
/// Markdown, as text.
fn scaffold_pages(extra_prose: &str) -> Vec<(String, String)> {
    let f = Fixture::with_games(&[]);
    let run = f.run(&["new", "my-game"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rules = f.file("my-game", "rules.en.toml");
    let mut prose = std::fs::read_to_string(&rules).unwrap();
    prose.push_str(extra_prose);
    std::fs::write(&rules, prose).unwrap();
    let out = f.data().join("out");
    let run = f.run(&[
        "build",
        "my-game",
        "--only",
        "rules",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    [
        "rules.en.html",
        "rules.en.md",
        "quick.en.html",
        "quick.en.md",
    ]
    .iter()
    .map(|name| {
        let text = std::fs::read_to_string(out.join("my-game").join(name)).unwrap();
        let text = if name.ends_with(".html") {
            // What a reader sees: the page's text, not its style sheet.
            let body = &text[text.find("<body").unwrap_or(0)..];
            common::html_text(body)
        } else {
            text
        };
        (name.to_string(), text)
    })
    .collect()
}

/// A game without a `rulebook` is the designer's own: its reference never speaks of a
/// rulebook, of where its values come from, or of questions a rulebook leaves open.
#[test]
fn an_original_designs_reference_says_nothing_of_a_rulebook() {
    for (name, text) in scaffold_pages("") {
        let lower = text.to_lowercase();
        for words in [
            "rulebook",
            "printed",
            "where the values come from",
            "reconstructed",
            "inferred",
            "source",
            "open question",
            "appendix",
        ] {
            assert!(!lower.contains(words), "{name} says `{words}`:\n{text}");
        }
        if name.starts_with("rules.") {
            assert!(text.contains("Generated by printplay"), "{name}:\n{text}");
            assert!(text.contains("What it is for"), "{name}:\n{text}");
        }
    }
}

/// Its own open questions are shown, as the designer's questions, not a rulebook's.
#[test]
fn an_original_designs_questions_are_its_own() {
    let pages = scaffold_pages(
        "\n[[question]]\nquestion = \"May a player pass?\"\nanswer = \"Yes, once a round.\"\n",
    );
    for (name, text) in pages.iter().filter(|(n, _)| n.starts_with("rules.")) {
        assert!(text.contains("Open questions of play"), "{name}:\n{text}");
        assert!(text.contains("May a player pass?"), "{name}:\n{text}");
        assert!(!text.to_lowercase().contains("rulebook"), "{name}:\n{text}");
    }
}

/// Replaces `name` in the game's folder by a link to a copy of it outside the folder (or to
/// `target` when given).
fn link_out(f: &Fixture, game: &str, name: &str, target: Option<&Path>) {
    let inside = f.file(game, name);
    let outside = match target {
        Some(t) => t.to_path_buf(),
        None => {
            let copy = f.data().join(format!("outside-{}", name.replace('/', "-")));
            std::fs::copy(&inside, &copy).unwrap();
            copy
        }
    };
    std::fs::remove_file(&inside).unwrap();
    std::os::unix::fs::symlink(&outside, &inside).unwrap();
}

/// `check` refuses the game with one error at `place` (`file` or `file:line:col`) saying the
/// file leaves the folder, and `build` writes nothing.
fn refused_and_nothing_built(f: &Fixture, game: &str, place: &str) {
    let run = f.run(&["check", game]);
    assert_eq!(run.code, 1, "{place}: {}", run.stderr);
    let errors = errors(&run);
    assert_eq!(errors.len(), 1, "{place}: {}", run.stderr);
    let at = f.data().join(game).join(place);
    assert!(
        errors[0].starts_with(&format!("{}", at.display())),
        "expected at {place}: {}",
        errors[0]
    );
    assert!(
        run.stderr.contains("outside the game's folder"),
        "{place}: {}",
        run.stderr
    );
    let out = f.data().join("out");
    let run = f.run(&["build", game, "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{place}: {}", run.stderr);
    let written = if out.exists() {
        snapshot(&out)
    } else {
        Vec::new()
    };
    assert!(written.is_empty(), "{place}: wrote {written:?}");
}

/// No file of the game's folder is read through a link that leaves it: art (raster and
/// vector), fonts, the sheet, templates and the TOML files themselves.
#[test]
fn no_file_is_read_through_a_link_out_of_the_game_folder() {
    for (name, place) in [
        ("art/emblem.png", "cards.csv:2:32"),
        ("art/crest.svg", "components.toml:49:18"),
        ("cards.csv", "components.toml:28:9"),
        (
            "fonts/DejaVuSansMono-Bold.ttf",
            "fonts/DejaVuSansMono-Bold.ttf",
        ),
        ("templates/emblem-card.svg", "templates/emblem-card.svg"),
        ("game.toml", "game.toml"),
        ("components.toml", "components.toml"),
    ] {
        let f = fixture();
        link_out(&f, SLUG, name, None);
        refused_and_nothing_built(&f, SLUG, place);
    }
    // A link to a file of the machine: the same, whatever the file holds.
    let f = fixture();
    link_out(&f, SLUG, "art/emblem.png", Some(Path::new("/etc/hostname")));
    refused_and_nothing_built(&f, SLUG, "cards.csv:2:32");
}

#[test]
fn a_workbook_linked_from_outside_is_refused() {
    let f = with_workbook("cards.xlsx");
    link_out(&f, SLUG, "cards.xlsx", None);
    refused_and_nothing_built(&f, SLUG, "components.toml:28:9");
}

/// An image the rules prose shows is copied beside the reference: never one from outside the
/// folder, and never a file that is not an image.
#[test]
fn a_rules_prose_image_is_an_image_inside_the_folder() {
    let f = Fixture::with_games(&[]);
    assert_eq!(f.run(&["new", "my-game"]).code, 0);
    let line = f.edit(
        "my-game",
        "rules.en.toml",
        "Replace this with what",
        "![The emblem](art/shown.svg)\nReplace this with what",
    );
    std::fs::copy(
        f.file("my-game", "art/emblem.svg"),
        f.file("my-game", "art/shown.svg"),
    )
    .unwrap();
    let run = f.run(&["check", "my-game"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    link_out(&f, "my-game", "art/shown.svg", None);
    refused_and_nothing_built(&f, "my-game", &format!("rules.en.toml:{line}:"));
    // Not an image, inside the folder.
    std::fs::remove_file(f.file("my-game", "art/shown.svg")).unwrap();
    std::fs::write(
        f.file("my-game", "art/shown.svg"),
        "#!/bin/sh\necho hello\n",
    )
    .unwrap();
    let run = f.run(&["check", "my-game"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        errors(&run)[0].contains(&format!("rules.en.toml:{line}:")),
        "{}",
        run.stderr
    );
}

#[test]
fn an_engine_script_linked_from_outside_is_refused() {
    let f = Fixture::with_games(&[]);
    assert_eq!(f.run(&["new", "my-game", "--engine", "lua"]).code, 0);
    link_out(&f, "my-game", "engine.lua", None);
    let run = f.run(&["simulate", "my-game", "--games", "1"]);
    assert_ne!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("outside the game's folder"),
        "{}",
        run.stderr
    );
}

/// TOML files and rules prose saved with CRLF line ends (Windows editors) or a byte order
/// mark: each problem is at the same line and column as in the file saved with LF.
#[test]
fn toml_and_prose_problems_keep_their_place_with_crlf() {
    let cases = [
        ("components.toml", "type = \"int\"", "type = \"intt\""),
        ("game.toml", "players = { min = 2", "players = { min = -2"),
        (
            "rules.en.toml",
            "Deal {params.hand_size card}",
            "Deal {params.hand_size card} and {params.hand_siz card}",
        ),
    ];
    for (file, from, to) in cases {
        let places = |ends: &str| {
            let f = Fixture::with_games(&[]);
            assert_eq!(f.run(&["new", "my-game"]).code, 0);
            let line = f.edit("my-game", file, from, to);
            let path = f.file("my-game", file);
            let text = std::fs::read_to_string(&path).unwrap();
            let text = match ends {
                "CRLF" => text.replace('\n', "\r\n"),
                "BOM" => format!("\u{feff}{text}"),
                _ => text,
            };
            std::fs::write(&path, text).unwrap();
            let run = f.run(&["check", "my-game"]);
            assert_eq!(run.code, 1, "{file} {ends}: {}", run.stderr);
            let prefix = format!("{}:", path.display());
            let places: Vec<String> = errors(&run)
                .iter()
                .map(|e| {
                    let rest = e.strip_prefix(&prefix).unwrap_or_else(|| panic!("{e}"));
                    rest.split(": ").next().unwrap().to_string()
                })
                .collect();
            (line, places)
        };
        let (line, lf) = places("LF");
        assert_eq!(lf.len(), 1, "{file}: {lf:?}");
        assert!(lf[0].starts_with(&format!("{line}:")), "{file}: {lf:?}");
        for ends in ["CRLF", "BOM"] {
            assert_eq!(places(ends).1, lf, "{file} {ends}");
        }
    }
}
