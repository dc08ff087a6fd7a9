//! `printplay watch`: build the named games, then rebuild a game whenever a file of its folder
//! changes (data, CSV, art, fonts, templates), and the whole set when the templates named by
//! `$PRINTPLAY_TEMPLATES` change. Every rebuild goes through the same pipeline as `build`
//! ([`crate::pipeline`]), so files are written atomically and a game whose data fails its
//! check keeps its previous output. A build that panics (a defect of printplay, never of the
//! data) is reported as a problem of that round and watching goes on.
//!
//! The gallery page (`index.html`) of each game says what the last round made of it: while
//! watching it reloads itself and, when the data does not build, lists the problems above the
//! files of the last build that worked; when watching stops it is written once more without
//! the reload.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::assets::TemplateSource;
use crate::diag::Problem;
use crate::pipeline::{self, BuildReport, GameReport, Outcome};
use crate::render::BuildOptions;
use crate::render::formats::index::write_status;

/// Quiet time after the last change before a rebuild starts: editors write a file in steps.
const DEBOUNCE: Duration = Duration::from_millis(40);
/// The output written first, before the others start: the one a designer looks at.
const FIRST_OUTPUT: &str = "cards";
/// How often the loop looks at the stop flag while nothing changes.
const POLL: Duration = Duration::from_millis(100);

/// One round of building: what changed and what the build made of it.
pub struct Round {
    /// The games rebuilt (slugs); every named game on the first round.
    pub games: Vec<String>,
    /// The files whose change started this round (empty on the first round).
    pub changed: Vec<PathBuf>,
    pub report: BuildReport,
    pub elapsed: Duration,
}

impl Round {
    /// What the round made, in words: `built a in 120 ms`, `b not built (2 problem(s))`; a
    /// round that built nothing never says "built".
    pub fn summary(&self) -> String {
        let mut built = Vec::new();
        let mut parts = Vec::new();
        for g in &self.report.games {
            match &g.outcome {
                Outcome::Built(_) => built.push(g.slug.as_str()),
                Outcome::NotChecked(ps) | Outcome::Failed(ps) => parts.push(format!(
                    "{} not built ({})",
                    g.slug,
                    crate::messages::count_of(ps.len(), "problem", "problems")
                )),
            }
        }
        if !built.is_empty() {
            parts.insert(
                0,
                format!(
                    "built {} in {} ms",
                    built.join(", "),
                    self.elapsed.as_millis()
                ),
            );
        }
        if parts.is_empty() {
            parts.push(format!(
                "not built ({})",
                crate::messages::count_of(self.report.problems().len(), "problem", "problems")
            ));
        }
        parts.join("; ")
    }
}

/// Builds `names` (every game when empty) from `data`, then rebuilds on every change until
/// `stop` is set; `on_round` sees each round. An error is returned only when watching itself
/// cannot start (the data folder cannot be watched).
pub fn watch(
    data: &Path,
    names: &[String],
    options: &BuildOptions,
    stop: &AtomicBool,
    on_round: &mut dyn FnMut(&Round),
) -> Result<(), Problem> {
    let templates = match TemplateSource::from_env() {
        TemplateSource::Folder(dir) => Some(dir),
        TemplateSource::Builtin => None,
    };
    watch_with(
        data,
        names,
        templates.as_deref(),
        options,
        stop,
        on_round,
        &|data, games, options| pipeline::build(data, games, options, &|_| {}),
    )
}

/// How a round builds: [`pipeline::build`], or a stand-in in tests.
type Builder<'a> = dyn Fn(&Path, &[String], &BuildOptions) -> BuildReport + 'a;

/// [`watch`], with the templates folder to watch (the one `$PRINTPLAY_TEMPLATES` names) and
/// the builder given.
fn watch_with(
    data: &Path,
    names: &[String],
    templates: Option<&Path>,
    options: &BuildOptions,
    stop: &AtomicBool,
    on_round: &mut dyn FnMut(&Round),
    builder: &Builder,
) -> Result<(), Problem> {
    let options = BuildOptions {
        live_reload: true,
        first: Some(FIRST_OUTPUT),
        // The next round rewrites the same PDFs from mostly the same faces: it reads again
        // only the pages and faces that changed.
        kept_pages: Some(Default::default()),
        ..options.clone()
    };
    // Watch first, then build: a change made while the first build runs is not lost.
    let data_abs = std::fs::canonicalize(data).map_err(|e| Problem::io(data, e))?;
    let templates = templates
        .map(|dir| std::fs::canonicalize(dir).map_err(|e| Problem::io(dir, e)))
        .transpose()?;
    let folders: Vec<&Path> = std::iter::once(data_abs.as_path())
        .chain(templates.as_deref())
        .collect();
    let (_watching, edits) =
        crate::edits::watch(&folders).map_err(|(dir, e)| Problem::io(&dir, e))?;
    let out_abs = std::fs::create_dir_all(&options.out)
        .and_then(|()| std::fs::canonicalize(&options.out))
        .map_err(|e| Problem::io_write(&options.out, e))?;
    let scope = Scope {
        data: data_abs,
        out: out_abs,
        templates,
        names: names.iter().cloned().collect(),
    };

    let mut galleries = Galleries::default();
    let first = build_round(data, &scope.all_games(), &options, Vec::new(), builder);
    galleries.update(data, &options, &first);
    on_round(&first);
    while !stop.load(Ordering::Relaxed) {
        // Only writes count (our own build reads every file), gathered until the folders
        // have been quiet for DEBOUNCE: a round never starts while a save is under way.
        let Some(edited) = edits.next(Some(POLL), DEBOUNCE) else {
            break;
        };
        let changed: Vec<PathBuf> = edited.into_iter().filter(|p| scope.is_input(p)).collect();
        let games = scope.games_touched(&changed);
        if !games.is_empty() {
            let round = build_round(data, &games, &options, changed, builder);
            galleries.update(data, &options, &round);
            on_round(&round);
        }
    }
    // The pages stop reloading with the watch that rebuilt them.
    galleries.settle(data, &options);
    Ok(())
}

/// Builds `games`; a panic while building is caught and becomes one problem for each game
/// of the round, so that watching goes on.
fn build_round(
    data: &Path,
    games: &[String],
    options: &BuildOptions,
    changed: Vec<PathBuf>,
    builder: &Builder,
) -> Round {
    let start = Instant::now();
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        builder(data, games, options)
    }));
    let report = built.unwrap_or_else(|payload| panicked(games, options, payload.as_ref()));
    Round {
        games: report.games.iter().map(|g| g.slug.clone()).collect(),
        changed,
        report,
        elapsed: start.elapsed(),
    }
}

/// The report of a round whose build panicked: the same problem for each of its games.
fn panicked(
    games: &[String],
    options: &BuildOptions,
    payload: &(dyn std::any::Any + Send),
) -> BuildReport {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    let problem = |slug: &str| {
        Problem::build(format!(
            "{slug}: printplay failed while building ({what}); this is a defect of printplay, \
             not of the data. The files of the last build that worked are kept, and watching \
             goes on: a change to the data builds again"
        ))
    };
    BuildReport {
        load_problems: Vec::new(),
        games: games
            .iter()
            .map(|slug| GameReport {
                slug: slug.clone(),
                dir: options.out.join(slug),
                outcome: Outcome::Failed(vec![problem(slug)]),
                warnings: Vec::new(),
            })
            .collect(),
    }
}

/// What the last round made of each game, for its gallery page.
#[derive(Default)]
struct Galleries {
    /// Each game's problems of its last round (empty when it built).
    last: BTreeMap<String, Vec<Problem>>,
}

impl Galleries {
    /// Notes the round and writes the page of each game that did not build: its problems
    /// above the files of the last build that worked (a game that built wrote its own page).
    fn update(&mut self, data: &Path, options: &BuildOptions, round: &Round) {
        for g in &round.report.games {
            let problems = match &g.outcome {
                Outcome::Built(_) => Vec::new(),
                Outcome::NotChecked(ps) | Outcome::Failed(ps) => ps.clone(),
            };
            if !problems.is_empty() {
                write_page(data, options, &g.slug, true, &problems);
            }
            self.last.insert(g.slug.clone(), problems);
        }
    }

    /// Writes every page once more, without the reload: watching has stopped.
    fn settle(&self, data: &Path, options: &BuildOptions) {
        for (slug, problems) in &self.last {
            write_page(data, options, slug, false, problems);
        }
    }
}

/// Writes a game's gallery page, unless the build leaves the page out (`--only`) or there is
/// nothing of the game yet and nothing to say. A page that cannot be written is not worth
/// stopping the watch for: the problems are printed too.
fn write_page(data: &Path, options: &BuildOptions, slug: &str, live: bool, problems: &[Problem]) {
    if !options.wants(pipeline::INDEX_STAGE) {
        return;
    }
    let dir = options.out.join(slug);
    if problems.is_empty()
        && !dir
            .join(crate::render::formats::index::INDEX_FILE)
            .is_file()
    {
        return;
    }
    let game = crate::model::load_game(data, slug).ok();
    let _ = write_status(game.as_ref(), slug, &dir, live, problems);
}

/// What is being watched, to map a changed path to the games it concerns.
struct Scope {
    data: PathBuf,
    out: PathBuf,
    templates: Option<PathBuf>,
    /// The games named on the command line; empty means every game in the data folder.
    names: BTreeSet<String>,
}

impl Scope {
    /// A changed file that can change a build: not our own output, not an editor's or our
    /// own temporary file.
    fn is_input(&self, path: &Path) -> bool {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let temporary = name.starts_with('.') || name.ends_with('~') || name.ends_with(".swp");
        !temporary && !path.starts_with(&self.out)
    }

    /// The games to rebuild for these changes: the game whose folder holds a changed file,
    /// or every watched game when the templates changed.
    fn games_touched(&self, changed: &[PathBuf]) -> Vec<String> {
        let mut games = BTreeSet::new();
        for path in changed {
            if self.templates.as_ref().is_some_and(|t| path.starts_with(t)) {
                return self.all_games();
            }
            let slug = path
                .strip_prefix(&self.data)
                .ok()
                .and_then(|rel| rel.components().next())
                .and_then(|c| c.as_os_str().to_str());
            if let Some(slug) = slug
                && self.data.join(slug).join(crate::model::GAME_FILE).is_file()
                && (self.names.is_empty() || self.names.contains(slug))
            {
                games.insert(slug.to_string());
            }
        }
        games.into_iter().collect()
    }

    fn all_games(&self) -> Vec<String> {
        if self.names.is_empty() {
            crate::model::game_slugs(&self.data).unwrap_or_default()
        } else {
            self.names.iter().cloned().collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round that built nothing never says "built ... in 0 ms".
    #[test]
    fn a_failed_round_never_says_built() {
        use crate::pipeline::GameReport;
        let game = |slug: &str, outcome| GameReport {
            slug: slug.into(),
            dir: PathBuf::new(),
            outcome,
            warnings: Vec::new(),
        };
        let round = |games, load_problems| Round {
            games: Vec::new(),
            changed: Vec::new(),
            report: BuildReport {
                load_problems,
                games,
            },
            elapsed: Duration::from_millis(7),
        };
        let problem = || Problem::data("bad");
        let failed = round(
            vec![game("a", Outcome::NotChecked(vec![problem(), problem()]))],
            Vec::new(),
        );
        assert_eq!(failed.summary(), "a not built (2 problems)");
        assert_eq!(
            round(Vec::new(), vec![problem()]).summary(),
            "not built (1 problem)"
        );
        let mixed = round(
            vec![
                game("a", Outcome::Built(Vec::new())),
                game("b", Outcome::Failed(vec![problem()])),
            ],
            Vec::new(),
        );
        assert_eq!(mixed.summary(), "built a in 7 ms; b not built (1 problem)");
    }

    fn scope(dir: &Path) -> Scope {
        for slug in ["alpha", "beta"] {
            std::fs::create_dir_all(dir.join("data").join(slug)).unwrap();
            std::fs::write(
                dir.join("data").join(slug).join(crate::model::GAME_FILE),
                "",
            )
            .unwrap();
        }
        Scope {
            data: dir.join("data"),
            out: dir.join("data/alpha/out"),
            templates: None,
            names: BTreeSet::new(),
        }
    }

    #[test]
    fn a_change_rebuilds_only_the_game_whose_folder_holds_it() {
        let tmp = tempfile::tempdir().unwrap();
        let s = scope(tmp.path());
        let changed = vec![
            tmp.path().join("data/beta/cards.csv"),
            tmp.path().join("data/beta/art/x.png"),
        ];
        assert_eq!(s.games_touched(&changed), vec!["beta".to_string()]);
        let stray = vec![tmp.path().join("data/notes.txt")];
        assert!(s.games_touched(&stray).is_empty());
    }

    /// One round of a test: the round, the gallery page after it, the game's folder.
    type Step<'a> = dyn FnMut(&Round, &str, &Path) + 'a;

    /// Watches a scaffolded game with `builder` while `steps` run, one a round (each sees the
    /// round and the game's gallery page, and may change the data); stops after the last. A
    /// templates folder beside the data folder (`<game>/../../templates`) is watched as the
    /// one `$PRINTPLAY_TEMPLATES` names.
    fn watch_rounds(builder: &Builder, steps: &mut [&mut Step]) -> String {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        crate::scaffold::new_game(&data, "g").unwrap();
        let templates = tmp.path().join("templates");
        std::fs::create_dir(&templates).unwrap();
        let options = BuildOptions {
            out: tmp.path().join("out"),
            only: ["cards", "index"].into_iter().map(str::to_string).collect(),
            ..BuildOptions::default()
        };
        let page_path = options
            .out
            .join("g")
            .join(crate::render::formats::index::INDEX_FILE);
        let stop = AtomicBool::new(false);
        /// Stops the guard below when a step fails, so that the failure is reported at once.
        struct StopOnDrop<'a>(&'a AtomicBool);
        impl Drop for StopOnDrop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let mut round = 0;
        let game_dir = data.join("g");
        std::thread::scope(|s| {
            // A watch that misses a change must not hang the test.
            let guard = s.spawn(|| {
                let start = Instant::now();
                while !stop.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(300) {
                    std::thread::sleep(POLL);
                }
                stop.store(true, Ordering::Relaxed);
            });
            let _stop = StopOnDrop(&stop);
            let mut on_round = |r: &Round| {
                let page = std::fs::read_to_string(&page_path).unwrap_or_default();
                steps[round](r, &page, &game_dir);
                round += 1;
                if round == steps.len() {
                    stop.store(true, Ordering::Relaxed);
                }
            };
            watch_with(
                &data,
                &[],
                Some(&templates),
                &options,
                &stop,
                &mut on_round,
                builder,
            )
            .unwrap();
            guard.join().unwrap();
        });
        assert_eq!(round, steps.len(), "a change was not rebuilt");
        std::fs::read_to_string(&page_path).unwrap()
    }

    fn edit(dir: &Path, file: &str, from: &str, to: &str) {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from));
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }

    #[test]
    fn a_build_that_panics_is_reported_and_watching_goes_on() {
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let builder = |data: &Path, games: &[String], options: &BuildOptions| {
            if calls.fetch_add(1, Ordering::Relaxed) == 0 {
                panic!("a defect planted by the test");
            }
            pipeline::build(data, games, options, &|_| {})
        };
        let page = watch_rounds(
            &builder,
            &mut [
                &mut |r, page, dir| {
                    let problems = r.report.problems();
                    assert_eq!(problems.len(), 1, "{problems:?}");
                    assert!(problems[0].message.contains("a defect planted by the test"));
                    // The page says so, and reloads to follow the next round.
                    assert!(page.contains("a defect planted by the test"), "{page}");
                    assert!(page.contains("http-equiv=\"refresh\""));
                    edit(dir, "game.toml", "name = \"g\"", "name = \"Dawn\"");
                },
                &mut |r, page, _| {
                    assert!(r.report.problems().is_empty(), "{:?}", r.report.problems());
                    assert!(page.contains("<h1>Dawn</h1>"), "{page}");
                    assert!(!page.contains("Not built"), "{page}");
                },
            ],
        );
        // Watching stopped: the page no longer reloads.
        assert!(!page.contains("refresh"), "{page}");
        assert!(
            page.contains("<h1>Dawn</h1>") && page.contains("cards.pdf"),
            "{page}"
        );
    }

    #[test]
    fn the_gallery_shows_why_the_data_does_not_build_until_it_does() {
        let build = |data: &Path, games: &[String], options: &BuildOptions| {
            pipeline::build(data, games, options, &|_| {})
        };
        let page = watch_rounds(
            &build,
            &mut [
                &mut |r, page, dir| {
                    assert!(r.report.problems().is_empty());
                    assert!(page.contains("cards.pdf") && !page.contains("Not built"));
                    edit(dir, "cards.csv", ",1,", ",<script>x</script>,");
                },
                &mut |r, page, dir| {
                    assert_eq!(r.report.problems().len(), 1, "{:?}", r.report.problems());
                    // The problem is on the page, escaped, above the last good files.
                    assert!(page.contains("Not built: 1 problem<"), "{page}");
                    assert!(page.contains("&lt;script&gt;x&lt;/script&gt;"), "{page}");
                    assert!(!page.contains("<script>"), "{page}");
                    assert!(page.contains("href=\"cards.pdf\""), "{page}");
                    assert!(page.contains("http-equiv=\"refresh\""));
                    // A second problem: the page follows the data.
                    edit(dir, "cards.csv", ",sun,5,", ",sun,50,");
                },
                &mut |r, page, _| {
                    let n = r.report.problems().len();
                    assert!(n >= 2, "{:?}", r.report.problems());
                    assert!(
                        page.contains(&format!(
                            "Not built: {}",
                            crate::messages::count_of(n, "problem", "problems")
                        )),
                        "{page}"
                    );
                },
            ],
        );
        // Watching stopped with the data still broken: the page says so and no longer reloads.
        assert!(
            page.contains("Not built") && page.contains("&lt;script&gt;"),
            "{page}"
        );
        assert!(!page.contains("refresh"), "{page}");
    }

    #[test]
    fn an_edit_in_the_templates_folder_rebuilds_every_game() {
        let build = |data: &Path, games: &[String], options: &BuildOptions| {
            pipeline::build(data, games, options, &|_| {})
        };
        watch_rounds(
            &build,
            &mut [
                &mut |r, _, dir| {
                    assert_eq!(r.games, ["g"]);
                    std::fs::write(dir.join("../../templates/card.svg"), "<svg/>").unwrap();
                },
                &mut |r, _, _| {
                    assert_eq!(r.games, ["g"]);
                    assert!(
                        r.changed.iter().any(|p| p.ends_with("templates/card.svg")),
                        "{:?}",
                        r.changed
                    );
                },
            ],
        );
    }

    #[test]
    fn own_output_and_temporary_files_are_not_inputs() {
        let tmp = tempfile::tempdir().unwrap();
        let s = scope(tmp.path());
        assert!(!s.is_input(&tmp.path().join("data/alpha/out/alpha/cards.pdf")));
        assert!(!s.is_input(&tmp.path().join("data/alpha/.cards.csv.swp")));
        assert!(!s.is_input(&tmp.path().join("data/alpha/components.toml~")));
        assert!(s.is_input(&tmp.path().join("data/alpha/components.toml")));
    }
}
