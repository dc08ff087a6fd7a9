//! Rich text on cards, read back from what the build wrote: `**bold**` and `*italic*` runs are
//! set in bold and italic faces the PDF embeds, `\*` prints an asterisk, a game's own
//! `[[icon]]` is drawn in the card (an SVG as vector, a PNG as its own image), the rules
//! reference shows the icons in its glossary, and an unknown icon or a style no font has is
//! a `check` error at the card's line and column. All on the scaffold's game as `printplay
//! new` writes it, which shows bold, italic and an icon of its own.

mod common;

use std::path::Path;
use std::process::Command;

use common::Fixture;

const SLUG: &str = "demo";

/// A data folder with the scaffold's game.
fn scaffold() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    printplay::scaffold::new_game(dir.path(), SLUG).expect("the scaffold writes a game");
    Fixture { dir }
}

/// What a poppler tool prints about a file (pdftotext to standard output).
fn tool(name: &str, args: &[&str], file: &Path) -> String {
    let mut cmd = Command::new(name);
    cmd.args(args).arg(file);
    if name == "pdftotext" {
        cmd.arg("-");
    }
    let out = cmd.output().unwrap_or_else(|e| panic!("{name} runs: {e}"));
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn build(f: &Fixture, only: &str) -> std::path::PathBuf {
    let out = f.data().join("out");
    let run = f.run(&[
        "build",
        SLUG,
        "--only",
        only,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    out.join(SLUG)
}

/// The scaffold as written checks, and its cards' PDF embeds a bold and an italic face for
/// the styled runs of its card text, besides the regular one.
#[test]
fn the_scaffold_prints_bold_and_italic_in_their_own_faces() {
    let f = scaffold();
    let check = f.run(&["check", SLUG]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let out = build(&f, "cards");
    let fonts = tool("pdffonts", &[], &out.join("cards.pdf"));
    for face in [
        "DejaVuSansCondensed-Bold",
        "DejaVuSansCondensed-Oblique",
        "DejaVuSansCondensed ",
    ] {
        assert!(fonts.contains(face), "no {face}:\n{fonts}");
    }
    let text = tool("pdftotext", &["-layout"], &out.join("cards.pdf")).replace('\n', " ");
    assert!(text.contains("Score"), "{text}");
    assert!(!text.contains("**"), "markup printed: {text}");
}

/// `\*` prints an asterisk and `\[` a bracket; a stray asterisk prints as it is.
#[test]
fn escaped_characters_print_themselves() {
    let f = scaffold();
    f.edit(
        SLUG,
        "cards.csv",
        "Look at the top card of the deck.",
        r"Worth 2\* points \[not an icon] 5 * 3.",
    );
    let out = build(&f, "cards");
    let text = tool("pdftotext", &[], &out.join("cards.pdf")).replace('\n', " ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("Worth 2* points [not an icon] 5 * 3."),
        "{text}"
    );
    assert!(!text.contains('\\'), "{text}");
}

/// A green 7 x 5 PNG, an image of a size nothing else in the game has.
fn png_icon() -> Vec<u8> {
    let mut pixmap = resvg::tiny_skia::Pixmap::new(7, 5).unwrap();
    pixmap.fill(resvg::tiny_skia::Color::from_rgba8(0x12, 0xab, 0x34, 0xff));
    pixmap.encode_png().unwrap()
}

/// An own icon is drawn in the card: a PNG as an image of its own pixels in the PDF, an SVG
/// as vector (its colour on the page, no image for it); both on the text's baseline.
#[test]
fn own_icons_are_drawn_in_the_card() {
    let f = scaffold();
    std::fs::write(f.file(SLUG, "icons/leaf.png"), png_icon()).unwrap();
    std::fs::write(
        f.file(SLUG, "icons/gear.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#c81eb4"/></svg>"##,
    )
    .unwrap();
    let comps = f.file(SLUG, "components.toml");
    let mut text = std::fs::read_to_string(&comps).unwrap();
    text.push_str(
        "\n[[icon]]\nid = \"leaf\"\nimage = \"icons/leaf.png\"\n\n[[icon]]\nid = \"gear\"\nimage = \"icons/gear.svg\"\n",
    );
    std::fs::write(&comps, text).unwrap();
    f.edit(
        SLUG,
        "cards.csv",
        "Look at the top card of the deck.",
        "Pay [leaf] and [gear] twice: [gear][gear]",
    );
    let out = build(&f, "cards");
    let pdf = out.join("cards.pdf");
    let images = tool("pdfimages", &["-list"], &pdf);
    let sizes: Vec<(u32, u32)> = images
        .lines()
        .skip(2)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            Some((cols.get(3)?.parse().ok()?, cols.get(4)?.parse().ok()?))
        })
        .collect();
    assert!(sizes.contains(&(7, 5)), "no 7x5 icon image:\n{images}");
    assert!(
        sizes.iter().all(|&s| s == (7, 5)),
        "an image besides the PNG icon (the SVG must stay vector):\n{images}"
    );
    // The SVG icon's magenta is on the page, drawn.
    let png = f.data().join("page");
    let run = Command::new("pdftoppm")
        .args(["-r", "100", "-png", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&pdf)
        .arg(&png)
        .status()
        .unwrap();
    assert!(run.success());
    let page = resvg::tiny_skia::Pixmap::load_png(png.with_extension("png")).unwrap();
    let magenta = page
        .pixels()
        .iter()
        .filter(|p| {
            let (r, g, b) = (
                i32::from(p.red()),
                i32::from(p.green()),
                i32::from(p.blue()),
            );
            (r - 0xc8).abs() < 24 && (g - 0x1e).abs() < 24 && (b - 0xb4).abs() < 24
        })
        .count();
    assert!(magenta > 20, "the SVG icon is not drawn ({magenta} pixels)");
}

/// An unknown `[id]` is an error at its cell; an escaped one is text.
#[test]
fn an_unknown_icon_is_a_check_error_at_its_cell() {
    let f = scaffold();
    let line = f.edit(
        SLUG,
        "cards.csv",
        "Look at the top card of the deck.",
        r"Look at [gearr] and not \[this].",
    );
    let check = f.run(&["check", SLUG]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    let text = std::fs::read_to_string(f.file(SLUG, "cards.csv")).unwrap();
    let row = text.lines().nth(line - 1).unwrap();
    let col = row.find("[gearr]").unwrap() + 1;
    let at = format!("cards.csv:{line}:{col}");
    assert!(check.stderr.contains(&at), "not at {at}: {}", check.stderr);
    assert_eq!(
        check
            .stderr
            .matches("no symbol or icon is called `gearr`")
            .count(),
        1,
        "said once, though the face shows it too: {}",
        check.stderr
    );
    assert!(
        check.stderr.contains("marker"),
        "the help names the icons: {}",
        check.stderr
    );
    assert!(!check.stderr.contains("`this`"), "{}", check.stderr);
}

/// An unknown `[id]` in any text a template sets (a deck's back title, a piece's label, a
/// piece back's label) is an error at the `[id]` as `components.toml` writes it, from
/// `check` and `build` alike.
#[test]
fn an_unknown_icon_in_any_text_a_template_sets_is_an_error_where_it_is_written() {
    let f = scaffold();
    f.edit(
        SLUG,
        "components.toml",
        "title = \"demo\"",
        "title = \"demo [nope]\"",
    );
    f.edit(
        SLUG,
        "components.toml",
        "size_mm = 20\n",
        "size_mm = 20\nlabel = \"M [fog]\"\n",
    );
    f.edit(SLUG, "components.toml", "\"Spent\"", "\"Spent [gone]\"");
    let toml = std::fs::read_to_string(f.file(SLUG, "components.toml")).unwrap();
    let at = |written: &str| {
        let (n, row) = toml
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(written))
            .unwrap();
        format!(
            "components.toml:{}:{}",
            n + 1,
            row.find(written).unwrap() + 1
        )
    };
    let out = f.data().join("out");
    let check = f.run(&["check", SLUG]);
    let build = f.run(&["build", SLUG, "--out", out.to_str().unwrap()]);
    for run in [&check, &build] {
        assert_eq!(run.code, 1, "{}", run.stderr);
        for name in ["nope", "fog", "gone"] {
            let place = at(&format!("[{name}]"));
            let said = format!("{place}: ");
            assert!(
                run.stderr.lines().any(|l| l.contains(&said)
                    && l.contains(&format!("no symbol or icon is called `{name}`"))),
                "`[{name}]` not at {place}: {}",
                run.stderr
            );
        }
    }
}

/// Bold in text set in the bundled serif italic, which has no bold: an error naming the card
/// and the field, at the `**` in its cell.
#[test]
fn a_style_no_font_has_is_a_check_error_naming_card_and_field() {
    let f = scaffold();
    f.edit(
        SLUG,
        "templates/card.svg",
        r#"size=3.8, min=2.5, align="middle", what="card text""#,
        r#"size=3.8, min=2.5, align="middle", face="serif-italic", what="card text""#,
    );
    let line = f.edit(
        SLUG,
        "cards.csv",
        "Look at the top card of the deck.",
        "Look at the **top** card.",
    );
    let check = f.run(&["check", SLUG]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    // At the `**` in the cell.
    let text = std::fs::read_to_string(f.file(SLUG, "cards.csv")).unwrap();
    let col = text.lines().nth(line - 1).unwrap().find("**top").unwrap() + 1;
    let at = format!("cards.csv:{line}:{col}");
    assert!(check.stderr.contains(&at), "not at {at}: {}", check.stderr);
    for part in ["card `star-low`", "card text", "bold", "DejaVu Serif"] {
        assert!(check.stderr.contains(part), "no {part}: {}", check.stderr);
    }
    // The scaffold's other bold runs are refused too, its italic ones (the face itself) not.
    assert_eq!(
        check.stderr.matches("asks for bold").count(),
        3,
        "{}",
        check.stderr
    );
    assert!(!check.stderr.contains("card `sun-low`"), "{}", check.stderr);
    // `build` refuses it too.
    let out = f.data().join("out");
    let run = f.run(&[
        "build",
        SLUG,
        "--only",
        "cards",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
}

/// The rules reference shows the game's icons in its glossary, in HTML and in Markdown, as a
/// file beside the page holding only the drawing.
#[test]
fn the_rules_glossary_shows_the_icons() {
    let f = scaffold();
    let out = build(&f, "rules");
    let html = std::fs::read_to_string(out.join("rules.en.html")).unwrap();
    let md = std::fs::read_to_string(out.join("rules.en.md")).unwrap();
    assert!(html.contains(r#"src="rules.icon.marker.svg""#), "{html}");
    assert!(html.contains("<code>[marker]</code>"), "{html}");
    assert!(md.contains("![Marker](rules.icon.marker.svg)"), "{md}");
    let svg = std::fs::read_to_string(out.join("rules.icon.marker.svg")).unwrap();
    assert!(svg.contains("<circle") || svg.contains("<path"), "{svg}");
    assert!(
        !svg.contains("Replace it with yours"),
        "comments of the file are not copied"
    );
}

/// `printplay schema components` covers `[[icon]]`.
#[test]
fn the_schema_covers_icons() {
    let f = scaffold();
    let run = f.run(&["schema", "components"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let schema: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let text = schema.to_string();
    assert!(schema["properties"]["icon"].is_object(), "{text}");
    assert!(text.contains("\"image\""), "{text}");
}
