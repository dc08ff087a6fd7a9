//! `--pack` with mixed card sizes read back: a generated game with poker, mini and tarot
//! decks prints fewer sheets packed than unpacked (the part-empty last sheets of each size
//! share mixed sheets), on A4 and Letter, in every duplex mode; on every page read back from
//! the PDF, each card's bleed lies inside the margins and over no other card, no guide comes
//! within half a millimetre of a card (crop marks stay off every bleed), each card is printed
//! `count` times with its back, and each back covers its front to 0.01 mm when the sheet is
//! turned (or folded) as the duplex mode says.

mod common;

use std::collections::BTreeMap;

use common::Fixture;
use common::pdf_read::{Segment, drawn, page_box, page_ids};
use lopdf::Document;
use printplay::model::load_game;
use printplay::render::sheets::CardPage;
use printplay::render::sheets::layout::Rect;
use printplay::render::sheets::layout::{Duplex, Marks, Paper};
use printplay::render::{self, BuildOptions};

/// Registration of a back with its front, in millimetres.
const REG: f64 = 0.01;

/// Decks of poker (7 cards more), mini (20) and tarot (5) cards, next to the scaffold's 12
/// poker cards: every size leaves a part-empty sheet in every layout.
const MORE_DECKS: &str = r##"
[[deck]]
id = "extra"
name = "Extra poker"
size = "poker"
template = "basic-card"
back = { template = "basic-back", title = "Extra", colour = "#ffffff" }

[[deck.card]]
id = "extra-card"
name = "Extra"
count = 7
[[deck]]
id = "minis"
name = "Mini deck"
size = "mini"
template = "basic-card"
back = { template = "basic-back", title = "Minis", colour = "#6b3e26" }

[[deck.card]]
id = "mini-a"
name = "Mini A"
count = 12

[[deck.card]]
id = "mini-b"
name = "Mini B"
count = 8

[[deck]]
id = "aids"
name = "Player aids"
size = "tarot"
template = "basic-card"
back = { template = "basic-back", title = "Aid", colour = "#24527a" }

[[deck.card]]
id = "aid"
name = "Player aid"
count = 5
"##;

fn mixed_game() -> Fixture {
    let fx = Fixture::with_games(&[]);
    let made = fx.run(&["new", "mixed"]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    let path = fx.file("mixed", "components.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    // The decks go before the first table after the scaffold's deck.
    let at = text.find("\n[[piece]]").unwrap();
    std::fs::write(&path, format!("{}{MORE_DECKS}{}", &text[..at], &text[at..])).unwrap();
    let rules = fx.file("mixed", "rules.en.toml");
    let mut text = std::fs::read_to_string(&rules).unwrap();
    for deck in ["extra", "minis", "aids"] {
        text.push_str(&format!(
            "\n[components.\"deck.{deck}\"]\npurpose = \"More cards.\"\n"
        ));
    }
    std::fs::write(&rules, text).unwrap();
    fx
}

fn same(a: Rect, b: Rect, tol: f64) -> bool {
    [(a.x, b.x), (a.y, b.y), (a.w, b.w), (a.h, b.h)]
        .iter()
        .all(|(p, q)| (p - q).abs() <= tol)
}

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

fn sizes(page: &CardPage) -> usize {
    let mut s: Vec<(i64, i64)> = page
        .placed
        .iter()
        .map(|p| ((p.trim.w * 100.0) as i64, (p.trim.h * 100.0) as i64))
        .collect();
    s.sort();
    s.dedup();
    s.len()
}

#[test]
fn mixed_sizes_share_sheets_register_and_keep_guides_off_every_card() {
    let fx = mixed_game();
    let game = load_game(fx.data(), "mixed").unwrap();
    let faces = render::draw_faces(&game, &BuildOptions::default()).unwrap();
    let sizes_of_decks: Vec<(f64, f64)> = faces.decks.iter().map(|d| d.size).collect();
    assert_eq!(sizes_of_decks.len(), 4, "poker (twice), mini and tarot");
    let mut want: BTreeMap<(String, String), u32> = BTreeMap::new();
    for d in &faces.decks {
        for c in &d.cards {
            want.insert((d.id.clone(), c.id.clone()), c.count);
        }
    }
    for paper in [Paper::A4, Paper::Letter] {
        for (duplex, marks) in [
            (Duplex::LongEdge, Marks::Crop),
            (Duplex::ShortEdge, Marks::Crop),
            (Duplex::Off, Marks::Both),
            (Duplex::Fold, Marks::Crop),
        ] {
            let what = format!("{paper:?} {duplex:?}");
            let o = |pack: bool| BuildOptions {
                paper,
                duplex,
                marks,
                pack,
                ..BuildOptions::default()
            };
            let fronts = |plan: &[CardPage]| plan.iter().filter(|p| !p.back).count();
            let unpacked = render::card_plan(&faces, &o(false)).unwrap();
            let plan = render::card_plan(&faces, &o(true)).unwrap();
            assert!(
                fronts(&plan) < fronts(&unpacked),
                "{what}: {} sheets packed, {} not",
                fronts(&plan),
                fronts(&unpacked)
            );
            assert!(plan.iter().any(|p| sizes(p) > 1), "{what}: a mixed sheet");
            let pdf = render::cards_pdf(&game, &faces, &o(true)).unwrap();
            assert_eq!(
                pdf,
                render::cards_pdf(&game, &faces, &o(true)).unwrap(),
                "{what}: the same bytes again"
            );
            let doc = Document::load_mem(&pdf).unwrap();
            let ids = page_ids(&doc);
            assert_eq!(ids.len(), plan.len(), "{what}");
            // Every card's trim and bleed as the PDF clips it.
            let mut read: Vec<Vec<Rect>> = Vec::new();
            let mut printed: BTreeMap<(bool, String, String), u32> = BTreeMap::new();
            for (page, &id) in plan.iter().zip(&ids) {
                let media = page_box(&doc, id, b"MediaBox");
                assert!(
                    (media.w - page.grid.paper.0).abs() < 0.05,
                    "{what}: {media:?}"
                );
                let d = drawn(&doc, id);
                let b = page.grid.bleed;
                let trims: Vec<Rect> = page
                    .placed
                    .iter()
                    .map(|p| {
                        d.clips
                            .iter()
                            .find(|c| same(**c, p.trim.grow(b), 0.02))
                            .unwrap_or_else(|| panic!("{what}: no bleed clip for {}", p.card))
                            .grow(-b)
                    })
                    .collect();
                for (n, t) in trims.iter().enumerate() {
                    let bleed = t.grow(b);
                    assert!(media.grow(-5.0).contains(bleed, 0.01), "{what}: {bleed:?}");
                    for (m, other) in trims.iter().enumerate() {
                        assert!(
                            n == m || !bleed.overlaps(*other, 0.01),
                            "{what}: card {n} over card {m}"
                        );
                    }
                }
                assert!(!d.guides.is_empty());
                for seg in &d.guides {
                    for t in &trims {
                        assert!(!crosses(*seg, t.grow(0.49)), "{what}: {seg:?} on {t:?}");
                        assert!(
                            !marks.lines() || !crosses(*seg, t.grow(0.49)),
                            "{what}: {seg:?} on {t:?}"
                        );
                        let fold = (seg.0.0 - seg.1.0).abs() < 1e-6
                            && (seg.0.0 - media.w / 2.0).abs() < 0.05
                            && duplex == Duplex::Fold;
                        assert!(
                            marks.lines() || fold || !crosses(*seg, t.grow(b)),
                            "{what}: crop mark {seg:?} on the bleed of {t:?}"
                        );
                    }
                }
                for p in &page.placed {
                    *printed
                        .entry((p.back, p.deck.clone(), p.card.clone()))
                        .or_default() += 1;
                }
                read.push(trims);
            }
            for back in [false, true] {
                let got: BTreeMap<(String, String), u32> = printed
                    .iter()
                    .filter(|((b, ..), _)| *b == back)
                    .map(|((_, d, c), n)| ((d.clone(), c.clone()), *n))
                    .collect();
                assert_eq!(got, want, "{what}: each card `count` times (backs: {back})");
            }
            // Each front and its back: which page, which place.
            let pairs: Vec<(usize, usize, usize, usize)> = match duplex {
                Duplex::Fold => (0..plan.len())
                    .flat_map(|i| {
                        let half = plan[i].placed.len() / 2;
                        (0..half).map(move |k| (i, k, i, half + k))
                    })
                    .collect(),
                Duplex::Off => {
                    let n = fronts(&plan);
                    (0..n)
                        .flat_map(|i| (0..plan[i].placed.len()).map(move |k| (i, k, n + i, k)))
                        .collect()
                }
                _ => (0..plan.len())
                    .step_by(2)
                    .flat_map(|i| (0..plan[i].placed.len()).map(move |k| (i, k, i + 1, k)))
                    .collect(),
            };
            assert_eq!(pairs.len(), want.values().sum::<u32>() as usize);
            for (fp, fk, bp, bk) in pairs {
                let (front, back) = (&plan[fp].placed[fk], &plan[bp].placed[bk]);
                assert!(
                    !front.back && back.back && front.card == back.card,
                    "{what}"
                );
                let (f, b) = (read[fp][fk], read[bp][bk]);
                let (pw, ph) = plan[fp].grid.paper;
                // The back page turned as the printer (or the fold) turns it.
                let turned = match duplex {
                    Duplex::ShortEdge => Rect {
                        y: ph - b.bottom(),
                        ..b
                    },
                    _ => Rect {
                        x: pw - b.right(),
                        ..b
                    },
                };
                assert!(
                    same(turned, f, REG),
                    "{what}: back of {} at {turned:?}, front at {f:?}",
                    front.card
                );
                let want_turn = if duplex == Duplex::ShortEdge {
                    (540 - front.turn) % 360
                } else {
                    (360 - front.turn) % 360
                };
                assert_eq!(back.turn, want_turn, "{what}: {}", front.card);
            }
        }
    }
    // A4, long edge: 3 poker, 2 mini and 2 tarot sheets unpacked; packed, the 4 full sheets
    // (2 poker, 1 mini, 1 tarot) and 2 mixed sheets.
    let o = BuildOptions {
        pack: true,
        ..BuildOptions::default()
    };
    let plan = render::card_plan(&faces, &o).unwrap();
    let fronts: Vec<&CardPage> = plan.iter().filter(|p| !p.back).collect();
    assert_eq!(fronts.len(), 6);
    // The tarot and poker cards share one; the mini cards fill the other.
    assert_eq!(fronts.iter().filter(|p| sizes(p) > 1).count(), 1);
}

#[test]
fn the_binary_packs_mixed_sizes() {
    let fx = mixed_game();
    let out = fx.data().join("out");
    let run = fx.run(&[
        "build",
        "mixed",
        "--only",
        "cards",
        "--pack",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = Document::load(out.join("mixed").join("cards.pdf")).unwrap();
    // Six sheets, fronts and backs.
    assert_eq!(page_ids(&doc).len(), 12);
}

/// Tuck boxes: `boxes.pdf` holds one page a deck, each net sized from its deck's cards (the
/// page label says the inside), passes `qpdf --check` and is the same bytes built twice; a
/// `box.card_thickness_mm` past its bound is refused at its line by `check` (exit 1), and a
/// box too large for the paper is refused naming the deck.
#[test]
fn a_tuck_box_per_deck_sized_from_its_cards() {
    let fx = mixed_game();
    // The mini deck's cards are sleeved: 0.4 mm each.
    fx.edit(
        "mixed",
        "components.toml",
        "size = \"mini\"\n",
        "size = \"mini\"\nbox = { card_thickness_mm = 0.4 }\n",
    );
    let out = fx.data().join("out");
    let build = |out: &std::path::Path| {
        fx.run(&[
            "build",
            "mixed",
            "--only",
            "boxes",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let run = build(&out);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let pdf = out.join("mixed").join("boxes.pdf");
    let doc = Document::load(&pdf).unwrap();
    assert_eq!(page_ids(&doc).len(), 4, "one box a deck");
    let again = fx.data().join("again");
    assert_eq!(build(&again).code, 0);
    assert_eq!(
        std::fs::read(&pdf).unwrap(),
        std::fs::read(again.join("mixed").join("boxes.pdf")).unwrap(),
        "the same bytes again"
    );
    if std::process::Command::new("qpdf")
        .arg("--version")
        .output()
        .is_ok()
    {
        let check = std::process::Command::new("qpdf")
            .arg("--check")
            .arg(&pdf)
            .output()
            .unwrap();
        assert!(check.status.success(), "{check:?}");
    }
    // The mini deck: 20 cards of 0.4 mm and 1 mm to slide, inside 45 x 64 x 9 mm.
    let game = load_game(fx.data(), "mixed").unwrap();
    let faces = render::draw_faces(&game, &BuildOptions::default()).unwrap();
    let minis = faces.decks.iter().find(|d| d.id == "minis").unwrap();
    let b = minis.tuck_box.as_ref().unwrap();
    assert_eq!(b.net.inner, (45.0, 64.0, 20.0 * 0.4 + 1.0));
    // Past its bound: refused at the line that writes it.
    let line = fx.edit(
        "mixed",
        "components.toml",
        "card_thickness_mm = 0.4",
        "card_thickness_mm = 4",
    );
    let run = fx.run(&["check", "mixed"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!("components.toml:{line}:")),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("0.1 to 2 mm"), "{}", run.stderr);
    // 99 tarot cards make a box too wide for A4, upright or turned.
    fx.edit(
        "mixed",
        "components.toml",
        "card_thickness_mm = 4",
        "card_thickness_mm = 0.4",
    );
    fx.edit("mixed", "components.toml", "count = 5", "count = 99");
    let line_of = |needle: &str| {
        let text = std::fs::read_to_string(fx.file("mixed", "components.toml")).unwrap();
        text[..text.find(needle).unwrap()].matches('\n').count() + 1
    };
    // The deck writes no `box`: it is left without one, warned of at its size, and the
    // other decks' boxes are printed.
    let run = build(&out);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let size = line_of("size = \"tarot\"");
    assert!(
        run.stderr.contains("tuck box of deck `aids`")
            && run.stderr.contains("--paper a3")
            && run.stderr.contains(&format!("components.toml:{size}:")),
        "{}",
        run.stderr
    );
    let doc = Document::load(&pdf).unwrap();
    assert_eq!(page_ids(&doc).len(), 3, "no box for the aids");
    // Asked for (`box = {}`), the same box is refused at its `box`, before anything is written.
    fx.edit(
        "mixed",
        "components.toml",
        "size = \"tarot\"",
        "size = \"tarot\"\nbox = {}",
    );
    let run = build(&out);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let asked = line_of("box = {}");
    assert!(
        run.stderr.contains("tuck box of deck `aids`")
            && run.stderr.contains("--paper a3")
            && run.stderr.contains(&format!("components.toml:{asked}:")),
        "{}",
        run.stderr
    );
}
