//! `printplay watch`: build the named games, then rebuild a game whenever a file of its folder
//! changes (data, CSV, art, fonts, templates), and the whole set when the templates named by
//! `$PRINTPLAY_TEMPLATES` change. Every rebuild goes through the same pipeline as `build`
//! ([`crate::pipeline`]), so files are written atomically and a game whose data fails its
//! check keeps its previous output.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify_debouncer_mini::notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, new_debouncer};

use crate::assets::TemplateSource;
use crate::diag::Problem;
use crate::pipeline::{self, BuildReport};
use crate::render::BuildOptions;

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
    let options = BuildOptions {
        live_reload: true,
        first: Some(FIRST_OUTPUT),
        ..options.clone()
    };
    // Watch first, then build: a change made while the first build runs is not lost.
    let (tx, rx) = mpsc::channel::<DebounceEventResult>();
    let mut debouncer = new_debouncer(DEBOUNCE, tx).map_err(|e| Problem::io(data, e))?;
    let data_abs = std::fs::canonicalize(data).map_err(|e| Problem::io(data, e))?;
    debouncer
        .watcher()
        .watch(&data_abs, RecursiveMode::Recursive)
        .map_err(|e| Problem::io(data, e))?;
    let templates = match TemplateSource::from_env() {
        TemplateSource::Folder(dir) => {
            let abs = std::fs::canonicalize(&dir).map_err(|e| Problem::io(&dir, e))?;
            debouncer
                .watcher()
                .watch(&abs, RecursiveMode::Recursive)
                .map_err(|e| Problem::io(&dir, e))?;
            Some(abs)
        }
        TemplateSource::Builtin => None,
    };
    let out_abs = std::fs::create_dir_all(&options.out)
        .and_then(|()| std::fs::canonicalize(&options.out))
        .map_err(|e| Problem::io_write(&options.out, e))?;
    let scope = Scope {
        data: data_abs,
        out: out_abs,
        templates,
        names: names.iter().cloned().collect(),
    };

    let mut stamps: BTreeMap<String, Stamp> = scope
        .all_games()
        .into_iter()
        .map(|slug| {
            let stamp = stamp(&scope.data.join(&slug), &scope.out);
            (slug, stamp)
        })
        .collect();
    on_round(&build_round(data, names, &options, Vec::new()));
    while !stop.load(Ordering::Relaxed) {
        let changed = match rx.recv_timeout(POLL) {
            Ok(Ok(events)) => events.into_iter().map(|e| e.path).collect::<Vec<_>>(),
            Ok(Err(_)) | Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let changed: Vec<PathBuf> = changed.into_iter().filter(|p| scope.is_input(p)).collect();
        // Reading a file raises events too (our own build reads every file): rebuild only a
        // game whose files really differ from what the last build saw.
        let games: Vec<String> = scope
            .games_touched(&changed)
            .into_iter()
            .filter(|slug| {
                let now = stamp(&scope.data.join(slug), &scope.out);
                stamps.insert(slug.clone(), now.clone()) != Some(now)
            })
            .collect();
        if !games.is_empty() {
            on_round(&build_round(data, &games, &options, changed));
        }
    }
    Ok(())
}

fn build_round(
    data: &Path,
    games: &[String],
    options: &BuildOptions,
    changed: Vec<PathBuf>,
) -> Round {
    let start = Instant::now();
    let report = pipeline::build(data, games, options, &|_| {});
    Round {
        games: report.games.iter().map(|g| g.slug.clone()).collect(),
        changed,
        report,
        elapsed: start.elapsed(),
    }
}

/// Each file under a game's folder with its size and modification time.
type Stamp = Vec<(PathBuf, u64, Option<std::time::SystemTime>)>;

fn stamp(dir: &Path, skip: &Path) -> Stamp {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.filter_map(Result::ok) {
            let Ok(meta) = e.metadata() else { continue };
            if e.path().starts_with(skip) {
                continue;
            } else if meta.is_dir() {
                stack.push(e.path());
            } else {
                out.push((e.path(), meta.len(), meta.modified().ok()));
            }
        }
    }
    out.sort();
    out
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
