//! Every page of every printed PDF read back with poppler's `pdftotext -bbox-layout`: no two
//! words overlap, and no word lies over a card it does not belong to (the sheet furniture
//! stays off every card's bleed; a card's own words stay off every other card's trim).
//! Every game on A4 and Letter, every duplex mode, with and without `--pack`, the boards
//! (tiled and on one large page), the token sheets and the calibration sheet. And nothing
//! of any page is printed nearer the paper's edge than the 3 mm home printers leave blank
//! (the pages drawn as pixels, one a millimetre): crop marks reach into the 5 mm margin to be
//! long enough to see, never further.

use std::path::Path;

use printplay::model::load_game;
use printplay::render::sheets::CardPage;
use printplay::render::sheets::layout::{Duplex, Marks, Paper};
use printplay::render::sheets::layout::{MARK_EDGE, Rect};
use printplay::render::{self, BuildOptions};

mod common;

const PT: f64 = 72.0 / 25.4;

fn have_pdftotext() -> bool {
    let found = std::process::Command::new("pdftotext")
        .arg("-v")
        .output()
        .is_ok();
    if !found {
        eprintln!("skipped: pdftotext (poppler-utils) is not installed");
    }
    found
}

/// A word of a page and its box in millimetres from the page's top-left corner.
#[derive(Debug, Clone)]
struct Word {
    text: String,
    rect: Rect,
}

fn attr(tag: &str, name: &str) -> f64 {
    let key = format!(" {name}=\"");
    let at = tag.find(&key).unwrap() + key.len();
    tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
}

/// A page's words, as poppler places them.
struct Page {
    words: Vec<Word>,
}

/// The words of every page, as poppler places them.
fn page_words(pdf: &[u8]) -> Vec<Page> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .arg("-bbox-layout")
        .arg(&path)
        .arg("-")
        .output()
        .unwrap();
    assert!(out.status.success(), "pdftotext failed");
    let html = String::from_utf8(out.stdout).unwrap();
    html.split("<page ")
        .skip(1)
        .map(|page| {
            let words = page
                .split("<word ")
                .skip(1)
                .map(|w| {
                    let tag = format!(" {}", &w[..w.find('>').unwrap()]);
                    let tag = tag.as_str();
                    let text = &w[w.find('>').unwrap() + 1..w.find("</word>").unwrap()];
                    let (x1, y1) = (attr(tag, "xMin") / PT, attr(tag, "yMin") / PT);
                    let (x2, y2) = (attr(tag, "xMax") / PT, attr(tag, "yMax") / PT);
                    Word {
                        text: text.to_string(),
                        rect: Rect {
                            x: x1,
                            y: y1,
                            w: x2 - x1,
                            h: y2 - y1,
                        },
                    }
                })
                .collect();
            Page { words }
        })
        .collect()
}

/// How far two boxes overlap both ways (the smaller of the two), 0 when they do not.
fn overlap(a: Rect, b: Rect) -> f64 {
    let x = a.right().min(b.right()) - a.x.max(b.x);
    let y = a.bottom().min(b.bottom()) - a.y.max(b.y);
    x.min(y).max(0.0)
}

/// Poppler's boxes run from the font's ascent to its descent, so the lines of one paragraph
/// touch: boxes overlapping by less than this are not counted.
const SLACK: f64 = 0.35;

/// The overlaps of one page: word pairs, and words over cards they do not belong to.
fn page_faults(what: &str, page: &Page, cards: Option<&CardPage>) -> Vec<String> {
    let words = &page.words;
    let mut faults = Vec::new();
    for (i, a) in words.iter().enumerate() {
        for b in &words[i + 1..] {
            if overlap(a.rect, b.rect) > SLACK {
                faults.push(format!(
                    "{what}: `{}` {:?} over `{}` {:?}",
                    a.text, a.rect, b.text, b.rect
                ));
            }
        }
    }
    let Some(page) = cards else {
        return faults;
    };
    let bleed = page.grid.bleed;
    for w in words {
        let centre = (w.rect.x + w.rect.w / 2.0, w.rect.y + w.rect.h / 2.0);
        let home = page.placed.iter().position(|p| {
            let b = p.trim.grow(bleed);
            centre.0 >= b.x && centre.0 <= b.right() && centre.1 >= b.y && centre.1 <= b.bottom()
        });
        for (n, p) in page.placed.iter().enumerate() {
            let (area, whose) = match home {
                Some(h) if h == n => continue,
                Some(_) => (p.trim, "trim"),
                None => (p.trim.grow(bleed), "bleed"),
            };
            if overlap(w.rect, area) > 0.05 {
                faults.push(format!(
                    "{what}: `{}` {:?} over the {whose} of {} {:?}",
                    w.text, w.rect, p.card, area
                ));
            }
        }
    }
    faults
}

/// Ink darker than this (0 black, 255 white) counts as printed.
const INK: u8 = 250;

/// The pages that print anything nearer the edge than [`MARK_EDGE`]: each page drawn at one
/// pixel a millimetre, greyscale; the outer 2 mm must be blank (the third holds the
/// antialiased end of crop marks that stop at 3 mm).
fn margin_faults(what: &str, pdf: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pdf");
    std::fs::write(&path, pdf).unwrap();
    let status = std::process::Command::new("pdftoppm")
        .args(["-r", "25.4", "-gray"])
        .arg(&path)
        .arg(dir.path().join("p"))
        .status()
        .unwrap();
    assert!(status.success(), "pdftoppm failed");
    let mut files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgm"))
        .collect();
    files.sort();
    let blank = (MARK_EDGE - 1.0) as usize;
    let mut faults = Vec::new();
    for (n, file) in files.iter().enumerate() {
        let (magic, w, h, pixels) = common::read_pnm(&std::fs::read(file).unwrap());
        assert_eq!(magic, "P5", "{what}: a greyscale page");
        assert_eq!(pixels.len(), w * h, "{what}: a PGM of {w} x {h}");
        let inked: Vec<(usize, usize)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| x < blank || y < blank || x >= w - blank || y >= h - blank)
            .filter(|&(x, y)| pixels[y * w + x] < INK)
            .collect();
        if let Some(&(x, y)) = inked.first() {
            faults.push(format!(
                "{what} page {}: {} mm² printed within {MARK_EDGE} mm of the edge, the first at ({x}, {y}) mm",
                n + 1,
                inked.len()
            ));
        }
    }
    faults
}

fn check_pdf(what: &str, pdf: &[u8], plan: Option<&[CardPage]>) -> Vec<String> {
    let mut faults = margin_faults(what, pdf);
    let pages = page_words(pdf);
    if let Some(plan) = plan {
        assert_eq!(
            pages.len(),
            plan.len(),
            "{what}: one page per planned sheet"
        );
    }
    faults.extend(pages.iter().enumerate().flat_map(|(i, page)| {
        page_faults(&format!("{what} page {}", i + 1), page, plan.map(|p| &p[i]))
    }));
    faults
}

#[test]
fn no_word_overlaps_another_or_a_card_it_does_not_belong_to() {
    if !have_pdftotext() {
        return;
    }
    let mut faults = Vec::new();
    for slug in [
        "aether",
        "capek-golems",
        "imperial-settlers-aztecs",
        "the-search",
    ] {
        let game = load_game(Path::new("data"), slug).unwrap();
        let faces = render::draw_faces(&game, &BuildOptions::default()).unwrap();
        for paper in [Paper::A4, Paper::Letter] {
            for duplex in [Duplex::LongEdge, Duplex::ShortEdge, Duplex::Off] {
                for pack in [false, true] {
                    let o = BuildOptions {
                        paper,
                        duplex,
                        pack,
                        marks: Marks::Both,
                        ..BuildOptions::default()
                    };
                    if faces.decks.iter().all(|d| d.cards.is_empty()) {
                        continue;
                    }
                    let plan = render::card_plan(&faces, &o).unwrap();
                    let pdf = render::cards_pdf(&game, &faces, &o).unwrap();
                    let what = format!("{slug} cards {paper:?} {duplex:?} pack {pack}");
                    faults.extend(check_pdf(&what, &pdf, Some(&plan)));
                }
            }
            let o = BuildOptions {
                paper,
                ..BuildOptions::default()
            };
            if let Some(pdf) = render::tokens_pdf(&game, &faces, &o).unwrap() {
                faults.extend(check_pdf(&format!("{slug} tokens {paper:?}"), &pdf, None));
            }
            for big in [None, Some(Paper::A3)] {
                if let Some(pdf) =
                    render::sheets::boards::pages::board_pdf(&game, paper, big).unwrap()
                {
                    let what = format!("{slug} board {paper:?} {big:?}");
                    faults.extend(check_pdf(&what, &pdf, None));
                }
            }
        }
    }
    for paper in [Paper::A4, Paper::Letter] {
        for duplex in [Duplex::LongEdge, Duplex::ShortEdge, Duplex::Off] {
            let pdf = render::sheets::calibrate::calibration_pdf(paper, duplex).unwrap();
            faults.extend(check_pdf(
                &format!("calibrate {paper:?} {duplex:?}"),
                &pdf,
                None,
            ));
        }
    }
    assert!(
        faults.is_empty(),
        "{} overlaps:\n{}",
        faults.len(),
        faults.join("\n")
    );
}
