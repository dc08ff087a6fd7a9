//! Tests of [`super`] (text.rs).

use super::*;

fn boxed(w: f64, h: f64) -> TextBox {
    TextBox {
        x: 0.0,
        y: 0.0,
        w,
        h,
        size: 4.0,
        min: 2.0,
        face: Face::Sans,
        styles: Styles::bundled(Face::Sans),
        align: "start".into(),
        fill: "#000".into(),
        leading: 1.2,
    }
}

fn none() -> Inline<'static> {
    static EMPTY_S: BTreeMap<String, Symbol> = BTreeMap::new();
    static EMPTY_I: BTreeMap<String, OwnIcon> = BTreeMap::new();
    Inline {
        symbols: &EMPTY_S,
        icons: &EMPTY_I,
    }
}

#[test]
fn short_text_keeps_its_size() {
    let f = fit("Hello", &boxed(50.0, 10.0), &none());
    assert!(f.fits);
    assert_eq!(f.size, 4.0);
}

#[test]
fn long_text_wraps_and_shrinks() {
    let text = "word ".repeat(40);
    let f = fit(&text, &boxed(40.0, 20.0), &none());
    assert!(f.fits);
    assert!(f.size < 4.0 && f.size >= 2.0);
    assert!(f.svg.matches("<text").count() > 3);
}

#[test]
fn text_too_long_for_its_box_is_reported() {
    let text = "overflowing ".repeat(200);
    let f = fit(&text, &boxed(30.0, 10.0), &none());
    assert!(!f.fits);
    assert_eq!(f.size, 2.0);
}

#[test]
fn icons_sit_on_the_baseline() {
    let sym: Symbol = toml::from_str(
        "id = \"fire\"\ngroup = \"element\"\nname = \"Fire\"\ncolour = \"#d03020\"\nmark = \"flame\"",
    )
    .unwrap();
    let symbols = BTreeMap::from([("fire".to_string(), sym)]);
    let icons = BTreeMap::new();
    let inline = Inline {
        symbols: &symbols,
        icons: &icons,
    };
    let f = fit("Play [fire] now", &boxed(80.0, 10.0), &inline);
    assert!(f.fits);
    assert!(f.svg.contains("#d03020"));
    // One line: the badge's circle bottom (cy + r) equals the text baseline.
    let baseline: f64 = attr(&f.svg, "<text", "y");
    let cy: f64 = attr(&f.svg, "<circle", "cy");
    let r: f64 = attr(&f.svg, "<circle", "r");
    assert!((cy + r - baseline).abs() < 0.01, "{cy} + {r} vs {baseline}");
}

/// The lines of a fitted box, as text.
fn lines_of(f: &Fitted) -> Vec<String> {
    f.svg
        .split("xml:space=\"preserve\">")
        .skip(1)
        .map(|rest| rest[..rest.find("</text>").unwrap()].to_string())
        .collect()
}

#[test]
fn a_short_last_word_takes_the_one_before_it_along() {
    // Boxes just wide enough for all but the last word on the first line.
    let boxed_for = |first: &str| {
        let mut b = boxed(Metrics::of(Face::Bold).width(first, 4.4) + 0.5, 12.0);
        (b.size, b.min, b.face) = (4.4, 4.4, Face::Bold);
        b.styles = Styles::bundled(Face::Bold);
        b
    };
    let b = boxed_for("Aztec Atlanteans double");
    let f = fit("Aztec Atlanteans double A", &b, &none());
    assert_eq!(lines_of(&f), ["Aztec Atlanteans", "double A"]);
    let b = boxed_for("The Search: Val");
    let f = fit("The Search: Val Justinia", &b, &none());
    assert_eq!(lines_of(&f), ["The Search:", "Val Justinia"]);
    // A line break the text asks for is kept as it is.
    let f = fit("One two\nthree", &boxed(80.0, 12.0), &none());
    assert_eq!(lines_of(&f), ["One two", "three"]);
}

/// A title set in bold at one size in a box `width` wide.
fn title(text: &str, width: f64) -> Vec<String> {
    let mut b = boxed(width, 30.0);
    (b.size, b.min, b.face, b.align) = (4.4, 4.4, Face::Bold, "middle".into());
    b.styles = Styles::bundled(Face::Bold);
    lines_of(&fit(text, &b, &none()))
}

#[test]
fn title_lines_are_balanced_not_only_the_last() {
    let m = Metrics::of(Face::Bold);
    // Every width from the one that takes the longest line of the good break up to the
    // whole title on one line: the cases where the last word alone used to pull the word
    // before it down and leave a short word alone on the first line.
    let cases = [
        ("The Search: Police", ["The Search:", "Police"]),
        ("The Hired Man", ["The Hired", "Man"]),
        ("Call in Reinforcements", ["Call in", "Reinforcements"]),
        ("Play a card now", ["Play a card", "now"]),
        ("fire · water · earth", ["fire · water", "· earth"]),
    ];
    for (text, want) in cases {
        let from = want.iter().map(|l| m.width(l, 4.4)).fold(0.0, f64::max) + 0.01;
        let to = m.width(text, 4.4) - 0.01;
        for k in 0..=10 {
            let w = from + (to - from) * f64::from(k) / 10.0;
            assert_eq!(title(text, w), want, "{text} at {w:.2} mm");
        }
    }
    // No line ends in a one-letter word when another break fits as few lines.
    let lines = title(
        "Take a card and a coin",
        m.width("Take a card and", 4.4) + 0.1,
    );
    assert!(lines.iter().all(|l| !l.ends_with(" a")), "{lines:?}");
}

#[test]
fn bold_and_italic_runs_are_set_in_their_faces_and_measured_so() {
    let f = fit("Play **two** *now* \\*", &boxed(80.0, 10.0), &none());
    assert!(f.missing.is_empty());
    assert!(
        f.svg
            .contains(&format!("<tspan {}>two</tspan>", Face::Bold.span_attrs())),
        "{}",
        f.svg
    );
    assert!(
        f.svg
            .contains(&format!("<tspan {}>now</tspan>", Face::Italic.span_attrs())),
        "{}",
        f.svg
    );
    assert!(f.svg.contains(" *</text>"), "{}", f.svg);
    // Bold is wider: a box that holds the regular word on one line at 4 mm does not hold
    // the bold one.
    let w = Metrics::of(Face::Sans).width("Wonderful", 4.0) + 0.05;
    let mut b = boxed(w, 4.0 * 1.2);
    b.min = 1.0;
    assert_eq!(fit("Wonderful", &b, &none()).size, 4.0);
    assert!(fit("**Wonderful**", &b, &none()).size < 4.0);
    // The bundled serif has no bold: the text is set, and says which style is missing.
    let mut b = boxed(80.0, 10.0);
    (b.face, b.styles) = (Face::SerifItalic, Styles::bundled(Face::SerifItalic));
    let f = fit("A **bold** claim *here*", &b, &none());
    assert_eq!(
        f.missing,
        [Style {
            bold: true,
            italic: false
        }]
    );
}

/// Each glyph usvg lays out for a text box's SVG, drawn with the bundled faces: the text
/// it draws, its face's family, weight and slant, where its pen starts and its advance.
fn printed(svg: &str) -> Vec<(String, String, u16, bool, f64, f64)> {
    fn walk(
        g: &usvg::Group,
        db: &usvg::fontdb::Database,
        out: &mut Vec<(String, String, u16, bool, f64, f64)>,
    ) {
        for node in g.children() {
            match node {
                usvg::Node::Group(g) => walk(g, db, out),
                usvg::Node::Text(t) => {
                    for glyph in t.layouted().iter().flat_map(|s| &s.positioned_glyphs) {
                        let face = db.face(glyph.font).unwrap();
                        let advance = db
                            .with_face_data(glyph.font, |data, index| {
                                let f = ttf_parser::Face::parse(data, index).unwrap();
                                f64::from(f.glyph_hor_advance(glyph.id).unwrap())
                                    / f64::from(f.units_per_em())
                            })
                            .unwrap();
                        out.push((
                            glyph.text.clone(),
                            face.families[0].0.clone(),
                            face.weight.0,
                            face.style != usvg::fontdb::Style::Normal,
                            f64::from(glyph.transform().tx),
                            advance * f64::from(glyph.font_size()),
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    let page = crate::render::formats::pdf::svg_page((100.0, 40.0), svg);
    let tree =
        crate::render::formats::pdf::parse(&page, &crate::render::faces::fonts::builtin()).unwrap();
    let mut out = Vec::new();
    walk(tree.root(), tree.fontdb(), &mut out);
    out
}

#[test]
fn a_character_its_face_lacks_is_set_alone_in_a_face_of_the_same_style() {
    // The bundled serif italic has no star; the sans faces have one.
    assert!(!Face::SerifItalic.has_char('★') && Face::Italic.has_char('★'));
    let mut b = boxed(90.0, 10.0);
    (b.face, b.styles) = (Face::SerifItalic, Styles::bundled(Face::SerifItalic));
    let f = fit("Star ★ Light", &b, &none());
    assert!(f.fits);
    // As printed: every other glyph in the box's face, the star in the italic (not bold)
    // sans.
    let glyphs = printed(&f.svg);
    assert_eq!(glyphs.len(), "Star ★ Light".chars().count(), "{glyphs:?}");
    for (text, family, weight, italic, _, _) in glyphs.iter().filter(|g| g.0 != " ") {
        let want = if text == "★" {
            "DejaVu Sans"
        } else {
            "DejaVu Serif"
        };
        assert_eq!(
            (family.as_str(), *weight, *italic),
            (want, 400, true),
            "{text}"
        );
    }
    // Bold text keeps its bold face for a star it has; a variation selector stays with
    // the character before it.
    let styles = Styles::bundled(Face::SerifItalic);
    assert_eq!(
        styles.runs("a\u{2605}\u{FE0E}b", Face::SerifItalic),
        [
            ("a".to_string(), Face::SerifItalic),
            ("\u{2605}\u{FE0E}".to_string(), Face::Italic),
            ("b".to_string(), Face::SerifItalic)
        ]
    );
    let styles = Styles::bundled(Face::Bold);
    assert_eq!(
        styles.runs("a\u{2605}b", Face::Bold),
        [("a\u{2605}b".to_string(), Face::Bold)]
    );
}

#[test]
fn fitting_measures_a_fallback_glyph_as_printed() {
    let mut b = boxed(90.0, 10.0);
    (b.face, b.styles) = (Face::SerifItalic, Styles::bundled(Face::SerifItalic));
    for text in ["x★x", "★★★★", "ix\u{2192}\u{2605}i"] {
        let f = fit(text, &b, &none());
        let mut missing = Vec::new();
        let items = markup::parse(text, &|_| false);
        let paras = measure(&items, &b, &none(), &mut missing);
        let measured = line_width(&paras[0], f.size);
        let glyphs = printed(&f.svg);
        let from = glyphs.iter().map(|g| g.4).fold(f64::MAX, f64::min);
        let to = glyphs.iter().map(|g| g.4 + g.5).fold(f64::MIN, f64::max);
        assert!(
            (measured - (to - from)).abs() < 0.01,
            "{text}: measured {measured:.3} mm, printed {:.3} mm",
            to - from
        );
    }
}

fn attr(svg: &str, tag: &str, name: &str) -> f64 {
    let at = svg.find(tag).unwrap();
    let key = format!(" {name}=\"");
    let start = svg[at..].find(&key).unwrap() + at + key.len();
    let end = svg[start..].find('"').unwrap() + start;
    svg[start..end].parse().unwrap()
}
