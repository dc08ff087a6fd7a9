//! Characters a face lacks, on the scaffold's game as `printplay new` writes it (its card
//! titles are set in a face of its own, DejaVu Serif SemiCondensed Italic, which has no
//! star): a character the title's face lacks is set in a face of the same weight and slant
//! and the rest of the line stays in the title's face; text fitting measures the glyph that
//! prints; a character no font has is a `check` warning at the value, and the build prints.

mod common;

use std::path::Path;
use std::process::Command;

use common::Fixture;
use printplay::render::faces::fonts::Face;
use printplay::render::faces::text::{self, Inline, Styles, TextBox};

const SLUG: &str = "demo";

fn scaffold() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    printplay::scaffold::new_game(dir.path(), SLUG).expect("the scaffold writes a game");
    Fixture { dir }
}

/// One glyph as usvg lays it out: the text it draws, its face's family, weight and slant,
/// where its pen starts and its advance (in the page's units).
#[derive(Debug)]
struct Glyph {
    text: String,
    family: String,
    weight: u16,
    italic: bool,
    x: f64,
    advance: f64,
}

/// Every glyph of an SVG page drawn with `fonts`, as the PDF and PNG writers read it.
fn glyphs(page: &str, fonts: &printplay::render::faces::fonts::FontDb) -> Vec<Glyph> {
    fn walk(g: &usvg::Group, db: &usvg::fontdb::Database, out: &mut Vec<Glyph>) {
        for node in g.children() {
            match node {
                usvg::Node::Group(g) => walk(g, db, out),
                usvg::Node::Text(t) => {
                    for glyph in t.layouted().iter().flat_map(|s| &s.positioned_glyphs) {
                        let face = db.face(glyph.font).expect("the glyph's face");
                        let advance = db
                            .with_face_data(glyph.font, |data, index| {
                                let f = ttf_parser::Face::parse(data, index).unwrap();
                                f64::from(f.glyph_hor_advance(glyph.id).unwrap_or(0))
                                    / f64::from(f.units_per_em())
                            })
                            .unwrap();
                        out.push(Glyph {
                            text: glyph.text.clone(),
                            family: face.families[0].0.clone(),
                            weight: face.weight.0,
                            italic: face.style != usvg::fontdb::Style::Normal,
                            x: f64::from(glyph.transform().tx),
                            advance: advance * f64::from(glyph.font_size()),
                        });
                    }
                }
                _ => {}
            }
        }
    }
    let tree = printplay::render::formats::pdf::parse(page, fonts).expect("the page reads");
    let mut out = Vec::new();
    walk(tree.root(), tree.fontdb(), &mut out);
    out
}

fn pdffonts(pdf: &Path) -> String {
    let out = Command::new("pdffonts")
        .arg(pdf)
        .output()
        .expect("pdffonts runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A title with a star its face lacks: the star is set in the italic sans (the title is
/// italic), every other letter in the title's own face, in the check's drawing and in the
/// PDF (which embeds no bold italic face: the line used to go wholly into DejaVu Sans Bold
/// Oblique, the first face in the database with a star).
#[test]
fn a_title_with_a_character_its_face_lacks_keeps_its_face_and_style() {
    let f = scaffold();
    f.edit(
        SLUG,
        "cards.csv",
        "sun-low,Morning,",
        "sun-low,Star ★ Light,",
    );
    let check = f.run(&["check", SLUG]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        !format!("{}{}", check.stdout, check.stderr).contains("U+2605"),
        "a star some face has is no warning:\n{}",
        check.stderr
    );

    let game = printplay::model::load_game(f.data(), SLUG).expect("the game loads");
    let (report, faces) =
        printplay::check::check_and_draw(&game, &printplay::render::BuildOptions::default());
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let faces = faces.expect("the faces are drawn");
    let deck = &faces.decks[0];
    let card = deck.cards.iter().find(|c| c.id == "sun-low").unwrap();
    let page = printplay::render::sheets::single_face(&card.svg, deck.size);
    // The title's glyphs: the ten, spaces aside, that spell it in the order drawn.
    let drawn: Vec<Glyph> = glyphs(&page, &faces.fonts)
        .into_iter()
        .filter(|g| !g.text.trim().is_empty())
        .collect();
    let want: Vec<String> = "Star★Light".chars().map(String::from).collect();
    let at = drawn
        .windows(want.len())
        .position(|w| w.iter().zip(&want).all(|(g, c)| &g.text == c))
        .unwrap_or_else(|| panic!("no title among {drawn:?}"));
    let title = &drawn[at..at + want.len()];
    let star = title
        .iter()
        .find(|g| g.text == "★")
        .expect("the star prints");
    assert_eq!(
        (star.family.as_str(), star.weight, star.italic),
        ("DejaVu Sans", 400, true),
        "{star:?}"
    );
    for g in title.iter().filter(|g| g.text != "★") {
        assert_eq!(
            (g.family.as_str(), g.weight, g.italic),
            ("DejaVu Serif", 400, true),
            "{g:?}"
        );
    }

    let out = f.data().join("out");
    let build = f.run(&[
        "build",
        SLUG,
        "--only",
        "cards",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    let fonts = pdffonts(&out.join(SLUG).join("cards.pdf"));
    assert!(fonts.contains("DejaVuSerifCondensed-Italic"), "{fonts}");
    assert!(fonts.contains("DejaVuSansCondensed-Oblique"), "{fonts}");
    assert!(!fonts.contains("BoldOblique"), "{fonts}");
}

/// Stars in a box just too narrow for them as they print: fitting shrinks the text until
/// what prints fits, because it measures each star with the advance of the face that draws
/// it (it used to take half an em for a glyph the box's face lacks, and print a wider one).
#[test]
fn fitting_measures_the_fallback_glyph_that_prints() {
    let inline_none = std::collections::BTreeMap::new();
    let icons_none = std::collections::BTreeMap::new();
    let inline = Inline {
        symbols: &inline_none,
        icons: &icons_none,
    };
    let fonts = printplay::render::faces::fonts::builtin();
    for (content, w) in [("★★★★★★", 15.0), ("Pay ★ now", 14.0), ("x★x★x", 12.0)] {
        let b = TextBox {
            x: 0.0,
            y: 0.0,
            w,
            h: 5.0,
            size: 4.0,
            min: 1.0,
            face: Face::SerifItalic,
            styles: Styles::bundled(Face::SerifItalic),
            align: "start".into(),
            fill: "#000".into(),
            leading: 1.2,
        };
        let fitted = text::fit(content, &b, &inline);
        assert!(fitted.fits, "{content}");
        let page = printplay::render::formats::pdf::svg_page((40.0, 10.0), &fitted.svg);
        let printed = glyphs(&page, &fonts);
        let right = printed.iter().map(|g| g.x + g.advance).fold(0.0, f64::max);
        assert!(
            right <= w + 0.02,
            "{content}: fitted at {:.2} mm into {w} mm, printed {right:.2} mm wide",
            fitted.size
        );
        // And it is not shrunk more than it has to be: at 2 % larger type it would not fit.
        assert!(
            right > w * 0.95,
            "{content}: printed {right:.2} mm of {w} mm"
        );
    }
}

/// A die and a Chinese character no font of the game has: `check` passes with a warning at
/// the value (file, line and column of the first of them) that names the card, the field
/// and each character; the build prints the cards.
#[test]
fn check_warns_at_the_value_naming_characters_no_font_draws() {
    let f = scaffold();
    let line = f.edit(
        SLUG,
        "cards.csv",
        "Swap this card with one in the middle.",
        "Roll 🎲 for 漢 and 🎲.",
    );
    let check = f.run(&["check", SLUG]);
    assert_eq!(check.code, 0, "a warning, not an error:\n{}", check.stderr);
    let said = format!("{}{}", check.stdout, check.stderr);
    let row = std::fs::read_to_string(f.file(SLUG, "cards.csv")).unwrap();
    let row = row.lines().nth(line - 1).unwrap();
    let column = row[..row.find('🎲').unwrap()].chars().count() + 1;
    for needle in [
        "moon-low".to_string(),
        "`text`".to_string(),
        "U+1F3B2 `🎲`".to_string(),
        "U+6F22 `漢`".to_string(),
        format!("cards.csv:{line}:{column}"),
    ] {
        assert!(said.contains(&needle), "no {needle}:\n{said}");
    }
    assert_eq!(said.matches("U+1F3B2").count(), 1, "{said}");
    // A name is a value of its own, and says so.
    f.edit(SLUG, "cards.csv", "sun-high,Noon,", "sun-high,Noon ✨,");
    let check = f.run(&["check", SLUG]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let said = format!("{}{}", check.stdout, check.stderr);
    assert!(
        said.contains("sun-high") && said.contains("`name`") && said.contains("U+2728"),
        "{said}"
    );
    // The same character in another card is the same cause: one warning, naming both.
    f.edit(SLUG, "cards.csv", ",Morning,", ",Morning ✨,");
    let check = f.run(&["check", SLUG]);
    let said = format!("{}{}", check.stdout, check.stderr);
    assert_eq!(said.matches("U+2728").count(), 1, "{said}");
    assert!(said.contains("1 more value(s)"), "{said}");
    let out = f.data().join("out");
    let build = f.run(&[
        "build",
        SLUG,
        "--only",
        "cards",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    assert!(out.join(SLUG).join("cards.pdf").is_file());
}
