//! Spreadsheets both ways: every deck of every shipped game, the scaffold's deck and a deck of
//! every kind of column move to a CSV sheet and to an XLSX workbook and back to the same cards
//! (and a byte-identical `cards.pdf`); `sheet = "..."` picks a worksheet
//! (XLSX and ODS); what a spreadsheet may hold (formulas, their errors, dates, numbers, merged
//! cells, empty rows, any Unicode) reads as a sensible value or is one error at its sheet and
//! cell.

mod common;

use common::{Fixture, Run, repo};
use printplay::model::{load_game, sheet::worksheet_name};

/// The shipped games.
fn shipped_games() -> Vec<String> {
    let mut games: Vec<String> = std::fs::read_dir(repo().join("data"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().join("components.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    games.sort();
    games
}

fn ok(run: &Run) {
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
}

/// `build GAME --only cards` into a folder of the fixture; the PDF's bytes.
fn cards_pdf(f: &Fixture, game: &str, out: &str) -> Vec<u8> {
    let out = f.data().join(out);
    ok(&f.run(&[
        "build",
        game,
        "--only",
        "cards",
        "--out",
        out.to_str().unwrap(),
    ]));
    // `cards.pdf`, or a game published in several languages' `cards.<lang>.pdf`, in order.
    let mut files: Vec<_> = std::fs::read_dir(out.join(game))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("cards.") && name.ends_with(".pdf")
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{game} wrote no card sheets");
    files
        .iter()
        .flat_map(|p| std::fs::read(p).unwrap())
        .collect()
}

/// Which spreadsheet each deck becomes.
#[derive(Clone, Copy, Debug)]
enum Format {
    Csv,
    Xlsx,
}

/// Exports every deck of `game` (with the binary, from the shipped data) into the fixture's
/// game folder and points each deck at its file (`cards = "DECK.csv"`, or `cards =
/// "DECK.xlsx"` and `sheet = "DECK"`), its `[[deck.card]]`s removed. The deck ids.
fn move_decks_to_sheets(f: &Fixture, game: &str, format: Format) -> Vec<String> {
    let path = f.file(game, "components.toml");
    let mut doc: toml::Table = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut ids = Vec::new();
    for deck in doc["deck"].as_array_mut().unwrap() {
        let deck = deck.as_table_mut().unwrap();
        let id = deck["id"].as_str().unwrap().to_string();
        let (command, file) = match format {
            Format::Csv => ("export-csv", format!("{id}.csv")),
            Format::Xlsx => ("export-xlsx", format!("{id}.xlsx")),
        };
        let run = common::run_in(
            repo(),
            &[
                command,
                game,
                &id,
                "--out",
                f.file(game, &file).to_str().unwrap(),
            ],
        );
        ok(&run);
        deck.remove("card");
        deck.insert("cards".into(), toml::Value::String(file));
        if let Format::Xlsx = format {
            deck.insert("sheet".into(), toml::Value::String(worksheet_name(&id)));
        }
        ids.push(id);
    }
    std::fs::write(&path, toml::to_string(&doc).unwrap()).unwrap();
    ids
}

/// Every deck of the four shipped games, exported to CSV and (separately) to XLSX and named
/// as its sheet, builds the same `cards.pdf` byte for byte. Each game is built three times:
/// as shipped, with all its decks in CSV sheets, with all its decks in workbooks.
#[test]
fn every_shipped_deck_round_trips_through_csv_and_xlsx_to_the_same_pdf() {
    let mut decks = 0;
    for game in shipped_games() {
        let shipped = Fixture::with_games(&[&game]);
        let original = cards_pdf(&shipped, &game, "out");
        for format in [Format::Csv, Format::Xlsx] {
            let f = Fixture::with_games(&[&game]);
            let ids = move_decks_to_sheets(&f, &game, format);
            assert!(!ids.is_empty(), "{game} has no deck");
            // Every card now comes from a sheet.
            let loaded = load_game(f.data(), &game).unwrap_or_else(|p| panic!("{p:?}"));
            let as_shipped = load_game(shipped.data(), &game).unwrap();
            for deck in &loaded.components.decks {
                assert!(
                    deck.cards.iter().all(|c| c.file.is_some()),
                    "{game}/{}",
                    deck.id.get_ref()
                );
                // The same cards, key for key.
                let id = deck.id.get_ref();
                assert_eq!(
                    card_tables(&loaded, id),
                    card_tables(&as_shipped, id),
                    "{game}/{id} ({format:?})"
                );
            }
            let pdf = cards_pdf(&f, &game, "out");
            assert!(
                pdf == original,
                "{game} ({format:?}): cards.pdf differs once its decks {ids:?} are sheets"
            );
            if let Format::Csv = format {
                decks += ids.len();
            }
        }
    }
    assert!(decks >= 16, "only {decks} decks");
}

/// The fixture of tests/designer.rs, whose deck `emblems` reads `cards.csv`.
fn designer() -> Fixture {
    Fixture::with_folder(
        &repo().join("tests/fixtures/designer-game"),
        "designer-game",
    )
}

const SLUG: &str = "designer-game";

/// The problems a run reported: the `×` headings of its report.
fn errors(run: &Run) -> Vec<String> {
    run.stderr
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("× "))
        .map(str::to_string)
        .collect()
}

/// Points the designer fixture's deck at `file`, with `sheet = "..."` when given; the line
/// of `sheet`.
fn point_deck_at(f: &Fixture, file: &str, sheet: Option<&str>) -> usize {
    let to = match sheet {
        Some(s) => format!("cards = \"{file}\"\nsheet = \"{s}\""),
        None => format!("cards = \"{file}\""),
    };
    f.edit(SLUG, "components.toml", "cards = \"cards.csv\"", &to) + 1
}

/// The designer fixture's sheet as rows of text.
fn designer_rows() -> Vec<Vec<String>> {
    let text =
        std::fs::read_to_string(repo().join("tests/fixtures/designer-game/cards.csv")).unwrap();
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// Writes rows into a worksheet: numbers as numbers.
fn write_rows(ws: &mut rust_xlsxwriter::Worksheet, rows: &[Vec<String>]) {
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            if cell.is_empty() {
                continue;
            }
            match cell.parse::<f64>() {
                Ok(n) => ws.write_number(r as u32, c as u16, n).unwrap(),
                Err(_) => ws.write_string(r as u32, c as u16, cell).unwrap(),
            };
        }
    }
}

/// A workbook with a worksheet `Notes` first and `rows` in `Cards` second, edited.
fn workbook_of(
    rows: &[Vec<String>],
    edit: impl FnOnce(&mut rust_xlsxwriter::Worksheet),
) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let notes = book.add_worksheet().set_name("Notes").unwrap();
    notes.write_string(0, 0, "Playtest notes").unwrap();
    let cards = book.add_worksheet().set_name("Cards").unwrap();
    write_rows(cards, rows);
    edit(cards);
    book.save_to_buffer().unwrap()
}

/// [`workbook_of`] the designer's cards.
fn two_sheet_workbook(edit: impl FnOnce(&mut rust_xlsxwriter::Worksheet)) -> Vec<u8> {
    workbook_of(&designer_rows(), edit)
}

#[test]
fn sheet_picks_the_worksheet_and_an_unknown_one_lists_them() {
    let f = designer();
    std::fs::write(f.file(SLUG, "cards.xlsx"), two_sheet_workbook(|_| {})).unwrap();
    point_deck_at(&f, "cards.xlsx", Some("Cards"));
    ok(&f.run(&["check", SLUG]));
    let game = load_game(f.data(), SLUG).unwrap();
    assert_eq!(game.deck("emblems").unwrap().cards.len(), 11);

    // Without `sheet` the first worksheet is read: its one cell is a column of no field.
    let f = designer();
    std::fs::write(f.file(SLUG, "cards.xlsx"), two_sheet_workbook(|_| {})).unwrap();
    point_deck_at(&f, "cards.xlsx", None);
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let e = errors(&run);
    assert_eq!(e.len(), 1, "{}", run.stderr);
    assert!(
        e[0].contains("sheet `Notes`, cell A1: the column `Playtest notes`"),
        "{}",
        e[0]
    );

    // An unknown worksheet is one error at `sheet`, listing the worksheets there are.
    let f = designer();
    std::fs::write(f.file(SLUG, "cards.xlsx"), two_sheet_workbook(|_| {})).unwrap();
    let line = point_deck_at(&f, "cards.xlsx", Some("Kards"));
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let e = errors(&run);
    assert_eq!(e.len(), 1, "{}", run.stderr);
    let at = f.file(SLUG, "components.toml");
    assert!(
        e[0].starts_with(&format!("{}:{line}:9: ", at.display())),
        "{}",
        e[0]
    );
    assert!(
        e[0].contains("has no worksheet `Kards`; its worksheets: `Notes`, `Cards`"),
        "{}",
        e[0]
    );

    // `sheet` on a CSV deck is refused, as is `sheet` without `cards`.
    let f = designer();
    point_deck_at(&f, "cards.csv", Some("Cards"));
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("a text sheet, which has none"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_bad_cell_in_a_picked_worksheet_is_named_by_its_sheet_and_cell() {
    let f = designer();
    let book = two_sheet_workbook(|ws| {
        // Row 11 (sun-... power column G) holds a word.
        ws.write_string(10, 6, "two").unwrap();
    });
    std::fs::write(f.file(SLUG, "cards.xlsx"), book).unwrap();
    point_deck_at(&f, "cards.xlsx", Some("Cards"));
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let e = errors(&run);
    assert_eq!(e.len(), 1, "{}", run.stderr);
    let cards = f.file(SLUG, "cards.xlsx");
    assert!(
        e[0].starts_with(&format!("{}, sheet `Cards`, cell G11: ", cards.display())),
        "{}",
        e[0]
    );
    assert!(
        e[0].contains("field `power` must be an integer"),
        "{}",
        e[0]
    );
}

/// What a spreadsheet holds besides plain text and numbers: formulas read as their saved
/// values, dates as dates, whole floats as integers, empty rows are skipped, a vertical merged
/// block gives every row its value.
#[test]
fn formulas_dates_floats_merges_and_empty_rows_read_as_the_spreadsheet_shows_them() {
    use rust_xlsxwriter::{ExcelDateTime, Format, Formula};
    let mut rows = designer_rows();
    // Empty rows among the cards and after them.
    rows.insert(7, Vec::new());
    rows.insert(7, Vec::new());
    rows.extend([Vec::new(), Vec::new()]);
    let f = designer();
    let book = workbook_of(&rows, |ws| {
        // Power of sun-1 (G2) computed by a formula saved with its value.
        ws.write_formula(1, 6, Formula::new("=1+2").set_result("3"))
            .unwrap();
        // Greek, Cyrillic and accents (the built-in fonts have them).
        ws.write_string(2, 1, "Ünïcødé Ωμέγα Жар").unwrap();
        // sun-3's text is a date.
        let date = ExcelDateTime::from_ymd(2026, 12, 2).unwrap();
        ws.write_datetime_with_format(3, 3, &date, &Format::new().set_num_format("dd/mm/yyyy"))
            .unwrap();
        // A float that is a whole number.
        ws.write_number(4, 6, 4.0).unwrap();
        // Suit of sun-1..sun-4 merged over rows 2 to 5 (F2:F5), holding `moon`.
        ws.merge_range(1, 5, 4, 5, "moon", &Format::new()).unwrap();
        // A cell far to the right with no header, empty.
        ws.write_string(3, 30, "").unwrap();
    });
    std::fs::write(f.file(SLUG, "cards.xlsx"), book).unwrap();
    point_deck_at(&f, "cards.xlsx", Some("Cards"));
    ok(&f.run(&["check", SLUG]));
    let game = load_game(f.data(), SLUG).unwrap();
    let deck = game.deck("emblems").unwrap();
    assert_eq!(deck.cards.len(), 11);
    let card = |id: &str| deck.cards.iter().find(|c| c.id.get_ref() == id).unwrap();
    assert_eq!(card("sun-1").int("power"), Some(3));
    assert_eq!(card("sun-2").name, "Ünïcødé Ωμέγα Жар");
    assert_eq!(card("sun-3").text.as_deref(), Some("2026-12-02"));
    assert_eq!(card("sun-4").int("power"), Some(4));
    for id in ["sun-1", "sun-2", "sun-3", "sun-4"] {
        assert_eq!(card(id).str("suit"), Some("moon"), "{id}");
    }
    assert_eq!(card("sun-5").str("suit"), Some("sun"));
    assert_eq!(card("moon-5").count.0, 2);
}

/// Any Unicode a cell may hold reads back as it is, from a workbook and from a CSV sheet.
#[test]
fn any_unicode_reads_back_from_a_workbook_and_a_csv() {
    let names = [
        "太陽 ☀️ 🂡 👩‍👩‍👧",
        "\u{202e}RTL مرحبا שלום",
        "tab\tand\nline",
        "e\u{301} ǅ ﬁ \u{feff}x",
        " spaces around ",
        "\"quoted\", with; separators",
    ];
    let mut rows = designer_rows();
    for (i, name) in names.iter().enumerate() {
        rows[i + 1][1] = name.to_string();
    }
    let f = designer();
    std::fs::write(f.file(SLUG, "cards.xlsx"), workbook_of(&rows, |_| {})).unwrap();
    point_deck_at(&f, "cards.xlsx", Some("Cards"));
    let from_xlsx = load_game(f.data(), SLUG).unwrap_or_else(|p| panic!("{p:?}"));
    let run = f.run(&["check", SLUG]);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let deck = from_xlsx.deck("emblems").unwrap();
    for (i, name) in names.iter().enumerate() {
        assert_eq!(&deck.cards[i + 1].name, name);
    }
    // The same cards exported as CSV and read back.
    let csv = printplay::model::sheet::export_csv(&from_xlsx, "emblems").unwrap();
    let f = designer();
    std::fs::write(f.file(SLUG, "cards.csv"), &csv).unwrap();
    // The export holds the TOML card too: the deck reads only the sheet.
    let path = f.file(SLUG, "components.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let (start, end) = (
        text.find("[[deck.card]]").unwrap(),
        text.find("[[piece]]").unwrap(),
    );
    std::fs::write(&path, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let game = load_game(f.data(), SLUG);
    let game = game.unwrap_or_else(|p| panic!("{p:?}"));
    let deck = game.deck("emblems").unwrap();
    for (i, name) in names.iter().enumerate() {
        assert_eq!(&deck.cards[i + 1].name, name);
    }
}

/// A formula's error and a block merged over columns are errors at their cells.
#[test]
fn a_formula_error_and_a_merge_across_columns_are_errors_at_their_cells() {
    use rust_xlsxwriter::{Format, Formula};
    let f = designer();
    let book = two_sheet_workbook(|ws| {
        ws.write_formula(2, 6, Formula::new("=1/0").set_result("#DIV/0!"))
            .unwrap();
        ws.merge_range(4, 3, 4, 4, "Gain 4 [coin].", &Format::new())
            .unwrap();
    });
    std::fs::write(f.file(SLUG, "cards.xlsx"), book).unwrap();
    point_deck_at(&f, "cards.xlsx", Some("Cards"));
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let e = errors(&run);
    assert_eq!(e.len(), 2, "{}", run.stderr);
    let cards = f.file(SLUG, "cards.xlsx");
    assert!(
        e[0].starts_with(&format!(
            "{}, sheet `Cards`, cell G3: the cell holds the spreadsheet error `#DIV/0!`",
            cards.display()
        )),
        "{}",
        e[0]
    );
    assert!(
        e[1].starts_with(&format!(
            "{}, sheet `Cards`, cell D5: cells D5:E5 are merged",
            cards.display()
        )),
        "{}",
        e[1]
    );
}

/// An OpenDocument spreadsheet of two tables, made here as LibreOffice writes one: `mimetype`
/// first and stored, a manifest, and `content.xml`.
fn ods(tables: &[(&str, Vec<Vec<String>>)]) -> Vec<u8> {
    use std::io::Write;
    use zip::write::SimpleFileOptions;
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let mut content = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"><office:body><office:spreadsheet>"#,
    );
    for (name, rows) in tables {
        content.push_str(&format!(r#"<table:table table:name="{}">"#, esc(name)));
        for row in rows {
            content.push_str("<table:table-row>");
            for cell in row {
                match cell.parse::<f64>() {
                    _ if cell.is_empty() => content.push_str("<table:table-cell/>"),
                    Ok(n) => content.push_str(&format!(
                        r#"<table:table-cell office:value-type="float" office:value="{n}"><text:p>{n}</text:p></table:table-cell>"#
                    )),
                    Err(_) => content.push_str(&format!(
                        r#"<table:table-cell office:value-type="string"><text:p>{}</text:p></table:table-cell>"#,
                        esc(cell)
                    )),
                }
            }
            content.push_str("</table:table-row>");
        }
        content.push_str("</table:table>");
    }
    content.push_str("</office:spreadsheet></office:body></office:document-content>");
    let mime = "application/vnd.oasis.opendocument.spreadsheet";
    let manifest = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="{mime}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#
    );
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let deflated = SimpleFileOptions::default();
    zip.start_file("mimetype", stored).unwrap();
    zip.write_all(mime.as_bytes()).unwrap();
    zip.start_file("META-INF/manifest.xml", deflated).unwrap();
    zip.write_all(manifest.as_bytes()).unwrap();
    zip.start_file("content.xml", deflated).unwrap();
    zip.write_all(content.as_bytes()).unwrap();
    zip.finish().unwrap().into_inner()
}

#[test]
fn an_ods_worksheet_is_picked_and_its_cells_named() {
    let notes = vec![vec!["Playtest notes".to_string()]];
    let f = designer();
    std::fs::write(
        f.file(SLUG, "cards.ods"),
        ods(&[("Notes", notes.clone()), ("Cards", designer_rows())]),
    )
    .unwrap();
    point_deck_at(&f, "cards.ods", Some("Cards"));
    ok(&f.run(&["check", SLUG]));
    let from_ods = load_game(f.data(), SLUG).unwrap();
    let from_csv = load_game(designer().data(), SLUG).unwrap();
    let csv = printplay::model::sheet::export_csv(&from_csv, "emblems").unwrap();
    assert_eq!(
        printplay::model::sheet::export_csv(&from_ods, "emblems").unwrap(),
        csv
    );

    let mut rows = designer_rows();
    rows[10][6] = "two".into();
    let f = designer();
    std::fs::write(
        f.file(SLUG, "cards.ods"),
        ods(&[("Notes", notes), ("Cards", rows)]),
    )
    .unwrap();
    point_deck_at(&f, "cards.ods", Some("Cards"));
    let run = f.run(&["check", SLUG]);
    let e = errors(&run);
    assert_eq!(e.len(), 1, "{}", run.stderr);
    let cards = f.file(SLUG, "cards.ods");
    assert!(
        e[0].starts_with(&format!("{}, sheet `Cards`, cell G11: ", cards.display())),
        "{}",
        e[0]
    );
}

/// The files inside a workbook (a zip).
fn unzip(bytes: &[u8]) -> std::collections::BTreeMap<String, String> {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut file = zip.by_index(i).unwrap();
            let mut text = String::new();
            file.read_to_string(&mut text).unwrap();
            (file.name().unwrap().to_string(), text)
        })
        .collect()
}

/// `export-xlsx` writes the same bytes for the same cards (also through `export-csv --xlsx`),
/// a bold header row that stays in view, and columns as wide as their text.
#[test]
fn export_xlsx_is_deterministic_with_a_header_and_readable_columns() {
    let f = Fixture::with_games(&["capek-golems"]);
    let write = |args: &[&str], name: &str| {
        let out = f.data().join(name);
        let mut all = args.to_vec();
        all.extend(["--out", out.to_str().unwrap()]);
        ok(&f.run(&all));
        std::fs::read(out).unwrap()
    };
    let first = write(&["export-xlsx", "capek-golems", "game"], "a.xlsx");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let second = write(&["export-xlsx", "capek-golems", "game"], "b.xlsx");
    let third = write(&["export-csv", "capek-golems", "game", "--xlsx"], "c.xlsx");
    assert!(first == second && second == third, "the workbooks differ");

    let files = unzip(&first);
    let sheet = &files["xl/worksheets/sheet1.xml"];
    assert!(sheet.contains(r#"state="frozen""#));
    assert!(sheet.contains("<autoFilter"));
    // The header's cells use a style with a bold font.
    assert!(files["xl/styles.xml"].contains("<b/>"));
    // The worksheet is named after the deck.
    assert!(files["xl/workbook.xml"].contains(r#"name="game""#));
    // Each column is at least as wide as its header and at most 52 characters; the journal
    // column (long sentences) is wide.
    let header =
        printplay::model::sheet::export_rows(&load_game(f.data(), "capek-golems").unwrap(), "game")
            .unwrap()
            .header;
    // `<col min="10" max="11" width="52.7" .../>`: columns 10 and 11 are 52.7 wide.
    let attr = |c: &str, name: &str| -> f64 {
        let v = c.split(&format!(" {name}=\"")).nth(1).unwrap();
        v[..v.find('"').unwrap()].parse().unwrap()
    };
    let widths: Vec<f64> = sheet
        .split("<col ")
        .skip(1)
        .flat_map(|c| {
            let c = format!(" {c}");
            let n = attr(&c, "max") - attr(&c, "min") + 1.0;
            std::iter::repeat_n(attr(&c, "width"), n as usize)
        })
        .collect();
    assert_eq!(widths.len(), header.len(), "{widths:?}");
    for (name, width) in header.iter().zip(&widths) {
        assert!(
            *width >= name.len() as f64 && *width <= 53.0,
            "{name}: {width}"
        );
    }
    let journal = header.iter().position(|h| h == "journal").unwrap();
    assert!(widths[journal] >= 40.0, "{widths:?}");
}

/// Columns follow the deck's declared fields and the card's keys; lists, empty lists and
/// per-card sources are written so that they read back.
#[test]
fn export_keeps_declared_order_lists_and_sources() {
    let f = Fixture::with_games(&["imperial-settlers-aztecs"]);
    let run = f.run(&["export-csv", "imperial-settlers-aztecs", "aztec-example"]);
    ok(&run);
    assert!(
        run.stdout.starts_with(
            "id,name,count,text,faction,affiliation,copies,design,replaces,source.name\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .lines()
            .nth(1)
            .unwrap()
            .ends_with(",reconstructed: a generic slot name: we have no card texts"),
        "{}",
        run.stdout
    );
    let run = f.run(&["export-csv", "imperial-settlers-aztecs", "common-base"]);
    ok(&run);
    assert!(run.stdout.contains("\ncommon-ruins,"), "{}", run.stdout);
    let ruins = run
        .stdout
        .lines()
        .find(|l| l.starts_with("common-ruins,"))
        .unwrap();
    assert!(ruins.contains(",[],"), "{ruins}");
}

/// To a pipe, `export-xlsx` writes the workbook itself.
#[test]
fn export_xlsx_to_standard_output_writes_the_workbook() {
    let f = Fixture::with_games(&["capek-golems"]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args([
            "--data",
            f.data().to_str().unwrap(),
            "export-xlsx",
            "capek-golems",
            "golem",
        ])
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.starts_with(b"PK"), "not a zip");
    assert!(unzip(&out.stdout)["xl/workbook.xml"].contains(r#"name="golem""#));
}

/// The cards of a deck as tables of what they carry (the file they were read from aside).
fn card_tables(game: &printplay::model::Game, deck: &str) -> Vec<toml::Value> {
    game.deck(deck)
        .unwrap()
        .cards
        .iter()
        .map(|c| toml::Value::try_from(c).unwrap())
        .collect()
}

/// A quote inside a quoted cell that is neither doubled nor followed by the separator or the
/// line's end is one error where it stands; the reader does not run on into the next cells
/// and rows (where a card would vanish into the text of the one above).
#[test]
fn a_stray_quote_in_a_quoted_cell_is_an_error_where_it_stands() {
    let cell = "\"Draw a card, then gain [coin].\"";
    for (text, line_end) in [
        // Runs on into the next rows: no quote closes it on its line.
        ("\"Lopussa \"x kortti, jonka", "\n"),
        ("\"Discard a \"big\" card, then draw.\"", "\n"),
        ("\"Discard a \"big\" card, then draw.\"", "\r\n"),
    ] {
        let f = designer();
        let path = f.file(SLUG, "cards.csv");
        let sheet = std::fs::read_to_string(&path)
            .unwrap()
            .replace(cell, text)
            .replace('\n', line_end);
        std::fs::write(&path, &sheet).unwrap();
        let run = f.run(&["check", SLUG]);
        assert_eq!(run.code, 1, "{text}: {}", run.stderr);
        let e = errors(&run);
        assert_eq!(e.len(), 1, "{text}: {}", run.stderr);
        // Row 4 (sun-3), at the second quote of the cell.
        let row = sheet.split(line_end).nth(3).unwrap();
        let column = row.find(text).unwrap() + text[1..].find('"').unwrap() + 2;
        let at = format!("{}:4:{column}: ", path.display());
        assert!(e[0].starts_with(&at), "{text}: {} (wanted {at})", e[0]);
        assert!(e[0].contains("inside a quoted cell ends it"), "{}", e[0]);
    }
}

/// A formula saved with no value (openpyxl and other scripts write them so: they compute
/// nothing) is an error at its sheet and cell, not an empty cell (`text`) or a count of 1.
#[test]
fn a_formula_with_no_saved_value_is_an_error_at_its_cell() {
    let f = designer();
    std::fs::copy(
        repo().join("tests/fixtures/sheets/formulas-without-values.xlsx"),
        f.file(SLUG, "cards.xlsx"),
    )
    .unwrap();
    point_deck_at(&f, "cards.xlsx", Some("Cards"));
    let run = f.run(&["check", SLUG]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let e = errors(&run);
    assert_eq!(e.len(), 3, "{}", run.stderr);
    let cards = f.file(SLUG, "cards.xlsx");
    for (error, (cell, formula)) in e.iter().zip([
        ("C3", "=1+1"),
        ("D4", "=CONCAT(\"Draw \",\"two\")"),
        ("G5", "=2*2"),
    ]) {
        assert!(
            error.starts_with(&format!(
                "{}, sheet `Cards`, cell {cell}: the cell holds the formula `{formula}` with no \
                 saved value",
                cards.display()
            )),
            "{error}"
        );
    }
}

/// `printplay new`'s deck moves to a CSV sheet and to a workbook with `export-csv` and
/// `export-xlsx` (its Comet has a back of its own) and back: the same cards, and a
/// byte-identical `cards.pdf`.
#[test]
fn the_scaffold_deck_round_trips_through_csv_and_xlsx_to_the_same_pdf() {
    let f = Fixture::with_games(&[]);
    ok(&f.run(&["new", "starter"]));
    let shipped = load_game(f.data(), "starter").unwrap();
    assert!(
        shipped
            .deck("deck")
            .unwrap()
            .cards
            .iter()
            .any(|c| c.back.is_some()),
        "the scaffold has no card with a back of its own"
    );
    let original = cards_pdf(&f, "starter", "out0");
    for (command, file) in [("export-csv", "cards.csv"), ("export-xlsx", "cards.xlsx")] {
        let out = f.file("starter", file);
        ok(&f.run(&[command, "starter", "deck", "--out", out.to_str().unwrap()]));
        if file.ends_with(".xlsx") {
            f.edit(
                "starter",
                "components.toml",
                "cards = \"cards.csv\"",
                "cards = \"cards.xlsx\"",
            );
        }
        let game = load_game(f.data(), "starter").unwrap_or_else(|p| panic!("{file}: {p:?}"));
        assert_eq!(
            card_tables(&game, "deck"),
            card_tables(&shipped, "deck"),
            "{file}"
        );
        ok(&f.run(&["check", "starter"]));
        let pdf = cards_pdf(&f, "starter", &format!("out-{file}"));
        assert!(pdf == original, "cards.pdf differs once the deck is {file}");
    }
}

/// A deck using every kind of column (a card's own front `template`, `back` with its title,
/// colour and a value of its own, `name.<lang>`, `text.<lang>`, `source.<field>`, quotes and
/// line breaks in text) is written by `export-csv` and `export-xlsx` so that it reads back as
/// the same cards.
#[test]
fn a_deck_of_every_column_kind_reads_back_the_same_from_csv_and_xlsx() {
    let sheet = "id,name,name.fi,count,text,text.fi,art,suit,power,template,back,back.title,back.colour,back.label,source.power\n\
        sun-1,Sun One,Aurinko yksi,2,\"He said \"\"hi\"\", then\nleft.\",Hän sanoi hei.,art/emblem.png,sun,1,emblem-card,,,,,\n\
        sun-2,Sun Two,,1,,,art/emblem.png,sun,2,,basic-back,,,,reconstructed: a guess\n\
        moon-1,Moon One,Kuu,1, spaced ,,art/emblem.png,moon,3,,basic-back,Moon,#223344,Spent,\n";
    let f = designer();
    std::fs::write(f.file(SLUG, "cards.csv"), sheet).unwrap();
    // The game's own count of its deck, now the sheet's four and the TOML card (an export
    // checks the game first).
    f.edit(SLUG, "game.toml", "equals = 12", "equals = 5");
    let original = load_game(f.data(), SLUG).unwrap_or_else(|p| panic!("{p:?}"));
    let cards = card_tables(&original, "emblems");
    assert_eq!(cards.len(), 4, "{cards:?}");
    // Every kind of column was read into its card.
    let moon = original.deck("emblems").unwrap().cards[3].clone();
    let back = moon.back.as_ref().unwrap().get_ref();
    assert_eq!(back.title.as_deref(), Some("Moon"));
    assert_eq!(back.colour.as_deref(), Some("#223344"));
    assert_eq!(back.fields["label"].as_str(), Some("Spent"));
    assert_eq!(moon.names["fi"], "Kuu");
    // Without the TOML card, so that the deck is only what the sheet holds.
    let without_toml_card = |f: &Fixture| {
        let path = f.file(SLUG, "components.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        let (start, end) = (
            text.find("[[deck.card]]").unwrap(),
            text.find("[[piece]]").unwrap(),
        );
        std::fs::write(&path, format!("{}{}", &text[..start], &text[end..])).unwrap();
    };
    for (command, file) in [("export-csv", "cards.csv"), ("export-xlsx", "cards.xlsx")] {
        let g = designer();
        let out = g.file(SLUG, file);
        ok(&f.run(&[command, SLUG, "emblems", "--out", out.to_str().unwrap()]));
        without_toml_card(&g);
        if file.ends_with(".xlsx") {
            point_deck_at(&g, file, Some("emblems"));
        }
        let game = load_game(g.data(), SLUG).unwrap_or_else(|p| panic!("{file}: {p:?}"));
        assert_eq!(card_tables(&game, "emblems"), cards, "{file}");
    }
}

/// A card that no sheet cell can hold as it is (a number among the values of its own back,
/// which a sheet reads as text) is not exported as other cards: the export names the card and
/// the key, and writes no file.
#[test]
fn an_export_that_would_read_back_as_other_cards_is_refused() {
    let f = designer();
    f.edit(
        SLUG,
        "components.toml",
        "text = \"Gain 2 [coin].\"",
        "text = \"Gain 2 [coin].\"\nback = { template = \"basic-back\", uses = 3 }",
    );
    ok(&f.run(&["check", SLUG]));
    for command in ["export-csv", "export-xlsx"] {
        let out = f.data().join("out.sheet");
        let run = f.run(&[command, SLUG, "emblems", "--out", out.to_str().unwrap()]);
        assert_eq!(run.code, 2, "{command}: {}", run.stderr);
        assert!(
            run.stderr.contains("card `crest`: `back` is")
                && run.stderr.contains("uses = 3")
                && run.stderr.contains("keep this card in components.toml"),
            "{command}: {}",
            run.stderr
        );
        assert!(!out.exists(), "{command} wrote a file");
    }
}
