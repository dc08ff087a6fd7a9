//! CMYK shop PDFs of art of every kind a game may hold (a CMYK JPEG, an RGB JPEG, a 16-bit
//! PNG, an SVG gradient, SVG), read back through Ghostscript's `tiffsep` separations: CMYK art
//! keeps its ink, RGB art prints what the same colour drawn as a vector prints.

mod common;

use std::path::Path;

use lopdf::{Document, Object};
use printplay::model::load_game;
use printplay::render::formats::cmyk;
use printplay::render::formats::pdf::{PageSpec, write_pdf};
use printplay::render::formats::shop::{self, Preset, ShopCard, ShopOptions};
use printplay::render::{self, BuildOptions, GameBuild};

fn have(tool: &str) -> bool {
    std::process::Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The CMYK ink of the JPEG art, as stored (0 to 255).
const INK: [u8; 4] = [51, 178, 229, 25];
/// The colour of the 16-bit PNG and of the RGB JPEG, in 8-bit sRGB.
const DEEP: [u8; 3] = [200, 80, 40];
const PHOTO: [u8; 3] = [40, 120, 200];

fn cmyk_jpeg(ink: [u8; 4]) -> Vec<u8> {
    use jpeg_encoder::{ColorType, Encoder};
    // The encoder writes Adobe's marker and stores the ink inverted, as Photoshop does.
    let data: Vec<u8> = (0..48 * 48).flat_map(|_| ink).collect();
    let mut bytes = Vec::new();
    Encoder::new(&mut bytes, 100)
        .encode(&data, 48, 48, ColorType::Cmyk)
        .unwrap();
    bytes
}

fn rgb_jpeg(rgb: [u8; 3]) -> Vec<u8> {
    use jpeg_encoder::{ColorType, Encoder};
    let data: Vec<u8> = (0..48 * 48).flat_map(|_| rgb).collect();
    let mut bytes = Vec::new();
    Encoder::new(&mut bytes, 100)
        .encode(&data, 48, 48, ColorType::Rgb)
        .unwrap();
    bytes
}

fn png16(rgb: [u8; 3]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 40, 40);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Sixteen);
    let mut writer = encoder.write_header().unwrap();
    let pixel: Vec<u8> = rgb
        .iter()
        .flat_map(|&v| (u16::from(v) * 257).to_be_bytes())
        .collect();
    let data: Vec<u8> = (0..40 * 40).flat_map(|_| pixel.clone()).collect();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
    bytes
}

/// The designer fixture with four cards' art replaced: a CMYK JPEG, a 16-bit PNG, an RGB JPEG
/// and an SVG gradient (the crest keeps its SVG).
fn game_with_art(data: &Path) -> printplay::model::Game {
    let dir = data.join("emblems");
    common::copy_dir(&common::repo().join("tests/fixtures/designer-game"), &dir);
    std::fs::write(dir.join("art/cmyk.jpg"), cmyk_jpeg(INK)).unwrap();
    std::fs::write(dir.join("art/deep.png"), png16(DEEP)).unwrap();
    std::fs::write(dir.join("art/photo.jpg"), rgb_jpeg(PHOTO)).unwrap();
    // A gradient: red to 40 %, blue from 60 %.
    std::fs::write(
        dir.join("art/gradient.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><defs><linearGradient id="g"><stop offset="0.4" stop-color="#c81e1e"/><stop offset="0.6" stop-color="#1e3cc8"/></linearGradient></defs><rect width="100" height="100" fill="url(#g)"/></svg>"##,
    )
    .unwrap();
    // Those three cards and one with a gradient, no more (the shop draws each at 300 dpi).
    let csv = std::fs::read_to_string(dir.join("cards.csv")).unwrap();
    let csv: Vec<&str> = csv.lines().take(5).collect();
    let csv = csv
        .join("\n")
        .replacen("art/emblem.png,sun,1", "art/cmyk.jpg,sun,1", 1)
        .replacen("art/emblem.png,sun,2", "art/deep.png,sun,2", 1)
        .replacen("art/emblem.png,sun,3", "art/photo.jpg,sun,3", 1)
        .replacen("art/emblem.png,sun,4", "art/gradient.svg,sun,4", 1);
    std::fs::write(dir.join("cards.csv"), csv + "\n").unwrap();
    // The fixture's invariant counts its twelve cards.
    let toml = std::fs::read_to_string(dir.join("game.toml")).unwrap();
    let toml = toml.replace("equals = 12", "equals = 5");
    std::fs::write(dir.join("game.toml"), toml).unwrap();
    load_game(data, "emblems").unwrap_or_else(|e| panic!("{e:?}"))
}

/// The ink (0 to 255) of each plate at page millimetres `at`.
fn ink_at(plates: &[(u32, u32, Vec<u8>); 4], dpi: u32, at: (f64, f64)) -> [u8; 4] {
    let px = |mm: f64| (mm / 25.4 * f64::from(dpi)).round() as usize;
    plates
        .each_ref()
        .map(|(w, _, data)| 255 - data[px(at.1) * *w as usize + px(at.0)])
}

fn near(a: [u8; 4], b: [u8; 4], tolerance: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= tolerance)
}

#[test]
fn cmyk_shop_art_of_every_kind_separates_to_the_right_ink() {
    let data = tempfile::tempdir().unwrap();
    let g = game_with_art(data.path());
    // `check` passes it, as the build does below.
    let report = printplay::check::check_game_report(&g);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let out = tempfile::tempdir().unwrap();
    // DriveThruCards' preset: CMYK for SWOP.
    let shop = ShopOptions {
        color: None,
        preset: Some(Preset::DriveThruCards),
    };
    let options = BuildOptions {
        out: out.path().to_path_buf(),
        shop: Some(shop),
        ..BuildOptions::default()
    };
    let build = GameBuild {
        game: &g,
        faces: render::draw_faces(&g, &options).unwrap(),
        options: &options,
        dir: out.path().join("emblems"),
    };
    shop::stage(&build).unwrap_or_else(|e| panic!("the CMYK shop build fails: {e}"));
    let pdf = out.path().join("emblems/shop/emblems.pdf");
    let doc = Document::load(&pdf).unwrap();
    // No image is left in RGB: every one is CMYK (or a grey soft mask).
    for object in doc.objects.values() {
        if let Object::Stream(s) = object
            && s.dict.get(b"Subtype").ok() == Some(&Object::Name(b"Image".to_vec()))
        {
            let space = s.dict.get(b"ColorSpace").unwrap();
            assert!(
                space == &Object::Name(b"DeviceCMYK".to_vec())
                    || space == &Object::Name(b"DeviceGray".to_vec()),
                "an image in {space:?}"
            );
        }
    }
    if !have("gs") {
        eprintln!("skipped the separations: Ghostscript is not installed");
        return;
    }
    // The page of each card, one per copy in deck order.
    let deck = &build.faces.decks[0];
    let page_of = |id: &str| {
        let mut page = 0;
        for c in &deck.cards {
            if c.id == id {
                return page;
            }
            page += c.count as usize;
        }
        panic!("no card {id}")
    };
    // The middle of the art's box (x 3 to 60, y 3 to 43 mm of the card), on the page.
    let card = ShopCard::new(deck.size, options.bleed, shop.preset);
    let dx = card.bleed + (card.trim.0 - deck.size.0 * card.scale) / 2.0;
    let dy = card.bleed + (card.trim.1 - deck.size.1 * card.scale) / 2.0;
    let art = (dx + 31.5 * card.scale, dy + 23.0 * card.scale);
    let dpi = 100;
    let pages = common::pictures::plates(&pdf, dpi);
    // The same colours drawn as vectors and separated for the same condition.
    let body = format!(
        r##"<rect width="10" height="10" fill="rgb({},{},{})"/><rect x="10" width="10" height="10" fill="rgb({},{},{})"/><rect x="20" width="10" height="10" fill="#c81e1e"/><rect x="30" width="10" height="10" fill="#1e3cc8"/>"##,
        DEEP[0], DEEP[1], DEEP[2], PHOTO[0], PHOTO[1], PHOTO[2]
    );
    let vector = write_pdf(
        "vector",
        &[PageSpec::new((40.0, 10.0), body)],
        &printplay::render::faces::fonts::builtin(),
    )
    .unwrap();
    let vector_pdf = out.path().join("vector.pdf");
    std::fs::write(
        &vector_pdf,
        cmyk::convert_pdf_for(&vector, cmyk::Condition::Swop).unwrap(),
    )
    .unwrap();
    let reference = &common::pictures::plates(&vector_pdf, dpi)[0];
    let (deep, photo) = (
        ink_at(reference, dpi, (5.0, 5.0)),
        ink_at(reference, dpi, (15.0, 5.0)),
    );
    assert!(
        deep[1] > 150 && deep[2] > 150,
        "orange is magenta and yellow: {deep:?}"
    );
    assert!(photo[0] > 150, "blue is cyan: {photo:?}");
    let cmyk_ink = ink_at(&pages[page_of("sun-1")], dpi, art);
    assert!(
        near(cmyk_ink, INK, 3),
        "the CMYK JPEG prints {cmyk_ink:?}, not its ink {INK:?}"
    );
    let png_ink = ink_at(&pages[page_of("sun-2")], dpi, art);
    assert!(
        near(png_ink, deep, 3),
        "the 16-bit PNG prints {png_ink:?}, the same colour as a vector {deep:?}"
    );
    // The gradient's two ends print as their colours drawn flat.
    let (red, blue) = (
        ink_at(reference, dpi, (25.0, 5.0)),
        ink_at(reference, dpi, (35.0, 5.0)),
    );
    let gradient = &pages[page_of("sun-4")];
    for (x, want) in [(3.0 + 8.0, red), (60.0 - 8.0, blue)] {
        let at = (dx + x * card.scale, art.1);
        let got = ink_at(gradient, dpi, at);
        assert!(
            near(got, want, 3),
            "the gradient prints {got:?} at {x} mm, not {want:?}"
        );
    }
    let jpeg_ink = ink_at(&pages[page_of("sun-3")], dpi, art);
    assert!(
        near(jpeg_ink, photo, 4),
        "the RGB JPEG prints {jpeg_ink:?}, the same colour as a vector {photo:?}"
    );
}
