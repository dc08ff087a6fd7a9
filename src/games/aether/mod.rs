//! Aether (Onni Games 2010): the board checker, the rule engine and its heuristic bot.

mod bots;
mod check;
mod engine;
mod rules;

pub use engine::{Action, AetherEngine, AetherState};
pub use rules::{Rules, Setup};

use crate::diag::Problem;
use crate::games::GameModule;
use crate::model::Game;

/// Aether's game module: `engine = "aether"` in `game.toml`.
pub struct Aether;

impl GameModule for Aether {
    fn id(&self) -> &'static str {
        "aether"
    }

    fn check(&self, game: &Game) -> Vec<Problem> {
        check::check(game)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::Path;

    use crate::model::{COMPONENTS_FILE, GAME_FILE, Game, load_game};

    fn data_dir() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data"))
    }

    /// The shipped Aether data.
    pub fn load() -> Game {
        load_game(data_dir(), "aether").expect("shipped aether data loads")
    }

    /// The shipped data with each `(from, to)` replaced everywhere in whichever file holds it.
    pub fn load_with(edits: &[(&str, &str)]) -> Game {
        let src = data_dir().join("aether");
        let mut files: Vec<(&str, String)> = [GAME_FILE, COMPONENTS_FILE]
            .into_iter()
            .map(|f| (f, std::fs::read_to_string(src.join(f)).expect("read data")))
            .collect();
        for (from, to) in edits {
            let mut hit = false;
            for (_, text) in files.iter_mut() {
                hit |= text.contains(from);
                *text = text.replace(from, to);
            }
            assert!(hit, "no data file contains {from:?}");
        }
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().join("aether");
        std::fs::create_dir(&dir).expect("game dir");
        for (name, text) in &files {
            std::fs::write(dir.join(name), text).expect("write data");
        }
        load_game(tmp.path(), "aether").expect("edited data still parses")
    }
}
