//! Reading a game's folder into the model, with every parse error placed in its file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::{ComponentsFile, Game, GameFile};
use crate::diag::{Problem, SourceFile};

pub const GAME_FILE: &str = "game.toml";
pub const COMPONENTS_FILE: &str = "components.toml";

/// The slugs of the games in a data folder: its sub-folders that hold a `game.toml`, sorted.
pub fn game_slugs(data_dir: &Path) -> Result<Vec<String>, Problem> {
    let entries = std::fs::read_dir(data_dir).map_err(|e| Problem::io(data_dir, e))?;
    let mut slugs: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().join(GAME_FILE).is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    slugs.sort();
    Ok(slugs)
}

/// Loads one game; every problem found in its files is returned together.
pub fn load_game(data_dir: &Path, slug: &str) -> Result<Game, Vec<Problem>> {
    let dir = data_dir.join(slug);
    if !dir.is_dir() {
        return Err(vec![Problem::io(&dir, "no such game folder").help(
            format!(
                "`printplay list --data {}` shows the games",
                data_dir.display()
            ),
        )]);
    }
    let game =
        read_source(&dir.join(GAME_FILE)).and_then(|f| parse::<GameFile>(&f).map(|g| (f, g)));
    let comps = read_source(&dir.join(COMPONENTS_FILE))
        .and_then(|f| parse::<ComponentsFile>(&f).map(|c| (f, c)));
    match (game, comps) {
        (Ok((game_file, g)), Ok((components_file, components))) => Ok(Game {
            slug: slug.to_string(),
            dir,
            info: g.game,
            params: g.params,
            invariants: g.invariants,
            components,
            game_file,
            components_file,
        }),
        (g, c) => Err([g.err(), c.err()].into_iter().flatten().collect()),
    }
}

/// Reads a data file as UTF-8 text; a byte that is not UTF-8 is reported where it stands.
pub fn read_source(path: &Path) -> Result<SourceFile, Problem> {
    let bytes = std::fs::read(path).map_err(|e| Problem::io(path, e))?;
    let shown = display_path(path);
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile {
            path: shown,
            text: Arc::from(text),
        }),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let file = SourceFile {
                path: shown,
                text: Arc::from(String::from_utf8_lossy(e.as_bytes()).into_owned()),
            };
            let end = (at + 1).min(file.text.len());
            Err(Problem::data("the file is not valid UTF-8 text")
                .at(&file, at..end, "this byte is not UTF-8")
                .help("save the file as UTF-8"))
        }
    }
}

/// Parses TOML into a model type; the error points at the offending text.
pub fn parse<T: DeserializeOwned>(file: &SourceFile) -> Result<T, Problem> {
    toml::from_str(&file.text).map_err(|e| {
        let message = e.message().trim().to_string();
        let problem = Problem::data(first_line(&message));
        match e.span() {
            Some(span) => problem.at(file, widen(span, &file.text), message),
            None => problem.in_file(file),
        }
    })
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or(s).to_string()
}

/// An empty span (a missing key at the end of a table) underlines at least one character.
fn widen(span: std::ops::Range<usize>, text: &str) -> std::ops::Range<usize> {
    if span.is_empty() && span.start < text.len() {
        span.start..span.start + 1
    } else {
        span
    }
}

/// Paths are shown relative to the working directory when they are under it.
fn display_path(path: &Path) -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
}
