//! Print-shop files read back: one page per card copy with TrimBox exactly the card and
//! BleedBox the card plus bleed; PNGs with the bleed size and a pHYs chunk; a manifest whose
//! copies add up to the deck; CMYK PDFs with no RGB or grey colour operator and an output
//! intent; presets at the printers' pixel sizes; byte-identical builds that leave the RGB
//! outputs as they were.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lopdf::content::Content;
use lopdf::{Document, Object, ObjectId};
use printplay::model::{Game, load_game};
use printplay::render::formats::cmyk;
use printplay::render::formats::pdf::{PageSpec, write_pdf};
use printplay::render::formats::shop::{self, Color, Preset, ShopCard, ShopOptions};
use printplay::render::{self, BuildOptions, GameBuild};

const PT: f64 = 72.0 / 25.4;

fn game(slug: &str) -> Game {
    load_game(Path::new("data"), slug).unwrap_or_else(|e| panic!("{slug} loads: {e:?}"))
}

/// Runs only the shop stage of a game into a fresh folder.
fn shop_build(g: &Game, shop: ShopOptions) -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions {
        out: dir.path().to_path_buf(),
        shop: Some(shop),
        ..BuildOptions::default()
    };
    let build = GameBuild {
        game: g,
        faces: render::draw_faces(g, &options).unwrap(),
        options: &options,
        dir: dir.path().join(&g.slug),
    };
    let files = shop::stage(&build).unwrap();
    (dir, files)
}

fn num(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        _ => panic!("not a number: {o:?}"),
    }
}

fn page_box(doc: &Document, page: ObjectId, name: &[u8]) -> [f64; 4] {
    let arr = doc.get_dictionary(page).unwrap().get(name).unwrap();
    let v: Vec<f64> = arr.as_array().unwrap().iter().map(num).collect();
    [v[0], v[1], v[2], v[3]]
}

fn assert_box(found: [f64; 4], want_mm: [f64; 4], what: &str) {
    for (f, w) in found.iter().zip(want_mm) {
        assert!(
            (f - w * PT).abs() < 0.05,
            "{what}: {found:?} is not {want_mm:?} mm"
        );
    }
}

/// The Search: 20 map cards of 4 designs, 17 police cards, criminal cards.
#[test]
fn shop_pdfs_have_one_page_per_copy_with_trim_and_bleed_boxes() {
    let g = game("the-search");
    let (dir, _) = shop_build(&g, ShopOptions::default());
    let shop = dir.path().join("the-search/shop");
    for deck in g.components.decks.iter().filter(|d| d.print) {
        let copies: u32 = deck.cards.iter().map(|c| c.count.0).sum();
        let card = ShopCard::new(deck.size.mm(), 3.0, None);
        let (w, h) = card.page();
        let (tw, th) = card.trim;
        let b = card.bleed;
        assert_eq!(b, 3.0);
        for (file, pages) in [
            (format!("{}.pdf", deck.id.get_ref()), copies),
            (format!("{}-back.pdf", deck.id.get_ref()), 1),
        ] {
            let doc = Document::load(shop.join(&file)).unwrap();
            let ids: Vec<ObjectId> = doc.get_pages().into_values().collect();
            assert_eq!(ids.len() as u32, pages, "{file}: one page per copy");
            for id in ids {
                assert_box(page_box(&doc, id, b"MediaBox"), [0.0, 0.0, w, h], &file);
                assert_box(page_box(&doc, id, b"BleedBox"), [0.0, 0.0, w, h], &file);
                assert_box(
                    page_box(&doc, id, b"TrimBox"),
                    [b, b, b + tw, b + th],
                    &file,
                );
            }
        }
    }
    let map = Document::load(shop.join("map.pdf")).unwrap();
    assert_eq!(map.get_pages().len(), 20, "20 map cards stay 20");
}

fn png_info(path: &Path) -> png::Info<'static> {
    let file = std::fs::File::open(path).unwrap();
    let reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    reader.info().clone()
}

/// The PNG's chunks in order: type and data.
fn chunks(bytes: &[u8]) -> Vec<(String, &[u8])> {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    let mut out = Vec::new();
    let mut at = 8;
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = String::from_utf8_lossy(&bytes[at + 4..at + 8]).to_string();
        out.push((kind, &bytes[at + 8..at + 8 + len]));
        at += 12 + len;
    }
    out
}

/// An opaque shop image is RGB (IHDR colour type 2, no alpha channel) and says it is sRGB
/// in an sRGB chunk before its image data.
fn assert_rgb_with_srgb_chunk(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let chunks = chunks(&bytes);
    assert_eq!(chunks[0].0, "IHDR");
    let ihdr = chunks[0].1;
    assert_eq!((ihdr[8], ihdr[9]), (8, 2), "{}: 8-bit RGB", path.display());
    let srgb = chunks.iter().position(|(k, _)| k == "sRGB");
    let idat = chunks.iter().position(|(k, _)| k == "IDAT");
    assert!(
        matches!((srgb, idat), (Some(s), Some(i)) if s < i),
        "{}: an sRGB chunk before the image data: {:?}",
        path.display(),
        chunks.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>()
    );
    assert_eq!(chunks[srgb.unwrap()].1, [0], "perceptual intent");
}

/// `shop/manifest.csv` as rows of named fields.
fn manifest(shop: &Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(shop.join("manifest.csv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            // The shipped names hold no commas, so a plain split reads them.
            head.iter()
                .map(|h| h.to_string())
                .zip(l.split(',').map(str::to_string))
                .collect()
        })
        .collect()
}

#[test]
fn shop_pngs_carry_the_bleed_size_and_their_resolution_and_the_manifest_counts_copies() {
    let g = game("the-search");
    let (dir, _) = shop_build(&g, ShopOptions::default());
    let shop = dir.path().join("the-search/shop");
    let rows = manifest(&shop);
    for deck in g.components.decks.iter().filter(|d| d.print) {
        let id = deck.id.get_ref();
        let (w, h) = deck.size.mm();
        let px = |mm: f64| ((mm + 6.0) * 300.0 / 25.4).round() as u32;
        let of_deck: Vec<_> = rows.iter().filter(|r| &r["deck"] == id).collect();
        assert_eq!(
            of_deck.len(),
            deck.cards.len() + 1,
            "{id}: every design and the back"
        );
        let mut copies = 0;
        for card in &deck.cards {
            let row = of_deck
                .iter()
                .find(|r| &r["card"] == card.id.get_ref())
                .unwrap();
            assert_eq!(row["copies"], card.count.0.to_string());
            copies += card.count.0;
            let info = png_info(&shop.join(&row["file"]));
            assert_eq!((info.width, info.height), (px(w), px(h)), "{}", row["file"]);
            assert_rgb_with_srgb_chunk(&shop.join(&row["file"]));
            let dims = info.pixel_dims.expect("a pHYs chunk");
            assert_eq!(
                (dims.xppu, dims.yppu, dims.unit),
                (11811, 11811, png::Unit::Meter)
            );
        }
        let back = of_deck.iter().find(|r| r["card"] == "back").unwrap();
        assert_eq!(
            back["copies"],
            copies.to_string(),
            "{id}: a back behind every card"
        );
        assert!(png_info(&shop.join(&back["file"])).pixel_dims.is_some());
    }
}

/// Every content stream of a PDF (pages and form XObjects), decoded.
fn content_operators(doc: &Document) -> Vec<(String, Vec<Object>)> {
    let mut ids: Vec<ObjectId> = doc
        .get_pages()
        .values()
        .flat_map(|&p| doc.get_page_contents(p))
        .collect();
    for (id, o) in &doc.objects {
        if let Object::Stream(s) = o
            && matches!(s.dict.get(b"Subtype"), Ok(Object::Name(n)) if n == b"Form")
        {
            ids.push(*id);
        }
    }
    ids.iter()
        .flat_map(|id| {
            let s = doc.get_object(*id).unwrap().as_stream().unwrap();
            let bytes = s
                .decompressed_content()
                .unwrap_or_else(|_| s.content.clone());
            Content::decode(&bytes).unwrap().operations
        })
        .map(|op| (op.operator, op.operands))
        .collect()
}

fn assert_cmyk_with_output_intent(path: &Path) {
    let doc = Document::load(path).unwrap();
    let ops = content_operators(&doc);
    let mut fills = 0;
    for (op, operands) in &ops {
        assert!(
            !matches!(op.as_str(), "rg" | "RG" | "g" | "G"),
            "{}: RGB or grey operator `{op}`",
            path.display()
        );
        if matches!(op.as_str(), "cs" | "CS") {
            assert_ne!(operands[0], Object::Name(b"DeviceRGB".to_vec()));
        }
        if op == "k" {
            fills += 1;
            assert_eq!(operands.len(), 4);
        }
    }
    assert!(fills > 0, "{}: no CMYK fill at all", path.display());
    let catalog = doc.catalog().unwrap();
    let intents = catalog.get(b"OutputIntents").unwrap().as_array().unwrap();
    let intent = match &intents[0] {
        Object::Dictionary(d) => d.clone(),
        Object::Reference(r) => doc.get_dictionary(*r).unwrap().clone(),
        other => panic!("output intent is {other:?}"),
    };
    assert_eq!(
        intent.get(b"S").unwrap(),
        &Object::Name(b"GTS_PDFX".to_vec())
    );
    let profile = intent
        .get(b"DestOutputProfile")
        .unwrap()
        .as_reference()
        .unwrap();
    let profile = doc.get_object(profile).unwrap().as_stream().unwrap();
    assert_eq!(profile.dict.get(b"N").unwrap(), &Object::Integer(4));
    assert_eq!(profile.decompressed_content().unwrap(), cmyk::PROFILE);
}

#[test]
fn cmyk_pdfs_use_no_rgb_colour_operator_and_carry_an_output_intent() {
    let g = game("capek-golems");
    let (dir, files) = shop_build(
        &g,
        ShopOptions {
            color: Some(Color::Cmyk),
            preset: None,
        },
    );
    let pdfs: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "pdf"))
        .collect();
    assert_eq!(pdfs.len(), 2 * 3, "fronts and back of Capek's three decks");
    for pdf in pdfs {
        assert_cmyk_with_output_intent(pdf);
    }
    // The page boxes survive the conversion.
    let doc = Document::load(dir.path().join("capek-golems/shop/golem-back.pdf")).unwrap();
    let page = *doc.get_pages().values().next().unwrap();
    assert_box(
        page_box(&doc, page, b"TrimBox"),
        [3.0, 3.0, 66.0, 91.0],
        "CMYK back",
    );
}

fn have(tool: &str) -> bool {
    std::process::Command::new(tool)
        .arg("--version")
        .output()
        .is_ok()
}

/// Ghostscript's `inkcov` device measures each page's ink: black text is K alone.
#[test]
fn black_text_prints_with_black_ink_alone() {
    if !have("gs") {
        eprintln!("skipped: Ghostscript is not installed");
        return;
    }
    let text = r##"<text x="5" y="20" font-size="12" font-family="DejaVu Sans" fill="#1a1a1a">Golem</text><text x="5" y="40" font-size="12" font-family="DejaVu Sans" fill="#000000">Torso</text>"##;
    let page = PageSpec::new((60.0, 50.0), text.to_string());
    let pdf = cmyk::convert_pdf(
        &write_pdf("text", &[page], &printplay::render::faces::fonts::builtin()).unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("text.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("gs")
        .args(["-q", "-o", "-", "-sDEVICE=inkcov"])
        .arg(&path)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    let inks: Vec<f64> = report
        .split_whitespace()
        .take(4)
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(inks.len(), 4, "inkcov printed {report}");
    assert_eq!(&inks[..3], &[0.0, 0.0, 0.0], "no C, M or Y: {report}");
    assert!(inks[3] > 0.001, "the text is in K: {report}");
}

#[test]
fn presets_render_poker_cards_at_the_printers_pixel_sizes() {
    let g = game("the-search");
    for (preset, px) in [
        (Preset::TheGameCrafter, (825, 1125)),
        (Preset::MakePlayingCards, (822, 1122)),
    ] {
        let (dir, _) = shop_build(
            &g,
            ShopOptions {
                color: None,
                preset: Some(preset),
            },
        );
        let shop = dir.path().join("the-search/shop");
        for row in manifest(&shop) {
            let info = png_info(&shop.join(&row["file"]));
            assert_eq!((info.width, info.height), px, "{preset:?} {}", row["file"]);
            assert_eq!(row["safe_zone"], "ok", "{preset:?} {}", row["file"]);
        }
    }
}

const PRESETS: [Preset; 3] = [
    Preset::TheGameCrafter,
    Preset::MakePlayingCards,
    Preset::DriveThruCards,
];

/// Every card size every game prints is one of every printer's cards, at the pixel size of
/// that printer's template (the table in `shop.rs`, sources in the README).
#[test]
fn every_card_of_every_game_takes_each_printers_template_size() {
    let expected = |preset: Preset, card: &str| -> (u32, u32) {
        match (preset, card) {
            (Preset::MakePlayingCards, "poker") => (822, 1122),
            (Preset::MakePlayingCards, "tarot") => (897, 1497),
            (_, "poker") => (825, 1125),
            (_, "tarot") => (900, 1500),
            other => panic!("no expected size for {other:?}"),
        }
    };
    let mut sizes = std::collections::BTreeSet::new();
    for slug in [
        "aether",
        "the-search",
        "capek-golems",
        "imperial-settlers-aztecs",
    ] {
        let g = game(slug);
        for deck in g.components.decks.iter().filter(|d| d.print) {
            let size = deck.size.mm();
            for preset in PRESETS {
                let template = preset
                    .template_for(size)
                    .unwrap_or_else(|| panic!("{slug} {}: no {preset:?} card", deck.name));
                let card = ShopCard::new(size, 3.0, Some(preset));
                assert!(card.fitted);
                let px = printplay::render::formats::png::pixels(card.page(), card.px_per_mm);
                assert_eq!(px, template.px, "{slug} {} {preset:?}", deck.name);
                assert_eq!(px, expected(preset, template.card), "{slug} {}", deck.name);
                sizes.insert(template.card);
            }
        }
    }
    assert_eq!(sizes.into_iter().collect::<Vec<_>>(), ["poker", "tarot"]);
}

/// Aether's tarot player aid, rendered under each preset: The Game Crafter's and
/// DriveThruCards' 900 x 1500 px tarot template, MakePlayingCards' 897 x 1497, the safe
/// zone checked (DriveThruCards' 1/8 inch too) and the notes naming what the files are for.
#[test]
fn aethers_player_aid_renders_at_each_printers_tarot_size() {
    let g = game("aether");
    for (preset, px) in [
        (Preset::TheGameCrafter, (900, 1500)),
        (Preset::MakePlayingCards, (897, 1497)),
        (Preset::DriveThruCards, (900, 1500)),
    ] {
        let (dir, _) = shop_build(
            &g,
            ShopOptions {
                color: None,
                preset: Some(preset),
            },
        );
        let shop = dir.path().join("aether/shop");
        for row in manifest(&shop) {
            let path = shop.join(&row["file"]);
            let info = png_info(&path);
            assert_eq!((info.width, info.height), px, "{preset:?} {}", row["file"]);
            assert_ne!(
                row["safe_zone"], "-",
                "{preset:?}: the safe zone is checked"
            );
            assert_rgb_with_srgb_chunk(&path);
        }
        let notes = std::fs::read_to_string(shop.join("notes.txt")).unwrap();
        assert!(notes.contains(preset.spec().printer), "{notes}");
        if preset == Preset::DriveThruCards {
            assert!(notes.contains("CGATS TR 003 (SWOP"), "{notes}");
            assert!(notes.contains("not PDF/X-1a"), "{notes}");
            // Aether prints its aid per language: each under `shop/<lang>/`.
            let pdf = Document::load(shop.join("fi/player-aid.pdf")).unwrap();
            let intent = output_intent(&pdf);
            assert_eq!(
                intent.get(b"OutputConditionIdentifier").unwrap(),
                &Object::string_literal("CGATS TR 003")
            );
            let profile = intent
                .get(b"DestOutputProfile")
                .unwrap()
                .as_reference()
                .unwrap();
            let profile = pdf.get_object(profile).unwrap().as_stream().unwrap();
            assert_eq!(profile.decompressed_content().unwrap(), cmyk::SWOP_PROFILE);
        }
    }
}

fn output_intent(doc: &Document) -> lopdf::Dictionary {
    let catalog = doc.catalog().unwrap();
    let intents = catalog.get(b"OutputIntents").unwrap().as_array().unwrap();
    match &intents[0] {
        Object::Dictionary(d) => d.clone(),
        Object::Reference(r) => doc.get_dictionary(*r).unwrap().clone(),
        other => panic!("output intent is {other:?}"),
    }
}

/// Ghostscript's `tiffsep` device prints each ink to a plate of its own: under 6, 7 and 8 pt
/// black text on a coloured ground the cyan, magenta and yellow plates are whole (the text
/// overprints), while the black plate carries the text.
#[test]
fn black_text_overprints_so_no_colour_plate_has_a_hole_under_it() {
    if !have("gs") {
        eprintln!("skipped: Ghostscript is not installed");
        return;
    }
    // Sizes in millimetres: 6, 7 and 8 pt.
    let pt = |p: f64| p * 25.4 / 72.0;
    let body = format!(
        r##"<rect width="60" height="30" fill="#3f8f4a"/><text x="4" y="8" font-size="{}" font-family="DejaVu Sans" fill="#1a1a1a">Golem six</text><text x="4" y="16" font-size="{}" font-family="DejaVu Sans" fill="#000000">Torso seven</text><text x="4" y="25" font-size="{}" font-family="DejaVu Sans" fill="#1a1a1a">Parts eight</text>"##,
        pt(6.0),
        pt(7.0),
        pt(8.0)
    );
    let page = PageSpec::new((60.0, 30.0), body);
    let rgb = write_pdf("text", &[page], &printplay::render::faces::fonts::builtin()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plates = |name: &str, pdf: &[u8]| {
        let path = dir.path().join(format!("{name}.pdf"));
        std::fs::write(&path, pdf).unwrap();
        let out = dir.path().join(format!("{name}.tif"));
        let status = std::process::Command::new("gs")
            .args([
                "-q",
                "-dNOPAUSE",
                "-dBATCH",
                "-dSAFER",
                "-sDEVICE=tiffsep",
                "-r300",
            ])
            .arg("-sCompression=none")
            .arg(format!("-sOutputFile={}", out.display()))
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success());
        ["Cyan", "Magenta", "Yellow", "Black"].map(|ink| {
            common::pictures::read_tiff_plate(&dir.path().join(format!("{name}({ink}).tif")))
        })
    };
    // A plate is whole when every pixel carries the same ink (the page is one colour).
    let whole = |plate: &(u32, u32, Vec<u8>)| {
        let (lo, hi) = plate
            .2
            .iter()
            .fold((255, 0), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        hi - lo <= 1
    };
    let [c, m, y, k] = plates("overprint", &cmyk::convert_pdf(&rgb).unwrap());
    for (ink, plate) in [("cyan", &c), ("magenta", &m), ("yellow", &y)] {
        assert!(
            whole(plate),
            "the {ink} plate has holes under the black text"
        );
    }
    assert!(!whole(&k), "the black plate carries the text");
    // The same page with the overprint states turned off knocks the text out of the
    // colour plates: what the test would find without overprint.
    let mut knocked = Document::load_mem(&cmyk::convert_pdf(&rgb).unwrap()).unwrap();
    for object in knocked.objects.values_mut() {
        if let Object::Dictionary(d) = object
            && d.get(b"OPM").is_ok()
        {
            d.set("OP", false);
            d.set("op", false);
        }
    }
    let mut bytes = Vec::new();
    knocked.save_to(&mut bytes).unwrap();
    let [c, ..] = plates("knockout", &bytes);
    assert!(!whole(&c), "without overprint the text knocks out of cyan");
}

/// The CMYK shop PDFs as far as PDF/X-4 goes: PDF 1.6, GTS_PDFXVersion, Trapped and the
/// creation and modification dates in the Info dictionary and the XMP metadata, MediaBox, BleedBox and TrimBox on every page
/// (trim inside bleed inside media), an output intent with its profile, and no
/// transparency group on any page or form (the art needs none).
#[test]
fn cmyk_pdfs_hold_the_pdfx4_structure() {
    let g = game("capek-golems");
    let (_dir, files) = shop_build(
        &g,
        ShopOptions {
            color: Some(Color::Cmyk),
            preset: None,
        },
    );
    for pdf in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "pdf"))
    {
        let bytes = std::fs::read(pdf).unwrap();
        assert!(bytes.starts_with(b"%PDF-1.6"), "{}", pdf.display());
        let doc = Document::load_mem(&bytes).unwrap();
        let info = doc
            .get_dictionary(doc.trailer.get(b"Info").unwrap().as_reference().unwrap())
            .unwrap();
        assert_eq!(
            info.get(b"GTS_PDFXVersion").unwrap(),
            &Object::string_literal("PDF/X-4")
        );
        assert_eq!(
            info.get(b"Trapped").unwrap(),
            &Object::Name(b"False".to_vec())
        );
        let meta = doc
            .catalog()
            .unwrap()
            .get(b"Metadata")
            .unwrap()
            .as_reference()
            .unwrap();
        let xmp = doc.get_object(meta).unwrap().as_stream().unwrap();
        let xmp = String::from_utf8(xmp.content.clone()).unwrap();
        assert!(xmp.contains("<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>"));
        assert!(xmp.contains("<pdf:Trapped>False</pdf:Trapped>"));
        assert!(xmp.contains("<pdf:PDFVersion>1.6</pdf:PDFVersion>"));
        // PDF/X requires a creation date; without SOURCE_DATE_EPOCH it is a fixed one, so
        // the bytes stay the same on any day.
        if std::env::var_os("SOURCE_DATE_EPOCH").is_none() {
            for key in [&b"CreationDate"[..], b"ModDate"] {
                assert_eq!(
                    info.get(key).unwrap(),
                    &Object::string_literal("D:19800101000000Z"),
                    "{}",
                    pdf.display()
                );
            }
            assert!(xmp.contains("<xmp:CreateDate>1980-01-01T00:00:00Z</xmp:CreateDate>"));
            assert!(xmp.contains("<xmp:ModifyDate>1980-01-01T00:00:00Z</xmp:ModifyDate>"));
        }
        for (_, page) in doc.get_pages() {
            let [mx0, my0, mx1, my1] = page_box(&doc, page, b"MediaBox");
            let [bx0, by0, bx1, by1] = page_box(&doc, page, b"BleedBox");
            let [tx0, ty0, tx1, ty1] = page_box(&doc, page, b"TrimBox");
            assert!(mx0 <= bx0 && bx0 < tx0 && tx1 < bx1 && bx1 <= mx1);
            assert!(my0 <= by0 && by0 < ty0 && ty1 < by1 && by1 <= my1);
        }
        assert!(
            !doc.objects.values().any(|o| match o {
                Object::Dictionary(d) => d.get(b"Group").is_ok(),
                Object::Stream(s) => s.dict.get(b"Group").is_ok(),
                _ => false,
            }),
            "{}: a transparency group",
            pdf.display()
        );
        let intent = output_intent(&doc);
        assert_eq!(
            intent.get(b"S").unwrap(),
            &Object::Name(b"GTS_PDFX".to_vec())
        );
        assert_eq!(
            intent.get(b"OutputConditionIdentifier").unwrap(),
            &Object::string_literal("FOGRA39")
        );
    }
}

fn read_tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

#[test]
fn shop_builds_are_byte_identical_and_leave_cards_pdf_as_it_was() {
    let g = game("the-search");
    let cmyk = ShopOptions {
        color: Some(Color::Cmyk),
        preset: None,
    };
    let (a, _) = shop_build(&g, cmyk);
    let (b, _) = shop_build(&g, cmyk);
    let (ta, tb) = (read_tree(a.path()), read_tree(b.path()));
    assert!(ta.len() > 10);
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    for (name, bytes) in &ta {
        assert!(
            bytes == &tb[name],
            "{} differs between builds",
            name.display()
        );
    }
    let plain = BuildOptions::default();
    let with_shop = BuildOptions {
        shop: Some(cmyk),
        ..BuildOptions::default()
    };
    let cards = |o: &BuildOptions| {
        let faces = render::draw_faces(&g, o).unwrap();
        render::cards_pdf(&g, &faces, o).unwrap()
    };
    assert!(
        cards(&plain) == cards(&with_shop),
        "cards.pdf is the same with --shop"
    );
}

#[test]
fn shop_options_without_shop_are_a_usage_error() {
    for args in [["--color", "cmyk"], ["--shop-preset", "thegamecrafter"]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_printplay"))
            .arg("build")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--shop"), "{args:?}: {err}");
    }
}
