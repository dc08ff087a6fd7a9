//! Rules references: structure of the Markdown and HTML, numbers from the data, escaping,
//! problems in the prose reported where they are, Finnish plurals and glossary.

mod common;

use std::path::{Path, PathBuf};

use printplay::check::check_game;
use printplay::model::{Game, load_game};
use printplay::rules::{Assets, Format, OutFile, render};
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

const SHIPPED: &[&str] = &[
    "capek-golems",
    "the-search",
    "aether",
    "imperial-settlers-aztecs",
];

fn assets() -> Assets {
    Assets::load_default().expect("templates load")
}

fn shipped(slug: &str) -> Game {
    load_game(Path::new("data"), slug).unwrap_or_else(|p| panic!("{slug}: {p:?}"))
}

/// Shipped games that have their rules prose.
fn with_prose() -> Vec<Game> {
    SHIPPED
        .iter()
        .map(|s| shipped(s))
        .filter(|g| !g.rules.texts.is_empty())
        .collect()
}

fn main_file(game: &Game, lang: &str, format: Format, assets: &Assets) -> String {
    let files: Vec<OutFile> = render(game, lang, format, assets)
        .unwrap_or_else(|p| panic!("{} {lang}: {:#?}", game.slug, p));
    files[0].text.clone()
}

/// A copy of a shipped game's folder in a temporary data folder, edited by `edit`.
fn edited(slug: &str, file: &str, edit: impl Fn(String) -> String) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join(slug);
    common::copy_dir(&Path::new("data").join(slug), &dest);
    let path = dest.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = edit(text.clone());
    assert_ne!(text, changed, "the edit must change {file}");
    std::fs::write(&path, changed).unwrap();
    (dir, dest)
}

fn load_edited(dir: &tempfile::TempDir, slug: &str) -> Result<Game, Vec<printplay::diag::Problem>> {
    load_game(dir.path(), slug)
}

#[derive(Debug)]
struct MdOutline {
    headings: Vec<(u8, String)>,
    /// Per table: header cells, then each row's cell count.
    tables: Vec<(Vec<String>, Vec<usize>)>,
    links: Vec<String>,
}

fn outline(md: &str) -> MdOutline {
    let opts = printplay::rules::markdown::options();
    let mut out = MdOutline {
        headings: Vec::new(),
        tables: Vec::new(),
        links: Vec::new(),
    };
    let mut text = String::new();
    let mut level = None;
    let mut in_head = false;
    let mut row_cells = 0;
    let mut head = Vec::new();
    for event in Parser::new_ext(md, opts) {
        match event {
            Event::Start(Tag::Heading { level: l, .. }) => {
                level = Some(l as u8);
                text.clear();
            }
            Event::End(TagEnd::Heading(_)) => {
                out.headings.push((level.take().unwrap(), text.clone()));
            }
            Event::Start(Tag::Table(_)) => {
                out.tables.push((Vec::new(), Vec::new()));
                head.clear();
            }
            Event::Start(Tag::TableHead) => in_head = true,
            Event::End(TagEnd::TableHead) => {
                in_head = false;
                out.tables.last_mut().unwrap().0 = head.clone();
            }
            Event::Start(Tag::TableRow) => row_cells = 0,
            Event::End(TagEnd::TableRow) => out.tables.last_mut().unwrap().1.push(row_cells),
            Event::Start(Tag::TableCell) => text.clear(),
            Event::End(TagEnd::TableCell) => {
                if in_head {
                    head.push(text.clone());
                } else {
                    row_cells += 1;
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) => out.links.push(dest_url.to_string()),
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            _ => {}
        }
    }
    let _ = HeadingLevel::H1;
    out
}

/// GitHub's heading anchor, as the Markdown's table of contents uses it.
fn anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn every_shipped_game_with_prose_checks_clean() {
    let games = with_prose();
    assert!(!games.is_empty());
    for g in &games {
        let problems = check_game(g);
        assert!(problems.is_empty(), "{}: {problems:#?}", g.slug);
    }
}

#[test]
fn markdown_parses_back_with_ordered_headings_and_whole_tables() {
    let assets = assets();
    for game in with_prose() {
        for lang in &game.info.languages {
            let md = main_file(&game, lang, Format::Md, &assets);
            let o = outline(&md);
            let msgs = assets.messages(lang).unwrap();
            // One title, then the sections in order, never skipping a level.
            assert_eq!(o.headings[0].0, 1, "{}: {:?}", game.slug, o.headings);
            assert_eq!(o.headings.iter().filter(|h| h.0 == 1).count(), 1);
            for pair in o.headings.windows(2) {
                assert!(
                    pair[1].0 <= pair[0].0 + 1,
                    "{} {lang}: level skipped at {pair:?}",
                    game.slug
                );
            }
            let h2: Vec<&str> = o
                .headings
                .iter()
                .filter(|h| h.0 == 2)
                .map(|h| h.1.as_str())
                .collect();
            for key in [
                "overview",
                "goal",
                "components",
                "setup",
                "turn",
                "end",
                "variants",
                "unprinted",
                "options",
            ] {
                let title = msgs.get(&format!("section_{key}")).unwrap();
                assert!(
                    h2.contains(&title),
                    "{} {lang}: no section {title}: {h2:?}",
                    game.slug
                );
            }
            // Every table has a header and every row has as many cells as the header.
            assert!(
                o.tables.len() >= 2,
                "{}: components and unprinted tables",
                game.slug
            );
            for (head, rows) in &o.tables {
                assert!(!head.is_empty());
                assert!(
                    !rows.is_empty(),
                    "{}: an empty table under {head:?}",
                    game.slug
                );
                assert!(
                    rows.iter().all(|n| *n == head.len()),
                    "{}: ragged table {head:?}: {rows:?}",
                    game.slug
                );
            }
            // The components table has one row per component the data holds.
            let components_head = msgs.get("col_component").unwrap();
            let (_, rows) = o.tables.iter().find(|t| t.0[0] == components_head).unwrap();
            let c = &game.components;
            let kinds = game.rules.texts[lang]
                .text
                .components
                .keys()
                .filter(|k| k.starts_with("pieces."))
                .count();
            let single = c
                .pieces
                .iter()
                .filter(|p| {
                    !game.rules.texts[lang]
                        .text
                        .components
                        .contains_key(&format!("pieces.{}", p.kind))
                })
                .count();
            // A track printed on a deck's card is counted in that deck's row.
            let tracks = c
                .tracks
                .iter()
                .filter(|t| {
                    !t.card.as_ref().is_some_and(|card| {
                        c.decks
                            .iter()
                            .any(|d| d.cards.iter().any(|x| x.id.get_ref() == card))
                    })
                })
                .count();
            assert_eq!(
                rows.len(),
                c.decks.len() + kinds + single + c.boards.len() + tracks,
                "{}",
                game.slug
            );
            // Every internal link names a heading.
            let anchors: Vec<String> = o.headings.iter().map(|h| anchor(&h.1)).collect();
            for link in o.links.iter().filter(|l| l.starts_with('#')) {
                assert!(
                    anchors.contains(&link[1..].to_string()),
                    "{} {lang}: dangling {link}",
                    game.slug
                );
            }
        }
    }
}

#[test]
fn html_is_one_self_contained_accessible_page() {
    let assets = assets();
    for game in with_prose() {
        for lang in &game.info.languages {
            let html = main_file(&game, lang, Format::Html, &assets);
            assert!(html.contains(&format!("<html lang=\"{lang}\">")));
            assert!(!html.contains("<script"), "no script");
            assert!(
                !html.contains("src=\"http") && !html.contains("href=\"http"),
                "nothing fetched"
            );
            assert!(!html.contains("stylesheet"), "styles are inline");
            assert!(
                html.contains(
                    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'"
                ),
                "a Content-Security-Policy forbids scripts and remote loads"
            );
            // Headings in order.
            let levels: Vec<u8> = html
                .match_indices("<h")
                .filter_map(|(i, _)| html[i + 2..].chars().next()?.to_digit(10).map(|d| d as u8))
                .collect();
            assert_eq!(levels[0], 1);
            for pair in levels.windows(2) {
                assert!(
                    pair[1] <= pair[0] + 1,
                    "{} {lang}: heading level skipped: {levels:?}",
                    game.slug
                );
            }
            // Every internal link resolves to an id on the page.
            for (i, _) in html.match_indices("href=\"#") {
                let target: String = html[i + 7..].chars().take_while(|c| *c != '"').collect();
                assert!(
                    html.contains(&format!("id=\"{target}\"")),
                    "{} {lang}: dangling #{target}",
                    game.slug
                );
            }
            // Every id is unique.
            let mut ids: Vec<String> = html
                .match_indices(" id=\"")
                .map(|(i, _)| html[i + 5..].chars().take_while(|c| *c != '"').collect())
                .collect();
            let all = ids.len();
            ids.sort();
            ids.dedup();
            assert_eq!(all, ids.len(), "{} {lang}: duplicate ids", game.slug);
            // Tables have header cells; diagrams are labelled images.
            assert_eq!(
                html.matches("<table>").count(),
                html.matches("<thead>").count()
            );
            for (i, _) in html.match_indices("<svg") {
                let tag: String = html[i..].chars().take_while(|c| *c != '>').collect();
                if tag.contains("aria-hidden=\"true\"") {
                    // A swatch of the key, named by the text beside it.
                    continue;
                }
                assert!(
                    tag.contains("role=\"img\"") && tag.contains("aria-labelledby"),
                    "{tag}"
                );
                assert!(html[i..].contains("<title id="), "svg has a title");
            }
            assert!(html.contains("@media print") && html.contains("@media (max-width"));
        }
    }
}

#[test]
fn every_unprinted_value_is_listed_in_words_with_shared_reasons_merged() {
    let assets = assets();
    for game in with_prose() {
        let unprinted = game.unprinted();
        assert!(!unprinted.is_empty());
        for lang in &game.info.languages {
            let lr = &game.rules.texts[lang];
            let msgs = assets.messages(lang).unwrap();
            let rows = printplay::rules::provenance::rows(&game, lr, lang, msgs);
            // One row per reason: no two rows share how and why.
            for (i, r) in rows.iter().enumerate() {
                assert!(
                    !rows[i + 1..]
                        .iter()
                        .any(|o| o.kind == r.kind && o.reason == r.reason),
                    "{} {lang}: reason given twice: {}",
                    game.slug,
                    r.reason
                );
            }
            let described: usize = rows.iter().map(|r| r.values.len()).sum();
            assert!(described >= 1 && rows.len() <= unprinted.len());
            let html = main_file(&game, lang, Format::Html, &assets);
            for r in &rows {
                for v in &r.values {
                    let shown = printplay::rules::document::html_escape(v);
                    assert!(html.contains(&shown), "{} {lang}: {v} missing", game.slug);
                }
            }
            // Values are described in words, never as the data's paths.
            for p in &unprinted {
                assert!(
                    !html.contains(&format!(">{}<", p.path)) && !html.contains(&p.path),
                    "{} {lang}: the data path {} is shown",
                    game.slug,
                    p.path
                );
            }
        }
    }
}

#[test]
fn output_is_deterministic() {
    let assets = assets();
    for game in with_prose() {
        for lang in &game.info.languages {
            for format in [Format::Html, Format::Md] {
                let a = render(&game, lang, format, &assets).unwrap();
                let b = render(&game, lang, format, &assets).unwrap();
                assert_eq!(a, b);
            }
        }
    }
}

#[test]
fn numbers_in_the_text_follow_the_data() {
    let assets = assets();
    let before = main_file(&shipped("capek-golems"), "en", Format::Md, &assets);
    assert!(before.contains("reaches 25"));
    assert!(before.contains("deal 4 cards to each player"));
    assert!(before.contains("The slots cost 4, 3, 2, 1 gold"));
    let (dir, _) = edited("capek-golems", "game.toml", |t| {
        t.replace(
            "[params.initial_hand]\nvalue = 4",
            "[params.initial_hand]\nvalue = 1",
        )
        .replace("value = [4, 3, 2, 1]", "value = [5, 3, 2, 1]")
    });
    let (_, dest) = (&dir, dir.path().join("capek-golems"));
    let comps = std::fs::read_to_string(dest.join("components.toml")).unwrap();
    std::fs::write(
        dest.join("components.toml"),
        comps.replace("max = 25", "max = 30"),
    )
    .unwrap();
    let game = load_edited(&dir, "capek-golems").unwrap();
    let after = main_file(&game, "en", Format::Md, &assets);
    assert!(after.contains("reaches 30") && !after.contains("reaches 25"));
    // The plural follows the number: one card, not one cards.
    assert!(after.contains("deal 1 card to each player"), "{after}");
    assert!(after.contains("The slots cost 5, 3, 2, 1 gold"));
    assert!(after.contains("fills space (5)"));
}

#[test]
fn everything_from_the_data_is_escaped() {
    let assets = assets();
    let evil = "<script>alert(1)</script> | *bold* [link](http://x) &amp;";
    let (dir, _) = edited("capek-golems", "components.toml", |t| {
        t.replace("name = \"Game cards\"", &format!("name = \"{evil}\""))
            .replace(
                "the rulebook names no colour; red chosen",
                "reason with <b>tags</b> | pipes",
            )
    });
    let game = load_edited(&dir, "capek-golems").unwrap();
    let html = main_file(&game, "en", Format::Html, &assets);
    assert!(!html.contains("<script>") && !html.contains("<b>tags"));
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt; | *bold* [link](http://x) &amp;amp;")
    );
    assert!(!html.contains("href=\"http://x\""));
    let md = main_file(&game, "en", Format::Md, &assets);
    let o = outline(&md);
    for (head, rows) in &o.tables {
        assert!(
            rows.iter().all(|n| *n == head.len()),
            "a pipe broke a table: {head:?} {rows:?}"
        );
    }
    let rendered = printplay::rules::markdown::to_html(&md);
    assert!(
        !rendered.contains("<script>")
            && !rendered.contains("<b>tags")
            && !rendered.contains("href=\"http://x\"")
    );
}

fn problems_text(game: &Game) -> String {
    check_game(game)
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn unknown_placeholder_is_reported_at_its_line() {
    let (dir, dest) = edited("capek-golems", "rules.en.toml", |t| {
        t.replace(
            "Be the first to activate all",
            "Be the {params.no_such_param} first to activate all",
        )
    });
    let game = load_edited(&dir, "capek-golems").unwrap();
    let text = problems_text(&game);
    let file = std::fs::read_to_string(dest.join("rules.en.toml")).unwrap();
    let line = file
        .lines()
        .position(|l| l.contains("no_such_param"))
        .unwrap()
        + 1;
    assert!(text.contains("no parameter `no_such_param`"), "{text}");
    assert!(text.contains(&format!("rules.en.toml:{line}:")), "{text}");
}

#[test]
fn unknown_noun_and_bad_paths_are_reported() {
    let (dir, _) = edited("capek-golems", "rules.en.toml", |t| {
        t.replace(
            "deal {params.initial_hand card}",
            "deal {params.initial_hand gizmo} {deck.nope.cards} {track.outrage.middle}",
        )
    });
    let game = load_edited(&dir, "capek-golems").unwrap();
    let text = problems_text(&game);
    assert!(text.contains("no noun `gizmo`"), "{text}");
    assert!(text.contains("no deck `nope`"), "{text}");
    assert!(text.contains("end a track path"), "{text}");
}

#[test]
fn raw_html_and_page_level_headings_in_prose_are_refused() {
    let (dir, _) = edited("capek-golems", "rules.en.toml", |t| {
        t.replace(
            "There is no other scoring.",
            "There is <b>no</b> other scoring.\n\n## Big\n",
        )
    });
    let game = load_edited(&dir, "capek-golems").unwrap();
    let text = problems_text(&game);
    assert!(text.contains("raw HTML is not allowed"), "{text}");
    assert!(text.contains("prose headings start at ###"), "{text}");
}

#[test]
fn unknown_keys_in_rules_files_are_rejected_with_a_place() {
    let (dir, dest) = edited("capek-golems", "rules.en.toml", |t| {
        t.replace("quick = \"\"\"", "quik = \"\"\"")
    });
    let problems = load_edited(&dir, "capek-golems").unwrap_err();
    let text: String = problems.iter().map(|p| p.to_string()).collect();
    assert!(text.contains("rules.en.toml:"), "{text}");
    assert!(text.contains("quik"), "{text}");
    let _ = dest;
    let (dir, _) = edited("capek-golems", "rules.toml", |t| {
        t.replace(
            "section = \"components\"",
            "section = \"components\"\ncolour = 1",
        )
    });
    let text: String = load_edited(&dir, "capek-golems")
        .unwrap_err()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert!(
        text.contains("rules.toml:") && text.contains("colour"),
        "{text}"
    );
}

#[test]
fn a_component_without_its_purpose_is_reported() {
    let (dir, _) = edited("capek-golems", "rules.en.toml", |t| {
        t.replace(
            "[components.\"piece.outrage-marker\"]",
            "[components.\"piece.not-a-piece\"]",
        )
    });
    let game = load_edited(&dir, "capek-golems").unwrap();
    let text = problems_text(&game);
    assert!(
        text.contains("[components.\"piece.outrage-marker\"] is missing"),
        "{text}"
    );
    assert!(text.contains("names no deck, piece"), "{text}");
}

#[test]
fn a_language_without_prose_is_reported() {
    let (dir, _) = edited("capek-golems", "game.toml", |t| {
        t.replace(
            "engine = \"capek-golems\"",
            "engine = \"capek-golems\"\nlanguages = [\"en\", \"fi\"]",
        )
    });
    let game = load_edited(&dir, "capek-golems").unwrap();
    let text = problems_text(&game);
    assert!(
        text.contains("published in `fi` but has no rules.fi.toml"),
        "{text}"
    );
}

#[test]
fn the_build_stage_writes_every_language_and_format() {
    let out = tempfile::tempdir().unwrap();
    let games = with_prose();
    let (written, problems) = printplay::rules::build_all(&games, out.path());
    assert!(problems.is_empty(), "{problems:#?}");
    for g in &games {
        for lang in &g.info.languages {
            for ext in ["html", "md"] {
                let p = out.path().join(&g.slug).join(format!("rules.{lang}.{ext}"));
                assert!(p.is_file() && written.contains(&p), "{}", p.display());
            }
        }
    }
    // The Markdown's diagrams are written beside it and linked by name.
    for g in &games {
        for spec in &g.rules.meta.diagrams {
            for lang in &g.info.languages {
                let name = format!("rules.{lang}.{}.svg", spec.id.get_ref());
                let md = std::fs::read_to_string(
                    out.path().join(&g.slug).join(format!("rules.{lang}.md")),
                )
                .unwrap();
                if md.contains(&name) {
                    let svg =
                        std::fs::read_to_string(out.path().join(&g.slug).join(&name)).unwrap();
                    assert!(svg.starts_with("<svg") && svg.contains("<title"));
                }
            }
        }
    }
}

/// Variants as (name, default, values).
type VariantList = Vec<(String, String, Vec<String>)>;

/// The prose's variants per language, in order.
fn described_variants(game: &Game) -> Vec<(String, VariantList)> {
    game.rules
        .texts
        .iter()
        .map(|(lang, lr)| {
            let list = lr
                .text
                .variants
                .iter()
                .map(|v| (v.id.get_ref().clone(), v.default.clone(), v.values.clone()))
                .collect();
            (lang.clone(), list)
        })
        .collect()
}

fn engine_variants(variants: &[printplay::engine::Variant]) -> VariantList {
    variants
        .iter()
        .map(|v| {
            let values: Vec<String> = v.values.iter().map(|s| s.to_string()).collect();
            (v.name.to_string(), values[0].clone(), values)
        })
        .collect()
}

#[test]
fn variants_described_are_the_engines_variants() {
    use printplay::engine::Engine;
    let aether = shipped("aether");
    let settlers = shipped("imperial-settlers-aztecs");
    let capek = shipped("capek-golems");
    let search = shipped("the-search");
    let engines = [
        (
            &search,
            engine_variants(
                printplay::games::the_search::SearchEngine::from_model(&search)
                    .unwrap()
                    .variants(),
            ),
        ),
        (
            &capek,
            engine_variants(printplay::games::capek_golems::VARIANTS),
        ),
        (
            &aether,
            engine_variants(
                printplay::games::aether::AetherEngine::from_model(&aether)
                    .unwrap()
                    .variants(),
            ),
        ),
        (
            &settlers,
            engine_variants(printplay::games::settlers_aztecs::VARIANTS),
        ),
    ];
    for (game, expected) in engines {
        for (lang, described) in described_variants(game) {
            assert_eq!(described, expected, "{} {lang}", game.slug);
        }
    }
}

/// A second guard beside the registry of reading points (`tests/readings.rs`, which holds
/// every branch an engine registers to a declared variant whose values play differently):
/// every place an engine plays a reading the rulebook does not give names a declared variant:
/// a comment that says the book is silent ("not in the rulebook", "does not say", "our
/// reading"...) must name, in backquotes, a variant of that game, so that an engine cannot
/// branch on a reading `printplay variants` does not list. The engines' own variant docs are
/// the declarations and are not scanned, nor the data checks, whose reconstructed values the
/// provenance lists.
#[test]
fn every_reading_an_engine_plays_is_a_declared_variant() {
    let silent = [
        "not in the rulebook",
        "not in the book",
        "does not say",
        "doesn't say",
        "not said",
        "is silent",
        "our reading",
        "our choice",
    ];
    let games = [
        ("the_search", "the-search"),
        ("capek_golems", "capek-golems"),
        ("aether", "aether"),
        ("settlers_aztecs", "imperial-settlers-aztecs"),
    ];
    let mut undeclared = Vec::new();
    let mut scanned = 0;
    for (module, slug) in games {
        let declared: Vec<String> = described_variants(&shipped(slug))
            .into_iter()
            .flat_map(|(_, list)| list)
            .map(|(name, _, _)| name)
            .collect();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/games")
            .join(module);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                // The rules as played, not the data checks (whose reconstructed values the
                // provenance appendix lists) or the tests.
                name.ends_with(".rs") && !name.contains("test") && name != "check.rs"
            })
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            // Comment blocks: runs of consecutive `//` lines.
            let mut block: Vec<(usize, String)> = Vec::new();
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let t = line.trim_start();
                let comment = t.starts_with("//");
                if comment {
                    block.push((
                        i + 1,
                        t.trim_start_matches('/')
                            .trim_start_matches('!')
                            .to_string(),
                    ));
                }
                if !comment || i + 1 == lines.len() {
                    if !block.is_empty() {
                        scanned += 1;
                        let words = block
                            .iter()
                            .map(|(_, l)| l.as_str())
                            .collect::<Vec<_>>()
                            .join(" ");
                        let lower = words.to_lowercase();
                        let says_silent = silent.iter().any(|p| lower.contains(p));
                        let names = declared.iter().any(|v| words.contains(&format!("`{v}`")));
                        if says_silent && !names {
                            undeclared.push(format!(
                                "{}:{}: {}",
                                file.strip_prefix(env!("CARGO_MANIFEST_DIR"))
                                    .unwrap()
                                    .display(),
                                block[0].0,
                                words.trim()
                            ));
                        }
                    }
                    block.clear();
                }
            }
        }
    }
    assert!(scanned > 100, "the engines' comments were read");
    assert!(
        undeclared.is_empty(),
        "readings the rulebook does not give, played without a declared variant (declare one and name it in backquotes):\n{}",
        undeclared.join("\n")
    );
}

#[test]
fn message_files_have_the_same_keys_and_nouns() {
    let assets = assets();
    let en = assets.messages("en").unwrap();
    let others: Vec<&str> = assets
        .languages()
        .into_iter()
        .filter(|l| *l != "en")
        .collect();
    assert!(others.contains(&"fi"));
    for lang in others {
        let other = assets.messages(lang).unwrap();
        let a: Vec<_> = en.text.keys().collect();
        let b: Vec<_> = other.text.keys().collect();
        assert_eq!(a, b, "{lang}: same [text] keys as en.toml");
        let a: Vec<_> = en.nouns.keys().collect();
        let b: Vec<_> = other.nouns.keys().collect();
        assert_eq!(a, b, "{lang}: same nouns as en.toml");
    }
}

#[test]
fn finnish_numbers_take_the_right_plural() {
    let assets = assets();
    let flat = |t: String| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let md = flat(main_file(&shipped("aether"), "fi", Format::Md, &assets));
    for phrase in [
        "Laita kaikki 92 elementtilaattaa laattapussiin",
        "14/11/9 elementaalia, kun pelaajia on 2/3/4",
        "Siirrä yksi käyttämätön elementaalisi toiseen uhrikuopista",
        "Laudalla on kaksi uhrikuoppaa uhratuille elementaaleille",
        "Nosta pussista neljä uutta elementtilaattaa",
        "saa silti kolme pistettä",
        "Neljällä pelaajalla voidaan pelata myös joukkueina",
        "Laudalla on 14 aether-laattaa",
        "sitä heikentää yhdellä pisteellä viereinen vesilaatta",
    ] {
        assert!(md.contains(phrase), "missing «{phrase}»");
    }
    // Change the numbers: the nouns follow (1 piste, 2 käyttämätöntä elementaalia, 1 kuusikulmio).
    let (dir, _) = edited("aether", "game.toml", |t| {
        t.replace(
            "[params.swap_sacrifice]\nvalue = 1",
            "[params.swap_sacrifice]\nvalue = 2",
        )
        .replace(
            "[params.unplayed_elemental_points]\nvalue = 3",
            "[params.unplayed_elemental_points]\nvalue = 1",
        )
    });
    let game = load_edited(&dir, "aether").unwrap();
    let md = flat(main_file(&game, "fi", Format::Md, &assets));
    assert!(
        md.contains("Siirrä kaksi käyttämätöntä elementaaliasi toiseen uhrikuopista"),
        "{md}"
    );
    assert!(md.contains("saa silti yksi piste."), "{md}");
    let en = flat(main_file(&game, "en", Format::Md, &assets));
    assert!(
        en.contains("Move two unused elementals to one of the sacrifice pits"),
        "{en}"
    );
    assert!(en.contains("still scores 1 point at the end"), "{en}");
}

#[test]
fn the_glossary_terms_are_the_words_the_prose_uses() {
    let game = shipped("aether");
    let terms = &game.rules.meta.terms;
    for required in [
        "elementtilaatta",
        "elementaali",
        "aether-laatta",
        "näkösuoja",
        "uhrikuoppa",
        "vastaelementti",
    ] {
        assert!(
            terms.iter().any(|t| t.words["fi"].get_ref() == required),
            "glossary lacks {required}"
        );
    }
    for lang in ["fi", "en"] {
        let text = printplay::rules::prose_text(&game.rules.texts[lang].text);
        for t in terms {
            let stem = t
                .stems
                .get(lang)
                .cloned()
                .unwrap_or_else(|| t.words[lang].get_ref().clone())
                .to_lowercase();
            assert!(text.contains(&stem), "{lang}: {stem} unused");
            assert!(
                t.words[lang].get_ref().to_lowercase().contains(&stem),
                "{lang}: the stem {stem} is part of the term"
            );
        }
    }
    // A synonym the glossary rules out is caught, and so is a term the prose stops using.
    let (dir, _) = edited("aether", "rules.fi.toml", |t| {
        t.replace("näkösuojansa", "serminsä")
            .replace("näkösuojasi", "sermisi")
            .replace("näkösuojan", "sermin")
            .replace("näkösuoja", "sermi")
            .replace("Näkösuojat", "Sermit")
    });
    let game = load_edited(&dir, "aether").unwrap();
    let text = problems_text(&game);
    assert!(
        text.contains("says `sermi` where the glossary's term is `näkösuoja`"),
        "{text}"
    );
    assert!(
        text.contains(
            "the glossary term `näkösuoja` (stem `näkösuoj`) is not used in rules.fi.toml"
        ),
        "{text}"
    );
}

#[test]
fn the_glossary_is_in_both_aether_references() {
    let assets = assets();
    let game = shipped("aether");
    for lang in ["fi", "en"] {
        let md = main_file(&game, lang, Format::Md, &assets);
        let o = outline(&md);
        let title = assets
            .messages(lang)
            .unwrap()
            .get("section_glossary")
            .unwrap();
        assert!(o.headings.iter().any(|h| h.1 == title), "{lang}");
        for t in &game.rules.meta.terms {
            assert!(
                md.contains(t.words["fi"].get_ref().as_str())
                    && md.contains(t.words["en"].get_ref().as_str())
            );
        }
    }
}

#[test]
fn simulation_charts_are_linked_when_present_and_optional() {
    let assets = assets();
    let game = shipped("capek-golems");
    let out = tempfile::tempdir().unwrap();
    let without = printplay::rules::write(
        &game,
        &["en".to_string()],
        &[Format::Md],
        &assets,
        out.path(),
    )
    .unwrap();
    let plain = std::fs::read_to_string(&without[0]).unwrap();
    assert!(!plain.contains("](sim/"));
    std::fs::create_dir_all(out.path().join("sim")).unwrap();
    std::fs::write(out.path().join("sim/win-rates.svg"), "<svg/>").unwrap();
    for format in [Format::Md, Format::Html] {
        let written =
            printplay::rules::write(&game, &["en".to_string()], &[format], &assets, out.path())
                .unwrap();
        let text = std::fs::read_to_string(&written[0]).unwrap();
        assert!(text.contains("sim/win-rates.svg"), "{format:?}");
    }
}

#[test]
fn a_new_game_has_a_rules_reference_that_builds() {
    let data = tempfile::tempdir().unwrap();
    printplay::scaffold::new_game(data.path(), "my-game").unwrap();
    let game = load_game(data.path(), "my-game").unwrap();
    assert!(check_game(&game).is_empty());
    let assets = assets();
    let md = main_file(&game, "en", Format::Md, &assets);
    assert!(md.contains("Deal 5 cards to each player"), "{md}");
    assert!(
        md.contains("The deck holds 12 cards in\n3 suits") || md.contains("12 cards"),
        "{md}"
    );
}

#[test]
fn printplay_build_runs_the_rules_stage() {
    // A full build is slow in debug mode; the stage list is what wires the references in, and
    // `the_build_stage_writes_every_language_and_format` proves what the stage writes.
    let names: Vec<&str> = printplay::pipeline::stages()
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert!(names.contains(&"rules"), "{names:?}");
    let out = tempfile::tempdir().unwrap();
    let game = shipped("capek-golems");
    let files = printplay::rules::stage(&game, &out.path().join("capek-golems")).unwrap();
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("capek-golems/rules.en.html"))
    );
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("capek-golems/rules.en.md"))
    );
}

/// The Finnish Aether page's prose, captions and component purposes (tags dropped, entities
/// decoded) and its whole HTML.
fn finnish_aether() -> (String, String) {
    let game = shipped("aether");
    let html = main_file(&game, "fi", Format::Html, &assets());
    // The prose blocks and captions, not the tables' count cells.
    let mut main = String::new();
    for (open, close) in [
        ("<div class=\"prose\">", "</div>"),
        ("<figcaption>", "</figcaption>"),
        ("<td data-label=\"Mihin sitä käytetään\">", "</td>"),
    ] {
        for (i, _) in html.match_indices(open) {
            let end = i + html[i..].find(close).unwrap();
            main.push_str(&html[i..end]);
            main.push_str(". ");
        }
    }
    (common::html_text(&main), html)
}

#[test]
fn finnish_aether_uses_the_rulebooks_words() {
    let (text, html) = finnish_aether();
    let lower = text.to_lowercase();
    // Words the rulebook never uses: the tiles are behind the screen, not in a hand.
    for hand in ["käsi", "käde", "kätesi", "kädessä", "kätee", "kätke"] {
        assert!(
            !lower.contains(hand),
            "a hand word `{hand}`: the tiles are behind the screen"
        );
    }
    // Case, number and person errors found before.
    for wrong in [
        "maksaa 1",
        "1 elementaali ",
        "vähentävät sitä",
        "(voi toistaa)",
        "muut voi valita",
        "vahvin puoli",
        "alla olevasta elementistä",
        "laskee sen nollaksi",
        "kutakin",
        "lähteenä oleva sääntökirja",
    ] {
        assert!(!lower.contains(wrong), "the Finnish page says `{wrong}`");
    }
    // Found on the second reading, anywhere on the page (tables and headings too): `hallita`
    // takes the partitive, a label is not repeated by its sentence, words that read as
    // English calques.
    let page = common::html_text(&html).to_lowercase();
    for wrong in [
        "aether-laatan hallitsee",
        "sääntökirja: sääntökirja",
        "ne ovat nämä",
        "voima alle nollan",
        "naapurikuusikulmiot",
        // A native reading, third pass: a numeral subject takes a singular verb; a singular
        // antecedent a singular relative; "yksimielisiä siitä, että"; no tooling jargon, calques
        // or authors' "we" in player text; the book's "ensimmäinen ja kolmas pelaaja"; no
        // pronoun left dangling after the "Sääntökirja:" label.
        "ympärillä ovat arvoltaan",
        "laattaa riittävät",
        "joista kukin",
        "yksimielisiä, ettei",
        "pelien kirjaukset",
        "pelattavia valintojamme",
        "pelaamme",
        "vuorojärjestyksessä)",
        "pelaajat 1 ja 3",
        "sääntökirja: se ",
        "pelaajan muistilappu",
        "neljätoista",
        "pienempi rooli",
        "sääntökirja: ei kerro",
        "kuusikulmiossa on sen koordinaatit",
        // A native reading, fourth pass (../shared/reviews/aether-fi.md): each sentence as it
        // was printed.
        "kuusikulmioon, myös vaaleanharmaisiin",
        "arvot: rekonstruoitu",
        "uhrikuoppia on kaksi",
        "numeroidulla paikallaan",
        "joukkue saa pisteensä yhdessä",
        "vastaukset ovat meidän tulkintojamme",
        "tämä sivu kielellä",
        "pelilaudan yksi paikka",
        "hallitsemasi aether-laatat",
        "jokaisessa lukee voittaa",
        "laatan asettamisia",
        "ilman sen kuutta kulmaa",
        "sen --variant-valitsin",
        "uhratuista elementaaleista saa",
        "käyttämätön elementaali toiseen",
        "heikentää sitä",
        "tätä painosta varten",
        "merkitsevät jotakin",
        "aiempi lauta",
        "ovat pelin julkisesta",
        "pelata, kohdissa",
        "arvoltaan 9 ja 10",
        "(suomi)",
        "kortit ja pelinappulat",
        "nimeää vain nämä kaksi.",
        "sääntökirja ei näytä, mitkä",
        "sääntökirja ei kerro, lasketaanko",
    ] {
        assert!(!page.contains(wrong), "the Finnish page says `{wrong}`");
    }
    // `merkit` is not a word of the book (the printed pieces are tiles and elementals).
    assert!(
        !page
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w == "merkit"),
        "the Finnish page calls the pieces `merkit`"
    );
    // Figures for player counts are written as the board and the book write them: 14/11/9.
    let spaced_slash = page
        .as_bytes()
        .windows(5)
        .any(|w| w[0].is_ascii_digit() && &w[1..4] == b" / " && w[4].is_ascii_digit());
    assert!(!spaced_slash, "a spaced slash between figures");
    // After a colon a title goes on in lower case, as the board's "Aether: pelilauta".
    for title in ["Aether: Sääntöopas", "Aether: Pikaohje"] {
        assert!(!html.contains(title), "the Finnish page's title `{title}`");
    }
    assert!(
        html.contains("<title>Aether: sääntöopas</title>"),
        "the page's title"
    );
    assert!(
        page.contains(
            "pelaajista ensimmäinen ja kolmas pelaavat yhdessä toista ja neljättä vastaan"
        )
    );
    // Small counts in prose are spelled out, and no sentence opens with a digit: a digit from 1
    // to 10 followed by a word, unless it is part of a range, a list or a sign.
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if !c.is_ascii_digit() || (i > 0 && chars[i - 1].is_ascii_digit()) {
            continue;
        }
        let number: String = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let after = chars.get(i + number.len()..i + number.len() + 2);
        let before = if i >= 2 { chars[i - 2] } else { ' ' };
        let prev = if i >= 1 { chars[i - 1] } else { ' ' };
        let word_follows = after.is_some_and(|a| a[0] == ' ' && a[1].is_alphabetic());
        let in_figure = ['–', '/', '+', '−', '(', '×'].contains(&prev)
            || ['–', '/', '+', '−'].contains(&before);
        let small = number.parse::<u32>().is_ok_and(|n| (1..=10).contains(&n));
        // Players are named by their seat numbers ("pelaajat 1 ja 3"): labels, not counts.
        let words_before: Vec<String> = chars[..i]
            .iter()
            .collect::<String>()
            .split_whitespace()
            .rev()
            .take(2)
            .map(str::to_lowercase)
            .collect();
        let label = match words_before.as_slice() {
            [w, ..] if w == "pelaajat" || w == "pelaajia" => true,
            [w, n, ..] => w == "ja" && n.chars().all(|c| c.is_ascii_digit()),
            _ => false,
        };
        // "Uhrikuoppia on 2,": a count stated by itself is spelled out too.
        let stated_count = words_before.first().is_some_and(|w| w == "on")
            && after.is_none_or(|a| [',', '.', ';', ':', ')'].contains(&a[0]));
        let context: String = chars[i.saturating_sub(30)..(i + 30).min(chars.len())]
            .iter()
            .collect();
        assert!(
            !(small && stated_count),
            "a small count in digits after `on`: …{context}…"
        );
        if small && word_follows && !in_figure && !label {
            panic!("a small count in digits: …{context}…");
        }
        let sentence_start = i == 0 || matches!(before, '.' | '!' | '?') && prev == ' ';
        assert!(
            !sentence_start,
            "a sentence opens with a digit: …{context}…"
        );
    }
    // Finnish quotation marks, not straight ones.
    let words = text.replace("class=", "");
    assert!(!words.contains('"'), "straight quotes in the Finnish page");
    assert!(words.contains('”'));
    // Nothing in English: every cell is Finnish, and the rulebook is named by its title.
    // English only in the glossary's English column and the link to the English page.
    assert_eq!(
        html.matches("lang=\"en\">").count(),
        glossary_terms() + 1,
        "English cells beyond the glossary's English column"
    );
    assert!(!html.contains(".txt"), "the rulebook's file name is shown");
}

fn glossary_terms() -> usize {
    shipped("aether").rules.meta.terms.len()
}

/// The placeholders (data paths) of a text, sorted: what numbers it states.
fn stated(text: &str) -> Vec<String> {
    let mut out: Vec<String> = printplay::rules::placeholders::parse(text)
        .unwrap()
        .into_iter()
        .filter_map(|c| match c {
            printplay::rules::placeholders::Chunk::Hole(h) => Some(h.path),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

/// The shape of a Markdown text: its headings' levels, list items and paragraphs.
fn shape(text: &str) -> (Vec<u8>, usize, usize) {
    let mut headings = Vec::new();
    let (mut items, mut paragraphs) = (0, 0);
    for e in Parser::new_ext(text, printplay::rules::markdown::options()) {
        match e {
            Event::Start(Tag::Heading { level, .. }) => headings.push(level as u8),
            Event::Start(Tag::Item) => items += 1,
            Event::Start(Tag::Paragraph) => paragraphs += 1,
            _ => {}
        }
    }
    (headings, items, paragraphs)
}

#[test]
fn finnish_and_english_aether_say_the_same_section_by_section() {
    let game = shipped("aether");
    let en = &game.rules.texts["en"].text;
    let fi = &game.rules.texts["fi"].text;
    let sections = |t: &printplay::model::RulesText| {
        vec![
            ("overview", t.overview.get_ref().clone()),
            ("goal", t.goal.get_ref().clone()),
            ("setup", t.setup.get_ref().clone()),
            ("turn", t.turn.get_ref().clone()),
            ("end", t.end.get_ref().clone()),
            ("quick", t.quick.get_ref().clone()),
        ]
    };
    for ((name, e), (_, f)) in sections(en).into_iter().zip(sections(fi)) {
        assert_eq!(stated(&e), stated(&f), "{name}: the numbers stated differ");
        let (eh, ei, _) = shape(&e);
        let (fh, fi_items, _) = shape(&f);
        assert_eq!(eh, fh, "{name}: the headings differ");
        assert_eq!(ei, fi_items, "{name}: the list items differ");
    }
    // Components, open questions and diagrams: the same keys, the same numbers.
    let keys = |t: &printplay::model::RulesText| t.components.keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(en), keys(fi));
    for (key, c) in &en.components {
        assert_eq!(
            stated(c.purpose.get_ref()),
            stated(fi.components[key].purpose.get_ref()),
            "component {key}"
        );
    }
    let ids = |t: &printplay::model::RulesText| {
        t.variants
            .iter()
            .map(|v| v.id.get_ref().clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(en), ids(fi));
    for (e, f) in en.variants.iter().zip(&fi.variants) {
        assert_eq!(stated(e.ambiguity.get_ref()), stated(f.ambiguity.get_ref()));
        assert_eq!(stated(e.reading.get_ref()), stated(f.reading.get_ref()));
    }
    assert_eq!(en.questions.len(), fi.questions.len());
    assert_eq!(
        en.diagram.keys().collect::<Vec<_>>(),
        fi.diagram.keys().collect::<Vec<_>>()
    );
    for (id, d) in &en.diagram {
        assert_eq!(
            stated(d.caption.get_ref()),
            stated(fi.diagram[id].caption.get_ref()),
            "diagram {id}"
        );
    }
    // The rendered pages: the same sections, subheadings and tables in the same order.
    let assets = assets();
    let outline_of = |lang: &str| {
        let html = main_file(&game, lang, Format::Html, &assets);
        let marks: Vec<String> = html
            .match_indices("<h")
            .filter_map(|(i, _)| {
                let level = html[i + 2..].chars().next()?.to_digit(10)?;
                Some(format!("h{level}"))
            })
            .chain(html.match_indices("<table").map(|_| "table".to_string()))
            .collect();
        (
            marks,
            html.matches("<tr>").count(),
            html.matches("<li>").count(),
        )
    };
    assert_eq!(outline_of("en"), outline_of("fi"));
}

/// The Search's One Step Ahead: the printed card, the reference and the engine's default are
/// one reading (Card Explanations: "move across two map cards with your criminal pawn, instead
/// of one (the criminal player may move one card diagonally if they desire ...)"), read by
/// default as exactly two orthogonal steps or one diagonal step. The quick reference once
/// stated the other reading ("up to 1 step may be diagonal").
#[test]
fn one_step_ahead_reads_the_same_on_the_card_the_references_and_the_engine() {
    use printplay::games::the_search::engine::VARIANTS;
    let game = shipped("the-search");
    let variant = VARIANTS
        .iter()
        .find(|v| v.name == "one-step-ahead")
        .unwrap();
    assert_eq!(variant.values[0], "two-or-diagonal");
    let card = game
        .deck("criminal")
        .and_then(|d| d.cards.iter().find(|c| c.id.get_ref() == "one-step-ahead"))
        .unwrap();
    assert_eq!(card.str("reading"), Some(variant.values[0]));
    let files = render(&game, "en", Format::Md, &assets()).unwrap();
    assert!(files[1].name.starts_with("quick."), "{}", files[1].name);
    for (name, text) in [
        ("reference", &files[0].text),
        ("quick reference", &files[1].text),
    ] {
        let flat = text
            .replace('*', "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let at = flat
            .find("One Step Ahead (×4): instead of the usual move")
            .or_else(|| flat.find("One Step Ahead: exactly"))
            .unwrap_or_else(|| panic!("{name} states no One Step Ahead move:\n{flat}"));
        let item: String = flat[at..].chars().take(120).collect();
        assert!(
            item.contains("exactly 2 cards orthogonally") && item.contains("or 1 card diagonally"),
            "{name}: {item}"
        );
        assert!(!item.contains("may be diagonal"), "{name}: {item}");
    }
    // The there-and-back reading (`one-step-ahead-return`): stated on the card and in the
    // reference, HTML and Markdown, as the engine's default.
    let back = VARIANTS
        .iter()
        .find(|v| v.name == "one-step-ahead-return")
        .unwrap();
    assert_eq!(back.values[0], "allowed");
    assert_eq!(card.str("out_and_back"), Some(back.values[0]));
    for format in [Format::Md, Format::Html] {
        let page = &render(&game, "en", format, &assets()).unwrap()[0].text;
        let flat = common::html_text(page)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            flat.contains(
                "The two orthogonal cards may be there and back, ending where the move started"
            ),
            "{format:?}"
        );
    }
    // The quick reference states it too, in its One Step Ahead line.
    for format in [Format::Md, Format::Html] {
        let quick = &render(&game, "en", format, &assets()).unwrap()[1].text;
        let flat = common::html_text(quick)
            .replace('*', "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let at = flat
            .find("One Step Ahead: exactly")
            .unwrap_or_else(|| panic!("{format:?}: no One Step Ahead line:\n{flat}"));
        let item: String = flat[at..].chars().take(200).collect();
        assert!(
            item.contains("or to a crime scene and back"),
            "{format:?}: {item}"
        );
    }
    let template = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/the-search/templates/search-action.svg"),
    )
    .unwrap();
    assert!(template.contains("(there and back counts)"));
}
