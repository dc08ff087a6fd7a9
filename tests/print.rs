//! The print stage read back: the PDFs' page sizes, boxes, every card's bleed (its clip in
//! the PDF), crop marks and cut lines, faces, mirrored and turned backs, fonts, type sizes
//! and text, checked against the layout plan; builds are byte-identical; a page rendered by
//! pdftoppm shows art in the bleed; `check` catches type below 6 pt and backs alike in grey.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::pdf_read::{Segment, drawn, page_box, page_ids};
use lopdf::Document;
use printplay::model::{Game, load_game};
use printplay::render::sheets::CardPage;
use printplay::render::sheets::layout::{Duplex, Marks, Paper};
use printplay::render::sheets::layout::{
    Grid, MIN_TEXT_PT, MM_PER_PT, PAPER_MARGIN, Rect, SIDE_MARK_MIN,
};
use printplay::render::{self, BuildOptions};

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

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL
}

fn same_rect(a: Rect, b: Rect) -> bool {
    close(a.x, b.x) && close(a.y, b.y) && close(a.w, b.w) && close(a.h, b.h)
}

/// Vertical and horizontal crop marks: (x of each vertical mark above or below the bleed)
/// and (y of each horizontal mark left or right of it).
fn crop_marks(segs: &[Segment], bleed: Rect) -> (Vec<f64>, Vec<f64>) {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for &((x1, y1), (x2, y2)) in segs {
        let (top, bottom) = (y1.min(y2), y1.max(y2));
        let (left, right) = (x1.min(x2), x1.max(x2));
        let long = (bottom - top).max(right - left);
        if !(SIDE_MARK_MIN - TOL..=4.0 + TOL).contains(&long) {
            continue;
        }
        // A crop mark starts half a millimetre beyond the bleed and runs away from it.
        if close(x1, x2) && (close(bottom, bleed.y - 0.5) || close(top, bleed.bottom() + 0.5)) {
            xs.push(x1);
        }
        if close(y1, y2) && (close(right, bleed.x - 0.5) || close(left, bleed.right() + 0.5)) {
            ys.push(y1);
        }
    }
    (xs, ys)
}

/// True when the segment passes through the inside of `r` (touching its edge is outside).
fn crosses(seg: Segment, r: Rect) -> bool {
    let ((x1, y1), (x2, y2)) = seg;
    let inside = |x: f64, y: f64| {
        x > r.x + 1e-3 && x < r.right() - 1e-3 && y > r.y + 1e-3 && y < r.bottom() - 1e-3
    };
    (0..=40).any(|i| {
        let t = f64::from(i) / 40.0;
        inside(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
    })
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
    }
    // Poker cards: 3 x 3 on A4 with the bleed reduced to 1.5 mm; Letter is too short for
    // three rows with bleed, margins and marks, but 4 x 2 stand across it with 1.9 mm.
    let a4 = Grid::new(Paper::A4, (63.0, 88.0), 3.0).unwrap();
    assert_eq!((a4.cols, a4.rows, a4.bleed, a4.turned), (3, 3, 1.5, false));
    let letter = Grid::new(Paper::Letter, (63.0, 88.0), 3.0).unwrap();
    assert_eq!(
        (letter.cols, letter.rows, letter.bleed, letter.turned),
        (4, 2, 1.9, true)
    );
}

/// Every option a card sheet can be built with.
fn every_layout() -> Vec<BuildOptions> {
    let mut all = Vec::new();
    for paper in [Paper::A4, Paper::Letter] {
        for (duplex, marks, pack) in [
            (Duplex::LongEdge, Marks::Crop, false),
            (Duplex::ShortEdge, Marks::Both, true),
            (Duplex::Off, Marks::Lines, true),
        ] {
            all.push(BuildOptions {
                marks,
                pack,
                ..options(paper, duplex, (0.4, -0.3))
            });
        }
    }
    all
}

#[test]
fn every_card_bleeds_inside_the_page_over_no_other_card_and_guides_stay_off_the_bleeds() {
    for slug in ["capek-golems", "the-search"] {
        for o in every_layout() {
            let what = format!("{slug} {:?} {:?} {:?}", o.paper, o.duplex, o.marks);
            let (_, plan, doc, _) = cards(slug, &o);
            for (page, id) in plan.iter().zip(page_ids(&doc)) {
                let media = page_box(&doc, id, b"MediaBox");
                let d = drawn(&doc, id);
                let b = page.grid.bleed;
                let trims: Vec<Rect> = page.placed.iter().map(|p| p.trim).collect();
                // The PDF clips each card to its bleed: find that clip for every card.
                for (n, t) in trims.iter().enumerate() {
                    let want = t.grow(b);
                    let clip = d.clips.iter().find(|c| same_rect(**c, want));
                    let clip = clip.unwrap_or_else(|| panic!("{what}: no bleed clip {want:?}"));
                    assert!(
                        media.grow(-5.0).contains(*clip, TOL),
                        "{what}: {clip:?} margin"
                    );
                    for (m, other) in trims.iter().enumerate() {
                        assert!(
                            n == m || !clip.overlaps(*other, TOL),
                            "{what}: bleed of {n} over the trim of {m}"
                        );
                    }
                }
                assert!(!d.guides.is_empty(), "{what}: guides drawn");
                // No guide runs along a card's edge or over it, where a cut a little outward
                // would leave it showing: each keeps half a millimetre from every trim. Crop
                // marks stay off the bleeds too (cut lines cross the gutters, which are cut
                // away).
                for seg in &d.guides {
                    for t in &trims {
                        let near = t.grow(0.5 - TOL);
                        assert!(
                            !crosses(*seg, near),
                            "{what}: {seg:?} within 0.5 mm of {t:?}"
                        );
                        let bleed = t.grow(b);
                        assert!(
                            o.marks != Marks::Crop || !crosses(*seg, bleed),
                            "{what}: {seg:?} crosses {bleed:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn trim_and_bleed_boxes_frame_the_cards_and_every_cut_has_two_crop_marks() {
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
            assert!(same_rect(bleed, block.grow(page.grid.bleed)), "{bleed:?}");
            let (mx, my) = crop_marks(&drawn(&doc, id).guides, bleed);
            for x in &xs {
                assert_eq!(count_near(&mx, *x), 2, "vertical cut at {x} on {paper:?}");
            }
            for y in &ys {
                assert_eq!(count_near(&my, *y), 2, "horizontal cut at {y} on {paper:?}");
            }
            assert_eq!(mx.len(), 2 * xs.len(), "no mark anywhere else");
            assert_eq!(my.len(), 2 * ys.len());
            for p in &page.placed {
                // Upright, or standing across the sheet (turned a quarter).
                let (w, h) = if p.turn % 180 == 90 {
                    (88.0, 63.0)
                } else {
                    (63.0, 88.0)
                };
                assert!(close(p.trim.w, w) && close(p.trim.h, h));
            }
        }
    }
}

#[test]
fn cut_lines_run_along_every_cut_through_the_gutters_and_stop_short_of_every_card() {
    for paper in [Paper::A4, Paper::Letter] {
        let o = BuildOptions {
            marks: Marks::Lines,
            ..options(paper, Duplex::LongEdge, (0.0, 0.0))
        };
        let (_, plan, doc, _) = cards("capek-golems", &o);
        let page = &plan[0];
        let id = page_ids(&doc)[0];
        let guides = drawn(&doc, id).guides;
        let (xs, ys) = cut_lines(page);
        let trims: Vec<Rect> = page.placed.iter().map(|p| p.trim).collect();
        let media = page_box(&doc, id, b"MediaBox");
        // The segments along one cut: (from, to) along it.
        let along = |vertical: bool, at: f64| -> Vec<(f64, f64)> {
            guides
                .iter()
                .filter(|((x1, y1), (x2, y2))| match vertical {
                    true => close(*x1, *x2) && close(*x1, at) && !close(*y1, *y2),
                    false => close(*y1, *y2) && close(*y1, at) && !close(*x1, *x2),
                })
                .map(|((x1, y1), (x2, y2))| match vertical {
                    true => (y1.min(*y2), y1.max(*y2)),
                    false => (x1.min(*x2), x1.max(*x2)),
                })
                .collect()
        };
        // Every point of a cut from one end of its line to the other is drawn, unless it lies
        // within half a millimetre of a card; and no drawn point does.
        let check = |vertical: bool, at: f64| {
            let segs = along(vertical, at);
            assert!(segs.len() >= 2, "{paper:?}: line at {at} ({vertical})");
            let from = segs.iter().map(|s| s.0).fold(f64::MAX, f64::min);
            let to = segs.iter().map(|s| s.1).fold(f64::MIN, f64::max);
            // Whether `v` along the cut lies within half a millimetre (plus `slack`) of a card.
            let by_card = |v: f64, slack: f64| {
                trims.iter().any(|t| {
                    let (across, lo, hi) = match vertical {
                        true => (at > t.x - 0.5 && at < t.right() + 0.5, t.y, t.bottom()),
                        false => (at > t.y - 0.5 && at < t.bottom() + 0.5, t.x, t.right()),
                    };
                    across && v > lo - 0.5 - slack && v < hi + 0.5 + slack
                })
            };
            let drawn = |v: f64| segs.iter().any(|s| v >= s.0 - TOL && v <= s.1 + TOL);
            let mut v = from;
            while v <= to {
                assert!(
                    by_card(v, TOL) || drawn(v),
                    "{paper:?}: cut {at} not drawn at {v}"
                );
                assert!(
                    !by_card(v, -TOL) || !drawn(v),
                    "{paper:?}: cut {at} drawn at {v}, on a card"
                );
                v += 0.1;
            }
            // The lines reach out as far as crop marks may: past the row of text at the top
            // and bottom, and to the margin (or a 2 mm mark's length) at the sides, never
            // nearer the edge than 3 mm.
            let (edge, far) = match vertical {
                true => (from, media.h - to),
                false => (from, media.w - to),
            };
            assert!(
                edge >= 3.0 - TOL && far >= 3.0 - TOL,
                "{paper:?}: {from}..{to}"
            );
            if vertical {
                assert!(
                    edge <= PAPER_MARGIN + 2.7 + TOL,
                    "{paper:?}: lines end at {edge}"
                );
            }
        };
        for x in &xs {
            check(true, *x);
        }
        for y in &ys {
            check(false, *y);
        }
    }
}

#[test]
fn crop_marks_keep_clear_of_the_edges_and_are_never_specks() {
    for slug in ["aether", "capek-golems", "the-search"] {
        for paper in [Paper::A4, Paper::Letter] {
            let (_, _, doc, _) = cards(slug, &options(paper, Duplex::LongEdge, (0.0, 0.0)));
            for id in page_ids(&doc) {
                let media = page_box(&doc, id, b"MediaBox");
                let bleed = page_box(&doc, id, b"BleedBox");
                let guides = drawn(&doc, id).guides;
                let (mx, my) = crop_marks(&guides, bleed);
                assert!(!mx.is_empty() && !my.is_empty(), "{slug} {paper:?}: marks");
                // Crop marks of both directions are at least 2 mm long.
                for &((x1, y1), (x2, y2)) in &guides {
                    let long = (x1 - x2).abs().max((y1 - y2).abs());
                    let starts = |a: f64, b: f64, at: f64| close(a, at) || close(b, at);
                    let crop = (close(x1, x2)
                        && (starts(y1, y2, bleed.y - 0.5) || starts(y1, y2, bleed.bottom() + 0.5)))
                        || (close(y1, y2)
                            && (starts(x1, x2, bleed.x - 0.5)
                                || starts(x1, x2, bleed.right() + 0.5)));
                    assert!(
                        !crop || long >= 2.0 - TOL,
                        "{slug} {paper:?}: a crop mark {long:.2} mm long"
                    );
                }
                for ((x1, y1), (x2, y2)) in guides {
                    for (x, y) in [(x1, y1), (x2, y2)] {
                        // Side marks reach into the margin to be 2 mm long, to 3 mm of the edge.
                        assert!(
                            media.grow(-3.0).contains(
                                Rect {
                                    x,
                                    y,
                                    w: 0.0,
                                    h: 0.0
                                },
                                TOL
                            ),
                            "{slug} {paper:?}: guide end ({x:.2}, {y:.2}) in the margin"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn an_asked_bleed_is_kept_and_the_sheet_holds_fewer_cards() {
    let o = BuildOptions {
        exact_bleed: true,
        ..options(Paper::A4, Duplex::LongEdge, (0.0, 0.0))
    };
    let (_, plan, doc, _) = cards("capek-golems", &o);
    for (page, id) in plan.iter().zip(page_ids(&doc)) {
        assert!(page.placed.len() <= 8);
        let d = drawn(&doc, id);
        // Measured from the PDF: each card's bleed clip is 3 mm beyond its trim.
        for p in &page.placed {
            let want = p.trim.grow(3.0);
            assert!(
                d.clips.iter().any(|c| same_rect(*c, want)),
                "no 3 mm bleed around {}",
                p.card
            );
        }
    }
    assert_eq!(plan[0].placed.len(), 8);
    let note = o.sheet().grid_note((63.0, 88.0)).unwrap();
    assert!(
        note.starts_with("3 mm bleed: 8 cards a sheet instead of 9"),
        "{note}"
    );
    // The build says so.
    let fixture = common::Fixture::with_games(&["capek-golems"]);
    let out = tempfile::tempdir().unwrap();
    let run = fixture.run(&[
        "build",
        "capek-golems",
        "--bleed",
        "3",
        "--only",
        "cards",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains("3 mm bleed: 8 cards a sheet instead of 9"),
        "{said}"
    );
    // The warning stops nothing: cards.pdf is written, 8 cards a sheet with 3 mm bleed, each
    // page's boxes and bleed clips those of the plan.
    assert!(!said.contains("not built"), "{said}");
    let written = std::fs::read(out.path().join("capek-golems/cards.pdf"))
        .unwrap_or_else(|e| panic!("no cards.pdf ({e}): {said}"));
    let doc = Document::load_mem(&written).unwrap();
    assert_eq!(page_ids(&doc).len(), plan.len());
    for (page, id) in plan.iter().zip(page_ids(&doc)) {
        assert_eq!(page.grid.bleed, 3.0);
        let trim = page_box(&doc, id, b"TrimBox");
        let bleed = page_box(&doc, id, b"BleedBox");
        assert!(same_rect(bleed, trim.grow(3.0)), "{trim:?} {bleed:?}");
        let d = drawn(&doc, id);
        for p in &page.placed {
            assert!(d.clips.iter().any(|c| same_rect(*c, p.trim.grow(3.0))));
        }
    }
    // Without --bleed, the densest grid, silently.
    let run = fixture.run(&[
        "build",
        "capek-golems",
        "--only",
        "cards",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert!(!format!("{}{}", run.stdout, run.stderr).contains("cards a sheet instead"));
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
            // Duplex: each front page is followed by its back page, slot for slot mirrored,
            // and short-edge backs turned upside down.
            for (i, pair) in plan.chunks(2).enumerate() {
                let (f, b) = (&pair[0], &pair[1]);
                assert!(!f.back && b.back && f.decks == b.decks);
                let (pw, ph) = f.grid.paper;
                for (pf, pb) in f.placed.iter().zip(&b.placed) {
                    assert_eq!(pf.card, pb.card);
                    let (expect, turn) = match duplex {
                        Duplex::ShortEdge => (
                            Rect {
                                y: ph - pf.trim.bottom(),
                                ..pf.trim
                            },
                            180,
                        ),
                        _ => (
                            Rect {
                                x: pw - pf.trim.right(),
                                ..pf.trim
                            },
                            0,
                        ),
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
                    assert_eq!(pb.turn, turn);
                }
                // And the PDF's crop marks on the back page sit at the mirrored cut lines.
                let back_id = pages[2 * i + 1];
                let bleed = page_box(&doc, back_id, b"BleedBox");
                let (mx, my) = crop_marks(&drawn(&doc, back_id).guides, bleed);
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
fn short_edge_backs_are_drawn_upside_down() {
    let o = options(Paper::A4, Duplex::ShortEdge, (0.0, 0.0));
    let g = game("capek-golems");
    let faces = render::draw_faces(&g, &o).unwrap();
    let pages = render::card_pages(&g, &faces, &o).unwrap();
    assert!(pages[1].svg().contains("rotate(180 31.5000 44.0000)"));
    assert!(pages[1].stamps.iter().all(|s| s.turn == 180));
    assert!(!pages[0].svg().contains("rotate(180"));
}

#[test]
fn one_sided_prints_all_fronts_then_backs_to_glue_behind_them() {
    let (_, plan, _, _) = cards(
        "capek-golems",
        &options(Paper::Letter, Duplex::Off, (0.0, 0.0)),
    );
    let first_back = plan.iter().position(|p| p.back).unwrap();
    assert!(plan[..first_back].iter().all(|p| !p.back));
    assert!(plan[first_back..].iter().all(|p| p.back));
    let fronts = &plan[..first_back];
    for (f, b) in fronts.iter().zip(&plan[first_back..]) {
        assert_eq!(f.sheet, b.sheet);
        let pw = f.grid.paper.0;
        for (pf, pb) in f.placed.iter().zip(&b.placed) {
            // Glued back to back, a sheet turned over its long edge: mirrored left to right,
            // a card standing across the sheet turned the other way.
            assert_eq!(pf.card, pb.card);
            assert!(close(pb.trim.x, pw - pf.trim.right()) && close(pb.trim.y, pf.trim.y));
            assert_eq!(pb.turn, (360 - pf.turn) % 360);
        }
    }
}

#[test]
fn packed_decks_share_sheets_capek_on_six() {
    let g = game("capek-golems");
    let sheets = |paper: Paper, pack: bool| {
        let o = BuildOptions {
            pack,
            ..options(paper, Duplex::LongEdge, (0.0, 0.0))
        };
        let faces = render::draw_faces(&g, &o).unwrap();
        let plan = render::card_plan(&faces, &o).unwrap();
        let fronts: Vec<&CardPage> = plan.iter().filter(|p| !p.back).collect();
        let cards: usize = fronts.iter().map(|p| p.placed.len()).sum();
        (fronts.len(), cards)
    };
    assert_eq!(sheets(Paper::A4, false), (8, 54));
    assert_eq!(sheets(Paper::A4, true), (6, 54));
    // Letter holds 8 poker cards a sheet (4 x 2 across), not 6: 7 sheets, not 9.
    assert_eq!(sheets(Paper::Letter, true), (7, 54));
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
                // Ids are printed outside the trim for collation (a long one shortened).
                let id = c.id.get_ref().as_str();
                let short: String = id.chars().take(11).collect();
                assert!(
                    text.contains(id) || text.contains(&short),
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
                render::sheets::boards::pages::board_pdf(&g, o.paper, None).unwrap(),
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
    common::copy_dir(&Path::new("data").join("the-search"), &copy);
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
    let (magic, w, h, pixels) = common::read_pnm(bytes);
    assert_eq!(magic, "P6");
    (w, h, pixels)
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
    let bleed = plan[0].grid.bleed;
    // Halfway into the bleed, beside the first card's upper band: its colour, not paper.
    let bleed_px = at(x0 - bleed / 2.0, y0 + 10.0);
    assert_ne!(bleed_px, (255, 255, 255), "art runs into the bleed");
    // Halfway into the gutter between the first two cards: the first card's own art.
    let gutter_px = at(block.0[1] + bleed / 2.0, y0 + 10.0);
    assert_ne!(
        gutter_px,
        (255, 255, 255),
        "each card bleeds into the gutter"
    );
    // Beyond the bleed and away from cut lines: white paper.
    let margin_px = at(x0 - bleed - 2.0, y0 + 40.0);
    assert_eq!(margin_px, (255, 255, 255), "nothing printed in the margin");
}

/// Every `font-size` of an SVG page, in points.
fn type_sizes_pt(svg: &str) -> Vec<f64> {
    svg.split("font-size=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].parse::<f64>().unwrap() / MM_PER_PT)
        .collect()
}

#[test]
fn nothing_on_any_sheet_is_set_below_six_points() {
    for slug in [
        "capek-golems",
        "the-search",
        "aether",
        "imperial-settlers-aztecs",
    ] {
        let g = game(slug);
        for paper in [Paper::A4, Paper::Letter] {
            let o = options(paper, Duplex::LongEdge, (0.0, 0.0));
            let faces = render::draw_faces(&g, &o).unwrap();
            let mut svgs: Vec<String> = render::card_pages(&g, &faces, &o)
                .unwrap_or_default()
                .into_iter()
                .map(|p| p.svg())
                .collect();
            svgs.extend(
                render::sheets::token_pages(&g.info.name, &faces.pieces, paper)
                    .into_iter()
                    .map(|p| p.svg()),
            );
            svgs.extend(
                render::sheets::calibrate::pages(paper, Duplex::ShortEdge)
                    .into_iter()
                    .map(|p| p.svg()),
            );
            for svg in svgs {
                for pt in type_sizes_pt(&svg) {
                    assert!(pt >= MIN_TEXT_PT - 1e-3, "{slug} {paper:?}: {pt:.2} pt");
                }
            }
        }
    }
}

#[test]
fn check_names_the_card_and_field_of_text_that_would_need_smaller_type() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("the-search");
    common::copy_dir(Path::new("data/the-search"), &copy);
    assert_eq!(
        check_messages(dir.path(), "the-search"),
        Vec::<String>::new()
    );
    // A card text that fits only in type below 6 pt.
    let original = std::fs::read_to_string(copy.join("components.toml")).unwrap();
    // About 290 characters: five lines of 5 pt type would hold them, the box's 6 pt cannot.
    let long = "The criminal must leave a marker here and move on at once. ".repeat(5);
    let edited = original.replacen(
        "text = \"The criminal must leave a marker here.\"",
        &format!("text = \"{}\"", long.trim()),
        1,
    );
    assert_ne!(edited, original);
    std::fs::write(copy.join("components.toml"), &edited).unwrap();
    let problems = check_messages(dir.path(), "the-search");
    assert!(
        problems.iter().any(|p| p.contains("map-crime-scene")
            && p.contains("card text")
            && p.contains("6.0 pt")),
        "{problems:?}"
    );
    // A game asking for larger type gets it checked at that size.
    std::fs::write(copy.join("components.toml"), &original).unwrap();
    let game_toml = std::fs::read_to_string(copy.join("game.toml")).unwrap();
    let raised = game_toml.replacen("[game]\n", "[game]\nmin_text_pt = 11\n", 1);
    std::fs::write(copy.join("game.toml"), raised).unwrap();
    let problems = check_messages(dir.path(), "the-search");
    assert!(
        problems.iter().any(|p| p.contains("11.0 pt")),
        "{problems:?}"
    );
}

#[test]
fn check_catches_two_decks_whose_backs_look_alike_in_greyscale() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("capek-golems");
    common::copy_dir(&Path::new("data").join("capek-golems"), &copy);
    let original = std::fs::read_to_string(copy.join("components.toml")).unwrap();
    // The golem back as it was: a blue-grey as dark as the game cards' brown.
    let golem_back = original
        .lines()
        .find(|l| l.contains("title = \"Capek Golem\""))
        .unwrap()
        .to_string();
    let dark =
        "back = { template = \"capek-back\", title = \"Capek Golem\", colour = \"#2b3a42\" }";
    std::fs::write(
        copy.join("components.toml"),
        original.replacen(&golem_back, dark, 1),
    )
    .unwrap();
    let problems = check_messages(dir.path(), "capek-golems");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`game` and `golem`") && p.contains("greyscale")),
        "{problems:?}"
    );
}
