//! `printplay diff` and `build --changed-since` / `--cards` on games in a git repository: a
//! test commits a game, edits two cards, and gets a changelog naming exactly those two with
//! their fields (text, Markdown and HTML, escaped, byte-identical on rerun), and a
//! `changed.pdf` of only those cards whose backs register with their fronts as in cards.pdf
//! (read back from the PDF's bleed clips); a bad revision, a folder holding no game or an
//! unknown card id is a usage error naming git's reason, why, or the nearest ids, from
//! `build` and `watch` alike, before anything is built.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::Fixture;
use common::pdf_read::{drawn, page_box, page_ids};
use lopdf::Document;
use printplay::diff::changed::reprinted;
use printplay::model::load_game;
use printplay::render::sheets::layout::Duplex;
use printplay::render::sheets::layout::Rect;
use printplay::render::{self, BuildOptions, Reprint};

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Tester",
            "-c",
            "user.email=tester@example.com",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A data folder under git holding `slug` as committed.
fn committed(fx: &Fixture) {
    git(fx.data(), &["init", "-q"]);
    git(fx.data(), &["add", "-A"]);
    git(fx.data(), &["commit", "-q", "-m", "as printed"]);
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 0.01
}

fn same(a: Rect, b: Rect) -> bool {
    close(a.x, b.x) && close(a.y, b.y) && close(a.w, b.w) && close(a.h, b.h)
}

/// Reads `changed.pdf` against the plan it was drawn from: the cover pages come first (a
/// whole sheet under duplex), every card's bleed is a clip of the PDF where the plan puts it,
/// and each back page holds the backs of its front page's cards, mirrored as the duplex
/// turns the sheet. Returns the copies of each card on the fronts.
fn check_registered(
    pdf: &[u8],
    game: &printplay::model::Game,
    o: &BuildOptions,
) -> BTreeMap<String, u32> {
    let faces = render::draw_faces(game, o).unwrap();
    let r = reprinted(game, &faces, o).unwrap();
    let doc = Document::load_mem(pdf).unwrap();
    let ids = page_ids(&doc);
    assert_eq!(ids.len(), r.cover_pages + r.plan.len(), "cover and sheets");
    assert_eq!(
        r.cover_pages % 2,
        0,
        "the cover fills whole sheets under duplex"
    );
    let mut fronts: BTreeMap<String, u32> = BTreeMap::new();
    for (n, pair) in r.plan.chunks(2).enumerate() {
        let (f, b) = (&pair[0], &pair[1]);
        assert!(!f.back && b.back, "a front page, then its backs");
        let bleed = f.grid.bleed;
        let (pw, ph) = f.grid.paper;
        // The PDF's clips are where the plan puts every bleed, front and back.
        for (page, at) in [(f, r.cover_pages + 2 * n), (b, r.cover_pages + 2 * n + 1)] {
            let clips = drawn(&doc, ids[at]).clips;
            let media = page_box(&doc, ids[at], b"MediaBox");
            assert!(close(media.w, pw) && close(media.h, ph));
            for p in &page.placed {
                let want = p.trim.grow(bleed);
                assert!(
                    clips.iter().any(|c| same(*c, want)),
                    "page {}: no bleed clip of {} at {want:?}",
                    at + 1,
                    p.card
                );
            }
        }
        for (pf, pb) in f.placed.iter().zip(&b.placed) {
            assert_eq!(pf.card, pb.card);
            *fronts.entry(pf.card.clone()).or_default() += 1;
            let (expect, turn) = match o.duplex {
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
            assert!(
                same(pb.trim, expect),
                "back of {} at {:?}, front at {:?}",
                pb.card,
                pb.trim,
                pf.trim
            );
            assert_eq!(pb.turn, turn);
        }
    }
    fronts
}

#[test]
fn two_edited_cards_are_the_changelog_and_the_two_card_changed_pdf_registered() {
    let fx = Fixture::with_games(&[]);
    assert_eq!(fx.run(&["new", "my-game"]).code, 0);
    committed(&fx);
    fx.edit(
        "my-game",
        "cards.csv",
        "Play this card to *take the lead*.",
        "Play this card to *lead*.",
    );
    fx.edit(
        "my-game",
        "cards.csv",
        "Worth **the most** in a [sun] round.",
        "\"Worth 5 < 6 & more, <script>\"",
    );

    let text = fx.run(&["diff", "my-game", "--since", "HEAD"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let changed: Vec<&str> = text
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("changed card"))
        .collect();
    assert_eq!(changed.len(), 2, "{}", text.stdout);
    assert!(changed[0].contains("sun-low") && changed[1].contains("sun-high"));
    assert!(
        text.stdout
            .contains("text: “Play this card to *take the lead*.” -> “Play this card to *lead*.”"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("2 changed, 0 added, 0 removed"));
    assert!(!text.stdout.contains("field `"), "only the text changed");
    // The same diff, the same bytes.
    assert_eq!(
        fx.run(&["diff", "my-game", "--since", "HEAD"]).stdout,
        text.stdout
    );

    let md = fx.run(&["diff", "my-game", "--since", "HEAD", "--format", "md"]);
    assert!(
        md.stdout.starts_with("# my-game: changes since HEAD"),
        "{}",
        md.stdout
    );
    assert!(
        md.stdout.contains("“Worth 5 \\< 6 \\& more, \\<script\\>”"),
        "{}",
        md.stdout
    );
    let html = fx.run(&["diff", "my-game", "--since", "HEAD", "--format", "html"]);
    assert!(
        html.stdout
            .contains("<ins>“Worth 5 &lt; 6 &amp; more, &lt;script&gt;”</ins>")
    );
    assert!(!html.stdout.contains("<script"), "nothing live");
    assert!(html.stdout.contains("Content-Security-Policy"));

    let out = tempfile::tempdir().unwrap();
    let built = fx.run(&[
        "build",
        "my-game",
        "--changed-since",
        "HEAD",
        "--only",
        "changed",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(built.code, 0, "{}{}", built.stdout, built.stderr);
    let dir = out.path().join("my-game");
    let written: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(written, ["changed.pdf"], "only changed.pdf");
    let pdf = std::fs::read(dir.join("changed.pdf")).unwrap();
    let again = fx.run(&[
        "build",
        "my-game",
        "--changed-since",
        "HEAD",
        "--only",
        "changed",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(again.code, 0);
    assert!(
        std::fs::read(dir.join("changed.pdf")).unwrap() == pdf,
        "the same changed.pdf, byte for byte"
    );
    let game = load_game(fx.data(), "my-game").unwrap();
    let o = BuildOptions {
        reprint: Some(Reprint::Since("HEAD".to_string())),
        ..BuildOptions::default()
    };
    let fronts = check_registered(&pdf, &game, &o);
    // Two designs, each as many times as the deck holds it: one sheet of four.
    assert_eq!(
        fronts,
        BTreeMap::from([("sun-high".to_string(), 2), ("sun-low".to_string(), 2)])
    );
    let faces = render::draw_faces(&game, &o).unwrap();
    let r = reprinted(&game, &faces, &o).unwrap();
    assert_eq!(r.plan.len(), 2, "one sheet: fronts and backs");
    assert!(
        r.lines
            .iter()
            .any(|l| l.starts_with("sun-low “Morning” (Main deck), changed (text): reprint 2 copies; replaces card sun-low on page 1 of cards.pdf built from HEAD")),
        "{:?}",
        r.lines
    );
}

#[test]
fn a_shipped_game_reprints_two_cards_short_edge_and_cards_picks_by_id() {
    let fx = Fixture::with_games(&["capek-golems"]);
    committed(&fx);
    // Two cards' journal lines, a field printed on their faces.
    fx.edit(
        "capek-golems",
        "components.toml",
        "held at a hair's width today.",
        "held at a hair's width again.",
    );
    fx.edit(
        "capek-golems",
        "components.toml",
        "A borrowed heart, still warm,",
        "A borrowed heart, still beating,",
    );
    let diff = fx.run(&["diff", "capek-golems", "--since", "HEAD"]);
    assert_eq!(diff.code, 0, "{}", diff.stderr);
    assert!(
        diff.stdout.contains("2 changed, 0 added, 0 removed"),
        "{}",
        diff.stdout
    );
    assert!(
        diff.stdout.contains("changed card parts-machining-1")
            && diff.stdout.contains("changed card organ-replacement-1")
            && diff.stdout.matches("    field `journal`: ").count() == 2,
        "{}",
        diff.stdout
    );

    let out = tempfile::tempdir().unwrap();
    let built = fx.run(&[
        "build",
        "capek-golems",
        "--changed-since",
        "HEAD",
        "--duplex",
        "short-edge",
        "--only",
        "changed",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(built.code, 0, "{}{}", built.stdout, built.stderr);
    let pdf = std::fs::read(out.path().join("capek-golems/changed.pdf")).unwrap();
    let game = load_game(fx.data(), "capek-golems").unwrap();
    let o = BuildOptions {
        duplex: Duplex::ShortEdge,
        reprint: Some(Reprint::Since("HEAD".to_string())),
        ..BuildOptions::default()
    };
    let fronts = check_registered(&pdf, &game, &o);
    assert_eq!(
        fronts,
        BTreeMap::from([
            ("organ-replacement-1".to_string(), 1),
            ("parts-machining-1".to_string(), 1)
        ])
    );

    // `--cards` without git: the named cards, every copy.
    let picked: Vec<String> = fronts.keys().cloned().collect();
    let built = fx.run(&[
        "build",
        "capek-golems",
        "--cards",
        &picked.join(","),
        "--only",
        "changed",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(built.code, 0, "{}{}", built.stdout, built.stderr);
    let pdf = std::fs::read(out.path().join("capek-golems/changed.pdf")).unwrap();
    let o = BuildOptions {
        reprint: Some(Reprint::Cards(picked.clone())),
        ..BuildOptions::default()
    };
    let by_id = check_registered(&pdf, &game, &o);
    assert_eq!(
        by_id.keys().collect::<Vec<_>>(),
        picked.iter().collect::<Vec<_>>()
    );
}

/// `printplay watch ARGS` on the fixture's data: its exit code when it stops by itself within
/// 60 s (`None` when it is still watching, and then it is stopped) and its stderr.
fn watch_exit(fx: &Fixture, args: &[&str]) -> (Option<i32>, String) {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(["--data", fx.data().to_str().unwrap(), "watch"])
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let mut stderr = String::new();
    if code.is_some() {
        let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
    }
    (code, stderr)
}

#[test]
fn a_bad_revision_or_card_id_is_a_usage_error_that_says_why() {
    let fx = Fixture::with_games(&[]);
    assert_eq!(fx.run(&["new", "my-game"]).code, 0);
    committed(&fx);
    let out = tempfile::tempdir().unwrap();
    let out = out.path().to_str().unwrap();
    let bad = fx.run(&["diff", "my-game", "--since", "no-such-tag"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("no-such-tag") && bad.stderr.contains("fatal:"),
        "{}",
        bad.stderr
    );
    let bad = fx.run(&[
        "build",
        "my-game",
        "--changed-since",
        "no-such-tag",
        "--out",
        out,
    ]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("fatal:"), "{}", bad.stderr);
    // `watch` refuses it up front too, as `build` does (not as a failing round).
    let bad = watch_exit(
        &fx,
        &["my-game", "--changed-since", "no-such-tag", "--out", out],
    );
    assert_eq!(bad.0, Some(2), "{}", bad.1);
    assert!(
        bad.1.contains("fatal:") && bad.1.contains("no-such-tag"),
        "{}",
        bad.1
    );
    // A folder that holds no game is refused up front, by both.
    let empty = tempfile::tempdir().unwrap();
    let empty = empty.path().to_str().unwrap();
    let bad = fx.run(&["build", "my-game", "--changed-since", empty, "--out", out]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("does not load"), "{}", bad.stderr);
    assert!(!Path::new(out).join("my-game").exists(), "nothing written");
    let bad = watch_exit(&fx, &["my-game", "--changed-since", empty, "--out", out]);
    assert_eq!(bad.0, Some(2), "{}", bad.1);
    let bad = fx.run(&[
        "build",
        "my-game",
        "--cards",
        "sun-lo,star-low",
        "--out",
        out,
    ]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("`sun-lo` (nearest: `sun-low`"),
        "{}",
        bad.stderr
    );
    assert!(
        !bad.stderr.contains("`star-low` ("),
        "a known id is not named"
    );
    assert!(!Path::new(out).join("my-game").exists(), "nothing written");
    let bad = fx.run(&["build", "my-game", "--only", "changed", "--out", out]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--changed-since"), "{}", bad.stderr);
    // Nothing changed: changed.pdf is the cover alone, saying so.
    let none = fx.run(&[
        "build",
        "my-game",
        "--changed-since",
        "HEAD",
        "--only",
        "changed",
        "--out",
        out,
    ]);
    assert_eq!(none.code, 0, "{}", none.stderr);
    let game = load_game(fx.data(), "my-game").unwrap();
    let o = BuildOptions {
        reprint: Some(Reprint::Since("HEAD".to_string())),
        ..BuildOptions::default()
    };
    let faces = render::draw_faces(&game, &o).unwrap();
    let r = reprinted(&game, &faces, &o).unwrap();
    assert!(r.plan.is_empty() && r.lines.iter().any(|l| l.contains("nothing to reprint")));
}

#[test]
fn the_earlier_version_may_be_another_folder() {
    let fx = Fixture::with_games(&[]);
    assert_eq!(fx.run(&["new", "my-game"]).code, 0);
    let old = tempfile::tempdir().unwrap();
    common::copy_dir(&fx.data().join("my-game"), &old.path().join("last-week"));
    fx.edit(
        "my-game",
        "cards.csv",
        "star-low,Spark,2",
        "star-low,Spark,3",
    );
    fx.edit(
        "my-game",
        "cards.csv",
        "star-high,Comet,2",
        "star-high,Comet,1",
    );
    let run = fx.run(&[
        "diff",
        "my-game",
        "--since",
        old.path().join("last-week").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("changed card star-low “Spark”: print 1 copy more"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("count: 2 -> 3") && run.stdout.contains("count: 2 -> 1"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("print 1 copy more") && run.stdout.contains("take out 1 copy"),
        "{}",
        run.stdout
    );
}

/// Under `--duplex fold` the cover is one page and each page holds the cards' fronts and, mirrored
/// across the page's middle, their backs; under `--duplex off` every front sheet comes first,
/// then every back sheet, mirrored to glue behind them.
#[test]
fn fold_and_one_sided_reprints_place_backs_as_cards_pdf_does() {
    let fx = Fixture::with_games(&[]);
    assert_eq!(fx.run(&["new", "my-game"]).code, 0);
    let game = load_game(fx.data(), "my-game").unwrap();
    let picked = vec!["sun-low".to_string(), "star-high".to_string()];
    for duplex in [Duplex::Fold, Duplex::Off] {
        let o = BuildOptions {
            duplex,
            reprint: Some(Reprint::Cards(picked.clone())),
            ..BuildOptions::default()
        };
        let faces = render::draw_faces(&game, &o).unwrap();
        let r = reprinted(&game, &faces, &o).unwrap();
        assert_eq!(r.cover_pages, 1, "{duplex:?}: no blank page without duplex");
        assert_eq!(r.pages.len(), r.cover_pages + r.plan.len());
        let mut fronts = 0;
        let pairs: Vec<(
            &printplay::render::sheets::Placed,
            &printplay::render::sheets::Placed,
            f64,
        )> = match duplex {
            Duplex::Fold => r
                .plan
                .iter()
                .flat_map(|page| {
                    let pw = page.grid.paper.0;
                    let (f, b): (Vec<_>, Vec<_>) = page.placed.iter().partition(|p| !p.back);
                    f.into_iter().zip(b).map(move |(f, b)| (f, b, pw))
                })
                .collect(),
            _ => {
                let half = r.plan.len() / 2;
                assert!(r.plan[..half].iter().all(|p| !p.back));
                assert!(r.plan[half..].iter().all(|p| p.back));
                r.plan[..half]
                    .iter()
                    .zip(&r.plan[half..])
                    .flat_map(|(f, b)| {
                        let pw = f.grid.paper.0;
                        f.placed.iter().zip(&b.placed).map(move |(f, b)| (f, b, pw))
                    })
                    .collect()
            }
        };
        for (f, b, pw) in pairs {
            assert_eq!(f.card, b.card);
            assert!(!f.back && b.back);
            let mirrored = Rect {
                x: pw - f.trim.right(),
                ..f.trim
            };
            assert!(
                same(b.trim, mirrored),
                "{duplex:?}: back of {} at {:?}",
                b.card,
                b.trim
            );
            fronts += 1;
        }
        assert_eq!(fronts, 4, "{duplex:?}: two designs, two copies each");
    }
}

/// A template edit changes the printed face of every card drawn with it; an edited image
/// changes every design that shows it, though no value of the data changed.
#[test]
fn a_template_or_art_edit_reprints_every_card_it_draws() {
    let fx = Fixture::with_games(&[]);
    assert_eq!(fx.run(&["new", "my-game"]).code, 0);
    let old = tempfile::tempdir().unwrap();
    let since = old.path().join("sent");
    common::copy_dir(&fx.data().join("my-game"), &since);
    let template = fx.file("my-game", "templates/card.svg");
    let mut text = std::fs::read_to_string(&template).unwrap();
    text.push_str("<rect x=\"2\" y=\"2\" width=\"3\" height=\"3\" fill=\"#000000\"/>\n");
    std::fs::write(&template, text).unwrap();
    let run = fx.run(&["diff", "my-game", "--since", since.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout.matches("    template `card` edited").count(),
        6,
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("reprint 6 card designs (12 cards)"),
        "{}",
        run.stdout
    );

    common::copy_dir(&fx.data().join("my-game"), &since);
    fx.edit(
        "my-game",
        "art/emblem.svg",
        "</svg>",
        "<circle r=\"1\"/></svg>",
    );
    let run = fx.run(&["diff", "my-game", "--since", since.to_str().unwrap()]);
    assert_eq!(
        run.stdout
            .matches("    art `art/emblem.svg` edited")
            .count(),
        7,
        "six cards and the marker: {}",
        run.stdout
    );
    assert!(!run.stdout.contains("template `card`"), "{}", run.stdout);
    // changed.pdf holds the cards; its cover sends the marker to tokens.pdf.
    let game = load_game(fx.data(), "my-game").unwrap();
    let o = BuildOptions {
        reprint: Some(Reprint::Since(since.to_str().unwrap().to_string())),
        ..BuildOptions::default()
    };
    let faces = render::draw_faces(&game, &o).unwrap();
    let r = reprinted(&game, &faces, &o).unwrap();
    assert_eq!(r.copies.values().sum::<u32>(), 12);
    assert!(
        r.lines.iter().any(|l| l
            == "piece marker “Marker”, changed: reprint 8 copies (not in this file: print it from tokens.pdf)"),
        "{:?}",
        r.lines
    );
}
