//! The printed rulebooks (`rules --pdf`) of every shipped game in every language, read back
//! as a reader's tools read them: poppler (pdfinfo, pdftotext) and qpdf. Sizes, tagging,
//! the booklet's printer's order, the outline and links, no heading at a page's foot and no
//! question apart from its answer in the text as extracted, and the same bytes on a rerun.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use printplay::model::{Game, load_game};
use printplay::rules::Assets;
use printplay::rules::pdf::{Book, Paper, Role, booklet, file_name};

const SHIPPED: [&str; 4] = [
    "aether",
    "capek-golems",
    "the-search",
    "imperial-settlers-aztecs",
];

/// One language's rulebook: its PDFs and what the layout says of their pages.
struct Written {
    slug: String,
    lang: String,
    dir: PathBuf,
    /// Pages of the A4 and the A5 layout.
    a4_pages: usize,
    a5_pages: usize,
    /// Per A4 page: the text of its headings, and of its last unit.
    a4_headings: Vec<Vec<String>>,
    /// Question groups: their lines, in order.
    questions: Vec<Vec<String>>,
    sections: Vec<String>,
}

fn written() -> &'static (tempfile::TempDir, Vec<Written>) {
    static ALL: OnceLock<(tempfile::TempDir, Vec<Written>)> = OnceLock::new();
    ALL.get_or_init(|| {
        let out = tempfile::tempdir().unwrap();
        let assets = Assets::load_default().unwrap();
        let mut all = Vec::new();
        for slug in SHIPPED {
            let game: Game = load_game(Path::new("data"), slug).unwrap();
            let dir = out.path().join(slug);
            std::fs::create_dir_all(&dir).unwrap();
            let langs = printplay::rules::languages(&game);
            printplay::rules::pdf::write(&game, &langs, &assets, &dir)
                .unwrap_or_else(|p| panic!("{slug}: {p:#?}"));
            for lang in langs {
                let mut book = Book::new(&game, &lang, &assets).unwrap();
                let a4 = book.lay_out(Paper::A4).unwrap();
                let a5 = book.lay_out(Paper::A5).unwrap();
                let a4_headings = a4
                    .pages
                    .iter()
                    .map(|p| {
                        p.placed
                            .iter()
                            .filter(|pl| !pl.repeat)
                            .map(|pl| &a4.units[pl.unit])
                            .filter(|u| u.role.as_ref().is_some_and(Role::is_heading))
                            .map(|u| u.text())
                            .collect()
                    })
                    .collect();
                let mut groups: BTreeMap<usize, Vec<String>> = BTreeMap::new();
                for u in &a4.units {
                    if let Some(g) = u.group {
                        groups.entry(g).or_default().push(u.text());
                    }
                }
                all.push(Written {
                    slug: slug.to_string(),
                    lang: lang.clone(),
                    dir: dir.clone(),
                    a4_pages: a4.pages.len(),
                    a5_pages: a5.pages.len(),
                    a4_headings,
                    questions: groups.into_values().collect(),
                    sections: a4
                        .sections()
                        .iter()
                        .filter(|s| !s.is_empty())
                        .cloned()
                        .collect(),
                });
            }
        }
        (out, all)
    })
}

fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        out.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn path_of(w: &Written, kind: &str) -> String {
    w.dir.join(file_name(&w.lang, kind)).display().to_string()
}

/// The text of one page, its white space collapsed.
fn page_text(pdf: &str, page: usize, layout: bool) -> String {
    let p = page.to_string();
    let mut args = vec!["-f", &p, "-l", &p, "-enc", "UTF-8"];
    if layout {
        args.push("-layout");
    }
    args.extend([pdf, "-"]);
    tool("pdftotext", &args)
}

fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_rulebook_reads_back_at_its_size_tagged() {
    let (_, all) = written();
    let langs: Vec<String> = all
        .iter()
        .map(|w| format!("{}/{}", w.slug, w.lang))
        .collect();
    for must in ["aether/en", "aether/fi", "capek-golems/en", "the-search/en"] {
        assert!(langs.iter().any(|l| l == must), "{must} missing: {langs:?}");
    }
    for w in all {
        for (kind, size, pages) in [
            ("a4", "595.276 x 841.89 pts (A4)", w.a4_pages),
            ("letter", "612 x 792 pts (letter)", 0),
            (
                "booklet",
                "841.89 x 595.276 pts (A4)",
                booklet::padded(w.a5_pages) / 2,
            ),
        ] {
            let pdf = path_of(w, kind);
            let info = tool("pdfinfo", &[&pdf]);
            assert!(
                info.contains(&format!("Page size:       {size}")),
                "{pdf}: {info}"
            );
            assert!(info.contains("Tagged:          yes"), "{pdf}: {info}");
            let count: usize = info
                .lines()
                .find_map(|l| l.strip_prefix("Pages:"))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            if pages > 0 {
                assert_eq!(count, pages, "{pdf}");
            }
            assert!(count >= 2, "{pdf}: {count} pages");
            let check = tool("qpdf", &["--check", &pdf]);
            assert!(
                check.contains("No syntax or stream encoding errors"),
                "{pdf}: {check}"
            );
            // The faces are embedded, every one of them.
            let fonts = tool("pdffonts", &[&pdf]);
            let rows: Vec<&str> = fonts.lines().skip(2).collect();
            assert!(!rows.is_empty(), "{pdf}: no fonts");
            assert!(rows.iter().all(|r| r.contains(" yes ")), "{pdf}: {fonts}");
            assert!(fonts.contains("DejaVuSansCondensed"), "{pdf}: {fonts}");
        }
    }
}

/// Sheet 1's front holds the last page and page 1, its back pages 2 and N - 1, and so on:
/// the page numbers printed at the foot of each side, read back left to right.
#[test]
fn the_booklet_is_in_printers_order_and_a_multiple_of_four() {
    let (_, all) = written();
    for w in all {
        let pdf = path_of(w, "booklet");
        let n = booklet::padded(w.a5_pages);
        assert_eq!(n % 4, 0);
        let order = booklet::order(w.a5_pages);
        assert_eq!(order.len(), n / 2);
        assert_eq!(order[0], [n - 1, 0], "sheet 1's front: pages {n} and 1");
        for (side, [l, r]) in order.iter().enumerate() {
            let text = page_text(&pdf, side + 1, true);
            let foot = text
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            let numbers: Vec<usize> = foot
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            let expected: Vec<usize> = [l, r]
                .iter()
                .filter(|&&&p| p < w.a5_pages)
                .map(|&&p| p + 1)
                .collect();
            assert_eq!(numbers, expected, "{pdf} side {}: `{foot}`", side + 1);
        }
        // The blank pages that pad it hold nothing: the last page is sheet 1's front left.
        let left = tool(
            "pdftotext",
            &[
                "-f", "1", "-l", "1", "-r", "72", "-x", "0", "-y", "0", "-W", "420", "-H", "595",
                &pdf, "-",
            ],
        );
        assert_eq!(left.trim().is_empty(), n > w.a5_pages, "{pdf}: `{left}`");
    }
}

#[test]
fn the_outline_lists_the_sections_and_the_links_work() {
    let (_, all) = written();
    for w in all {
        let pdf = path_of(w, "a4");
        let json = tool("qpdf", &["--json", "--json-key=outlines", &pdf]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let outlines = v["outlines"].as_array().expect("an outline");
        let mut titles = Vec::new();
        fn walk(nodes: &[serde_json::Value], titles: &mut Vec<String>) {
            for n in nodes {
                titles.push(n["title"].as_str().unwrap_or("").to_string());
                if let Some(k) = n["kids"].as_array() {
                    walk(k, titles);
                }
            }
        }
        walk(outlines, &mut titles);
        for s in &w.sections {
            assert!(
                titles.contains(s),
                "{pdf}: `{s}` not in the outline {titles:?}"
            );
        }
        // Every outline entry and internal link goes to a page of the document.
        for n in outlines {
            let dest = n["dest"].as_array().expect("a destination");
            assert!(
                dest[0].as_str().is_some_and(|r| r.ends_with(" R")),
                "{dest:?}"
            );
        }
        let qdf = w.dir.join(format!("{}.qdf", w.lang));
        tool(
            "qpdf",
            &[
                "--qdf",
                "--object-streams=disable",
                &pdf,
                &qdf.display().to_string(),
            ],
        );
        let text = String::from_utf8_lossy(&std::fs::read(&qdf).unwrap()).into_owned();
        // Tagged: the document's structure, in its language.
        for kind in [
            "/S /H1",
            "/S /H2",
            "/S /P",
            "/S /L",
            "/S /LI",
            "/S /Table",
            "/S /TH",
            "/S /TD",
            "/S /Link",
            "/S /TOC",
        ] {
            assert!(text.contains(kind), "{pdf}: no `{kind}` in the structure");
        }
        assert!(
            text.contains(&format!("/Lang ({})", w.lang)),
            "{pdf}: no /Lang"
        );
        // A figure carries its alt text.
        assert_eq!(
            text.matches("/S /Figure").count(),
            text.matches("/Alt").count(),
            "{pdf}"
        );
        let links = text.matches("/Subtype /Link").count();
        let internal = text.matches("/Dest ").count();
        // The contents link each section, at least, to a place in the book.
        assert!(links > w.sections.len(), "{pdf}: {links} links");
        assert!(
            internal > w.sections.len(),
            "{pdf}: {internal} internal links"
        );
    }
}

/// The extracted text agrees with the layout: a page's last line is never a heading, and a
/// question's lines are all on the page of its first.
#[test]
fn no_heading_at_a_page_foot_and_no_question_apart_from_its_answer() {
    let (_, all) = written();
    for w in all {
        let pdf = path_of(w, "a4");
        let texts: Vec<String> = (1..=w.a4_pages)
            .map(|p| page_text(&pdf, p, false))
            .collect();
        for (p, text) in texts.iter().enumerate().take(w.a4_pages - 1) {
            let body: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && l.parse::<usize>().is_err())
                .collect();
            let last = body.last().copied().unwrap_or("");
            for h in &w.a4_headings[p] {
                assert_ne!(
                    squeeze(last),
                    squeeze(h),
                    "{pdf}: page {} ends with a heading",
                    p + 1
                );
            }
        }
        let squeezed: Vec<String> = texts.iter().map(|t| squeeze(t)).collect();
        for group in &w.questions {
            assert!(
                squeezed
                    .iter()
                    .any(|t| group.iter().all(|line| t.contains(line.as_str()))),
                "{pdf}: no page holds the question `{}` with all of its answer",
                group[0]
            );
        }
    }
}

#[test]
fn same_input_same_bytes() {
    let (_, all) = written();
    let again = tempfile::tempdir().unwrap();
    let assets = Assets::load_default().unwrap();
    let game = load_game(Path::new("data"), "aether").unwrap();
    let langs = printplay::rules::languages(&game);
    let paths = printplay::rules::pdf::write(&game, &langs, &assets, again.path()).unwrap();
    assert_eq!(paths.len(), 3 * langs.len());
    for w in all.iter().filter(|w| w.slug == "aether") {
        for kind in ["a4", "letter", "booklet"] {
            let name = file_name(&w.lang, kind);
            let first = std::fs::read(w.dir.join(&name)).unwrap();
            let second = std::fs::read(again.path().join(&name)).unwrap();
            assert!(first == second, "{name} differs on a rerun");
            // No date in it.
            let text = String::from_utf8_lossy(&first);
            assert!(
                !text.contains("CreationDate") && !text.contains("ModDate"),
                "{name}"
            );
        }
    }
}

/// A rules text that would print past the page bound is refused by `check` at its rules
/// file, so that `build` never meets it; laying it out stops at the bound.
#[test]
fn a_rulebook_past_the_page_bound_is_a_check_problem_at_its_file() {
    let fixture = common::Fixture::with_games(&["capek-golems"]);
    let long: String = "- a\n".repeat(30_000);
    fixture.edit(
        "capek-golems",
        "rules.en.toml",
        "overview = \"\"\"\n",
        &format!("overview = \"\"\"\n{long}\n"),
    );
    let game = load_game(fixture.data(), "capek-golems").unwrap();
    let found = printplay::check::check_game(&game);
    let bound = printplay::limits::RULEBOOK_MAX_PAGES;
    let p = found
        .iter()
        .find(|p| p.message.contains(&format!("more than {bound} pages")))
        .unwrap_or_else(|| panic!("no page-bound problem in {found:#?}"));
    assert!(!p.is_warning());
    assert!(
        p.location().is_some_and(|l| l.contains("rules.en.toml")),
        "{:?}",
        p.location()
    );
}
