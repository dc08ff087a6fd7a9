//! The whole way from a data folder to files on disk: load each game, check it, and build the
//! games that pass. `printplay build`, `printplay watch` and the tests all go through here, so
//! whatever stops a build is what `printplay check` reports first. The list of a game's build
//! stages ([`stages`]) lives here, above `render` and `rules`, whose outputs it names.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::check::check_and_draw;
use crate::diag::Problem;
use crate::model::{Game, game_slugs, load_game};
use crate::render::faces::Faces;
use crate::render::faces::template::Templates;
use crate::render::formats::index::write_index;
use crate::render::{self, BuildOptions, GameBuild, Stage};
use crate::rules;

/// The name `--only` knows the gallery page (`index.html`) by.
pub const INDEX_STAGE: &str = "index";

/// The names `--only` accepts: every build stage ([`stages`]) and the gallery page, which is
/// written after them.
pub fn stage_names() -> Vec<&'static str> {
    let mut names: Vec<_> = stages().into_iter().map(|(name, _)| name).collect();
    names.push(INDEX_STAGE);
    names
}

/// Every stage of `printplay build`, in order; each game runs them all in parallel, except the
/// last (the rules reference), which runs after them. To add an output, add one line here.
pub fn stages() -> Vec<(&'static str, Stage)> {
    vec![
        ("cards", render::cards_stage),
        ("tokens", render::tokens_stage),
        ("boxes", render::sheets::tuck_box::stage),
        ("board", render::sheets::boards::pages::board_stage),
        ("png", render::png_stage),
        ("tts", render::formats::tts::stage),
        ("shop", render::formats::shop::stage),
        (render::CHANGED_STAGE, crate::diff::changed::stage),
        ("proof", render::formats::proof::stage),
        ("rulebook", |b| rules::pdf::stage(b.game, &b.dir)),
        ("rules", |b| rules::stage(b.game, &b.dir)),
    ]
}

/// The stages that print the faces with trim and safe-zone guides when the build asks for
/// them (`--guides`): the home-printed sheets and the proof; the board and proof stages,
/// which draw the boards themselves, draw the boards' guides when `options.guides` is on.
/// The others (print-shop files, Tabletop Simulator images, the gallery and rules pictures)
/// print the faces as they are.
pub const GUIDED_STAGES: &[&str] = &["cards", "tokens", "board", "proof"];

/// Creates an output folder and proves it writable; when it cannot be, one problem (exit 2)
/// naming the path in the way: a file where a folder should be, or the folder itself.
pub fn prepare_output(dir: &Path) -> Result<(), Problem> {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Err(match dir.ancestors().find(|a| a.is_file()) {
            Some(file) => Problem::io_write(file, "it is a file where a folder should be"),
            None => Problem::io_write(dir, e),
        });
    }
    let probe = dir.join(format!(".printplay-probe.{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| Problem::io_write(dir, e))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Draws a game's faces and runs every stage; the errors say what failed.
pub fn build_game(game: &Game, options: &BuildOptions) -> Result<Vec<PathBuf>, Vec<String>> {
    let templates = Templates::new(game).map_err(|e| vec![e])?;
    let cache = render::cache::Cache::open(options, game, &templates);
    let faces = render::faces::draw_all_cached(game, &templates, options.bleed, cache)
        .map_err(|errs| errs.into_iter().map(|e| e.message).collect::<Vec<_>>())?;
    if let Some(cache) = &faces.cache {
        cache.commit();
    }
    build_drawn(game, faces, options)
}

/// Runs every stage on faces already drawn with `options.bleed` (by the check before the
/// build, so that each face is drawn once per build); the errors say what failed.
pub fn build_drawn(
    game: &Game,
    faces: Faces,
    options: &BuildOptions,
) -> Result<Vec<PathBuf>, Vec<String>> {
    prepare_output(&render::game_dir(&options.out, game)).map_err(|p| vec![p.message])?;
    let faces = match options.mirror_bleed {
        true => render::faces::bleed::mirror_faces(faces, options.bleed),
        false => faces,
    };
    let guided = options.guides.then(|| GameBuild {
        game,
        faces: render::faces::guides::guided(&faces, crate::check::safe_zone(game)),
        options,
        dir: options.out.join(&game.slug),
    });
    let build = GameBuild {
        game,
        faces,
        options,
        dir: options.out.join(&game.slug),
    };
    // The build a stage prints: the guided faces for the proofing stages when asked for.
    let build_for = |name: &str| match &guided {
        Some(g) if GUIDED_STAGES.contains(&name) => g,
        _ => &build,
    };
    let mut stages: Vec<_> = stages()
        .into_iter()
        .filter(|(name, _)| options.wants(name))
        .collect();
    // The stage a designer waits for under `watch` runs alone first, with every core.
    let first = options
        .first
        .and_then(|name| stages.iter().position(|(n, _)| *n == name))
        .map(|at| stages.remove(at));
    let mut results: Vec<(&str, Result<Vec<PathBuf>, String>)> = first
        .map(|(name, stage)| (name, stage(build_for(name))))
        .into_iter()
        .collect();
    // The last stage (the rules reference) links the images and PDFs the others write, so it
    // runs once they are done.
    let last = stages.pop_if(|(name, _)| *name == "rules");
    results.extend(
        stages
            .into_par_iter()
            .map(|(name, stage)| (name, stage(build_for(name))))
            .collect::<Vec<_>>(),
    );
    results.extend(last.map(|(name, stage)| (name, stage(build_for(name)))));
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for (name, r) in results {
        match r {
            Ok(f) => files.extend(f),
            Err(e) => errors.push(format!("{name}: {e}")),
        }
    }
    if errors.is_empty() {
        Ok(files)
    } else {
        Err(errors)
    }
}

/// Parses `--only cards,tokens`: the named stages, or an error listing the known ones.
pub fn parse_only(text: &str) -> Result<BTreeSet<String>, String> {
    let known = stage_names();
    let mut chosen = BTreeSet::new();
    for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if !known.contains(&name) {
            return Err(format!(
                "`{name}` is not an output; choose from {}",
                known.join(", ")
            ));
        }
        chosen.insert(name.to_string());
    }
    if chosen.is_empty() {
        return Err(format!("name at least one of {}", known.join(", ")));
    }
    Ok(chosen)
}

/// Loads the named games (all when none are named); problems are collected, not fatal.
pub fn load_games(data: &Path, names: &[String]) -> (Vec<Game>, Vec<Problem>) {
    let slugs = if names.is_empty() {
        match game_slugs(data) {
            Ok(s) => s,
            Err(p) => return (Vec::new(), vec![p]),
        }
    } else {
        names.to_vec()
    };
    let mut games = Vec::new();
    let mut problems = Vec::new();
    for slug in slugs {
        match load_game(data, &slug) {
            Ok(g) => games.push(g),
            Err(ps) => problems.extend(ps),
        }
    }
    if games.is_empty() && problems.is_empty() {
        problems.extend(no_games(data).load_problems);
    }
    (games, problems)
}

/// Loads one game and runs `check` on it, as every command that reads a game does before it
/// uses it (simulate, tune, replay, play, table, serve, rules, export-csv, variants, analyze,
/// playtests): the game when it loads and `check` finds no problem in it, else every
/// problem, as `printplay check` reports them (what fails to load, or what the check finds;
/// warnings do not stop a command).
pub fn load_checked(data: &Path, slug: &str) -> Result<Game, Vec<Problem>> {
    let (mut games, problems) = load_checked_games(data, &[slug.to_string()]);
    match games.pop() {
        Some(game) if problems.is_empty() => Ok(game),
        _ => Err(problems),
    }
}

/// [`load_checked`] for the named games (all when none are named): the games that load and
/// pass their check, and the problems of the others.
pub fn load_checked_games(data: &Path, names: &[String]) -> (Vec<Game>, Vec<Problem>) {
    let (games, mut problems) = load_games(data, names);
    let found: Vec<(Game, Vec<Problem>)> = games
        .into_par_iter()
        .map(|game| {
            let found = crate::check::check_game(&game);
            (game, found)
        })
        .collect();
    let mut passed = Vec::new();
    for (game, found) in found {
        if found.iter().all(Problem::is_warning) {
            passed.push(game);
        } else {
            problems.extend(found);
        }
    }
    (passed, problems)
}

/// What became of one game in a build.
#[derive(Debug)]
pub enum Outcome {
    /// Built: the files written.
    Built(Vec<PathBuf>),
    /// Its data did not load or its check found problems, so nothing of it was written.
    NotChecked(Vec<Problem>),
    /// Checked, but a stage failed (a file could not be written, a drawing failed).
    Failed(Vec<Problem>),
}

/// One game's result.
#[derive(Debug)]
pub struct GameReport {
    pub slug: String,
    /// `<out>/<slug>/`.
    pub dir: PathBuf,
    pub outcome: Outcome,
    /// What the check warned of (art that prints below 200 dpi): printed, but not stopping
    /// the build, as `printplay check` prints them.
    pub warnings: Vec<Problem>,
}

/// The result of a build: problems of games that could not even be loaded, and each loaded
/// game's outcome in the order the games were named.
#[derive(Debug, Default)]
pub struct BuildReport {
    pub load_problems: Vec<Problem>,
    pub games: Vec<GameReport>,
}

impl BuildReport {
    /// A build that could not start: the data folder cannot be read.
    fn failed(problem: Problem) -> BuildReport {
        BuildReport {
            load_problems: vec![problem],
            games: Vec::new(),
        }
    }

    /// Every problem and warning, load problems first, then each game's in order (its
    /// warnings before its problems, as `printplay check` lists them).
    pub fn problems(&self) -> Vec<Problem> {
        let mut all = self.load_problems.clone();
        for g in &self.games {
            all.extend(g.warnings.iter().cloned());
            if let Outcome::NotChecked(ps) | Outcome::Failed(ps) = &g.outcome {
                all.extend(ps.iter().cloned());
            }
        }
        all
    }
}

/// Loads, checks and builds the named games (all when none are named) from `data`.
/// `on_built` is called as each game finishes (for a progress bar).
pub fn build(
    data: &Path,
    names: &[String],
    options: &BuildOptions,
    on_built: &(dyn Fn(&str) + Sync),
) -> BuildReport {
    let slugs = if names.is_empty() {
        match game_slugs(data) {
            Ok(s) if s.is_empty() => return no_games(data),
            Ok(s) => s,
            Err(p) => return BuildReport::failed(p),
        }
    } else {
        names.to_vec()
    };
    let games = slugs
        .par_iter()
        .map(|slug| match load_game(data, slug) {
            Ok(game) => build_one(&game, options, on_built),
            Err(problems) => GameReport {
                slug: slug.clone(),
                dir: options.out.join(slug),
                outcome: Outcome::NotChecked(problems),
                warnings: Vec::new(),
            },
        })
        .collect();
    BuildReport {
        load_problems: Vec::new(),
        games,
    }
}

fn no_games(data: &Path) -> BuildReport {
    BuildReport::failed(Problem::io(
        data,
        "holds no game folders (a folder with a game.toml)",
    ))
}

/// Checks and builds games already loaded; a game that fails its check is not built.
pub fn build_loaded(
    games: &[Game],
    options: &BuildOptions,
    on_built: &(dyn Fn(&str) + Sync),
) -> Vec<GameReport> {
    games
        .par_iter()
        .map(|game| build_one(game, options, on_built))
        .collect()
}

fn build_one(game: &Game, options: &BuildOptions, on_built: &(dyn Fn(&str) + Sync)) -> GameReport {
    let dir = options.out.join(&game.slug);
    // The check draws every face to prove it prints; the build prints those very faces.
    let (found, faces) = check_and_draw(game, options);
    let cache = faces.as_ref().and_then(|f| f.cache.clone());
    let outcome = if !found.problems.is_empty() {
        Outcome::NotChecked(found.problems)
    } else {
        match prepare_output(&dir)
            .map_err(|p| vec![p])
            .and_then(|()| built(game, faces, options))
        {
            Ok(files) => Outcome::Built(files),
            Err(ps) => Outcome::Failed(ps),
        }
    };
    // The faces of a game that passed its check are kept; after a whole build the cache
    // keeps only what it used: one build's worth.
    if let Some(cache) = cache
        && !matches!(outcome, Outcome::NotChecked(_))
    {
        cache.commit();
        if matches!(outcome, Outcome::Built(_)) && options.only.is_empty() {
            cache.sweep();
        }
    }
    on_built(&game.slug);
    GameReport {
        slug: game.slug.clone(),
        dir,
        outcome,
        warnings: found.warnings,
    }
}

/// Runs the build stages on the faces the check drew (drawing them when it could not), then
/// writes the gallery of what the folder holds; a failing stage is one problem naming the
/// game and the stage.
fn built(
    game: &Game,
    faces: Option<Faces>,
    options: &BuildOptions,
) -> Result<Vec<PathBuf>, Vec<Problem>> {
    let problem = |e: String| Problem::build(format!("{}: {e}", game.slug));
    let written = match faces {
        Some(faces) => build_drawn(game, faces, options),
        None => build_game(game, options),
    };
    let mut files =
        written.map_err(|errors| errors.into_iter().map(problem).collect::<Vec<_>>())?;
    if options.wants(INDEX_STAGE) {
        let dir = options.out.join(&game.slug);
        files.push(write_index(game, &dir, options.live_reload).map_err(|e| vec![problem(e)])?);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_accepts_stage_names_and_lists_them_when_wrong() {
        let chosen = parse_only("cards, png").unwrap();
        assert_eq!(
            chosen.into_iter().collect::<Vec<_>>(),
            vec!["cards".to_string(), "png".to_string()]
        );
        let e = parse_only("cards,pdf").unwrap_err();
        assert!(e.contains("`pdf`") && e.contains("tokens"), "{e}");
        assert!(parse_only(",").is_err());
    }

    #[test]
    fn a_file_where_the_output_folder_should_be_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let blocker = tmp.path().join("out");
        std::fs::write(&blocker, b"not a folder").unwrap();
        let problem = prepare_output(&blocker.join("game")).unwrap_err();
        let text = problem.to_string();
        assert!(text.contains(&blocker.display().to_string()), "{text}");
        assert!(text.contains("is a file"), "{text}");
        assert_eq!(problem.kind, crate::diag::ProblemKind::Io);
    }
}
