//! Reading a game's folder into the model, with every parse error placed in its file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::paths::resolve_in;
use super::{ComponentsFile, Game, GameFile, LangRules, RulesData, RulesMeta, RulesText};
use crate::diag::{Problem, SourceFile, io_words};

pub const GAME_FILE: &str = "game.toml";
pub const COMPONENTS_FILE: &str = "components.toml";
/// The rules reference's diagrams and glossary (optional).
pub const RULES_FILE: &str = "rules.toml";

/// The file name of the rules prose in a language: `rules.<lang>.toml`.
pub fn rules_text_file(lang: &str) -> String {
    format!("rules.{lang}.toml")
}

/// The slugs of the games in a data folder: its sub-folders that hold a `game.toml`, sorted.
pub fn game_slugs(data_dir: &Path) -> Result<Vec<String>, Problem> {
    let entries = std::fs::read_dir(data_dir).map_err(|e| {
        Problem::io(data_dir, e).help(
            "the games are read from `./data` unless `--data DIR` names another folder; \
             run printplay from the project folder or pass --data",
        )
    })?;
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
    let game = read_source_in(&dir, GAME_FILE).and_then(|f| parse::<GameFile>(&f).map(|g| (f, g)));
    let comps = read_source_in(&dir, COMPONENTS_FILE)
        .and_then(|f| parse::<ComponentsFile>(&f).map(|c| (f, c)));
    let rules = load_rules(&dir);
    let comps = comps.map_err(|p| vec![p]).and_then(|(file, mut c)| {
        let problems = super::sheet::load_sheets(&dir, &mut c, &file);
        if problems.is_empty() {
            Ok((file, c))
        } else {
            Err(problems)
        }
    });
    match (game, comps, rules) {
        (Ok((game_file, g)), Ok((components_file, components)), Ok(rules)) => Ok(Game {
            slug: slug.to_string(),
            dir,
            info: g.game,
            params: g.params,
            invariants: g.invariants,
            components,
            game_file,
            components_file,
            rules,
        }),
        (g, c, r) => Err(g
            .err()
            .into_iter()
            .chain(c.err().into_iter().flatten())
            .chain(r.err().into_iter().flatten())
            .collect()),
    }
}

/// Reads the optional rules-reference files of a game folder: `rules.toml` and every
/// `rules.<lang>.toml`. Every parse problem is returned together.
fn load_rules(dir: &Path) -> Result<RulesData, Vec<Problem>> {
    let mut data = RulesData::default();
    let mut problems = Vec::new();
    // A link (even a broken one) is read, and refused, like any other file.
    if std::fs::symlink_metadata(dir.join(RULES_FILE)).is_ok() {
        match read_source_in(dir, RULES_FILE).and_then(|f| parse::<RulesMeta>(&f).map(|m| (f, m))) {
            Ok((file, meta)) => {
                data.meta_file = Some(file);
                data.meta = meta;
            }
            Err(p) => problems.push(p),
        }
    }
    for (lang, name) in rules_text_names(dir) {
        match read_source_in(dir, &name).and_then(|f| parse::<RulesText>(&f).map(|t| (f, t))) {
            Ok((file, text)) => {
                data.texts.insert(lang, LangRules { file, text });
            }
            Err(p) => problems.push(p),
        }
    }
    if problems.is_empty() {
        Ok(data)
    } else {
        Err(problems)
    }
}

/// `rules.<lang>.toml` files of a folder (their names) by language code, sorted.
fn rules_text_names(dir: &Path) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(String, String)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let lang = name.strip_prefix("rules.")?.strip_suffix(".toml")?;
            let is_lang = !lang.is_empty()
                && lang.len() <= 8
                && lang.chars().all(|c| c.is_ascii_lowercase() || c == '-');
            is_lang.then(|| (lang.to_string(), name.clone()))
        })
        .collect();
    found.sort();
    found
}

/// Reads a data file as UTF-8 text; a byte that is not UTF-8 is reported where it stands.
pub fn read_source(path: &Path) -> Result<SourceFile, Problem> {
    within_size(path, path)?;
    let bytes = std::fs::read(path).map_err(|e| Problem::io(path, io_words(&e)))?;
    source_text(display_path(path), bytes)
}

/// Reads `rel`, a text file of the game's folder `dir`, through [`resolve_in`]: never through a
/// link that leaves the folder. Problems name the file as `dir/rel`.
pub fn read_source_in(dir: &Path, rel: &str) -> Result<SourceFile, Problem> {
    let shown = display_path(&dir.join(rel));
    // A file that is not there is a reading problem (exit 2), as for any file.
    if let Err(e) = std::fs::symlink_metadata(dir.join(rel)) {
        return Err(Problem::io(&shown, io_words(&e)));
    }
    let real =
        resolve_in(dir, rel).map_err(|e| Problem::data(format!("{}: {e}", shown.display())))?;
    within_size(&real, &shown)?;
    let bytes = std::fs::read(&real).map_err(|e| Problem::io(&shown, io_words(&e)))?;
    source_text(shown, bytes)
}

/// A text file past [`crate::limits::SOURCE_MAX_BYTES`] is refused before it is read.
fn within_size(real: &Path, shown: &Path) -> Result<(), Problem> {
    let cap = crate::limits::SOURCE_MAX_BYTES;
    match std::fs::metadata(real) {
        Ok(m) if m.len() > cap => Err(Problem::data(format!(
            "{}: the file is {} MB; a text file of a game is at most {} MB",
            shown.display(),
            m.len() >> 20,
            cap >> 20
        ))),
        _ => Ok(()),
    }
}

pub(super) fn source_text(shown: PathBuf, bytes: Vec<u8>) -> Result<SourceFile, Problem> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile::new(shown, Arc::from(text))),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let file = SourceFile::new(
                shown,
                Arc::from(String::from_utf8_lossy(e.as_bytes()).into_owned()),
            );
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
        let key = e.span().and_then(|s| key_before(&file.text, s.start));
        let message = crate::diag::designer_words(e.message().trim(), key);
        let problem = Problem::data(first_line(&message));
        // A board that is none of the kinds is reported at its own id, not at the first
        // `[[board]]` the array of tables starts with.
        let span = e
            .span()
            .map(|s| own_board(&file.text, e.message(), s.start).unwrap_or(s));
        match span {
            Some(span) => problem.at(file, widen(span, &file.text), message),
            None => problem.in_file(file),
        }
    })
}

/// Where `id = "X"` stands from `from` on, for a message about board `X`.
fn own_board(text: &str, message: &str, from: usize) -> Option<std::ops::Range<usize>> {
    let id = message.strip_prefix("board `")?.split('`').next()?;
    let quoted = format!("\"{id}\"");
    let mut at = from;
    while let Some(found) = text.get(at..)?.find(&quoted) {
        let start = at + found;
        let before = text[..start].trim_end().strip_suffix('=')?.trim_end();
        if before.ends_with("id") {
            return Some(start..start + quoted.len());
        }
        at = start + quoted.len();
    }
    None
}

/// The key whose value starts at `offset` (`kind` in `kind = "intt"` or in an inline table),
/// when the text there reads `key = value`.
fn key_before(text: &str, offset: usize) -> Option<&str> {
    let before = text.get(..offset)?.trim_end().strip_suffix('=')?.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '"')))
        .map_or(0, |i| i + 1);
    let key = before[start..].rsplit('.').next()?.trim_matches('"');
    (!key.is_empty()).then_some(key)
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
