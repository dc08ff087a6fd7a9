//! `printplay new SLUG`: a new game folder that checks and builds as it is.

use std::path::{Path, PathBuf};

use crate::diag::Problem;
use crate::model::{COMPONENTS_FILE, GAME_FILE};

/// Files of a new game, relative to its folder: an original design with a spreadsheet deck,
/// art drawn by us, a font of its own used on the cards, bold, italic and an icon of its own
/// in the card text, a card with its own back, a two-sided token, a small hex board and a
/// square-grid player mat.
fn starter_files(slug: &str) -> Vec<(&'static str, Vec<u8>)> {
    let text = |t: &str| t.replace("{slug}", slug).into_bytes();
    vec![
        (GAME_FILE, text(include_str!("scaffold/game.toml"))),
        (
            COMPONENTS_FILE,
            text(include_str!("scaffold/components.toml")),
        ),
        ("cards.csv", text(include_str!("scaffold/cards.csv"))),
        (
            "rules.en.toml",
            text(include_str!("scaffold/rules.en.toml")),
        ),
        (
            "templates/card.svg",
            text(include_str!("scaffold/card.svg")),
        ),
        (
            "templates/comet-back.svg",
            text(include_str!("scaffold/comet-back.svg")),
        ),
        (
            "templates/token-back.svg",
            text(include_str!("scaffold/token-back.svg")),
        ),
        ("art/emblem.svg", text(include_str!("scaffold/emblem.svg"))),
        (
            "icons/marker.svg",
            text(include_str!("scaffold/marker.svg")),
        ),
        (
            "fonts/DejaVuSerifCondensed-Italic.ttf",
            include_bytes!("../fonts/DejaVuSerifCondensed-Italic.ttf").to_vec(),
        ),
        (
            "fonts/LICENSE-DejaVu.txt",
            include_bytes!("../fonts/LICENSE-DejaVu.txt").to_vec(),
        ),
    ]
}

/// The engines `printplay new --engine` can start a game with.
pub const STARTER_ENGINES: &[&str] = &[crate::engine::lua::ENGINE_ID];

/// The starter files with a rule engine: `lua` adds a tutorial `engine.lua` for the starter
/// game and names it in `game.toml`.
fn starter_files_with(slug: &str, engine: &str) -> Vec<(&'static str, Vec<u8>)> {
    let mut files = starter_files(slug);
    for (name, bytes) in &mut files {
        if *name == GAME_FILE {
            let text = String::from_utf8_lossy(bytes).replacen(
                "[game]\n",
                &format!("[game]\nengine = \"{engine}\"\n"),
                1,
            );
            *bytes = text.into_bytes();
        }
    }
    files.push((
        crate::engine::lua::SCRIPT_FILE,
        include_str!("scaffold/engine.lua").as_bytes().to_vec(),
    ));
    files
}

/// `printplay new SLUG --engine ENGINE`: a new game that also simulates out of the box.
pub fn new_game_with_engine(data: &Path, slug: &str, engine: &str) -> Result<PathBuf, Problem> {
    if !STARTER_ENGINES.contains(&engine) {
        return Err(Problem::build(format!(
            "`{engine}` is not a starter engine; use one of: {}",
            STARTER_ENGINES.join(", ")
        )));
    }
    create(data, slug, starter_files_with(slug, engine))
}

/// Creates `data/SLUG/` with starter files; refuses to touch an existing folder.
pub fn new_game(data: &Path, slug: &str) -> Result<PathBuf, Problem> {
    create(data, slug, starter_files(slug))
}

/// A slug made from what was typed: `My Game!` becomes `my-game`, `päivä` `paiva` (letters
/// of other scripts are transliterated to ASCII, with deunicode).
fn suggested_slug(typed: &str) -> String {
    let mut out = String::new();
    for c in deunicode::deunicode(typed)
        .chars()
        .flat_map(char::to_lowercase)
    {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "my-game".to_string()
    } else {
        out.to_string()
    }
}

fn create(
    data: &Path,
    slug: &str,
    files: Vec<(&'static str, Vec<u8>)>,
) -> Result<PathBuf, Problem> {
    let valid = !slug.is_empty()
        && slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !slug.starts_with('-');
    if !valid {
        return Err(Problem::build(format!(
            "`{slug}` cannot name a game folder: a game's name on the command line (its slug) \
             is lower-case letters, digits and dashes, for example `{}`",
            suggested_slug(slug)
        )));
    }
    let dir = data.join(slug);
    if dir.exists() {
        return Err(Problem::build(format!(
            "{} already exists, and `printplay new` never overwrites a game: choose another \
             name, or remove that folder first",
            dir.display()
        )));
    }
    let tmp = data.join(format!(".{slug}.new"));
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(&tmp)?;
        for (name, bytes) in files {
            let path = tmp.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, bytes)?;
        }
        std::fs::rename(&tmp, &dir)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_dir_all(&tmp);
        Problem::io_write(&dir, e)
    })?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::suggested_slug;

    #[test]
    fn a_suggested_slug_transliterates_letters() {
        assert_eq!(suggested_slug("päivä"), "paiva");
        assert_eq!(suggested_slug("Öljy & Åland"), "oljy-aland");
        assert_eq!(suggested_slug("Жар-птица"), "zhar-ptitsa");
        assert_eq!(suggested_slug("My Game!"), "my-game");
        assert_eq!(suggested_slug("☀☀"), "my-game");
    }
}
