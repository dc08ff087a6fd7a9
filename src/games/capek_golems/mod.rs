//! Aether Captains: Capek Golems. Two scientists buy research at auction and play sets of
//! inquiry cards to activate their six golem cards before public outrage ends the game.
//!
//! The data's declarative invariants cover every count rule; this module adds the engine.

mod bots;
mod rules;
mod state;
#[cfg(test)]
mod tests;
mod views;

use rand_chacha::ChaCha8Rng;

pub use bots::Heuristic;
pub use rules::{CardInfo, Flags, GolemCard, Rules, VARIANTS};
pub use state::{Action, CapekState};

use crate::diag::Problem;
use crate::engine::{Bot, Config, Engine, Variant};
use crate::games::GameModule;
use crate::model::Game;

/// The engine id in `game.toml`.
pub const ID: &str = "capek-golems";

pub struct Module;

impl GameModule for Module {
    fn id(&self) -> &'static str {
        ID
    }
    /// Every Capek count rule is a declarative invariant in `game.toml`; the one logical
    /// check is that the engine can read its rules from the data.
    fn check(&self, game: &Game) -> Vec<Problem> {
        match Rules::from_model(game) {
            Ok(_) => Vec::new(),
            Err(e) => vec![crate::check::rule_problem(
                game,
                "the rule engine reads every card, golem card, price, draw and the outrage track (rulebook: Setup, Play)",
                None,
                format!("the Capek engine cannot read this data: {e}"),
            )],
        }
    }
}

/// The rules of Capek Golems, read from the model.
pub struct CapekEngine {
    /// Built once per engine and shared by every game for the rest of the run, so that
    /// states stay plain copies with no reference counting in the hot loop.
    rules: &'static Rules,
}

impl CapekEngine {
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }
}

impl Engine for CapekEngine {
    type State = CapekState;

    fn from_model(game: &Game) -> Result<Self, String> {
        let rules = Rules::from_model(game)?;
        Ok(CapekEngine {
            rules: Box::leak(Box::new(rules)),
        })
    }

    fn variants(&self) -> &'static [Variant] {
        VARIANTS
    }

    fn player_counts(&self) -> std::ops::RangeInclusive<usize> {
        self.rules.players.clone()
    }

    fn new_game(&self, config: &Config, rng: &mut ChaCha8Rng) -> Result<CapekState, String> {
        let flags = Rules::flags(config)?;
        let players = match config.players {
            0 => *self.rules.players.start(),
            n if self.rules.players.contains(&n) => n,
            n => {
                return Err(format!(
                    "Capek Golems is for {}-{} players, not {n}",
                    self.rules.players.start(),
                    self.rules.players.end()
                ));
            }
        };
        CapekState::new(self.rules, flags, players, rng)
    }

    fn bot(&self, name: &str) -> Option<Box<dyn Bot<CapekState>>> {
        match name {
            "heuristic" => Some(Box::new(Heuristic)),
            _ => None,
        }
    }
}
