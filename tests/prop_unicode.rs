//! Whatever text a designer writes, `check` and `build` answer without a panic: arbitrary
//! Unicode (accents, emoji, combining marks, right-to-left text, NUL, template and markup
//! syntax, inline markup `*`, `**`, `[`, `]`, `\`, 10,000 characters) in every field of a card, a piece, a symbol, a param and a
//! name, and as a field's name, drawn with the scaffold's own card template and with the
//! built-in `basic-card`. In process through the library for many cases, through the binary
//! for a few, where the exit status must be 0 or 1.

mod common;

use std::path::Path;

use printplay::diag::ProblemKind;
use printplay::pipeline::{self, Outcome};
use printplay::render::BuildOptions;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

const GAME: &str = "g";

/// Pieces of text that have broken, or could break, something between the data and a file.
const PIECES: &[&str] = &[
    "é",
    "€",
    "5 €",
    "Kenttä",
    "ä",
    "日本語",
    "👍🏽",
    "👩‍👩‍👧",
    "e\u{301}",
    "\u{301}",
    "שלום",
    "مرحبا",
    "\u{202E}",
    "\u{200B}",
    "\u{FEFF}",
    "\0",
    "\u{7}",
    "\r\n",
    "\n",
    "\t",
    "{{",
    "}}",
    "{%",
    "%}",
    "{#",
    "</svg>",
    "<",
    ">",
    "&",
    "&amp;",
    "]]>",
    "<![CDATA[",
    "\"",
    "'",
    "`",
    "\\",
    "[sun]",
    "[marker]",
    "[",
    "]",
    "[nope]",
    "*",
    "**",
    "***",
    "\\*",
    "\\[",
    "\\]",
    "**[marker]**",
    "#",
    "#ffffff",
    "#€aaa",
    ".",
    "..",
    "../",
    "/",
    "~1",
    "%s",
    "{deck.deck.cards}",
    "-",
    "0",
    "-1",
    "1e308",
    "NaN",
    " ",
    "\u{A0}",
    "\u{FFFD}",
    "\u{10FFFF}",
];

/// One piece: a listed one or any characters (any code point, controls included).
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(PIECES).prop_map(str::to_string),
        2 => proptest::collection::vec(any::<char>(), 0..6).prop_map(|c| c.into_iter().collect()),
    ]
}

/// A value to put into a field: a few pieces, now and then repeated to 10,000 characters.
fn payload() -> impl Strategy<Value = String> {
    (proptest::collection::vec(piece(), 1..5), 0..8u8).prop_map(|(pieces, long)| {
        let text: String = pieces.concat();
        if long == 0 && !text.is_empty() {
            text.chars().cycle().take(10_000).collect()
        } else {
            text
        }
    })
}

/// Where a payload goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    GameName,
    GameSummary,
    ParamValue,
    ParamDoc,
    SymbolId,
    SymbolName,
    SymbolColour,
    SymbolMark,
    DeckName,
    BackTitle,
    FieldName,
    FieldLabel,
    CardId,
    CardName,
    CardText,
    CardSuit,
    CardValue,
    CardArt,
    CardCount,
    PieceName,
    PieceKind,
    PieceLabel,
    PieceSymbol,
    PieceImage,
}

const TARGETS: &[Target] = &[
    Target::GameName,
    Target::GameSummary,
    Target::ParamValue,
    Target::ParamDoc,
    Target::SymbolId,
    Target::SymbolName,
    Target::SymbolColour,
    Target::SymbolMark,
    Target::DeckName,
    Target::BackTitle,
    Target::FieldName,
    Target::FieldLabel,
    Target::CardId,
    Target::CardName,
    Target::CardText,
    Target::CardSuit,
    Target::CardValue,
    Target::CardArt,
    Target::CardCount,
    Target::PieceName,
    Target::PieceKind,
    Target::PieceLabel,
    Target::PieceSymbol,
    Target::PieceImage,
];

/// One game to try: the card template and the text put into some of its fields.
#[derive(Debug, Clone)]
struct Case {
    /// The built-in `basic-card` instead of the scaffold's own `card`.
    builtin: bool,
    edits: Vec<(Target, String)>,
}

fn case() -> impl Strategy<Value = Case> {
    let edit = || (proptest::sample::select(TARGETS), payload());
    (
        any::<bool>(),
        // Mostly one field at a time: a game whose data still loads is drawn and built, which
        // is where text meets templates, fonts and files.
        prop_oneof![
            3 => proptest::collection::vec(edit(), 1..2),
            1 => proptest::collection::vec(edit(), 2..6),
        ],
    )
        .prop_map(|(builtin, edits)| Case { builtin, edits })
}

fn table<'a>(t: &'a mut toml::Table, key: &str) -> &'a mut toml::Table {
    t.get_mut(key).and_then(|v| v.as_table_mut()).unwrap()
}

fn first<'a>(t: &'a mut toml::Table, key: &str) -> &'a mut toml::Table {
    t.get_mut(key)
        .and_then(|v| v.as_array_mut())
        .and_then(|a| a.first_mut())
        .and_then(|v| v.as_table_mut())
        .unwrap()
}

fn set(t: &mut toml::Table, key: &str, text: &str) {
    t.insert(key.to_string(), toml::Value::String(text.to_string()));
}

/// Writes the scaffold's game into `data/g` with the case's edits, as a designer could.
fn write_game(data: &Path, case: &Case) {
    printplay::scaffold::new_game(data, GAME).expect("the scaffold writes a game");
    let dir = data.join(GAME);
    let read = |name: &str| -> toml::Table {
        toml::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
    };
    let mut game = read("game.toml");
    let mut comps = read("components.toml");
    let mut csv = csv::Reader::from_path(dir.join("cards.csv")).unwrap();
    let mut header: Vec<String> = csv.headers().unwrap().iter().map(str::to_string).collect();
    let mut rows: Vec<Vec<String>> = csv
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    let column = |header: &[String], name: &str| header.iter().position(|h| h == name).unwrap();
    if case.builtin {
        set(first(&mut comps, "deck"), "template", "basic-card");
    }
    for (target, text) in &case.edits {
        match target {
            Target::GameName => set(table(&mut game, "game"), "name", text),
            Target::GameSummary => set(table(&mut game, "game"), "summary", text),
            Target::ParamValue => set(
                table(table(&mut game, "params"), "hand_size"),
                "value",
                text,
            ),
            Target::ParamDoc => set(table(table(&mut game, "params"), "hand_size"), "doc", text),
            Target::SymbolId => set(first(&mut comps, "symbol"), "id", text),
            Target::SymbolName => set(first(&mut comps, "symbol"), "name", text),
            Target::SymbolColour => set(first(&mut comps, "symbol"), "colour", text),
            Target::SymbolMark => set(first(&mut comps, "symbol"), "mark", text),
            Target::DeckName => set(first(&mut comps, "deck"), "name", text),
            Target::BackTitle => set(table(first(&mut comps, "deck"), "back"), "title", text),
            Target::FieldName => {
                let fields = table(first(&mut comps, "deck"), "fields");
                // A name the other edits of this case already took stays as it is.
                if let Some(decl) = fields.remove("value") {
                    fields.insert(text.clone(), decl);
                    let at = column(&header, "value");
                    header[at] = text.clone();
                }
            }
            Target::FieldLabel => {
                let fields = table(first(&mut comps, "deck"), "fields");
                if let Some(decl) = fields.iter_mut().next().and_then(|(_, v)| v.as_table_mut()) {
                    set(decl, "label", text);
                }
            }
            Target::PieceName => set(first(&mut comps, "piece"), "name", text),
            Target::PieceKind => set(first(&mut comps, "piece"), "kind", text),
            Target::PieceLabel => set(first(&mut comps, "piece"), "label", text),
            Target::PieceSymbol => set(first(&mut comps, "piece"), "symbol", text),
            Target::PieceImage => set(first(&mut comps, "piece"), "image", text),
            Target::CardId
            | Target::CardName
            | Target::CardText
            | Target::CardSuit
            | Target::CardValue
            | Target::CardArt
            | Target::CardCount => {
                let name = match target {
                    Target::CardId => "id",
                    Target::CardName => "name",
                    Target::CardText => "text",
                    Target::CardSuit => "suit",
                    Target::CardArt => "art",
                    Target::CardCount => "count",
                    _ => "value",
                };
                if let Some(at) = header.iter().position(|h| h == name) {
                    rows[0][at] = text.clone();
                }
            }
        }
    }
    std::fs::write(dir.join("game.toml"), toml::to_string(&game).unwrap()).unwrap();
    std::fs::write(
        dir.join("components.toml"),
        toml::to_string(&comps).unwrap(),
    )
    .unwrap();
    let mut out = csv::Writer::from_path(dir.join("cards.csv")).unwrap();
    out.write_record(&header).unwrap();
    for row in &rows {
        out.write_record(row).unwrap();
    }
    out.flush().unwrap();
}

/// Loads, checks and builds the case in process; every problem is the data's (exit 1), and
/// names its file.
fn run_in_process(case: &Case) -> Result<(), TestCaseError> {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    write_game(&data, case);
    let options = BuildOptions {
        out: tmp.path().join("out"),
        // Rasterising (png, tts) costs seconds a game in a debug build; the binary cases
        // below build everything.
        only: ["cards", "tokens", "board", "rules", "index"]
            .into_iter()
            .map(str::to_string)
            .collect(),
        ..BuildOptions::default()
    };
    let report = pipeline::build(&data, &[GAME.to_string()], &options, &|_| {});
    let problems = report.problems();
    for p in &problems {
        prop_assert!(
            p.kind != ProblemKind::Io,
            "a data problem reported as one of reading (exit 2): {}",
            p.render(false)
        );
        prop_assert!(!p.render(false).is_empty());
    }
    let game = &report.games[0];
    match &game.outcome {
        Outcome::Built(files) => prop_assert!(!files.is_empty()),
        Outcome::NotChecked(ps) | Outcome::Failed(ps) => prop_assert!(!ps.is_empty()),
    }
    Ok(())
}

#[test]
fn any_text_in_any_field_never_panics_check_or_build() {
    let mut runner = TestRunner::new(Config {
        cases: 64,
        max_shrink_iters: 64,
        failure_persistence: None,
        // The same cases on every run, so that CI answers the same for the same code.
        rng_seed: RngSeed::Fixed(20),
        ..Config::default()
    });
    runner
        .run(&case(), |c| run_in_process(&c))
        .unwrap_or_else(|e| {
            // A case holds up to 10,000 characters a field: the start of it says enough.
            let e = e.to_string();
            panic!("{}", e.chars().take(4000).collect::<String>())
        });
}

/// The issue's own cases, and every listed piece at once in every field, through the binary.
#[test]
fn the_binary_exits_0_or_1_on_any_text() {
    let all: String = PIECES.concat();
    let long: String = all.chars().cycle().take(10_000).collect();
    let cases = [
        Case {
            builtin: true,
            edits: vec![(Target::CardValue, "5 €".to_string())],
        },
        Case {
            builtin: true,
            edits: vec![(Target::CardName, "Kenttä".to_string())],
        },
        Case {
            builtin: true,
            edits: vec![(Target::FieldName, "Määrä".to_string())],
        },
        Case {
            builtin: false,
            edits: TARGETS.iter().map(|t| (*t, all.clone())).collect(),
        },
        Case {
            builtin: true,
            edits: vec![(Target::CardText, long.clone()), (Target::PieceLabel, long)],
        },
    ];
    for case in &cases {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        write_game(&data, case);
        let out = tmp.path().join("out");
        for args in [
            vec!["check", GAME],
            vec!["build", GAME, "--out", out.to_str().unwrap()],
        ] {
            let mut all_args = vec!["--data", data.to_str().unwrap()];
            all_args.extend(args.iter().copied());
            let run = common::run_in(tmp.path(), &all_args);
            assert!(
                run.code == 0 || run.code == 1,
                "{args:?} on {case:?}: exit {}\n{}",
                run.code,
                run.stderr
            );
            assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        }
    }
}

/// The cases reach the page with a clear problem, not an empty build: the int field
/// holding `5 €` is reported at its cell.
#[test]
fn a_misread_value_is_reported_at_its_cell() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    write_game(
        &data,
        &Case {
            builtin: true,
            edits: vec![(Target::CardValue, "5 €".to_string())],
        },
    );
    let game = printplay::model::load_game(&data, GAME).expect("it loads");
    let problems = printplay::check::check_game(&game);
    let rendered: Vec<String> = problems.iter().map(|p| p.render(false)).collect();
    assert!(
        rendered
            .iter()
            .any(|r| r.contains("cards.csv:2:") && r.contains("5 €")),
        "{rendered:#?}"
    );
    // The faces are drawn all the same: the name and the other fields print.
    let (_, faces) =
        printplay::check::check_and_draw(&game, &printplay::render::BuildOptions::default());
    assert!(faces.is_some(), "every face draws with a mistyped value");
}

/// A test on a subscripted name cannot be looked up by value: the template is refused at the
/// line that holds it, with what to write instead, and nothing panics.
#[test]
fn a_test_on_a_subscript_is_refused_at_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    write_game(
        &data,
        &Case {
            builtin: false,
            edits: vec![(Target::FieldName, "Määrä".to_string())],
        },
    );
    let template = data.join(GAME).join("templates/card.svg");
    let mut text = std::fs::read_to_string(&template).unwrap();
    let line = text.lines().count() + 1;
    text.push_str("{% for key, v in card.fields %}{% if card.fields[key] is string %}s{% endif %}{% endfor %}\n");
    std::fs::write(&template, text).unwrap();
    let game = printplay::model::load_game(&data, GAME).expect("it loads");
    let rendered: Vec<String> = printplay::check::check_game(&game)
        .iter()
        .map(|p| p.render(false))
        .collect();
    assert!(
        rendered
            .iter()
            .any(|r| r.contains(&format!("templates/card.svg:{line}:"))
                && r.contains("`card.fields[key] is ...`")
                && r.contains("key in map")),
        "{rendered:#?}"
    );
}
