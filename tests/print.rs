//! The print stage read back: the PDFs' page sizes, boxes, crop marks, faces, mirrored backs,
//! fonts and text, checked against the layout plan; builds are byte-identical; a page
//! rendered by pdftoppm shows art in the bleed.

use std::collections::BTreeMap;
use std::path::Path;

use lopdf::{Document, Object, ObjectId};
use printplay::model::{Game, load_game};
use printplay::render::layout::{Grid, Rect};
use printplay::render::sheets::CardPage;
use printplay::render::{self, BuildOptions, Duplex, Paper};

const PT: f64 = 72.0 / 25.4;
const TOL: f64 = 0.05;

fn game(slug: &str) -> Game {
    load_game(Path::new("data"), slug).unwrap_or_else(|e| panic!("{slug} loads: {e:?}"))
}

fn options(paper: Paper, duplex: Duplex, offset: (f64, f64)) -> BuildOptions {
    BuildOptions {
        paper,
        duplex,
        back_offset: offset,
        ..BuildOptions::default()
    }
}

/// cards.pdf of a game with its plan.
fn cards(slug: &str, o: &BuildOptions) -> (Game, Vec<CardPage>, Document, Vec<u8>) {
    let g = game(slug);
    let faces = render::draw_faces(&g, o).unwrap();
    let plan = render::card_plan(&faces, o).unwrap();
    let bytes = render::cards_pdf(&g, &faces, o).unwrap();
    let doc = Document::load_mem(&bytes).unwrap();
    (g, plan, doc, bytes)
}

fn page_ids(doc: &Document) -> Vec<ObjectId> {
    doc.get_pages().into_values().collect()
}

fn num(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        _ => panic!("not a number: {o:?}"),
    }
}

/// A page box in millimetres from the top-left corner.
fn page_box(doc: &Document, page: ObjectId, name: &[u8]) -> Rect {
    let dict = doc.get_dictionary(page).unwrap();
    let arr = dict.get(name).unwrap().as_array().unwrap();
    let v: Vec<f64> = arr.iter().map(num).collect();
    let media: Vec<f64> = dict
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(num)
        .collect();
    let h = media[3];
    let (x1, y1, x2, y2) = (
        v[0].min(v[2]),
        v[1].min(v[3]),
        v[0].max(v[2]),
        v[1].max(v[3]),
    );
    Rect {
        x: x1 / PT,
        y: (h - y2) / PT,
        w: (x2 - x1) / PT,
        h: (y2 - y1) / PT,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL
}

fn same_rect(a: Rect, b: Rect) -> bool {
    close(a.x, b.x) && close(a.y, b.y) && close(a.w, b.w) && close(a.h, b.h)
}

/// A straight line from one point to another, in millimetres.
type Segment = ((f64, f64), (f64, f64));

/// Stroked straight segments of a page, in millimetres from the top-left corner.
fn segments(doc: &Document, page: ObjectId) -> Vec<Segment> {
    let content = lopdf::content::Content::decode(&doc.get_page_content(page)).unwrap();
    let media = page_box(doc, page, b"MediaBox");
    let h_pt = media.h * PT;
    type M = [f64; 6];
    let mul = |a: M, b: M| -> M {
        [
            a[0] * b[0] + a[1] * b[2],
            a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4],
            a[4] * b[1] + a[5] * b[3] + b[5],
        ]
    };
    let apply = |m: M, x: f64, y: f64| (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
    let mut stack: Vec<M> = Vec::new();
    let mut ctm: M = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    let mut path: Vec<Segment> = Vec::new();
    let mut cur = (0.0, 0.0);
    let mut out = Vec::new();
    for op in content.operations {
        let n: Vec<f64> = op
            .operands
            .iter()
            .filter_map(|o| match o {
                Object::Integer(_) | Object::Real(_) => Some(num(o)),
                _ => None,
            })
            .collect();
        match op.operator.as_str() {
            "q" => stack.push(ctm),
            "Q" => ctm = stack.pop().unwrap_or(ctm),
            "cm" => ctm = mul([n[0], n[1], n[2], n[3], n[4], n[5]], ctm),
            "m" => cur = apply(ctm, n[0], n[1]),
            "l" => {
                let p = apply(ctm, n[0], n[1]);
                path.push((cur, p));
                cur = p;
            }
            "S" => out.append(&mut path),
            "n" | "f" | "f*" | "B" | "b" | "W" => path.clear(),
            _ => {}
        }
    }
    out.into_iter()
        .map(|((x1, y1), (x2, y2))| ((x1 / PT, (h_pt - y1) / PT), (x2 / PT, (h_pt - y2) / PT)))
        .collect()
}

/// Vertical and horizontal crop marks: (x of each mark above or below the block) and (y of
/// each mark left or right of it). A crop mark starts outside the trim, no nearer than 1 mm
/// and no farther than 1 mm beyond the bleed, and runs away from the block past the bleed.
fn crop_marks(segs: &[Segment], trim: Rect, bleed: Rect) -> (Vec<f64>, Vec<f64>) {
    let b = trim.x - bleed.x;
    // Distances outward from the trim of a mark's near and far ends.
    let is_mark = |near: f64, far: f64| near >= 1.0 - TOL && near <= b + 1.0 && far > b + 0.5;
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for &((x1, y1), (x2, y2)) in segs {
        let (top, bottom) = (y1.min(y2), y1.max(y2));
        let (left, right) = (x1.min(x2), x1.max(x2));
        let (trim_bottom, trim_right) = (trim.y + trim.h, trim.x + trim.w);
        if close(x1, x2)
            && (is_mark(trim.y - bottom, trim.y - top)
                || is_mark(top - trim_bottom, bottom - trim_bottom))
        {
            xs.push(x1);
        }
        if close(y1, y2)
            && (is_mark(trim.x - right, trim.x - left)
                || is_mark(left - trim_right, right - trim_right))
        {
            ys.push(y1);
        }
    }
    (xs, ys)
}

fn cut_lines(page: &CardPage) -> (Vec<f64>, Vec<f64>) {
    render::sheets::cut_lines(&page.placed)
}

fn count_near(values: &[f64], v: f64) -> usize {
    values.iter().filter(|x| close(**x, v)).count()
}

#[test]
fn page_sizes_are_a4_and_letter() {
    for (paper, w, h) in [(Paper::A4, 210.0, 297.0), (Paper::Letter, 215.9, 279.4)] {
        let (_, plan, doc, _) = cards(
            "capek-golems",
            &options(paper, Duplex::LongEdge, (0.0, 0.0)),
        );
        assert_eq!(doc.get_pages().len(), plan.len());
        for id in page_ids(&doc) {
            let m = page_box(&doc, id, b"MediaBox");
            assert!(close(m.w, w) && close(m.h, h), "{paper:?}: {m:?}");
        }
        let grid = Grid::new(paper, (63.0, 88.0), 3.0).unwrap();
        assert_eq!(
            (grid.cols, grid.rows),
            (3, 3),
            "poker cards 3 x 3 on {paper:?}"
        );
    }
}

#[test]
fn trim_and_bleed_boxes_and_crop_marks_match_every_card_cell() {
    for paper in [Paper::A4, Paper::Letter] {
        let o = options(paper, Duplex::LongEdge, (0.0, 0.0));
        let (_, plan, doc, _) = cards("capek-golems", &o);
        for (page, id) in plan.iter().zip(page_ids(&doc)) {
            let (xs, ys) = cut_lines(page);
            let trim = page_box(&doc, id, b"TrimBox");
            let bleed = page_box(&doc, id, b"BleedBox");
            let block = Rect {
                x: xs[0],
                y: ys[0],
                w: xs[xs.len() - 1] - xs[0],
                h: ys[ys.len() - 1] - ys[0],
            };
            assert!(
                same_rect(trim, block),
                "TrimBox {trim:?} vs cells {block:?}"
            );
            assert!(same_rect(bleed, block.grow(o.bleed)), "BleedBox {bleed:?}");
            // Every card cell's four edges are cut lines marked on the page, outside the trim
            // and reaching past the bleed, on both sides of the block.
            let (mx, my) = crop_marks(&segments(&doc, id), trim, bleed);
            for p in &page.placed {
                for x in [p.trim.x, p.trim.right()] {
                    assert_eq!(count_near(&mx, x), 2, "vertical cut at {x} on {paper:?}");
                }
                for y in [p.trim.y, p.trim.bottom()] {
                    assert_eq!(count_near(&my, y), 2, "horizontal cut at {y} on {paper:?}");
                }
                assert!(close(p.trim.w, 63.0) && close(p.trim.h, 88.0));
            }
            // No mark anywhere else.
            assert_eq!(mx.len(), 2 * xs.len());
            assert_eq!(my.len(), 2 * ys.len());
        }
    }
}

#[test]
fn faces_equal_the_sum_of_counts_and_backs_mirror_fronts() {
    for slug in ["capek-golems", "the-search", "imperial-settlers-aztecs"] {
        for duplex in [Duplex::LongEdge, Duplex::ShortEdge] {
            let offset = (1.5, -0.5);
            let o = options(Paper::A4, duplex, offset);
            let (g, plan, doc, _) = cards(slug, &o);
            let mut want: BTreeMap<String, u32> = BTreeMap::new();
            for d in g.components.decks.iter().filter(|d| d.print) {
                for c in &d.cards {
                    want.insert(c.id.get_ref().clone(), c.count.0);
                }
            }
            let mut fronts: BTreeMap<String, u32> = BTreeMap::new();
            let mut backs = 0;
            for page in &plan {
                if page.back {
                    backs += page.placed.len() as u32;
                } else {
                    for p in &page.placed {
                        *fronts.entry(p.card.clone()).or_default() += 1;
                    }
                }
            }
            assert_eq!(fronts, want, "{slug}: every card printed count times");
            assert_eq!(
                backs,
                want.values().sum::<u32>(),
                "{slug}: one back per front"
            );
            let pages = page_ids(&doc);
            assert_eq!(pages.len(), plan.len());
            // Duplex: each front page is followed by its back page, slot for slot mirrored.
            for (i, pair) in plan.chunks(2).enumerate() {
                let (f, b) = (&pair[0], &pair[1]);
                assert!(!f.back && b.back && f.deck == b.deck);
                let (pw, ph) = f.grid.paper;
                for (pf, pb) in f.placed.iter().zip(&b.placed) {
                    assert_eq!(pf.card, pb.card);
                    let expect = match duplex {
                        Duplex::LongEdge => Rect {
                            x: pw - pf.trim.right(),
                            ..pf.trim
                        },
                        Duplex::ShortEdge => Rect {
                            y: ph - pf.trim.bottom(),
                            ..pf.trim
                        },
                        Duplex::Off => pf.trim,
                    };
                    let expect = Rect {
                        x: expect.x + offset.0,
                        y: expect.y + offset.1,
                        ..expect
                    };
                    assert!(
                        same_rect(pb.trim, expect),
                        "{slug}: back of {} at {:?}",
                        pb.card,
                        pb.trim
                    );
                }
                // And the PDF's crop marks on the back page sit at the mirrored cut lines.
                let back_id = pages[2 * i + 1];
                let trim = page_box(&doc, back_id, b"TrimBox");
                let bleed = page_box(&doc, back_id, b"BleedBox");
                let (mx, my) = crop_marks(&segments(&doc, back_id), trim, bleed);
                let (bx, by) = cut_lines(b);
                for x in &bx {
                    assert_eq!(count_near(&mx, *x), 2, "{slug}: back cut x {x}");
                }
                for y in &by {
                    assert_eq!(count_near(&my, *y), 2, "{slug}: back cut y {y}");
                }
            }
        }
    }
}

#[test]
fn one_sided_prints_all_fronts_then_all_backs() {
    let (_, plan, _, _) = cards(
        "capek-golems",
        &options(Paper::Letter, Duplex::Off, (0.0, 0.0)),
    );
    let first_back = plan.iter().position(|p| p.back).unwrap();
    assert!(plan[..first_back].iter().all(|p| !p.back));
    assert!(plan[first_back..].iter().all(|p| p.back));
    for p in &plan {
        for (i, placed) in p.placed.iter().enumerate() {
            assert_eq!(
                placed.trim,
                p.grid.front_cell(i),
                "not mirrored when one-sided"
            );
        }
    }
}

fn fonts_of(doc: &Document) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (_, obj) in doc.objects.iter() {
        let Ok(dict) = obj.as_dict() else { continue };
        if dict.get(b"Type").ok().and_then(|t| t.as_name().ok())
            != Some(b"FontDescriptor".as_slice())
        {
            continue;
        }
        let name = dict
            .get(b"FontName")
            .ok()
            .and_then(|n| n.as_name().ok())
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        let embedded = dict.has(b"FontFile2") || dict.has(b"FontFile3") || dict.has(b"FontFile");
        out.push((name, embedded));
    }
    out
}

#[test]
fn fonts_are_the_bundled_ones_embedded_and_subset() {
    let (_, _, doc, _) = cards("capek-golems", &BuildOptions::default());
    let fonts = fonts_of(&doc);
    assert!(!fonts.is_empty());
    for (name, embedded) in fonts {
        assert!(embedded, "{name} not embedded");
        let (tag, base) = name.split_once('+').expect("subset fonts carry a tag");
        assert!(
            tag.len() == 6 && tag.chars().all(|c| c.is_ascii_uppercase()),
            "{name}"
        );
        assert!(base.starts_with("DejaVu"), "{name}: only bundled fonts");
    }
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn have(tool: &str) -> bool {
    let found = std::process::Command::new(tool).arg("-v").output().is_ok();
    if !found {
        eprintln!("skipped: {tool} (poppler-utils) is not installed");
    }
    found
}

/// The PDF's text as poppler extracts it (lopdf's extractor drops krilla's word spaces).
fn pdf_text(bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("x.pdf");
    std::fs::write(&pdf, bytes).unwrap();
    let out = std::process::Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_card_name_and_text_is_in_the_pdf() {
    if !have("pdftotext") {
        return;
    }
    for slug in ["capek-golems", "the-search", "imperial-settlers-aztecs"] {
        let (g, _, _, bytes) = cards(slug, &BuildOptions::default());
        let text = words(&pdf_text(&bytes));
        for d in g.components.decks.iter().filter(|d| d.print) {
            for c in &d.cards {
                assert!(
                    text.contains(&words(&c.name)),
                    "{slug}: name of {}",
                    c.id.get_ref()
                );
                if let Some(t) = &c.text {
                    assert!(
                        text.contains(&words(t)),
                        "{slug}: text of {}: {t}",
                        c.id.get_ref()
                    );
                }
                // Ids are printed outside the trim for collation.
                assert!(
                    text.contains(c.id.get_ref().as_str()),
                    "{slug}: id {}",
                    c.id.get_ref()
                );
            }
        }
        assert!(text.contains("Print at 100 %"), "{slug}: actual-size line");
    }
}

#[test]
fn builds_are_byte_identical() {
    for slug in [
        "capek-golems",
        "the-search",
        "aether",
        "imperial-settlers-aztecs",
    ] {
        let g = game(slug);
        let o = BuildOptions::default();
        let build = || {
            let faces = render::draw_faces(&g, &o).unwrap();
            (
                render::cards_pdf(&g, &faces, &o).ok(),
                render::tokens_pdf(&g, &faces, &o).unwrap(),
                render::board::board_pdf(&g, o.paper, None).unwrap(),
            )
        };
        assert_eq!(build(), build(), "{slug}");
    }
}

/// What `check` says of one game in a data folder, one message per problem.
fn check_messages(data: &Path, slug: &str) -> Vec<String> {
    let g = load_game(data, slug).unwrap();
    printplay::check::check_game(&g)
        .iter()
        .map(|p| p.to_string())
        .collect()
}

#[test]
fn a_missing_template_and_overflowing_text_are_check_errors() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("the-search");
    std::fs::create_dir(&copy).unwrap();
    for f in ["game.toml", "components.toml"] {
        std::fs::copy(Path::new("data/the-search").join(f), copy.join(f)).unwrap();
    }
    let original = std::fs::read_to_string(copy.join("components.toml")).unwrap();
    let broken = original.replacen("template = \"search-map\"", "template = \"no-such-map\"", 1);
    std::fs::write(copy.join("components.toml"), broken).unwrap();
    let problems = check_messages(dir.path(), "the-search");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("no-such-map") && p.contains("does not exist")),
        "{problems:?}"
    );
    let long = "The criminal runs and runs and runs. ".repeat(40);
    let overflow = original.replacen(
        "text = \"The criminal must leave a marker here.\"",
        &format!("text = \"{long}\""),
        1,
    );
    assert_ne!(overflow, original);
    std::fs::write(copy.join("components.toml"), overflow).unwrap();
    let problems = check_messages(dir.path(), "the-search");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("map-crime-scene") && p.contains("does not fit")),
        "{problems:?}"
    );
}

/// Reads a binary PPM (P6) as (width, height, pixels).
fn read_ppm(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..i]).into_owned());
    }
    assert_eq!(fields[0], "P6");
    (
        fields[1].parse().unwrap(),
        fields[2].parse().unwrap(),
        bytes[i + 1..].to_vec(),
    )
}

#[test]
fn rendered_page_has_art_in_the_bleed_and_white_margins() {
    if !have("pdftoppm") {
        return;
    }
    let o = BuildOptions::default();
    let (_, plan, _, bytes) = cards("capek-golems", &o);
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("cards.pdf");
    std::fs::write(&pdf, bytes).unwrap();
    let out = std::process::Command::new("pdftoppm")
        .args(["-r", "60", "-f", "1", "-l", "1"])
        .arg(&pdf)
        .output()
        .unwrap();
    assert!(out.status.success());
    let (w, h, px) = read_ppm(&out.stdout);
    let per_mm = 60.0 / 25.4;
    let at = |x: f64, y: f64| {
        let (i, j) = ((x * per_mm) as usize, (y * per_mm) as usize);
        let k = (j.min(h - 1) * w + i.min(w - 1)) * 3;
        (px[k], px[k + 1], px[k + 2])
    };
    let block = render::sheets::cut_lines(&plan[0].placed);
    let (x0, y0) = (block.0[0], block.1[0]);
    // Halfway into the bleed, beside the first card's upper band: its colour, not paper.
    let bleed_px = at(x0 - o.bleed / 2.0, y0 + 10.0);
    assert_ne!(bleed_px, (255, 255, 255), "art runs into the bleed");
    // Beyond the bleed and away from cut lines: white paper.
    let margin_px = at(x0 - o.bleed - 2.0, y0 + 40.0);
    assert_eq!(margin_px, (255, 255, 255), "nothing printed in the margin");
}
