//! Proofs: the colour-blind check (two suit colours that collapse under deuteranopia are
//! warned of at the symbol, by `check` and `build` alike), `proof.pdf` (every face with its id,
//! boards, the simulation), and `--guides` (the trim and safe zone over the faces of the home
//! sheets, the boards and the proof, off by default and never on the print-shop files).

use std::path::Path;
use std::process::Command;

mod common;

use common::{Fixture, Run, page_rgb};
use printplay::render::faces::vision::{Vision, delta_e};

/// The warnings a run printed, each as `file:line:col: message` (its wrapped lines joined).
fn warnings(run: &Run) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for l in run.stderr.lines().map(str::trim) {
        if let Some(w) = l.strip_prefix("⚠ warning: ") {
            out.push(w.to_string());
            open = true;
        } else if let (true, Some(more), Some(last)) = (open, l.strip_prefix("│ "), out.last_mut())
        {
            last.push(' ');
            last.push_str(more);
        } else {
            open = false;
        }
    }
    out
}

#[test]
fn two_suit_colours_that_collapse_under_deuteranopia_are_warned_at_the_symbol() {
    let f = Fixture::with_games(&["capek-golems"]);
    let clean = f.run(&["check", "capek-golems"]);
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    assert!(
        !clean.stderr.contains("steam-engine-dynamics"),
        "{}",
        clean.stderr
    );
    // Steam Engine Dynamics in the olive a deuteranope sees Organ Replacement's red as: far
    // apart to most eyes, alike to a deuteranope's, though their marks (drop, wave) differ.
    f.edit(
        "capek-golems",
        "components.toml",
        "colour = \"#3f8f4a\"",
        "colour = \"#7a6f36\"",
    );
    let line = f.edit(
        "capek-golems",
        "components.toml",
        "id = \"steam-engine-dynamics\"",
        "id = \"steam-engine-dynamics\"",
    );
    let check = f.run(&["check", "capek-golems"]);
    assert_eq!(check.code, 0, "a warning does not stop: {}", check.stderr);
    let found = warnings(&check);
    let pair: Vec<&String> = found
        .iter()
        .filter(|w| w.contains("`organ-replacement`") && w.contains("`steam-engine-dynamics`"))
        .collect();
    let deut: Vec<&&String> = pair.iter().filter(|w| w.contains("deuteranopia")).collect();
    assert_eq!(deut.len(), 1, "once per pair and deficiency: {found:#?}");
    let w = deut[0];
    assert!(w.contains(&format!("components.toml:{line}:")), "{w}");
    assert!(w.contains("group `inquiry`") && w.contains("ΔE"), "{w}");
    let de: f64 = w
        .split("ΔE ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{w}"));
    assert!(de < printplay::check::APART_OTHER_MARK, "{w}");
    // Each deficiency at most once for the pair.
    for v in ["deuteranopia", "protanopia", "tritanopia"] {
        assert!(
            pair.iter().filter(|w| w.contains(v)).count() <= 1,
            "{pair:#?}"
        );
    }
    // The build warns alike.
    let out = f.data().join("out");
    let build = f.run(&[
        "build",
        "capek-golems",
        "--only",
        "index",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    assert_eq!(warnings(&build), found, "check agrees with build");
}

/// Pixels of a PDF page (at 72 dpi) of the guides' trim magenta, or a blend of it.
fn magenta_pixels(pdf: &Path, page: usize) -> usize {
    let (_, _, px) = page_rgb(pdf, page, 72);
    px.chunks(3)
        .filter(|p| {
            let (r, g, b) = (i32::from(p[0]), i32::from(p[1]), i32::from(p[2]));
            r - g > 80 && b - g > 40
        })
        .count()
}

/// The pixels of a PDF page at 50 dpi below its label row (the top 25 mm), with the
/// page's width in pixels.
fn page_pixels(pdf: &Path, page: usize) -> (usize, Vec<[u8; 3]>) {
    let (w, _, px) = page_rgb(pdf, page, 50);
    let top = (25.0 / 25.4 * 50.0) as usize;
    let px = px
        .chunks_exact(3)
        .skip(top * w)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (w, px)
}

fn pdf_text(pdf: &Path) -> String {
    let out = Command::new("pdftotext")
        .args(["-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn pages(pdf: &Path) -> usize {
    let out = Command::new("pdfinfo").arg(pdf).output().expect("pdfinfo");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn the_proof_holds_every_face_and_guides_mark_only_the_proofing_outputs() {
    let f = Fixture::with_games(&["the-search"]);
    let plain = f.data().join("plain");
    let guided = f.data().join("guided");
    let build = |out: &Path, guides: bool, only: &str| {
        let mut args = vec![
            "build",
            "the-search",
            "--only",
            only,
            "--out",
            out.to_str().unwrap(),
        ];
        if guides {
            args.push("--guides");
        }
        let run = f.run(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
    };
    build(&plain, false, "cards,proof,shop");
    build(&guided, true, "cards,proof,shop");

    // The proof names every card and piece and deck by its id, and every board; then the
    // same faces as each of the three dichromacies sees them.
    let game = printplay::model::load_game(f.data(), "the-search").unwrap();
    let proof = plain.join("the-search/proof.pdf");
    let text = pdf_text(&proof);
    for deck in &game.components.decks {
        assert!(
            text.contains(deck.id.get_ref().as_str()),
            "{}",
            deck.id.get_ref()
        );
        for card in &deck.cards {
            assert!(
                text.contains(card.id.get_ref().as_str()),
                "{}",
                card.id.get_ref()
            );
        }
    }
    for p in game.components.pieces.iter().filter(|p| p.print) {
        assert!(text.contains(p.id.get_ref().as_str()), "{}", p.id.get_ref());
    }
    for b in &game.components.boards {
        assert!(text.contains(b.id.get_ref().as_str()), "{}", b.id.get_ref());
    }
    for v in ["deuteranopia", "protanopia", "tritanopia"] {
        assert!(text.contains(&format!("as seen with {v}")), "{v}");
    }
    // The same pages as printed and for each of the three, and one page of symbols.
    let n = pages(&proof);
    assert!(n >= 4 && (n - 1).is_multiple_of(4), "{n} pages");

    // Each simulated page shows the printed page's faces, in their cells, as the vision sees
    // them: pixel for pixel (below the label row), the first deuteranopia page is the first
    // printed page through the simulation, and it is not the printed page itself.
    let per_vision = (n - 1) / 4;
    let (w, printed) = page_pixels(&proof, 1);
    let (_, seen) = page_pixels(&proof, per_vision + 2);
    assert_eq!(printed.len(), seen.len());
    let colour = |c: [u8; 3]| palette::Srgb::new(c[0], c[1], c[2]).into_format::<f64>();
    let h = printed.len() / w;
    let (mut alike, mut changed) = (0, 0);
    for y in 0..h {
        for x in 0..w {
            let s = colour(seen[y * w + x]);
            // Edges are drawn as pixels on one page and as shapes on the other: a pixel may
            // match its printed neighbour.
            let near = (y.saturating_sub(1)..(y + 2).min(h))
                .flat_map(|v| (x.saturating_sub(1)..(x + 2).min(w)).map(move |u| v * w + u));
            if near
                .map(|i| delta_e(Vision::Deuteranopia.simulate(colour(printed[i])), s))
                .any(|d| d < 5.0)
            {
                alike += 1;
            }
            if delta_e(colour(printed[y * w + x]), s) > 5.0 {
                changed += 1;
            }
        }
    }
    let counted = w * h;
    assert!(
        alike * 100 >= counted * 96,
        "{alike} of {counted} pixels of the deuteranopia page are the printed ones simulated"
    );
    assert!(
        changed > 500,
        "only {changed} pixels differ from the printed page"
    );

    // Guides are off by default: no trim magenta anywhere; asked for, on the home sheets and
    // the proof, never on the print-shop files.
    assert_eq!(magenta_pixels(&plain.join("the-search/cards.pdf"), 1), 0);
    assert_eq!(magenta_pixels(&proof, 1), 0);
    assert!(magenta_pixels(&guided.join("the-search/cards.pdf"), 1) > 20);
    assert!(magenta_pixels(&guided.join("the-search/proof.pdf"), 1) > 20);
    let shop = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<_> = walk(&dir.join("the-search/shop"))
            .into_iter()
            .map(|p| {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                (rel, std::fs::read(&p).unwrap())
            })
            .collect();
        files.sort();
        files
    };
    let (a, b) = (shop(&plain), shop(&guided));
    assert!(!a.is_empty());
    assert!(
        a == b,
        "the print-shop files are the same with or without --guides"
    );

    // Same input, same output.
    let again = f.data().join("again");
    build(&again, true, "proof");
    assert!(
        std::fs::read(guided.join("the-search/proof.pdf")).unwrap()
            == std::fs::read(again.join("the-search/proof.pdf")).unwrap(),
        "proof.pdf differs on rerun"
    );
}

/// A board has a trim too: with `--guides`, every page of `board.pdf` (the scaffold's hex
/// board and its player mat, each on a page of its own) shows the trim magenta; without,
/// none does.
#[test]
fn guides_mark_every_board_page() {
    let f = Fixture::with_games(&[]);
    assert_eq!(f.run(&["new", "my-game"]).code, 0);
    let build = |out: &str, guides: bool| -> std::path::PathBuf {
        let out = f.data().join(out);
        let mut args = vec!["build", "my-game", "--only", "board"];
        args.extend(["--out", out.to_str().unwrap()]);
        if guides {
            args.push("--guides");
        }
        let run = f.run(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        out.join("my-game/board.pdf")
    };
    let (plain, guided) = (build("plain", false), build("guided", true));
    let n = pages(&plain);
    assert_eq!(n, 2, "one page a board");
    assert_eq!(pages(&guided), n);
    for page in 1..=n {
        assert_eq!(magenta_pixels(&plain, page), 0, "page {page}");
        assert!(magenta_pixels(&guided, page) > 100, "page {page}");
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// A build writes its PDFs side by side on rayon's pool, and a proof holds three pictures a
/// face. krilla's own `rayon` feature encoded each picture on that pool and, waiting for one,
/// ran the next queued picture on top of the waiting one's stack: a 1,000-card game's full
/// build overflowed the stack and aborted. Four PDFs of 1,500 distinct pictures each are
/// written at once, as the build's stages do, and every one is whole.
#[test]
fn pdfs_of_many_pictures_written_at_once_do_not_overflow_the_stack() {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    use printplay::render::faces::fonts::builtin;
    use printplay::render::formats::pdf::{PageSpec, write_pdf};
    use printplay::render::formats::png::encode;
    use rayon::prelude::*;
    use resvg::tiny_skia::{Color, Pixmap};
    let fonts = builtin();
    let pdfs: Vec<Vec<u8>> = (0..4u8)
        .into_par_iter()
        .map(|doc| {
            let body: String = (0..1500u32)
                .map(|i| {
                    let mut pixels = Pixmap::new(2, 2).unwrap();
                    let [a, b, ..] = i.to_le_bytes();
                    pixels.fill(Color::from_rgba8(a, b, doc, 255));
                    let png = encode(&pixels).unwrap();
                    let (x, y) = (f64::from(i % 40) * 5.0, f64::from(i / 40) * 5.0);
                    format!(
                        r#"<image x="{x}" y="{y}" width="4" height="4" href="data:image/png;base64,{}"/>"#,
                        STANDARD.encode(png)
                    )
                })
                .collect();
            write_pdf("pictures", &[PageSpec::new((210.0, 297.0), body)], &fonts).unwrap()
        })
        .collect();
    for pdf in pdfs {
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let pictures = doc
            .objects
            .values()
            .filter_map(|o| o.as_stream().ok())
            .filter(|s| s.dict.get(b"Subtype").and_then(|t| t.as_name()).ok() == Some(b"Image"))
            .count();
        assert_eq!(pictures, 1500);
    }
}
