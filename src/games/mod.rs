//! Game modules: what each shipped game's rules need beyond the declarative data.
//!
//! A game names its module with `engine = "..."` in `game.toml`. Nothing here is needed for
//! a designer's own game; it builds and checks without one.

pub mod aether;
pub mod capek_golems;
pub mod settlers_aztecs;
pub mod the_search;

use crate::diag::Problem;
use crate::model::Game;

/// Rules of one game that need real logic (a layout exists, the bag suffices).
pub trait GameModule: Sync {
    /// The name a game's `engine` key uses.
    fn id(&self) -> &'static str;
    /// The game's logical invariants; empty when all hold.
    fn check(&self, game: &Game) -> Vec<Problem>;
}

/// Every game module this build knows.
pub fn modules() -> &'static [&'static dyn GameModule] {
    &[
        &capek_golems::Module,
        &the_search::TheSearch,
        &settlers_aztecs::SettlersAztecs,
        &aether::Aether,
    ]
}

/// The module with this id, if any.
pub fn module(id: &str) -> Option<&'static dyn GameModule> {
    modules().iter().copied().find(|m| m.id() == id)
}
