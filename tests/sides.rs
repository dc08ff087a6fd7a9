//! Fronts and backs per card, two-sided pieces and boards that are not hex grids, read back
//! from what the build writes: a card's own back on its back sheet (pixels) and in Tabletop
//! Simulator (`UniqueBack`), token backs registered behind their fronts (the PDF's clips),
//! a square board's tiles with alignment marks in their glue flaps (the PDF's strokes),
//! an image board warned below 200 dpi, and `template_by` picking each card's front.

use std::path::{Path, PathBuf};
use std::process::Command;

use lopdf::{Document, ObjectId};
use printplay::model::{Game, load_game};
use printplay::render::sheets::layout::{Duplex, Paper};
use printplay::render::sheets::layout::{PRINTER_MARGIN, Rect};
use printplay::render::{self, BuildOptions};

mod common;

use common::pdf_read::{self, Segment, page_box, page_ids as pages};

const SLUG: &str = "demo";

/// The scaffold's game (`printplay new`) in a temporary data folder.
fn scaffold() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    printplay::scaffold::new_game(dir.path(), SLUG).unwrap();
    dir
}

fn path(dir: &Path, file: &str) -> PathBuf {
    dir.join(SLUG).join(file)
}

fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let p = path(dir, file);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "`{from}` not in {file}");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
}

fn game(dir: &Path) -> Game {
    load_game(dir, SLUG).unwrap_or_else(|e| panic!("the game loads: {e:?}"))
}

fn options(paper: Paper, duplex: Duplex, offset: (f64, f64)) -> BuildOptions {
    BuildOptions {
        paper,
        duplex,
        back_offset: offset,
        ..BuildOptions::default()
    }
}

/// A page's size in millimetres.
fn page_size(doc: &Document, page: ObjectId) -> (f64, f64) {
    let media = page_box(doc, page, b"MediaBox");
    (media.w, media.h)
}

/// A page's rectangular clips (each card's bleed) and its unclipped strokes, in millimetres.
fn drawn(doc: &Document, page: ObjectId) -> (Vec<Rect>, Vec<Segment>) {
    let d = pdf_read::drawn(doc, page);
    (d.clips, d.guides)
}

/// One page of a PDF rendered by pdftoppm at one pixel a millimetre: width, height, RGB.
fn page_pixels(pdf: &[u8], page: usize) -> (usize, usize, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.pdf");
    std::fs::write(&file, pdf).unwrap();
    let n = (page + 1).to_string();
    let out = Command::new("pdftoppm")
        .args(["-r", "25.4", "-f", &n, "-l", &n])
        .arg(&file)
        .output()
        .expect("pdftoppm runs");
    assert!(out.status.success());
    let (magic, w, h, pixels) = common::read_pnm(&out.stdout);
    assert_eq!(magic, "P6");
    (w, h, pixels)
}

/// Luminance (0 to 1) of the pixel at (x, y) millimetres.
fn grey_at((w, _, px): &(usize, usize, Vec<u8>), x: f64, y: f64) -> f64 {
    let i = 3 * (y as usize * w + x as usize);
    (0.2126 * f64::from(px[i]) + 0.7152 * f64::from(px[i + 1]) + 0.0722 * f64::from(px[i + 2]))
        / 255.0
}

#[test]
fn a_card_with_its_own_back_prints_it_behind_its_front_and_tts_uses_unique_backs() {
    let dir = scaffold();
    let g = game(dir.path());
    let card = |id: &str| {
        g.components.decks[0]
            .cards
            .iter()
            .find(|c| c.id.get_ref() == id)
            .unwrap()
    };
    assert_eq!(
        card("star-high").back.as_ref().unwrap().get_ref().template,
        "comet-back",
        "the CSV's `back` column"
    );
    for paper in [Paper::A4, Paper::Letter] {
        for duplex in [Duplex::LongEdge, Duplex::ShortEdge] {
            let o = options(paper, duplex, (0.0, 0.0));
            let faces = render::draw_faces(&g, &o).unwrap();
            let plan = render::card_plan(&faces, &o).unwrap();
            let pdf = render::cards_pdf(&g, &faces, &o).unwrap();
            let (mut own, mut deck) = (0, 0);
            for (k, page) in plan.iter().enumerate().filter(|(_, p)| p.back) {
                let pixels = page_pixels(&pdf, k);
                for p in &page.placed {
                    // Inside the trim, off the frame and the badge: the back's ground.
                    let (x, y) = if p.turn == 180 {
                        (p.trim.right() - 2.5, p.trim.bottom() - 2.5)
                    } else {
                        (p.trim.x + 2.5, p.trim.y + 2.5)
                    };
                    let grey = grey_at(&pixels, x, y);
                    if p.card == "star-high" {
                        own += 1;
                        assert!(
                            grey > 0.7,
                            "{paper:?} {duplex:?}: the Comet's own light back ({grey:.2})"
                        );
                    } else {
                        deck += 1;
                        assert!(
                            grey < 0.35,
                            "{paper:?} {duplex:?}: {} has the deck's dark back ({grey:.2})",
                            p.card
                        );
                    }
                }
            }
            assert_eq!((own, deck), (2, 10), "{paper:?} {duplex:?}");
        }
    }
    // Tabletop Simulator: a sheet of backs slot for slot, and `UniqueBack`.
    let out = dir.path().join("out");
    let o = BuildOptions {
        out: out.clone(),
        only: ["tts".to_string()].into(),
        ..BuildOptions::default()
    };
    printplay::pipeline::build_game(&g, &o).unwrap();
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join(SLUG).join("tts").join(format!("{SLUG}.json"))).unwrap(),
    )
    .unwrap();
    let objects = json["ObjectStates"].as_array().unwrap();
    let deck = objects.iter().find(|o| o["Name"] == "DeckCustom").unwrap();
    for custom in deck["CustomDeck"].as_object().unwrap().values() {
        assert_eq!(custom["UniqueBack"], true);
        let back = custom["BackURL"].as_str().unwrap();
        assert!(back.ends_with("deck-backs.png"), "{back}");
        let file = out.join(SLUG).join("tts").join("deck-backs.png");
        let face = out.join(SLUG).join("tts").join("deck.png");
        assert_eq!(
            image_size(&file),
            image_size(&face),
            "the back sheet has the face sheet's grid"
        );
    }
    // The marker is a two-sided tile; both boards are custom boards.
    let bag = objects
        .iter()
        .find(|o| {
            o["Nickname"]
                .as_str()
                .is_some_and(|n| n.starts_with("Marker"))
        })
        .unwrap();
    let tile = &bag["ContainedObjects"][0]["CustomImage"];
    assert!(
        tile["ImageSecondaryURL"]
            .as_str()
            .unwrap()
            .ends_with("piece-marker-back.png")
    );
    assert_ne!(tile["ImageURL"], tile["ImageSecondaryURL"]);
    let boards: Vec<&str> = objects
        .iter()
        .filter(|o| o["Name"] == "Custom_Board")
        .map(|o| o["Description"].as_str().unwrap())
        .collect();
    assert_eq!(boards, ["board", "mat"]);
}

/// Width and height of a PNG file, from its header.
fn image_size(file: &Path) -> (u32, u32) {
    let bytes = std::fs::read(file).unwrap();
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn token_backs_are_registered_behind_their_fronts_on_both_duplex_edges_and_glued_one_sided() {
    let dir = scaffold();
    let g = game(dir.path());
    for paper in [Paper::A4, Paper::Letter] {
        for duplex in [Duplex::LongEdge, Duplex::ShortEdge, Duplex::Off] {
            let offset = (0.5, -0.25);
            let o = options(paper, duplex, offset);
            let faces = render::draw_faces(&g, &o).unwrap();
            let (_, sides) =
                render::sheets::sides::token_pages(&g.info.name, &faces.pieces, &o.sheet());
            assert_eq!(sides.len(), 8, "every marker has two sides");
            let pdf = render::tokens_pdf(&g, &faces, &o).unwrap().unwrap();
            let doc = Document::load_mem(&pdf).unwrap();
            let ids = pages(&doc);
            assert_eq!(ids.len(), 2, "one sheet of markers and its backs");
            let (front_clips, _) = drawn(&doc, ids[0]);
            let (back_clips, _) = drawn(&doc, ids[1]);
            let (pw, ph) = page_size(&doc, ids[0]);
            let size = |r: &&Rect| (r.w - r.h).abs() < 0.05 && r.w > 20.0 && r.w < 30.0;
            let fronts: Vec<&Rect> = front_clips.iter().filter(size).collect();
            let backs: Vec<&Rect> = back_clips.iter().filter(size).collect();
            assert_eq!(fronts.len(), 8, "{paper:?} {duplex:?}: {front_clips:?}");
            assert_eq!(backs.len(), 8, "{paper:?} {duplex:?}: {back_clips:?}");
            for f in &fronts {
                let want = match duplex {
                    Duplex::ShortEdge => Rect {
                        x: f.x + offset.0,
                        y: ph - f.y - f.h + offset.1,
                        ..**f
                    },
                    _ => Rect {
                        x: pw - f.x - f.w + offset.0,
                        y: f.y + offset.1,
                        ..**f
                    },
                };
                assert!(
                    backs.iter().any(|b| (b.x - want.x).abs() <= 0.1
                        && (b.y - want.y).abs() <= 0.1
                        && (b.w - want.w).abs() <= 0.1),
                    "{paper:?} {duplex:?}: no back at {want:?} behind the front at {f:?}"
                );
            }
            for s in &sides {
                assert_eq!(s.turn, if duplex == Duplex::ShortEdge { 180 } else { 0 });
                assert_eq!(s.pages, (0, 1));
            }
        }
    }
}

/// The scaffold with its player mat grown to `rows` x `columns` cells of 30 mm.
fn big_mat(rows: u32, columns: u32) -> tempfile::TempDir {
    let dir = scaffold();
    edit(
        dir.path(),
        "components.toml",
        "rows = 3\ncolumns = 4",
        &format!("rows = {rows}\ncolumns = {columns}"),
    );
    dir
}

#[test]
fn a_square_board_tiles_with_alignment_marks_in_its_glue_flaps() {
    let dir = big_mat(10, 12);
    let g = game(dir.path());
    assert!(printplay::check::check_game(&g).is_empty());
    let margin = PRINTER_MARGIN + 7.0;
    for paper in [Paper::A4, Paper::Letter] {
        let pdf = render::sheets::boards::pages::board_pdf(&g, paper, None)
            .unwrap()
            .unwrap();
        let doc = Document::load_mem(&pdf).unwrap();
        let ids = pages(&doc);
        // The hex board on one page, the mat (408 x 348 mm) on four or more tiles.
        assert!(ids.len() >= 5, "{paper:?}: {} pages", ids.len());
        let first_tile = ids[1];
        let (pw, ph) = page_size(&doc, first_tile);
        let (aw, ah) = (pw - 2.0 * margin, ph - 2.0 * margin);
        let (_, strokes) = drawn(&doc, first_tile);
        let within = |v: f64, from: f64, to: f64| v >= from - 0.05 && v <= to + 0.05;
        // The line the next tile's left edge goes on, inside the right flap, its full height.
        let right = margin + aw;
        let vertical = strokes.iter().any(|((x1, y1), (x2, y2))| {
            (x1 - x2).abs() < 0.01
                && within(*x1, right - 12.0, right)
                && (y2 - y1).abs() > ah - 13.0
        });
        assert!(
            vertical,
            "{paper:?}: no alignment line in the right glue flap"
        );
        let bottom = margin + ah;
        let horizontal = strokes.iter().any(|((x1, y1), (x2, y2))| {
            (y1 - y2).abs() < 0.01 && within(*y1, bottom - 12.0, bottom) && (x2 - x1).abs() > 50.0
        });
        assert!(
            horizontal,
            "{paper:?}: no alignment line in the bottom glue flap"
        );
        // Every mark of the first tile lies in its flaps or the page's margins, never over
        // the playing area the next tiles do not cover.
        for ((x1, y1), (x2, y2)) in &strokes {
            for (x, y) in [(x1, y1), (x2, y2)] {
                let in_play = *x > margin + 0.5
                    && *x < right - 12.0 - 0.05
                    && *y > margin + 0.5
                    && *y < bottom - 12.0 - 0.05;
                assert!(
                    !in_play,
                    "{paper:?}: a mark at ({x:.1}, {y:.1}) over the board"
                );
            }
        }
    }
}

#[test]
fn an_image_board_is_tiled_and_warned_below_200_dpi() {
    let dir = scaffold();
    let art = path(dir.path(), "art/board.png");
    let mut pixmap = resvg::tiny_skia::Pixmap::new(300, 200).unwrap();
    pixmap.fill(resvg::tiny_skia::Color::from_rgba8(120, 160, 90, 255));
    std::fs::write(&art, pixmap.encode_png().unwrap()).unwrap();
    let components = path(dir.path(), "components.toml");
    let mut text = std::fs::read_to_string(&components).unwrap();
    text.push_str(
        "\n[[board]]\nid = \"art\"\nname = \"Art board\"\nimage = \"art/board.png\"\nwidth_mm = 400\nheight_mm = 260\n",
    );
    std::fs::write(&components, text).unwrap();
    edit(
        dir.path(),
        "rules.en.toml",
        "[components.\"board.mat\"]",
        "[components.\"board.art\"]\npurpose = \"The table.\"\n\n[components.\"board.mat\"]",
    );
    let g = game(dir.path());
    let report = printplay::check::check_game_report(&g);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let warned: Vec<String> = report.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warned.iter().any(|w| w.contains("art/board.png")
            && w.contains(" dpi")
            && w.contains("components.toml:")),
        "{warned:?}"
    );
    let pdf = render::sheets::boards::pages::board_pdf(&g, Paper::A4, None)
        .unwrap()
        .unwrap();
    let doc = Document::load_mem(&pdf).unwrap();
    // Hex board, mat, and the art on more than one tile.
    assert!(pages(&doc).len() >= 4, "{} pages", pages(&doc).len());
    // Art that is sharp enough is not warned about.
    let mut sharp = resvg::tiny_skia::Pixmap::new(3200, 2100).unwrap();
    sharp.fill(resvg::tiny_skia::Color::from_rgba8(120, 160, 90, 255));
    std::fs::write(&art, sharp.encode_png().unwrap()).unwrap();
    let report = printplay::check::check_game_report(&game(dir.path()));
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

#[test]
fn template_by_picks_each_cards_front_by_a_field() {
    let dir = scaffold();
    let card = std::fs::read_to_string(path(dir.path(), "templates/card.svg")).unwrap();
    std::fs::write(
        path(dir.path(), "templates/moon-card.svg"),
        format!("{card}<desc>drawn by moon-card</desc>"),
    )
    .unwrap();
    edit(
        dir.path(),
        "components.toml",
        "cards = \"cards.csv\"",
        "cards = \"cards.csv\"\ntemplate_by = \"suit\"\ntemplates = { moon = \"moon-card\" }",
    );
    let g = game(dir.path());
    assert!(printplay::check::check_game(&g).is_empty());
    for (id, moon) in [
        ("moon-low", true),
        ("moon-high", true),
        ("sun-low", false),
        ("star-high", false),
    ] {
        let svg = render::card_svg(&g, id).unwrap();
        assert_eq!(svg.contains("drawn by moon-card"), moon, "{id}");
    }
}

#[test]
fn the_schema_covers_every_new_key() {
    let schema = printplay::schema::json_schema(printplay::schema::FileKind::Components);
    for key in [
        "template_by",
        "templates",
        "back_art",
        "\"grid\"",
        "width_mm",
        "height_mm",
        "\"rows\"",
        "\"columns\"",
        "\"at\"",
        "\"ground\"",
        "\"label\"",
        "letter",
    ] {
        assert!(schema.contains(key), "the schema has no {key}");
    }
}

#[test]
fn the_shop_files_follow_each_cards_back_and_give_two_sided_pieces_both_pages() {
    let dir = scaffold();
    let g = game(dir.path());
    let out = dir.path().join("out");
    let o = BuildOptions {
        out: out.clone(),
        only: ["shop".to_string()].into(),
        shop: Some(render::formats::shop::ShopOptions {
            color: None,
            preset: None,
        }),
        ..BuildOptions::default()
    };
    printplay::pipeline::build_game(&g, &o).unwrap();
    let shop = out.join(SLUG).join("shop");
    let page_count = |file: &str| {
        Document::load(shop.join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .get_pages()
            .len()
    };
    assert_eq!(page_count("deck.pdf"), 12);
    assert_eq!(
        page_count("deck-back.pdf"),
        12,
        "one back per copy: the backs differ"
    );
    assert_eq!(page_count("pieces/marker.pdf"), 2, "front and back");
    let manifest = std::fs::read_to_string(shop.join("manifest.csv")).unwrap();
    assert!(manifest.contains("png/deck-star-high-back.png,deck,star-high,back,2,"));
    assert!(manifest.contains("png/deck-back.png,deck,back,back,10,"));
    assert!(manifest.contains("pieces/marker.pdf,pieces,marker,Marker,8,"));
}
