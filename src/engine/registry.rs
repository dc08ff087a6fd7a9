//! The engine registry: which engine each `engine` id in a game.toml names, and the seats'
//! names. `play`, the table server, `check` and the simulator all reach an engine through it.

use crate::engine::lua::{self, LuaEngine};
use crate::engine::{Engine, RunError};
use crate::games::aether::AetherEngine;
use crate::games::capek_golems::{self, CapekEngine};
use crate::games::settlers_aztecs;
use crate::games::the_search::{self, SearchEngine};
use crate::model::Game;

/// Code that runs with whichever engine a game names.
pub trait EngineTask {
    type Output;
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Self::Output, String>;
}

/// [`EngineTask`] whose error carries its cause ([`RunError`]): what a run that decides an
/// exit status (`simulate`, `replay`, `play`) runs.
pub trait EngineRun {
    type Output;
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Self::Output, RunError>;
}

/// Engine ids this build can play.
pub const ENGINES: &[&str] = &[
    capek_golems::ID,
    "aether",
    the_search::ENGINE_ID,
    lua::ENGINE_ID,
];

/// Builds the engine the game's `engine` id names and hands it to `task`.
pub fn with_engine<T: EngineTask>(game: &Game, task: T) -> Result<T::Output, String> {
    struct Plain<T>(T);
    impl<T: EngineTask> EngineRun for Plain<T> {
        type Output = T::Output;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<T::Output, RunError> {
            self.0.run(engine, game).map_err(RunError::usage)
        }
    }
    run_engine(game, Plain(task)).map_err(String::from)
}

/// [`with_engine`] for a task whose error keeps its cause: an engine that cannot be made
/// from its script is the data's error, a game without an engine the command line's.
pub fn run_engine<T: EngineRun>(game: &Game, task: T) -> Result<T::Output, RunError> {
    let id = game
        .info
        .engine
        .as_deref()
        .ok_or_else(|| format!("{} names no engine in game.toml", game.slug))?;
    match id {
        capek_golems::ID => task.run(CapekEngine::load(game)?, game),
        "aether" => task.run(AetherEngine::load(game)?, game),
        settlers_aztecs::ID => Err(settlers_aztecs::no_simulation(game).into()),
        the_search::ENGINE_ID => task.run(SearchEngine::load(game)?, game),
        lua::ENGINE_ID => task.run(LuaEngine::load(game)?, game),
        other => Err(RunError::usage(format!(
            "{}: no engine `{other}` in this build (known: {})",
            game.slug,
            ENGINES.join(", ")
        ))),
    }
}

/// The seats' names: the engine's roles, else the data's player colours, else "player N".
pub fn seat_names<E: Engine>(engine: &E, game: &Game, players: usize) -> Vec<String> {
    if let Some(names) = engine.seat_names(players).filter(|n| n.len() == players) {
        return names;
    }
    let colours: Vec<String> = game
        .components
        .symbols
        .iter()
        .filter(|s| s.group == "player")
        .map(|s| s.name.clone())
        .collect();
    if colours.len() >= players {
        colours[..players].to_vec()
    } else {
        (1..=players).map(|i| format!("player {i}")).collect()
    }
}
