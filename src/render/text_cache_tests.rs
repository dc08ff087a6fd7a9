//! usvg (vendor/usvg, see its PRINTPLAY.md) reads each font face once per document, makes each
//! shaping face once, and caches glyph outlines by face, glyph and variation coordinates. What
//! it caches must not change what it draws: a text draws the same paths whatever the document
//! drew before it, two faces with the same glyph ids keep their own outlines, a variable face
//! keeps one outline and advance per width, and a colour glyph stays a colour glyph after its
//! face drew plain ones.
//!
//! `tests/fixtures/fonts/cache-probe.ttf` (made by `cache-probe.py` next to it) is a tiny
//! variable font: a width axis that narrows `A` and its advance, and a colour glyph `C` of one
//! red layer.

use std::fmt::Write;
use std::sync::Arc;

use crate::render::faces::fonts;

/// The bundled faces and the probe font.
fn fonts_with_probe() -> fonts::FontDb {
    let mut db = (*fonts::builtin()).clone();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fonts/cache-probe.ttf"
    );
    db.load_font_data(std::fs::read(path).expect("the probe font"));
    assert!(
        db.faces()
            .any(|f| f.families.iter().any(|(n, _)| n == "Cache Probe")),
        "fontdb did not load the probe font"
    );
    Arc::new(db)
}

/// Parses an SVG of `texts` (each `(id, attributes, text)`), as printplay parses a page.
fn parse(texts: &[(&str, &str, &str)], fonts: &fonts::FontDb) -> usvg::Tree {
    let mut svg =
        String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">"#);
    for (i, (id, attrs, text)) in texts.iter().enumerate() {
        let y = 30 + 40 * i;
        write!(
            svg,
            r#"<text id="{id}" x="10" y="{y}" font-size="24" {attrs}>{text}</text>"#
        )
        .unwrap();
    }
    svg.push_str("</svg>");
    crate::render::formats::pdf::parse(&svg, fonts).expect("the test SVG parses")
}

/// Everything the text `id` draws: its flattened groups and paths, with their transforms,
/// paints and every segment.
fn drawn(tree: &usvg::Tree, id: &str) -> String {
    let Some(usvg::Node::Text(text)) = tree.node_by_id(id) else {
        panic!("no text {id}");
    };
    let mut out = String::new();
    describe(text.flattened(), &mut out);
    assert!(out.contains("path"), "text {id} draws nothing: {out}");
    out
}

fn describe(group: &usvg::Group, out: &mut String) {
    writeln!(out, "group {:?} {:?} [", group.transform(), group.opacity()).unwrap();
    for node in group.children() {
        match node {
            usvg::Node::Group(g) => describe(g, out),
            usvg::Node::Path(p) => {
                let fill = p.fill().map(|f| format!("{:?}", f.paint()));
                writeln!(out, "path {fill:?} {:?}", p.abs_transform()).unwrap();
                for segment in p.data().segments() {
                    writeln!(out, "  {segment:?}").unwrap();
                }
            }
            other => writeln!(out, "{other:?}").unwrap(),
        }
    }
    writeln!(out, "]").unwrap();
}

/// Each text of `texts`, parsed in one document, draws what it draws parsed alone.
fn assert_each_as_alone(texts: &[(&str, &str, &str)], fonts: &fonts::FontDb) {
    let together = parse(texts, fonts);
    for (i, text) in texts.iter().enumerate() {
        // Alone, at the same place: the same y.
        let mut alone_texts: Vec<(&str, &str, &str)> = ["pad0", "pad1", "pad2", "pad3", "pad4"]
            [..i]
            .iter()
            .map(|pad| (*pad, "", ""))
            .collect();
        alone_texts.push(*text);
        let alone = parse(&alone_texts, fonts);
        assert_eq!(
            drawn(&together, text.0),
            drawn(&alone, text.0),
            "text {} draws otherwise after the texts before it",
            text.0
        );
    }
}

/// The width of what text `id` draws, in pixels.
fn width(tree: &usvg::Tree, id: &str) -> f32 {
    let Some(usvg::Node::Text(text)) = tree.node_by_id(id) else {
        panic!("no text {id}");
    };
    text.flattened().abs_bounding_box().width()
}

const SANS: &str = r#"font-family="DejaVu Sans" font-stretch="condensed""#;
const BOLD: &str = r#"font-family="DejaVu Sans" font-stretch="condensed" font-weight="bold""#;
const SERIF: &str = r#"font-family="DejaVu Serif" font-stretch="condensed" font-style="italic""#;
const PROBE: &str = r#"font-family="Cache Probe""#;

#[test]
fn the_same_glyphs_in_several_faces_draw_as_each_face_alone() {
    // The bundled faces share glyph ids ("A" is the same glyph in each) and printplay's
    // `font-stretch="condensed"` gives every span a width variation these faces have no axis
    // for: the cache must still keep each face's outlines apart.
    let fonts = fonts::builtin();
    let texts = [
        ("sans", SANS, "Golem of Prague"),
        ("bold", BOLD, "Golem of Prague"),
        ("serif", SERIF, "Golem of Prague"),
        ("again", SANS, "Prague Golem"),
        ("bold-again", BOLD, "Golem of Prague"),
    ];
    assert_each_as_alone(&texts, &fonts);
    let tree = parse(&texts, &fonts);
    assert_ne!(drawn(&tree, "sans"), drawn(&tree, "bold"));
    assert_ne!(drawn(&tree, "sans"), drawn(&tree, "serif"));
}

#[test]
fn a_variable_face_draws_each_width_with_its_own_outlines() {
    let fonts = fonts_with_probe();
    let texts = [
        ("normal", PROBE, "AB"),
        (
            "condensed",
            r#"font-family="Cache Probe" font-stretch="condensed""#,
            "AB",
        ),
        (
            "narrowest",
            r#"font-family="Cache Probe" font-stretch="ultra-condensed""#,
            "AB",
        ),
        ("normal-again", PROBE, "BA"),
        (
            "narrowest-again",
            r#"font-family="Cache Probe" font-stretch="ultra-condensed""#,
            "A",
        ),
    ];
    assert_each_as_alone(&texts, &fonts);
    let tree = parse(&texts, &fonts);
    // "A" is 400 units wide at the default width, 100 at the narrowest (wdth 50, the
    // axis's minimum), 250 at condensed (wdth 75): at 24 px to 1,000 units, its left side at
    // 100 units (2.4 px) and "B" after it at 600 units (14.4 px to 21.6 px).
    let a = |id: &str| {
        let tree = parse(
            &[(id, texts.iter().find(|t| t.0 == id).unwrap().1, "A")],
            &fonts,
        );
        width(&tree, id)
    };
    assert!((a("normal") - 9.6).abs() < 0.01, "{}", a("normal"));
    assert!((a("condensed") - 6.0).abs() < 0.01, "{}", a("condensed"));
    assert!((a("narrowest") - 2.4).abs() < 0.01, "{}", a("narrowest"));
    // Shaping takes the width too: A's advance narrows from 600 units to 300, so "AB" spans
    // 800 units (19.2 px) at the default width and 500 (12 px) at the narrowest.
    assert!((width(&tree, "normal") - 19.2).abs() < 0.01);
    assert!((width(&tree, "narrowest") - 12.0).abs() < 0.01);
    assert_ne!(drawn(&tree, "normal"), drawn(&tree, "condensed"));
    assert_ne!(drawn(&tree, "condensed"), drawn(&tree, "narrowest"));
}

#[test]
fn a_colour_glyph_stays_in_colour_after_its_face_drew_plain_glyphs() {
    let fonts = fonts_with_probe();
    let texts = [
        ("sans", SANS, "CAB"),
        ("plain", PROBE, "AB"),
        ("colour", PROBE, "ACB"),
        ("colour-again", PROBE, "C"),
    ];
    assert_each_as_alone(&texts, &fonts);
    let tree = parse(&texts, &fonts);
    let red = "Color(Color { red: 255, green: 0, blue: 0 })";
    for id in ["colour", "colour-again"] {
        assert!(drawn(&tree, id).contains(red), "{id}: {}", drawn(&tree, id));
    }
    for id in ["sans", "plain"] {
        assert!(
            !drawn(&tree, id).contains(red),
            "{id}: {}",
            drawn(&tree, id)
        );
    }
}
