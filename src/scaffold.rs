//! `printplay new SLUG`: a new game folder that checks and builds as it is.

use std::path::{Path, PathBuf};

use crate::diag::Problem;
use crate::model::{COMPONENTS_FILE, GAME_FILE};

/// Files of a new game, relative to its folder: an original design with a spreadsheet deck,
/// art drawn by us, a font of its own used on the cards, a token and a small hex board.
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
        ("art/emblem.svg", text(include_str!("scaffold/emblem.svg"))),
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

/// Creates `data/SLUG/` with starter files; refuses to touch an existing folder.
pub fn new_game(data: &Path, slug: &str) -> Result<PathBuf, Problem> {
    let valid = !slug.is_empty()
        && slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !slug.starts_with('-');
    if !valid {
        return Err(Problem::io(
            Path::new(slug),
            "a slug is lower-case letters, digits and dashes",
        ));
    }
    let dir = data.join(slug);
    if dir.exists() {
        return Err(Problem::io(
            &dir,
            "already exists; printplay new never overwrites a game",
        ));
    }
    let tmp = data.join(format!(".{slug}.new"));
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(&tmp)?;
        for (name, bytes) in starter_files(slug) {
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
        Problem::io(&dir, e)
    })?;
    Ok(dir)
}
