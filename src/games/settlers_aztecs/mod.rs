//! Imperial Settlers: Aztecs: deck-building rules ([`check`]), exact Pray odds ([`pray`]) and
//! the analysis of Pray actions' yield ([`analysis`], `printplay analyze`).
//!
//! We have no card texts: faction cards are generic slots, and the base game's common deck is a
//! colour mix read from the data (`params.common_deck`). There is no engine to simulate: the
//! rulebook has no solo mode, and our copy lacks the goal and scoring a game would need.

pub mod analysis;
pub mod check;
pub mod pray;

pub use analysis::{Analysis, Request, VARIANTS, analysis_text, analyze};
pub use pray::{CommonDeck, OddsRow, Pile, choose_odds, pray_odds_table};

use crate::diag::Problem;
use crate::games::GameModule;
use crate::model::Game;

/// The id a game's `engine` key uses for this module.
pub const ID: &str = "imperial-settlers-aztecs";

/// The game module registered in [`crate::games::modules`].
pub struct SettlersAztecs;

impl GameModule for SettlersAztecs {
    fn id(&self) -> &'static str {
        ID
    }

    fn check(&self, game: &Game) -> Vec<Problem> {
        check::check(game)
    }
}

/// Why `printplay simulate` has nothing to play for this game, and what to run instead.
pub fn no_simulation(game: &Game) -> String {
    format!(
        "{}: nothing to simulate. The rulebook has no solo game, and our copy lacks the goal, \
         the flow of a round and the scoring a game would need, so no game can be played to a \
         winner. What the rules define is the yield of Pray actions: run `printplay analyze {}` \
         (see --help) for its distributions and expected values.",
        game.slug, game.slug
    )
}

/// A list-of-strings parameter.
pub(crate) fn param_strs(game: &Game, name: &str) -> Result<Vec<String>, String> {
    let wrong = || {
        format!(
            "parameter `{name}` of {} must be a list of texts",
            game.slug
        )
    };
    let p = game
        .param(name)
        .ok_or_else(|| format!("{} has no parameter `{name}` in game.toml", game.slug))?;
    let list = p.value.get_ref().as_array().ok_or_else(wrong)?;
    list.iter()
        .map(|v| v.as_str().map(str::to_string).ok_or_else(wrong))
        .collect()
}

/// A boolean parameter.
pub(crate) fn param_bool(game: &Game, name: &str) -> Result<bool, String> {
    let p = game
        .param(name)
        .ok_or_else(|| format!("{} has no parameter `{name}` in game.toml", game.slug))?;
    p.value
        .get_ref()
        .as_bool()
        .ok_or_else(|| format!("parameter `{name}` of {} must be true or false", game.slug))
}

#[cfg(test)]
pub(crate) mod testdata {
    //! Loads the shipped data, or a copy with one text replacement, for tests that break it.

    use std::path::{Path, PathBuf};

    use crate::model::{COMPONENTS_FILE, GAME_FILE, Game, load_game};

    pub const SLUG: &str = "imperial-settlers-aztecs";

    fn data_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
    }

    /// The shipped game.
    pub fn shipped() -> Game {
        load_game(&data_dir(), SLUG).expect("shipped data loads")
    }

    /// The game with `from` replaced by `to` once in `file` (`game.toml` or `components.toml`).
    pub fn edited(file: &str, from: &str, to: &str) -> Game {
        edits(&[(file, from, to)])
    }

    /// The game with several `(file, from, to)` replacements, each made once.
    pub fn edits(changes: &[(&str, &str, &str)]) -> Game {
        let dir = tempfile::tempdir().unwrap();
        let src = data_dir().join(SLUG);
        let dst = dir.path().join(SLUG);
        std::fs::create_dir_all(&dst).unwrap();
        for name in [GAME_FILE, COMPONENTS_FILE] {
            let mut text = std::fs::read_to_string(src.join(name)).unwrap();
            for (file, from, to) in changes {
                assert!(*file == GAME_FILE || *file == COMPONENTS_FILE);
                if *file == name {
                    assert!(text.contains(from), "test edit: `{from}` not in {name}");
                    text = text.replacen(from, to, 1);
                }
            }
            std::fs::write(dst.join(name), text).unwrap();
        }
        load_game(dir.path(), SLUG).expect("edited data loads")
    }
}
