//! `--duplex fold` read back: a shipped game and the scaffold game (whose Comet has its own
//! back) built with fold-over sheets on A4 and Letter (and once by the binary); in each
//! `cards.pdf`
//! every card's back, mirrored across the dashed fold line the page strokes, covers its
//! front's trim to 0.01 mm; the fold line and every crop mark stay off every card's bleed;
//! every card is printed `count` times with its own back (or its deck's).

mod common;

use std::collections::BTreeMap;

use common::Fixture;
use common::pdf_read::{Segment, drawn, page_box, page_ids};
use lopdf::Document;
use printplay::model::load_game;
use printplay::render::sheets::layout::Rect;
use printplay::render::sheets::layout::{Duplex, Paper};
use printplay::render::{self, BuildOptions};

/// Registration across the fold, in millimetres.
const FOLD_TOL: f64 = 0.01;

fn same(a: Rect, b: Rect, tol: f64) -> bool {
    [(a.x, b.x), (a.y, b.y), (a.w, b.w), (a.h, b.h)]
        .iter()
        .all(|(p, q)| (p - q).abs() <= tol)
}

/// Distance between a segment (with its stroke's half width) and a rectangle; 0 when they
/// touch.
fn clearance(s: Segment, r: Rect) -> f64 {
    let ((x1, y1), (x2, y2)) = s;
    let half = 0.1;
    let (l, rt) = (x1.min(x2) - half, x1.max(x2) + half);
    let (t, b) = (y1.min(y2) - half, y1.max(y2) + half);
    let dx = (r.x - rt).max(l - r.right()).max(0.0);
    let dy = (r.y - b).max(t - r.bottom()).max(0.0);
    dx.hypot(dy)
}

#[test]
fn backs_mirrored_across_the_fold_line_cover_their_fronts_and_guides_keep_off_the_bleeds() {
    let fx = Fixture::with_games(&["capek-golems"]);
    let made = fx.run(&["new", "my-game"]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    for slug in ["capek-golems", "my-game"] {
        let game = load_game(fx.data(), slug).unwrap();
        let faces = render::draw_faces(&game, &BuildOptions::default()).unwrap();
        for (paper, arg) in [(Paper::A4, "a4"), (Paper::Letter, "letter")] {
            let what = format!("{slug} {arg}");
            // The plan the PDF is drawn from names each card's place and side.
            let o = BuildOptions {
                paper,
                duplex: Duplex::Fold,
                ..BuildOptions::default()
            };
            let pdf = render::cards_pdf(&game, &faces, &o).unwrap();
            let doc = Document::load_mem(&pdf).unwrap();
            let plan = render::card_plan(&faces, &o).unwrap();
            let specs = render::card_pages(&game, &faces, &o).unwrap();
            let ids = page_ids(&doc);
            assert_eq!(ids.len(), plan.len(), "{what}: one page a sheet");
            let mut fronts: BTreeMap<(String, String), u32> = BTreeMap::new();
            let mut backs: BTreeMap<(String, String), u32> = BTreeMap::new();
            for ((page, spec), &id) in plan.iter().zip(&specs).zip(&ids) {
                let media = page_box(&doc, id, b"MediaBox");
                if slug == "capek-golems" {
                    // Poker cards: a landscape page, 2 x 2 fronts and their 4 backs.
                    assert!(media.w > media.h, "{what}: landscape, {media:?}");
                    assert!(page.placed.len() <= 8 && page.grid.per_page() == 4);
                }
                let bleed = page.grid.bleed;
                let d = drawn(&doc, id);
                // The fold line: the one long vertical line stroked down the page's middle.
                let folds: Vec<Segment> = d
                    .guides
                    .iter()
                    .copied()
                    .filter(|((x1, y1), (x2, y2))| {
                        (x1 - x2).abs() < 1e-6
                            && (y1 - y2).abs() > media.h / 2.0
                            && (x1 - media.w / 2.0).abs() < 0.05
                    })
                    .collect();
                assert_eq!(folds.len(), 1, "{what}: one fold line, {folds:?}");
                let fold_x = folds[0].0.0;
                // Each card's bleed is a clip in the PDF: its trim is read from there.
                let read = |trim: Rect| -> Rect {
                    let clip = d
                        .clips
                        .iter()
                        .find(|c| same(**c, trim.grow(bleed), 0.02))
                        .unwrap_or_else(|| panic!("{what}: no bleed clip at {trim:?}"));
                    clip.grow(-bleed)
                };
                let bleeds: Vec<Rect> = page.placed.iter().map(|p| p.trim.grow(bleed)).collect();
                for p in &page.placed {
                    let trim = read(p.trim);
                    let key = (p.deck.clone(), p.card.clone());
                    let deck = faces.decks.iter().find(|d| d.id == p.deck).unwrap();
                    let card = deck.cards.iter().find(|c| c.id == p.card).unwrap();
                    // The art stamped there: the front, or the card's own back or its deck's.
                    let want = if p.back {
                        card.back_or(&deck.back)
                    } else {
                        card.svg.as_str()
                    };
                    assert!(
                        spec.stamps.iter().any(|s| s.art == want
                            && (s.at.0 - (p.trim.x - bleed)).abs() < 1e-6
                            && (s.at.1 - (p.trim.y - bleed)).abs() < 1e-6
                            && s.turn == 0),
                        "{what}: {} {} art",
                        p.card,
                        if p.back { "back" } else { "front" }
                    );
                    if p.back {
                        assert!(
                            trim.x > fold_x,
                            "{what}: back of {} right of the fold",
                            p.card
                        );
                        *backs.entry(key).or_default() += 1;
                        continue;
                    }
                    assert!(trim.right() < fold_x, "{what}: {} left of the fold", p.card);
                    *fronts.entry(key).or_default() += 1;
                    // Its back, on the same page, mirrored across the fold line.
                    let covers = page.placed.iter().filter(|b| b.back && b.card == p.card);
                    let hit = covers.map(|b| read(b.trim)).any(|b| {
                        let mirrored = Rect {
                            x: 2.0 * fold_x - b.right(),
                            ..b
                        };
                        same(mirrored, trim, FOLD_TOL)
                    });
                    assert!(hit, "{what}: no back of {} behind {trim:?}", p.card);
                }
                for s in &d.guides {
                    for b in &bleeds {
                        let gap = clearance(*s, *b);
                        assert!(
                            gap >= 0.3,
                            "{what}: line {s:?} {gap:.2} mm from bleed {b:?}"
                        );
                    }
                }
            }
            let mut want: BTreeMap<(String, String), u32> = BTreeMap::new();
            for d in &faces.decks {
                for c in &d.cards {
                    want.insert((d.id.clone(), c.id.clone()), c.count);
                }
            }
            assert_eq!(fronts, want, "{what}: every card printed count times");
            assert_eq!(backs, want, "{what}: each with one back");
            if slug == "my-game" {
                let own = faces
                    .decks
                    .iter()
                    .flat_map(|d| &d.cards)
                    .filter(|c| c.back.is_some())
                    .count();
                assert!(own > 0, "the scaffold has a card with its own back");
            }
        }
    }
}

#[test]
fn the_binary_builds_fold_over_sheets_and_calibrate_says_they_need_none() {
    let fx = Fixture::with_games(&[]);
    assert_eq!(fx.run(&["new", "my-game"]).code, 0);
    let out = fx.data().join("out");
    let run = fx.run(&[
        "build",
        "my-game",
        "--only",
        "cards",
        "--paper",
        "letter",
        "--duplex",
        "fold",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = Document::load(out.join("my-game").join("cards.pdf")).unwrap();
    let game = load_game(fx.data(), "my-game").unwrap();
    let o = BuildOptions {
        paper: Paper::Letter,
        duplex: Duplex::Fold,
        ..BuildOptions::default()
    };
    let faces = render::draw_faces(&game, &o).unwrap();
    let plan = render::card_plan(&faces, &o).unwrap();
    assert_eq!(page_ids(&doc).len(), plan.len());
    for (page, id) in plan.iter().zip(page_ids(&doc)) {
        let media = page_box(&doc, id, b"MediaBox");
        assert!((media.w - page.grid.paper.0).abs() < 0.05, "{media:?}");
        assert!((media.h - page.grid.paper.1).abs() < 0.05, "{media:?}");
    }

    let run = fx.run(&["calibrate", "--duplex", "fold", "--out", "/nonexistent"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("need no calibration"), "{}", run.stderr);
}
