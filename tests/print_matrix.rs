//! The print options of `printplay build` against each other: paper x duplex x bleed x
//! marks x pack x shop (and its preset) x colour x `--only`. The whole product (4 x 3 x 5 x
//! 3 x 2 x 5 x 3 x 10 = 54,000 builds) is too many, so the rows are a pairwise covering
//! array: every value of every option meets every value of every other option in at least
//! one row (the generator's coverage is asserted). Each row is parsed by the command line's
//! own parser (in-process) and then either
//! - refused with the sentence naming the conflicting options (exit 2, checked through the
//!   binary for a sample), when it asks for something its other options leave out, or
//! - built in-process into a fresh folder, where it must write exactly the files the
//!   options promise (each stage's files for the tiny game `tests/fixtures/print-matrix`),
//!   every PDF opening in poppler (`pdfinfo`) and `qpdf --check`, its paper and bleed those
//!   asked for, every PNG, JSON, CSV and HTML readable.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use clap::Parser;
use printplay::cli::{Cli, Command, build_options};
use printplay::pipeline::{self, Outcome};
use rayon::prelude::*;

const GAME: &str = "print-matrix";

/// Every option and its values; `-` is "not given".
const FACTORS: [(&str, &[&str]); 8] = [
    ("paper", &["a4", "letter", "a3", "a2"]),
    ("duplex", &["long-edge", "short-edge", "off"]),
    ("bleed", &["-", "0", "2", "3", "10"]),
    ("marks", &["crop", "lines", "both"]),
    ("pack", &["no", "yes"]),
    (
        "shop",
        &[
            "-",
            "plain",
            "thegamecrafter",
            "makeplayingcards",
            "drivethrucards",
        ],
    ),
    ("color", &["-", "rgb", "cmyk"]),
    (
        "only",
        &[
            "-",
            "cards",
            "tokens",
            "board",
            "png",
            "tts",
            "shop",
            "rules",
            "index",
            "cards,shop",
        ],
    ),
];
const SHOP: usize = 5;
const COLOR: usize = 6;
const ONLY: usize = 7;

type Row = [usize; 8];

fn value(row: &Row, factor: usize) -> &'static str {
    FACTORS[factor].1[row[factor]]
}

/// Whether the row asks for the print-shop files: `--shop`, or `shop` in `--only`.
fn shop_asked(row: &Row) -> bool {
    value(row, SHOP) != "-" || value(row, ONLY).split(',').any(|s| s == "shop")
}

/// The options a row's command must refuse as conflicting, named as the error names them:
/// `--color` without the shop files asked for, or `--shop` with an `--only` leaving them out.
fn conflict(row: &Row) -> Option<[&'static str; 2]> {
    let only = value(row, ONLY);
    if value(row, COLOR) != "-" && !shop_asked(row) {
        return Some(["--color", "--shop"]);
    }
    if value(row, SHOP) != "-" && only != "-" && !only.split(',').any(|s| s == "shop") {
        return Some(["--shop", "--only"]);
    }
    None
}

/// The command line of a row.
fn args(row: &Row, data: &Path, out: &Path) -> Vec<String> {
    let mut a: Vec<String> = ["printplay", "--data"]
        .into_iter()
        .map(String::from)
        .collect();
    a.push(data.display().to_string());
    a.extend(["build", GAME, "--no-cache", "--out"].map(String::from));
    a.push(out.display().to_string());
    for (flag, factor) in [("--paper", 0), ("--duplex", 1), ("--marks", 3)] {
        a.extend([flag.to_string(), value(row, factor).to_string()]);
    }
    if value(row, 2) != "-" {
        a.extend(["--bleed".to_string(), value(row, 2).to_string()]);
    }
    if value(row, 4) == "yes" {
        a.push("--pack".into());
    }
    match value(row, SHOP) {
        "-" => {}
        "plain" => a.push("--shop".into()),
        preset => a.extend(["--shop", "--shop-preset", preset].map(String::from)),
    }
    if value(row, COLOR) != "-" {
        a.extend(["--color".to_string(), value(row, COLOR).to_string()]);
    }
    if value(row, ONLY) != "-" {
        a.extend(["--only".to_string(), value(row, ONLY).to_string()]);
    }
    a
}

/// The files each stage writes for the fixture game (it has no rules text: `rules` writes
/// nothing).
fn stage_files(stage: &str) -> &'static [&'static str] {
    match stage {
        "cards" => &["cards.pdf"],
        "tokens" => &["tokens.pdf"],
        "boxes" => &["boxes.pdf"],
        "board" => &["board.pdf"],
        "png" => &[
            "png/one.png",
            "png/two.png",
            "png/marker.png",
            "png/backs/deck-deck.png",
            "png/backs/marker.png",
            "png/backs/two.png",
            "png/boards/mat.png",
        ],
        "proof" => &["proof.pdf"],
        "tts" => &[
            "tts/print-matrix.json",
            "tts/deck.png",
            "tts/deck-back.png",
            "tts/deck-backs.png",
            "tts/board-mat.png",
            "tts/piece-marker.png",
            "tts/piece-marker-back.png",
        ],
        "shop" => &[
            "shop/deck.pdf",
            "shop/deck-back.pdf",
            "shop/manifest.csv",
            "shop/notes.txt",
            "shop/pieces/marker.pdf",
            "shop/png/deck-one.png",
            "shop/png/deck-two.png",
            "shop/png/deck-two-back.png",
            "shop/png/deck-back.png",
        ],
        "rules" => &[],
        "index" => &["index.html"],
        other => panic!("no stage {other}"),
    }
}

/// The files a (buildable) row promises.
fn promised(row: &Row) -> BTreeSet<String> {
    let all = [
        "cards", "tokens", "boxes", "board", "png", "tts", "shop", "proof", "rules", "index",
    ];
    let stages: Vec<&str> = match value(row, ONLY) {
        "-" => all.to_vec(),
        only => only.split(',').collect(),
    };
    stages
        .into_iter()
        .filter(|s| *s != "shop" || shop_asked(row))
        .flat_map(|s| stage_files(s).iter().map(|f| f.to_string()))
        .collect()
}

/// Every pair of (factor, value) two distinct factors can take.
fn all_pairs() -> BTreeSet<(usize, usize, usize, usize)> {
    let mut out = BTreeSet::new();
    for (f, (_, values)) in FACTORS.iter().enumerate() {
        for (g, (_, others)) in FACTORS.iter().enumerate().skip(f + 1) {
            for v in 0..values.len() {
                for w in 0..others.len() {
                    out.insert((f, v, g, w));
                }
            }
        }
    }
    out
}

fn pairs_of(row: &Row) -> impl Iterator<Item = (usize, usize, usize, usize)> + '_ {
    (0..row.len()).flat_map(move |f| (f + 1..row.len()).map(move |g| (f, row[f], g, row[g])))
}

/// Whether the factors set so far (`None` unset) can be completed to a buildable row: only
/// shop, colour and `--only` ever conflict.
fn completable(partial: &[Option<usize>; 8]) -> bool {
    let choices = |f: usize| match partial[f] {
        Some(v) => vec![v],
        None => (0..FACTORS[f].1.len()).collect(),
    };
    choices(SHOP).into_iter().any(|s| {
        choices(COLOR).into_iter().any(|c| {
            choices(ONLY).into_iter().any(|o| {
                let mut row = [0; 8];
                (row[SHOP], row[COLOR], row[ONLY]) = (s, c, o);
                conflict(&row).is_none()
            })
        })
    })
}

/// A pairwise covering array: buildable rows covering every pair some buildable row can
/// hold (greedy: each row starts from the first pair not yet covered and takes, factor by
/// factor, the value covering most new pairs), then one row for each pair no buildable row
/// holds, which must be refused.
fn covering_array() -> (Vec<Row>, Vec<Row>) {
    let mut uncovered: BTreeSet<_> = all_pairs()
        .into_iter()
        .filter(|&(f, v, g, w)| {
            let mut p = [None; 8];
            (p[f], p[g]) = (Some(v), Some(w));
            completable(&p)
        })
        .collect();
    let coverable = uncovered.clone();
    let mut rows = Vec::new();
    // The factors that can conflict are chosen first, so that a row never paints itself
    // into a conflict.
    let order = [ONLY, SHOP, COLOR, 0, 1, 2, 3, 4];
    while let Some(&(f, v, g, w)) = uncovered.iter().next() {
        let mut p = [None; 8];
        (p[f], p[g]) = (Some(v), Some(w));
        for &h in &order {
            if p[h].is_some() {
                continue;
            }
            let gain = |x: usize| {
                (0..8)
                    .filter_map(|k| p[k].map(|y| (k, y)))
                    .filter(|&(k, y)| {
                        let pair = if k < h { (k, y, h, x) } else { (h, x, k, y) };
                        uncovered.contains(&pair)
                    })
                    .count()
            };
            let best = (0..FACTORS[h].1.len())
                .filter(|&x| {
                    let mut q = p;
                    q[h] = Some(x);
                    completable(&q)
                })
                .max_by_key(|&x| (gain(x), std::cmp::Reverse(x)))
                .expect("a completable row stays completable");
            p[h] = Some(best);
        }
        let row: Row = p.map(|x| x.unwrap());
        assert!(conflict(&row).is_none());
        for pair in pairs_of(&row) {
            uncovered.remove(&pair);
        }
        rows.push(row);
    }
    let refused: BTreeSet<Row> = all_pairs()
        .difference(&coverable)
        .map(|&(f, v, g, w)| {
            let mut row = [0; 8];
            (row[f], row[g]) = (v, w);
            row
        })
        .collect();
    (rows, refused.into_iter().collect())
}

/// Whether a tool runs, asked for its version with `flag`.
fn have(tool: &str, flag: &str) -> bool {
    std::process::Command::new(tool)
        .arg(flag)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Every file under `dir`, relative to it, but the build cache's.
fn files_under(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out
}

/// A page box in millimetres: (width, height, x, y) of `name` on the first page.
fn first_box(doc: &lopdf::Document, name: &[u8]) -> [f64; 4] {
    let page = *doc.get_pages().values().next().unwrap();
    let dict = doc.get_dictionary(page).unwrap();
    let v: Vec<f64> = dict
        .get(name)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_float().map(f64::from).unwrap())
        .collect();
    let mm = |pt: f64| pt * 25.4 / 72.0;
    [mm(v[2] - v[0]), mm(v[3] - v[1]), mm(v[0]), mm(v[1])]
}

/// What a written file must be: readable as its kind says.
fn readable(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let name = path.display();
    assert!(!bytes.is_empty(), "{name} is empty");
    match path.extension().and_then(|e| e.to_str()) {
        Some("pdf") => {
            lopdf::Document::load_mem(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        Some("png") => {
            png::Decoder::new(std::io::Cursor::new(&bytes))
                .read_info()
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        Some("json") => {
            serde_json::from_slice::<serde_json::Value>(&bytes)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        Some("csv") => {
            for record in csv::Reader::from_reader(&bytes[..]).records() {
                record.unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
        Some("html") => {
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.contains("<html"), "{name}");
        }
        Some("txt") => {
            String::from_utf8(bytes).unwrap();
        }
        other => panic!("{name}: a file of kind {other:?}"),
    }
}

#[test]
fn every_pair_of_print_options_writes_what_it_promises_or_is_refused() {
    let started = std::time::Instant::now();
    let data = common::repo().join("tests/fixtures");
    let (rows, refused) = covering_array();
    // The rows cover every pair of values: buildable together, or refused.
    let mut covered: BTreeSet<_> = rows.iter().flat_map(pairs_of).collect();
    covered.extend(refused.iter().flat_map(pairs_of));
    assert_eq!(covered, all_pairs(), "every pair of option values is tried");
    for (f, (name, values)) in FACTORS.iter().enumerate() {
        for v in 0..values.len() {
            assert!(
                rows.iter().any(|r| r[f] == v) || refused.iter().any(|r| r[f] == v),
                "{name} {}",
                values[v]
            );
        }
    }
    let scratch = tempfile::tempdir().unwrap();
    // Refused rows: the parser's options say which options conflict, before anything is
    // written.
    for (n, row) in refused.iter().enumerate() {
        let out = scratch.path().join(format!("refused-{n}"));
        let a = args(row, &data, &out);
        let want = conflict(row).unwrap_or_else(|| panic!("{a:?} is buildable"));
        let Command::Build(build) = Cli::try_parse_from(&a).unwrap().command else {
            unreachable!()
        };
        let e = build_options(&build).expect_err(&a.join(" "));
        for option in want {
            assert!(e.contains(option), "{}: {e}", a.join(" "));
        }
        // Through the binary for a sample: exit 2, the sentence, nothing written.
        if n % 8 == 0 {
            let run = common::run_in(
                common::repo(),
                &a[1..].iter().map(String::as_str).collect::<Vec<_>>(),
            );
            assert_eq!(run.code, 2, "{}: {}", a.join(" "), run.stderr);
            assert!(run.stderr.contains(want[0]), "{}", run.stderr);
            assert!(!out.exists(), "{} wrote {}", a.join(" "), out.display());
        }
    }
    // Buildable rows: built in-process, each into its own folder.
    let mut pdfs: HashMap<u64, PathBuf> = HashMap::new();
    for (n, row) in rows.iter().enumerate() {
        let out = scratch.path().join(format!("built-{n}"));
        let a = args(row, &data, &out);
        let what = a[5..].join(" ");
        let Command::Build(build) = Cli::try_parse_from(&a).unwrap().command else {
            unreachable!()
        };
        let options = build_options(&build).unwrap_or_else(|e| panic!("{what}: {e}"));
        let report = pipeline::build(&data, &build.games, &options, &|_| {});
        let errors: Vec<_> = report
            .problems()
            .into_iter()
            .filter(|p| !p.is_warning())
            .collect();
        assert!(errors.is_empty(), "{what}: {errors:?}");
        let dir = out.join(GAME);
        let Outcome::Built(files) = &report.games[0].outcome else {
            panic!("{what}: {:?}", report.games[0].outcome)
        };
        let returned: BTreeSet<String> = files
            .iter()
            .map(|f| f.strip_prefix(&dir).unwrap().display().to_string())
            .collect();
        let want = promised(row);
        assert_eq!(files_under(&dir), want, "{what}: files written");
        assert_eq!(returned, want, "{what}: files said written");
        for file in &want {
            let path = dir.join(file);
            readable(&path);
            if file.ends_with(".pdf") {
                let bytes = std::fs::read(&path).unwrap();
                let key = {
                    use std::hash::{Hash, Hasher};
                    let mut h = std::collections::hash_map::DefaultHasher::new();
                    bytes.hash(&mut h);
                    h.finish()
                };
                pdfs.entry(key).or_insert(path.clone());
            }
        }
        // cards.pdf is on the paper asked, with the bleed asked (kept when given).
        if want.contains("cards.pdf") {
            let doc = lopdf::Document::load(dir.join("cards.pdf")).unwrap();
            let paper = match value(row, 0) {
                "a4" => (210.0, 297.0),
                "letter" => (215.9, 279.4),
                "a3" => (297.0, 420.0),
                _ => (420.0, 594.0),
            };
            let media = first_box(&doc, b"MediaBox");
            assert!(
                (media[0] - paper.0).abs() < 0.1 && (media[1] - paper.1).abs() < 0.1,
                "{what}: paper {media:?}"
            );
            let (trim, bleed) = (first_box(&doc, b"TrimBox"), first_box(&doc, b"BleedBox"));
            let drawn = (bleed[0] - trim[0]) / 2.0;
            if let Ok(asked) = value(row, 2).parse::<f64>() {
                assert!((drawn - asked).abs() < 0.05, "{what}: bleed {drawn}");
            }
        }
        // CMYK shop PDFs name their output intent; RGB ones have none.
        if want.contains("shop/deck.pdf") {
            let cmyk = match value(row, COLOR) {
                "-" => value(row, SHOP) == "drivethrucards",
                colour => colour == "cmyk",
            };
            let doc = lopdf::Document::load(dir.join("shop/deck.pdf")).unwrap();
            let intent = doc.catalog().unwrap().get(b"OutputIntents").is_ok();
            assert_eq!(intent, cmyk, "{what}: CMYK {cmyk}, output intent {intent}");
        }
    }
    // Every distinct PDF opens in poppler and passes qpdf's check.
    let tools = have("pdfinfo", "-v") && have("qpdf", "--version");
    if tools {
        let pdfs: Vec<&PathBuf> = pdfs.values().collect();
        pdfs.par_iter().for_each(|pdf| {
            let info = std::process::Command::new("pdfinfo")
                .arg(pdf)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&info.stdout);
            assert!(
                info.status.success() && text.contains("Pages:"),
                "pdfinfo {}: {}",
                pdf.display(),
                String::from_utf8_lossy(&info.stderr)
            );
            let check = std::process::Command::new("qpdf")
                .arg("--check")
                .arg(pdf)
                .output()
                .unwrap();
            assert!(
                check.status.success(),
                "qpdf --check {}: {}",
                pdf.display(),
                String::from_utf8_lossy(&check.stdout)
            );
        });
    } else {
        eprintln!("pdfinfo or qpdf is missing: PDFs read by lopdf only");
    }
    let counts: BTreeMap<&str, usize> = [("built", rows.len()), ("refused", refused.len())]
        .into_iter()
        .collect();
    eprintln!(
        "option matrix: {counts:?} rows, {} distinct PDFs checked, {:.1} s",
        pdfs.len(),
        started.elapsed().as_secs_f64()
    );
}
