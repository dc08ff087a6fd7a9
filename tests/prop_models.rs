//! Whatever component model `check` passes, `build` writes and a short `simulate` plays, and
//! nothing panics on any model: the property test of values (`prop_unicode.rs`) extended
//! to models. A generated model is written as a game folder, as a designer could write it,
//! on top of the scaffold's Lua game (whose engine plays it): extra decks (cards in TOML or
//! in a CSV, each with its own front or back template now and then, fronts picked by
//! `template_by`), one- and two-sided pieces (a back template or `back_art`), hex, square,
//! image and sheet boards, a game published in two languages now and then (cards with or
//! without their `name.fi` / `text.fi`, a deck `multilingual`, each printed per language),
//! the game's own icons (SVG and PNG) shown inline in text with
//! `*`/`**` markup, arbitrary Unicode in every text, and the templates they name, built of
//! fragments some of which are wrong (an element left open, a stray closing tag, an unknown
//! variable, an unclosed block). In process through the library, with a fixed seed.

use std::cell::Cell;
use std::fmt::Write as _;
use std::path::Path;

use printplay::diag::ProblemKind;
use printplay::pipeline::{self, Outcome, stage_names};
use printplay::render::BuildOptions;
use printplay::simulate::{SimOptions, simulate};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

const GAME: &str = "g";

/// A TOML string literal.
fn q(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Text pieces: markup, icons (the game's own and generated), symbols, Unicode.
const TEXT: &[&str] = &[
    "Draw a card.",
    "*quick*",
    "**strong**",
    "***both***",
    "[marker]",
    "[ic-0]",
    "[ic-1]",
    "[sun]",
    "\\*",
    "\\[",
    "Kenttä",
    "日本語",
    "👍🏽",
    "e\u{301}",
    "שלום",
    "مرحبا",
    "\u{202E}",
    "<",
    "&",
    "{{",
    "{%",
    "\"",
    "\n",
    " ",
];

fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        12 => proptest::sample::select(TEXT).prop_map(str::to_string),
        1 => proptest::collection::vec(any::<char>(), 0..4).prop_map(|c| c.into_iter().collect()),
    ];
    proptest::collection::vec(piece, 0..5).prop_map(|p| p.join(" "))
}

/// What a template is for: the variables it may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum For {
    Front,
    CardBack,
    DeckBack,
    Piece,
    PieceBack,
    Board,
}

/// Fragments every template may hold.
const COMMON: &[&str] = &[
    r##"<rect x="{{ 0 - bleed }}" y="{{ 0 - bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#f4efe2"/>"##,
    r##"<g><rect x="1" y="1" width="{{ w - 2 }}" height="{{ h - 2 }}" fill="none" stroke="#222" stroke-width="0.4"/></g>"##,
    r##"<circle cx="{{ w / 2 }}" cy="{{ h / 2 }}" r="{{ h / 5 }}" fill="#3a5fa8"/>"##,
    r##"{% for i in range(end=3) %}<line x1="{{ i * 3 }}" y1="0" x2="{{ i * 3 }}" y2="4" stroke="#555" stroke-width="0.3"/>{% endfor %}"##,
];

/// Fragments that are wrong: `check` must refuse them, and nothing may panic.
const WRONG: &[&str] = &[
    r##"<rect width="1" height="1">"##,
    "</g>",
    "{{ nothing.here }}",
    "{% if w %}<g/>",
];

/// A fragment reading what a template of `purpose` is given.
fn own(purpose: For) -> &'static str {
    match purpose {
        For::Front | For::CardBack => {
            r#"{{ text(text=card.name, x=3, y=3, w=w - 6, h=8, size=4, face="bold", what="name") }}{% if card.text %}{{ text(text=card.text, x=3, y=14, w=w - 6, h=h - 20, size=3, what="text") }}{% endif %}"#
        }
        For::DeckBack => {
            r#"{{ text(text=back.title, x=3, y=h / 2 - 5, w=w - 6, h=10, size=5, align="middle", what="title") }}"#
        }
        For::Piece => {
            r##"<path d="{{ bleed_outline }}" fill="#d8c8a0"/>{{ text(text=piece.name, x=w * 0.1, y=h * 0.35, w=w * 0.8, h=h * 0.3, size=w * 0.15, align="middle", what="name") }}"##
        }
        For::PieceBack => {
            r#"<path d="{{ bleed_outline }}" fill="{{ back.colour }}"/>{{ text(text=back.label, x=w * 0.1, y=h * 0.35, w=w * 0.8, h=h * 0.3, size=w * 0.15, align="middle", what="label") }}"#
        }
        For::Board => r##"<rect width="{{ w }}" height="{{ h }}" fill="#eee"/>{{ cells }}"##,
    }
}

/// A template of the game's folder: its fragments (indices into COMMON, then the purpose's
/// own, then WRONG).
#[derive(Debug, Clone)]
struct Template {
    purpose: For,
    parts: Vec<usize>,
}

impl Template {
    fn body(&self) -> String {
        let mut out = String::new();
        for &i in &self.parts {
            let part = if i < COMMON.len() {
                COMMON[i]
            } else if i == COMMON.len() {
                own(self.purpose)
            } else {
                WRONG[(i - COMMON.len() - 1) % WRONG.len()]
            };
            out.push_str(part);
            out.push('\n');
        }
        out
    }
}

fn template(purpose: For) -> impl Strategy<Value = Template> {
    // Mostly right: one fragment in 25 is wrong.
    let part = prop_oneof![
        13 => 0..COMMON.len(),
        11 => Just(COMMON.len()),
        1 => (COMMON.len() + 1)..(COMMON.len() + 1 + WRONG.len()),
    ];
    proptest::collection::vec(part, 1..4).prop_map(move |parts| Template { purpose, parts })
}

/// A card of a generated deck.
#[derive(Debug, Clone)]
struct Card {
    name: String,
    text: String,
    count: u32,
    kind: &'static str,
    /// Its own front template (a built-in, or the deck's second template).
    own_front: Option<bool>,
    /// Its own back template.
    own_back: Option<Template>,
    /// Its `name.fi` and `text.fi` (a game published in English and Finnish prints the card
    /// in each; a missing one falls back to `name` / `text`).
    name_fi: Option<String>,
    text_fi: Option<String>,
}

#[derive(Debug, Clone)]
struct Deck {
    name: String,
    size: &'static str,
    front: Option<Template>,
    back: Option<Template>,
    back_title: String,
    /// Cards of `star` drawn by a template of their own (`template_by`).
    by_kind: Option<Template>,
    in_csv: bool,
    /// Each card carries every language (`multilingual = true`): drawn once.
    multilingual: bool,
    cards: Vec<Card>,
    /// `box = { card_thickness_mm, template }` (2.5 mm is past its bound: check refuses it).
    tuck_box: Option<(f64, Option<Template>)>,
}

#[derive(Debug, Clone)]
enum PieceBack {
    None,
    Template(Template),
    Art,
}

#[derive(Debug, Clone)]
struct Piece {
    name: String,
    shape: &'static str,
    size_mm: u32,
    front: Option<Template>,
    back: PieceBack,
    back_label: String,
}

#[derive(Debug, Clone)]
enum Board {
    Hex {
        cells: usize,
        hex_mm: u32,
        pointy: bool,
    },
    Square {
        rows: u32,
        columns: u32,
        mm: u32,
    },
    Image {
        png: bool,
        width_mm: u32,
        height_mm: u32,
    },
    Sheet,
}

#[derive(Debug, Clone)]
struct Model {
    decks: Vec<Deck>,
    pieces: Vec<Piece>,
    boards: Vec<(Board, String, Option<Template>)>,
    /// The game's own icons `ic-0`, `ic-1`: PNG (true) or SVG.
    icons: Vec<bool>,
    /// Published in English and Finnish (`languages = ["en", "fi"]`): cards and boards are
    /// printed once per language.
    languages: bool,
}

fn card() -> impl Strategy<Value = Card> {
    (
        text().prop_map(|t| format!("N{t}")),
        text(),
        0..3u32,
        proptest::sample::select(&["sun", "moon", "star"][..]),
        proptest::option::weighted(0.2, any::<bool>()),
        proptest::option::weighted(0.3, template(For::CardBack)),
        proptest::option::weighted(0.6, text().prop_map(|t| format!("Nfi{t}"))),
        proptest::option::weighted(0.6, text()),
    )
        .prop_map(
            |(name, text, count, kind, own_front, own_back, name_fi, text_fi)| Card {
                name,
                text,
                count,
                kind,
                own_front,
                own_back,
                name_fi,
                text_fi,
            },
        )
}

fn deck() -> impl Strategy<Value = Deck> {
    (
        text(),
        proptest::sample::select(&["poker", "mini", "tarot", "square"][..]),
        proptest::option::of(template(For::Front)),
        proptest::option::of(template(For::DeckBack)),
        text(),
        proptest::option::weighted(0.3, template(For::Front)),
        (any::<bool>(), proptest::bool::weighted(0.2)),
        proptest::collection::vec(card(), 1..4),
        proptest::option::weighted(
            0.3,
            (
                proptest::sample::select(&[0.1, 0.3, 0.45, 2.0, 2.5][..]),
                proptest::option::of(template(For::DeckBack)),
            ),
        ),
    )
        .prop_map(
            |(
                name,
                size,
                front,
                back,
                back_title,
                by_kind,
                (in_csv, multilingual),
                cards,
                tuck_box,
            )| {
                Deck {
                    name,
                    size,
                    front,
                    back,
                    back_title,
                    by_kind,
                    in_csv,
                    multilingual,
                    cards,
                    tuck_box,
                }
            },
        )
}

fn piece() -> impl Strategy<Value = Piece> {
    (
        text(),
        proptest::sample::select(&["circle", "square", "hex"][..]),
        8..30u32,
        proptest::option::of(template(For::Piece)),
        prop_oneof![
            Just(PieceBack::None),
            template(For::PieceBack).prop_map(PieceBack::Template),
            Just(PieceBack::Art),
        ],
        text(),
    )
        .prop_map(|(name, shape, size_mm, front, back, back_label)| Piece {
            name,
            shape,
            size_mm,
            front,
            back,
            back_label,
        })
}

/// A count of rows or columns: now and then none.
fn rows() -> impl Strategy<Value = u32> {
    prop_oneof![9 => 1..4u32, 1 => Just(0u32)]
}

fn board() -> impl Strategy<Value = Board> {
    prop_oneof![
        (0..8usize, 10..40u32, any::<bool>()).prop_map(|(cells, hex_mm, pointy)| Board::Hex {
            cells,
            hex_mm,
            pointy
        }),
        (rows(), rows(), prop_oneof![9 => 10..30u32, 1 => Just(0u32)])
            .prop_map(|(rows, columns, mm)| Board::Square { rows, columns, mm }),
        (any::<bool>(), 20..200u32, 20..200u32).prop_map(|(png, width_mm, height_mm)| {
            Board::Image {
                png,
                width_mm,
                height_mm,
            }
        }),
        Just(Board::Sheet),
    ]
}

fn model() -> impl Strategy<Value = Model> {
    (
        proptest::collection::vec(deck(), 0..3),
        proptest::collection::vec(piece(), 0..3),
        proptest::collection::vec(
            (
                board(),
                text(),
                proptest::option::weighted(0.3, template(For::Board)),
            ),
            0..3,
        ),
        // `ic-0` and `ic-1`, which texts show.
        proptest::collection::vec(any::<bool>(), 2..3),
        proptest::bool::weighted(0.5),
    )
        .prop_map(|(decks, pieces, boards, icons, languages)| Model {
            decks,
            pieces,
            boards,
            icons,
            languages,
        })
}

/// A small PNG of `w` x `h` pixels.
fn png(w: u32, h: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    let data: Vec<u8> = (0..w * h * 3).map(|i| (i * 7 % 251) as u8).collect();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
    bytes
}

/// Writes the scaffold's Lua game into `data/g` with the model's components added.
fn write_game(data: &Path, m: &Model) {
    printplay::scaffold::new_game_with_engine(data, GAME, "lua").expect("the scaffold");
    let dir = data.join(GAME);
    std::fs::write(dir.join("art/pic.png"), png(40, 30)).unwrap();
    if m.languages {
        let game_toml = std::fs::read_to_string(dir.join("game.toml")).unwrap();
        let game_toml = game_toml.replacen("[game]\n", "[game]\nlanguages = [\"en\", \"fi\"]\n", 1);
        std::fs::write(dir.join("game.toml"), game_toml).unwrap();
    }
    let mut toml = std::fs::read_to_string(dir.join("components.toml")).unwrap();
    // Templates are written as they are named: `t<n>`.
    let written = Cell::new(0usize);
    let name = |t: &Template| {
        let n = written.get();
        written.set(n + 1);
        std::fs::write(dir.join(format!("templates/t{n}.svg")), t.body()).unwrap();
        format!("t{n}")
    };
    for (i, png_icon) in m.icons.iter().enumerate() {
        let image = match png_icon {
            true => "art/pic.png",
            false => "icons/marker.svg",
        };
        let _ = write!(
            toml,
            "\n[[icon]]\nid = \"ic-{i}\"\nname = \"Icon {i}\"\nimage = {}\n",
            q(image)
        );
    }
    for (d, deck) in m.decks.iter().enumerate() {
        let front = deck.front.as_ref().map_or("basic-card".to_string(), &name);
        let back = deck.back.as_ref().map_or("basic-back".to_string(), &name);
        let size = match deck.size {
            "square" => "{ width = 70, height = 70 }".to_string(),
            s => q(s),
        };
        let _ = write!(
            toml,
            "\n[[deck]]\nid = \"d{d}\"\nname = {}\nsize = {size}\ntemplate = {}\nback = {{ template = {}, title = {}, colour = {} }}\n",
            q(&deck.name),
            q(&front),
            q(&back),
            q(&deck.back_title),
            // Backs a greyscale print tells apart from the scaffold's and each other's.
            q(["#f7f3e8", "#9aa0a6", "#5a6b3a"][d % 3])
        );
        if deck.multilingual {
            let _ = writeln!(toml, "multilingual = true");
        }
        if let Some((thickness, template)) = &deck.tuck_box {
            let template = template.as_ref().map_or("tuck-box".to_string(), &name);
            let _ = writeln!(
                toml,
                "box = {{ card_thickness_mm = {thickness}, template = {} }}",
                q(&template)
            );
        }
        if let Some(t) = &deck.by_kind {
            let t = name(t);
            let _ = writeln!(
                toml,
                "template_by = \"kind\"\ntemplates = {{ star = {} }}",
                q(&t)
            );
        }
        let mut rows = Vec::new();
        let mut cards = String::new();
        for (c, card) in deck.cards.iter().enumerate() {
            let own_front = match card.own_front {
                Some(true) => "basic-card".to_string(),
                Some(false) => front.clone(),
                None => String::new(),
            };
            let own_back = card.own_back.as_ref().map_or(String::new(), &name);
            let id = format!("d{d}-c{c}");
            if deck.in_csv {
                rows.push([
                    id,
                    card.name.clone(),
                    card.count.to_string(),
                    card.text.clone(),
                    card.kind.to_string(),
                    own_front,
                    own_back,
                    card.name_fi.clone().unwrap_or_default(),
                    card.text_fi.clone().unwrap_or_default(),
                ]);
            } else {
                let _ = write!(
                    cards,
                    "\n[[deck.card]]\nid = {}\nname = {}\ncount = {}\ntext = {}\nfields = {{ kind = {} }}\n",
                    q(&id),
                    q(&card.name),
                    card.count,
                    q(&card.text),
                    q(card.kind)
                );
                if !own_front.is_empty() {
                    let _ = writeln!(cards, "template = {}", q(&own_front));
                }
                if !own_back.is_empty() {
                    let _ = writeln!(cards, "back = {{ template = {} }}", q(&own_back));
                }
                if let Some(n) = &card.name_fi {
                    let _ = writeln!(cards, "names = {{ fi = {} }}", q(n));
                }
                if let Some(t) = &card.text_fi {
                    let _ = writeln!(cards, "texts = {{ fi = {} }}", q(t));
                }
            }
        }
        if deck.in_csv {
            let file = format!("d{d}.csv");
            let _ = writeln!(toml, "cards = {}", q(&file));
            let mut w = csv::Writer::from_path(dir.join(&file)).unwrap();
            w.write_record([
                "id", "name", "count", "text", "kind", "template", "back", "name.fi", "text.fi",
            ])
            .unwrap();
            for r in &rows {
                w.write_record(r).unwrap();
            }
            w.flush().unwrap();
        }
        let _ = write!(
            toml,
            "\n[deck.fields.kind]\ntype = \"symbol\"\ngroup = \"suit\"\nlabel = \"Kind\"\n{cards}"
        );
    }
    for (p, piece) in m.pieces.iter().enumerate() {
        if let Some(t) = &piece.front {
            // A piece's front is `piece-<kind>` of the game's templates, else `piece`.
            std::fs::write(dir.join(format!("templates/piece-k{p}.svg")), t.body()).unwrap();
        }
        let _ = write!(
            toml,
            "\n[[piece]]\nid = \"p{p}\"\nname = {}\nkind = \"k{p}\"\ncount = 2\nshape = {}\nsize_mm = {}\n",
            q(&piece.name),
            q(piece.shape),
            piece.size_mm
        );
        match &piece.back {
            PieceBack::None => {}
            PieceBack::Art => {
                let _ = writeln!(toml, "back_art = \"art/pic.png\"");
            }
            PieceBack::Template(t) => {
                let t = name(t);
                let _ = writeln!(
                    toml,
                    "back = {{ template = {}, label = {}, colour = \"#2f3e46\" }}",
                    q(&t),
                    q(&piece.back_label)
                );
            }
        }
    }
    const AXIAL: [(i32, i32); 7] = [(0, 0), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];
    for (b, (board, title, template)) in m.boards.iter().enumerate() {
        let _ = write!(toml, "\n[[board]]\nid = \"b{b}\"\nname = {}\n", q(title));
        if let Some(t) = template {
            let t = name(t);
            let _ = writeln!(toml, "template = {}", q(&t));
        }
        match board {
            Board::Hex {
                cells,
                hex_mm,
                pointy,
            } => {
                let list: Vec<String> = AXIAL[..*cells]
                    .iter()
                    .enumerate()
                    .map(|(i, (q, r))| {
                        let kind = if i % 2 == 0 { "lake" } else { "meadow" };
                        format!("{{ q = {q}, r = {r}, kind = \"{kind}\" }}")
                    })
                    .collect();
                let _ = writeln!(
                    toml,
                    "hex_mm = {hex_mm}\norientation = \"{}\"\ncell_group = \"ground\"\ncells = [{}]",
                    if *pointy { "pointy" } else { "flat" },
                    list.join(", ")
                );
            }
            Board::Square { rows, columns, mm } => {
                let _ = writeln!(
                    toml,
                    "grid = \"square\"\ncell_group = \"ground\"\n\n[board.cells]\nrows = {rows}\ncolumns = {columns}\nmm = {mm}\nground = \"meadow\""
                );
            }
            Board::Image {
                png,
                width_mm,
                height_mm,
            } => {
                let image = if *png {
                    "art/pic.png"
                } else {
                    "art/emblem.svg"
                };
                let _ = writeln!(
                    toml,
                    "image = {}\nwidth_mm = {width_mm}\nheight_mm = {height_mm}",
                    q(image)
                );
            }
            Board::Sheet => {
                let _ = writeln!(toml, "size = \"a4\"");
            }
        }
    }
    std::fs::write(dir.join("components.toml"), toml).unwrap();
    // The rules say what each component is for.
    let mut rules = std::fs::read_to_string(dir.join("rules.en.toml")).unwrap();
    let ids = (0..m.decks.len())
        .map(|d| format!("deck.d{d}"))
        .chain((0..m.pieces.len()).map(|p| format!("piece.p{p}")))
        .chain((0..m.boards.len()).map(|b| format!("board.b{b}")));
    for id in ids {
        let _ = write!(rules, "\n[components.\"{id}\"]\npurpose = \"Extra.\"\n");
    }
    // A game published in Finnish too has its rules prose in Finnish (here the same words).
    if m.languages {
        std::fs::write(dir.join("rules.fi.toml"), &rules).unwrap();
    }
    std::fs::write(dir.join("rules.en.toml"), rules).unwrap();
}

/// Checks the case in process; when `check` passes, builds it (whole, and with `--only
/// only`) and plays it for a few games. Every problem is the data's and names its file.
fn run_case(m: &Model, only: &[&str]) -> Result<bool, TestCaseError> {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    write_game(&data, m);
    let game = match printplay::model::load_game(&data, GAME) {
        Ok(g) => g,
        Err(ps) => {
            if std::env::var_os("PROP_MODELS_SAY").is_some() {
                eprintln!("does not load: {}", ps[0].message);
            }
            for p in &ps {
                prop_assert!(p.kind != ProblemKind::Io, "{}", p.render(false));
            }
            return Ok(false);
        }
    };
    let report = printplay::check::check_game_report(&game);
    for p in &report.problems {
        prop_assert!(p.kind != ProblemKind::Io, "{}", p.render(false));
        prop_assert!(p.file.is_some(), "no file: {}", p.render(false));
    }
    let passed = report.problems.iter().all(|p| p.is_warning());
    if std::env::var_os("PROP_MODELS_SAY").is_some() {
        let first = report.problems.iter().find(|p| !p.is_warning());
        eprintln!(
            "{} decks, {} pieces, {} boards, {} icons, {} language(s): {}",
            m.decks.len(),
            m.pieces.len(),
            m.boards.len(),
            m.icons.len(),
            if m.languages { 2 } else { 1 },
            first.map_or("passed".to_string(), |p| p
                .message
                .chars()
                .take(150)
                .collect())
        );
    }
    let options = |only: Option<&[&str]>| BuildOptions {
        out: tmp.path().join("out"),
        only: only.into_iter().flatten().map(|s| s.to_string()).collect(),
        shop: only
            .is_some_and(|o| o.contains(&"shop"))
            .then(Default::default),
        ..BuildOptions::default()
    };
    for only in [None, Some(only)] {
        let built = pipeline::build(&data, &[GAME.to_string()], &options(only), &|_| {});
        let g = &built.games[0];
        match (&g.outcome, passed) {
            (Outcome::Built(files), true) => {
                // A game published in two languages prints a card file per language.
                let names: Vec<String> = files
                    .iter()
                    .filter_map(|f| f.file_name()?.to_str().map(str::to_string))
                    .collect();
                let wanted: &[&str] = match m.languages {
                    true => &["cards.en.pdf", "cards.fi.pdf"],
                    false => &["cards.pdf"],
                };
                if only.is_none_or(|o| o.contains(&"cards")) {
                    for w in wanted {
                        prop_assert!(names.iter().any(|n| n == w), "no {w} in {names:?}");
                    }
                    prop_assert!(
                        !m.languages || !names.iter().any(|n| n == "cards.pdf"),
                        "{names:?}"
                    );
                }
            }
            (Outcome::NotChecked(_), false) => {}
            (outcome, _) => prop_assert!(
                false,
                "check {}, build (--only {only:?}) gave {outcome:?}",
                if passed { "passed" } else { "refused" }
            ),
        }
    }
    if passed {
        let opts = SimOptions {
            games: 3,
            ..SimOptions::default()
        };
        if let Err(e) = simulate(&game, &opts, None) {
            prop_assert!(false, "check passed, simulate refused: {e}");
        }
    }
    Ok(passed)
}

/// Cases: sized to run in under a minute in a debug build on two cores (each case writes a
/// game, checks it, builds it twice and plays three games; a case the check passes costs
/// most). With seed 36 the four cases are three games published in English and Finnish that
/// pass (cards.en.pdf and cards.fi.pdf written, one with a deck of its own besides the
/// scaffold's) and one in English that the check refuses: 34 s of CPU.
const CASES: u32 = 4;

#[test]
fn whatever_model_check_passes_build_and_simulate_accept() {
    // `changed` needs `--changed-since` or `--cards` (tests/diff.rs builds it).
    let stages: Vec<&str> = stage_names()
        .into_iter()
        .filter(|s| *s != "changed")
        .collect();
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        max_shrink_iters: 32,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(36),
        ..Config::default()
    });
    let (at, passed) = (Cell::new(0usize), Cell::new(0usize));
    runner
        .run(&model(), |m| {
            // Each case builds some `--only` stages besides the whole build, in turn, so
            // that the cases together build every stage alone: case k takes the stages whose
            // index is k modulo the number of cases.
            let k = at.get() % CASES as usize;
            let only: Vec<&str> = stages
                .iter()
                .skip(k)
                .step_by(CASES as usize)
                .copied()
                .collect();
            at.set(at.get() + 1);
            passed.set(passed.get() + usize::from(run_case(&m, &only)?));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let (at, passed) = (at.get(), passed.get());
    eprintln!("{passed} of {at} models passed check");
    // Both sides are tried: models the check passes and models it refuses.
    assert!(passed > 0 && passed < at, "{passed} of {at} passed");
}
