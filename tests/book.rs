//! The user's guide in `docs/` is held to the program: its reference is the generated one, every
//! key, flag and template function has its documentation, every TOML/CSV/Lua/SVG snippet is
//! included from an example game the tests check and build, and every `printplay` command in
//! it parses (and, outside `sh,no_run` blocks, runs: a command that serves or watches until
//! Ctrl-C runs until it says it is ready, its links are fetched, and it is stopped).

mod common;
#[path = "book/walk.rs"]
mod walk;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::{CommandFactory, Parser};
use printplay::cli::Cli;
use printplay::reference::{self, Page};
use walk::{
    PageRuns, blocks, follows, run_printing, run_until_ready, runs_until_stopped, shell_lines,
    shows, tree_problems, words,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn book_pages() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("docs/src")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "md") {
                let text = std::fs::read_to_string(&p).expect("page");
                out.push((p, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("docs/src"), &mut out);
    assert!(out.len() > 20, "the book has {} pages", out.len());
    out
}

#[test]
fn the_reference_pages_are_the_generated_ones() {
    let cli = Cli::command();
    let dir = root().join("docs/src/reference");
    for page in Page::all() {
        let path = dir.join(page.file_name());
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == page.markdown(&cli),
            "{} is stale: run `cargo run -- reference --out docs/src/reference`",
            path.display()
        );
        let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).unwrap();
        assert!(
            summary.contains(&format!("(reference/{})", page.file_name())),
            "SUMMARY.md does not list reference/{}",
            page.file_name()
        );
    }
}

#[test]
fn every_key_flag_and_template_function_is_documented() {
    let keys = reference::undocumented_keys();
    assert!(
        keys.is_empty(),
        "data keys without a doc comment (they reach the schema and the book): {keys:#?}"
    );
    let args = reference::undocumented_args(&Cli::command());
    assert!(
        args.is_empty(),
        "commands and flags without help: {args:#?}"
    );
    // Every key of every schema appears in its generated page.
    for kind in printplay::schema::FileKind::ALL {
        let page = reference::schema_markdown(kind);
        let schema: serde_json::Value =
            serde_json::from_str(&printplay::schema::json_schema(kind)).unwrap();
        let mut objects = vec![schema.clone()];
        if let Some(defs) = schema.get("$defs").and_then(|d| d.as_object()) {
            objects.extend(defs.values().cloned());
        }
        for obj in objects {
            for key in obj
                .get("properties")
                .and_then(|p| p.as_object())
                .into_iter()
                .flatten()
                .map(|(k, _)| k)
            {
                assert!(
                    page.contains(&format!("| `{key}` |")),
                    "{}: key `{key}` is not in its reference page",
                    kind.file_name()
                );
            }
        }
    }
    // Every flag of every command appears in the commands page.
    let page = reference::commands_markdown(&Cli::command());
    // A nested command (`translate status`) is headed by its whole path.
    fn flags(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for a in cmd.get_arguments() {
            if let Some(long) = a.get_long().filter(|l| *l != "help" && *l != "version") {
                out.push(format!("`--{long}"));
            }
        }
        for s in cmd.get_subcommands() {
            let path = format!("{path}{} ", s.get_name());
            out.push(format!("## `printplay {}", path.trim_end()));
            flags(s, &path, out);
        }
    }
    let mut wanted = Vec::new();
    flags(&Cli::command(), "", &mut wanted);
    for w in wanted.iter().filter(|w| !w.contains("printplay help")) {
        assert!(page.contains(w.as_str()), "{w} is not in the commands page");
    }
    for f in printplay::render::faces::functions::FUNCTIONS {
        assert!(reference::functions_markdown().contains(&format!("## `{}`", f.name)));
    }
}

/// `{{#include path[:anchor|:from:to]}}` of a page: the file and what it selects must exist.
fn check_include(page: &Path, spec: &str) -> Result<(), String> {
    let mut parts = spec.splitn(2, ':');
    let rel = parts.next().unwrap_or("");
    let file = page.parent().unwrap().join(rel);
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("{}: include {rel}: {e}", page.display()))?;
    if let Some(sel) = parts.next() {
        if sel.chars().all(|c| c.is_ascii_digit() || c == ':') {
            let n = text.lines().count();
            for part in sel.split(':').filter(|p| !p.is_empty()) {
                let k: usize = part.parse().unwrap();
                if k == 0 || k > n {
                    return Err(format!("{}: {rel} has no line {k}", page.display()));
                }
            }
        } else if !text.contains(&format!("ANCHOR: {sel}"))
            || !text.contains(&format!("ANCHOR_END: {sel}"))
        {
            return Err(format!("{}: {rel} has no anchor `{sel}`", page.display()));
        }
    }
    Ok(())
}

#[test]
fn every_snippet_is_included_from_an_example_the_tests_build() {
    let mut problems = Vec::new();
    let mut includes = 0;
    for (path, text) in book_pages() {
        for line in text.lines() {
            if let Some(at) = line.find("{{#include ") {
                let spec = line[at + "{{#include ".len()..]
                    .split("}}")
                    .next()
                    .unwrap()
                    .trim();
                includes += 1;
                if let Err(e) = check_include(&path, spec) {
                    problems.push(e);
                }
            }
        }
        for b in blocks(&text) {
            let lang = b.info.split(',').next().unwrap_or("");
            if matches!(lang, "toml" | "csv" | "lua" | "svg") {
                let inline = b.lines.iter().any(|l| {
                    let l = l.trim();
                    !l.is_empty() && !l.starts_with("{{#include ")
                });
                if inline {
                    problems.push(format!(
                        "{}:{}: a {lang} snippet written inline; include it from docs/examples/ so the tests build it",
                        path.display(),
                        b.line
                    ));
                }
            }
        }
    }
    assert!(includes >= 6, "only {includes} includes found");
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_examples_check_and_build() {
    let examples = root().join("docs/examples");
    let out = tempfile::tempdir().unwrap();
    let mut games = 0;
    for entry in std::fs::read_dir(&examples).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.join("game.toml").is_file() {
            continue;
        }
        games += 1;
        let slug = dir.file_name().unwrap().to_str().unwrap().to_string();
        for args in [
            vec!["check", slug.as_str()],
            vec![
                "build",
                slug.as_str(),
                "--out",
                out.path().to_str().unwrap(),
            ],
        ] {
            let o = Command::new(env!("CARGO_BIN_EXE_printplay"))
                .arg("--data")
                .arg(&examples)
                .args(&args)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "printplay {args:?} on docs/examples/{slug}: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    assert!(games >= 1);
    // The editor configuration: every rule's files exist and its schema is one printplay writes.
    let taplo: toml::Value =
        toml::from_str(&std::fs::read_to_string(examples.join("taplo.toml")).unwrap()).unwrap();
    let names: Vec<&str> = printplay::schema::FileKind::ALL
        .iter()
        .map(|k| k.file_name())
        .collect();
    for rule in taplo["rule"].as_array().unwrap() {
        let schema = rule["schema"]["path"].as_str().unwrap();
        let file = schema.strip_prefix("schemas/").unwrap();
        assert!(names.contains(&file), "taplo.toml names {schema}");
        for pattern in rule["include"].as_array().unwrap() {
            let pattern = pattern.as_str().unwrap();
            let glob = globset::Glob::new(pattern).unwrap().compile_matcher();
            let mut hit = false;
            for game in std::fs::read_dir(root().join("data")).unwrap() {
                let game = game.unwrap().path();
                if !game.is_dir() {
                    continue;
                }
                for f in std::fs::read_dir(&game).unwrap() {
                    let f = f.unwrap().path();
                    let rel = f.strip_prefix(root()).unwrap();
                    hit |= glob.is_match(rel);
                }
            }
            assert!(hit, "taplo.toml: {pattern} matches no shipped file");
        }
    }
}

/// The tutorial's chapters in the order of SUMMARY.md: a reader follows them one after another
/// in one folder.
fn tutorial_chapters() -> Vec<PathBuf> {
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).unwrap();
    let chapters: Vec<PathBuf> = summary
        .lines()
        .filter_map(|l| l.split("](").nth(1))
        .filter_map(|l| l.split(')').next())
        .filter(|target| target.starts_with("tutorial/"))
        .map(|target| root().join("docs/src").join(target))
        .collect();
    assert!(chapters.len() >= 2, "SUMMARY.md lists {chapters:?}");
    chapters
}

/// Every `printplay` command of the book parses, and every one outside `sh,no_run` blocks runs,
/// in the page's order, as a reader would type it. The tutorial's chapters run one after
/// another in one folder that starts empty (a reader follows chapter 2 where chapter 1 left
/// them); every other page runs in a fresh folder with the shipped games beside it.
///
/// What a page shows, the program does:
/// - a `text,output` block shows what the last command run before it prints (standard output
///   and error, as a terminal shows them), line by line; trailing blanks are not compared, a
///   `[..]` in a line stands for any text, a line `...` for any lines, and `[CWD]` for the
///   folder the commands run in;
/// - a `text,tree` block shows a folder as the commands so far left it (see [`tree_problems`]);
/// - a command that follows an earlier one does as that one did (see [`follows`]): a `replay`
///   replays a game of the page's `simulate` run, a `calibrate` is for the printer the page's
///   `build` printed for.
#[test]
fn every_command_in_the_book_parses_and_runs() {
    let mut problems = Vec::new();
    let mut ran = 0;
    let mut parsed = 0;
    let mut outputs = 0;
    let mut trees = 0;
    let mut timings: BTreeMap<String, f64> = BTreeMap::new();
    let chapters = tutorial_chapters();
    let mut pages = book_pages();
    for chapter in &chapters {
        assert!(
            pages.iter().any(|(p, _)| p == chapter),
            "SUMMARY.md lists {}, which is no page",
            chapter.display()
        );
    }
    // The tutorial first, in its order; then the rest.
    pages.sort_by_key(|(p, _)| chapters.iter().position(|c| c == p).unwrap_or(usize::MAX));
    let tutorial = tempfile::tempdir().unwrap();
    for (path, text) in pages {
        let rel = path.strip_prefix(root()).unwrap().display().to_string();
        if rel.contains("/reference/") {
            continue;
        }
        let fresh;
        let work = if chapters.contains(&path) {
            tutorial.path()
        } else {
            fresh = tempfile::tempdir().unwrap();
            common::copy_dir(&root().join("data"), &fresh.path().join("data"));
            fresh.path()
        };
        // The last command run on the page, with what it printed.
        let mut last: Option<(String, String)> = None;
        let mut runs = PageRuns::default();
        for b in blocks(&text) {
            let mut info = b.info.split(',').map(str::trim);
            let lang = info.next().unwrap_or("");
            let attrs: Vec<&str> = info.collect();
            if attrs.contains(&"output") {
                outputs += 1;
                match &last {
                    None => problems.push(format!(
                        "{rel}:{}: an output block that follows no command that ran",
                        b.line
                    )),
                    Some((line, printed)) => {
                        let printed = printed.replace(&work.display().to_string(), "[CWD]");
                        if !shows(&b.lines, &printed) {
                            problems.push(format!(
                                "{rel}:{}: the page shows `{line}` printing\n{}\nbut it prints\n{printed}",
                                b.line,
                                b.lines.join("\n")
                            ));
                        }
                    }
                }
                continue;
            }
            if attrs.contains(&"tree") {
                trees += 1;
                for p in tree_problems(&b.lines, work) {
                    problems.push(format!("{rel}:{}: {p}", b.line));
                }
                continue;
            }
            if lang != "sh" {
                continue;
            }
            let run = !attrs.contains(&"no_run");
            for line in shell_lines(&b) {
                let argv = words(&line);
                if argv.first().map(String::as_str) != Some("printplay") {
                    if run {
                        problems.push(format!(
                            "{rel}:{}: `{line}` is not a printplay command: put it in a `sh,no_run` block",
                            b.line
                        ));
                    }
                    continue;
                }
                parsed += 1;
                let cli = match Cli::try_parse_from(&argv) {
                    Ok(cli) => cli,
                    Err(e) => {
                        problems.push(format!("{rel}:{}: `{line}` does not parse: {e}", b.line));
                        continue;
                    }
                };
                if let Err(e) = follows(&cli, &mut runs, b.line) {
                    problems.push(format!("{rel}:{}: `{line}`: {e}", b.line));
                }
                if !run {
                    continue;
                }
                let start = std::time::Instant::now();
                if let Some(marker) = runs_until_stopped(&argv) {
                    ran += 1;
                    last = None;
                    if let Err(e) = run_until_ready(&argv, work, marker) {
                        problems.push(format!("{rel}:{}: `{line}`: {e}", b.line));
                    }
                    timings.insert(line.clone(), start.elapsed().as_secs_f64());
                    continue;
                }
                let (ok, printed) = run_printing(&argv, work);
                timings.insert(line.clone(), start.elapsed().as_secs_f64());
                ran += 1;
                if !ok {
                    problems.push(format!(
                        "{rel}:{}: `{line}` fails: {}",
                        b.line,
                        printed.lines().take(5).collect::<Vec<_>>().join(" / ")
                    ));
                }
                last = Some((line, printed));
            }
        }
    }
    eprintln!(
        "ran {ran} of {parsed} commands, compared {outputs} outputs and {trees} trees; slowest:"
    );
    let mut t: Vec<_> = timings.into_iter().collect();
    t.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (line, s) in t.iter().take(5) {
        eprintln!("  {s:.1} s  {line}");
    }
    assert!(ran >= 15 && parsed >= 25, "ran {ran}, parsed {parsed}");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    assert!(
        outputs >= 5 && trees >= 2,
        "{outputs} outputs, {trees} trees"
    );
}

/// The page markup's comparisons hold a page to what it says: an output that differs by a
/// word, a line or a missing line does not pass, the wildcards stand only for what they say,
/// and a tree that leaves out a file or shows one nobody made is caught.
#[test]
fn what_a_page_shows_is_compared_word_for_word() {
    let shown = |text: &str| text.lines().map(String::from).collect::<Vec<_>>();
    let printed = "my-race: ok (2 invariants hold)   \nwrote a\nwrote b\n\n";
    assert!(shows(
        &shown("my-race: ok (2 invariants hold)\nwrote a\nwrote b"),
        printed
    ));
    assert!(shows(
        &shown("my-race: ok ([..] invariants hold)\n...\nwrote b"),
        printed
    ));
    assert!(shows(&shown("...\nwrote b\n..."), printed));
    assert!(shows(&shown("[..]: ok [..]\nwrote a\n..."), printed));
    for wrong in [
        "my-race: ok (3 invariants hold)\nwrote a\nwrote b",
        "my-race: ok (2 invariants hold)\nwrote a",
        "my-race: ok (2 invariants hold)\nwrote b",
        "my-race: ok (2 invariants hold)\nwrote a\nwrote b\nwrote c",
        "[..]: ok\n...",
        "...\nwrote c\n...",
        "my-[..]-race: ok (2 invariants hold)\n...",
        "",
    ] {
        assert!(!shows(&shown(wrong), printed), "{wrong:?} passes");
    }
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "g/game.toml",
        "g/art/a.svg",
        "g/fonts/x.ttf",
        "g/fonts/y.txt",
        "g/.cache/z",
    ] {
        let path = dir.path().join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "").unwrap();
    }
    let tree = |text: &str| tree_problems(&shown(text), dir.path());
    let whole =
        "g/\n  game.toml  the game\n             goes on\n  art/a.svg  art\n  fonts/     fonts";
    assert_eq!(tree(whole), Vec::<String>::new());
    let nested = "g/\n  game.toml\n  art/\n    a.svg\n  fonts/\n    x.ttf\n    y.txt";
    assert_eq!(tree(nested), Vec::<String>::new());
    assert_eq!(
        tree("g/\n  game.toml\n  art/a.svg\n  fonts/\n    x.ttf"),
        ["the tree leaves out g/fonts/y.txt"]
    );
    assert_eq!(
        tree("g/\n  game.toml\n  cards.csv  the cards\n  art/\n  fonts/"),
        ["the tree shows g/cards.csv, which the commands did not make"]
    );
}

/// A replay of "one of those games" must be one of them, and a calibration for the printer
/// the page printed for: the run the issue found (`replay my-game --game 17` after a run with
/// other bots) and the long-edge sheet after a short-edge build are refused.
#[test]
fn a_command_that_follows_another_does_as_it_did() {
    let problems = |lines: &[&str]| {
        let mut runs = PageRuns::default();
        lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                follows(&Cli::try_parse_from(words(l)).unwrap(), &mut runs, i).err()
            })
            .count()
    };
    let sim = "printplay simulate g --games 20 --seed 1 --bots heuristic,random";
    assert_eq!(
        problems(&[
            sim,
            "printplay replay g --seed 1 --bots heuristic,random --game 17"
        ]),
        0
    );
    assert_eq!(problems(&[sim, "printplay replay g --game 17"]), 1);
    assert_eq!(
        problems(&[
            sim,
            "printplay replay g --seed 1 --bots heuristic,random --game 21"
        ]),
        1
    );
    assert_eq!(problems(&[sim, "printplay replay other --game 17"]), 0);
    let compare = "printplay simulate g --games 20 --compare v=a,b";
    assert_eq!(problems(&[compare, "printplay replay g --game 3"]), 1);
    let build = "printplay build g --paper letter --duplex short-edge";
    assert_eq!(
        problems(&[
            build,
            "printplay calibrate --paper letter --duplex short-edge"
        ]),
        0
    );
    assert_eq!(problems(&[build, "printplay calibrate --paper letter"]), 1);
    assert_eq!(problems(&["printplay calibrate --paper letter"]), 0);
}

/// The book's pictures (a card sheet, the gallery, a rules page in light and dark) are made
/// here from a fresh build, so that they never show an old version: a committed picture that
/// no longer matches what the program makes fails the test, which writes the new one in its
/// place to be looked at and committed. `PRINTPLAY_UPDATE_SCREENSHOTS=1` writes without failing.
#[test]
fn the_book_pictures_show_the_current_program() {
    let Some(chrome) = common::chromium() else {
        eprintln!("skipping: chromium not found (install Debian's `chromium` or set CHROMIUM)");
        return;
    };
    if Command::new("pdftoppm").arg("-v").output().is_err() {
        eprintln!("skipping: pdftoppm not found (install poppler-utils)");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let built = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .arg("--data")
        .arg(root().join("data"))
        .args([
            "build",
            "the-search",
            "--only",
            "cards,png,rules,index",
            "--out",
        ])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    let game = out.path().join("the-search");
    let shots = tempfile::tempdir().unwrap();
    // The first card sheet at 40 dpi.
    let sheet = Command::new("pdftoppm")
        .args(["-r", "40", "-png", "-f", "1", "-l", "1", "-singlefile"])
        .arg(game.join("cards.pdf"))
        .arg(shots.path().join("sheet"))
        .status()
        .unwrap();
    assert!(sheet.success());
    // The first fold-over sheet of Capek Golems (`--duplex fold`) at 40 dpi.
    let folded = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .arg("--data")
        .arg(root().join("data"))
        .args([
            "build",
            "capek-golems",
            "--only",
            "cards",
            "--duplex",
            "fold",
            "--out",
        ])
        .arg(out.path().join("fold"))
        .output()
        .unwrap();
    assert!(folded.status.success(), "{folded:?}");
    let fold_sheet = Command::new("pdftoppm")
        .args(["-r", "40", "-png", "-f", "1", "-l", "1", "-singlefile"])
        .arg(out.path().join("fold/capek-golems/cards.pdf"))
        .arg(shots.path().join("fold-sheet"))
        .status()
        .unwrap();
    assert!(fold_sheet.success());
    // The Search's proof (its first page, and the first page as a deuteranope sees it) and
    // its first card sheet with `--guides`, at 40 dpi.
    let guided = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .arg("--data")
        .arg(root().join("data"))
        .args([
            "build",
            "the-search",
            "--only",
            "cards,proof",
            "--guides",
            "--out",
        ])
        .arg(out.path().join("guided"))
        .output()
        .unwrap();
    assert!(guided.status.success(), "{guided:?}");
    let proof = out.path().join("guided/the-search/proof.pdf");
    let deuteranopia_page = {
        let text = Command::new("pdftotext")
            .arg(&proof)
            .arg("-")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&text.stdout).into_owned();
        // Pages are separated by form feeds; the first page of the deuteranopia part.
        text.split('\u{c}')
            .position(|page| page.contains("as seen with deuteranopia"))
            .expect("a deuteranopia page")
            + 1
    };
    for (name, pdf, page) in [
        ("proof", proof.clone(), 1),
        ("proof-deuteranopia", proof.clone(), deuteranopia_page),
        (
            "guides-sheet",
            out.path().join("guided/the-search/cards.pdf"),
            1,
        ),
    ] {
        let page = page.to_string();
        let shot = Command::new("pdftoppm")
            .args(["-r", "40", "-png", "-f", &page, "-l", &page, "-singlefile"])
            .arg(pdf)
            .arg(shots.path().join(name))
            .status()
            .unwrap();
        assert!(shot.success());
    }
    let profile = tempfile::tempdir().unwrap();
    for (name, page, dark) in [
        ("gallery", "index.html", false),
        ("rules-light", "rules.en.html", false),
        ("rules-dark", "rules.en.html", true),
    ] {
        let file = shots.path().join(format!("{name}.png"));
        let mut cmd = common::headless(&chrome, profile.path());
        cmd.args([
            "--window-size=1100,800",
            "--hide-scrollbars",
            &format!("--screenshot={}", file.display()),
        ]);
        if dark {
            cmd.arg("--force-dark-mode")
                .arg("--blink-settings=preferredColorScheme=0");
        }
        let o = cmd
            .arg(format!("file://{}", game.join(page).display()))
            .output()
            .unwrap();
        assert!(file.is_file(), "no screenshot of {page}: {o:?}");
    }
    let dir = root().join("docs/src/images");
    std::fs::create_dir_all(&dir).unwrap();
    let update = std::env::var_os("PRINTPLAY_UPDATE_SCREENSHOTS").is_some();
    let mut stale = Vec::new();
    for name in [
        "sheet",
        "fold-sheet",
        "proof",
        "proof-deuteranopia",
        "guides-sheet",
        "gallery",
        "rules-light",
        "rules-dark",
    ] {
        let new = shots.path().join(format!("{name}.png"));
        let old = dir.join(format!("{name}.png"));
        let d = common::pictures::difference(&new, &old);
        // Anti-aliasing and font hinting differ a little between machines; a changed layout,
        // colour or text moves far more than 2 % of the image.
        if d > 0.02 {
            std::fs::copy(&new, &old).unwrap();
            stale.push(format!("{name}.png (difference {:.1} %)", d * 100.0));
        }
    }
    assert!(
        update || stale.is_empty(),
        "pictures of the book no longer match the program; the new ones are written in docs/src/images, look at them and commit them: {stale:?}"
    );
}

/// Every path of the project the guide names in code (`src/...`, `tests/...`, `benches/...`,
/// `deploy/...`) exists: a moved module or test leaves no stale pointer in the book.
#[test]
fn every_project_path_the_guide_names_exists() {
    let mut texts = book_pages();
    for extra in ["README.md", "benches/README.md"] {
        let p = root().join(extra);
        texts.push((p.clone(), std::fs::read_to_string(&p).unwrap()));
    }
    let mut missing = Vec::new();
    let mut named = 0;
    for (path, text) in &texts {
        for (k, span) in text.split('`').enumerate() {
            if k % 2 == 0 {
                continue;
            }
            let word = span.split([':', ' ']).next().unwrap_or_default();
            let project = ["src/", "tests/", "benches/", "deploy/"]
                .iter()
                .any(|p| word.starts_with(p));
            if !project || word.contains(['*', '<', '{', '$']) {
                continue;
            }
            named += 1;
            if !root().join(word).exists() {
                missing.push(format!("{}: `{word}`", path.display()));
            }
        }
    }
    assert!(named > 30, "only {named} paths found: is the scan broken?");
    assert!(missing.is_empty(), "paths that do not exist: {missing:#?}");
}

/// The README stays a front page: what printplay is, the two set-up commands, install, a quick
/// start and links into the guide, each link to a page that exists.
#[test]
fn the_readme_is_short_and_its_links_resolve() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 120,
        "README.md has {lines} lines; the guide in docs/ holds the rest"
    );
    let mut links = 0;
    for (at, _) in readme.match_indices("](") {
        let target = &readme[at + 2..];
        let target = &target[..target.find(')').unwrap()];
        if target.starts_with("http") {
            continue;
        }
        links += 1;
        let path = target.split('#').next().unwrap();
        assert!(
            root().join(path).exists(),
            "README links to {target}, which does not exist"
        );
    }
    assert!(links >= 15, "only {links} links into the guide");
}
