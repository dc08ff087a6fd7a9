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

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

pub use bots::{HEURISTIC, Heuristic, RISKY, Risky};
pub use rules::{CardInfo, Flags, GolemCard, READING_POINTS, Rules, VARIANTS};
pub use state::{Action, CapekState};

use crate::diag::Problem;
use crate::engine::{Bot, Config, Engine, Variant};
use crate::games::GameModule;
use crate::model::{Card, Game};

/// The engine id in `game.toml`.
pub const ID: &str = "capek-golems";

pub struct Module;

impl GameModule for Module {
    fn id(&self) -> &'static str {
        ID
    }
    /// Every Capek count rule is a declarative invariant in `game.toml`; the logical checks
    /// are that the engine can read its rules from the data and that each player's golem
    /// cards need different numbers of resources.
    fn check(&self, game: &Game) -> Vec<Problem> {
        match Rules::from_model(game) {
            Ok(_) => resources_differ(game),
            Err(e) => vec![crate::diag::place::rule_problem(
                game,
                "the rule engine reads every card, golem card, price, draw and the outrage track (rulebook: Setup, Play)",
                None,
                format!("the Capek engine cannot read this data: {e}"),
            )],
        }
    }
}

/// The resources a golem card needs: its field research plus the cards of a set, one total
/// per set option.
fn resources_needed(card: &Card) -> [i64; 2] {
    let research = card.int("research").unwrap_or(0);
    ["set_a", "set_b"].map(|set| research + card.int(set).unwrap_or(0))
}

/// To Win: "Each Capek Golem card has a different number of resources needed to activate
/// it". Among one player's golem cards no two may need the same number, whichever of their
/// set options is played.
fn resources_differ(game: &Game) -> Vec<Problem> {
    let Some(deck) = game.deck("golem") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, card) in deck.cards.iter().enumerate() {
        let player = card.int("player");
        let needs = resources_needed(card);
        let twin = deck.cards[..i].iter().find(|other| {
            other.int("player") == player
                && resources_needed(other).iter().any(|n| needs.contains(n))
        });
        if let Some(other) = twin {
            out.push(
                crate::diag::place::in_components(
                    game,
                    card.id.span(),
                    format!(
                        "golem card `{}` needs {} resources (field research plus set), as many as `{}` of the same player",
                        card.id.get_ref(),
                        join_needs(needs),
                        other.id.get_ref()
                    ),
                )
                .rule("each Capek Golem card has a different number of resources needed to activate it (rulebook: To Win)"),
            );
        }
    }
    out
}

fn join_needs(needs: [i64; 2]) -> String {
    if needs[0] == needs[1] {
        needs[0].to_string()
    } else {
        format!("{} or {}", needs[0], needs[1])
    }
}

/// The rules of Capek Golems, read from the model.
pub struct CapekEngine {
    /// Built once per engine and shared by its games; freed with the last of them (a sweep
    /// builds an engine per point, so nothing may outlive it).
    rules: Arc<Rules>,
}

impl CapekEngine {
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Engine for CapekEngine {
    type State = CapekState;

    fn from_model(game: &Game) -> Result<Self, String> {
        let rules = Rules::from_model(game)?;
        Ok(CapekEngine {
            rules: Arc::new(rules),
        })
    }

    fn variants(&self) -> &'static [Variant] {
        VARIANTS
    }

    fn reading_points(&self) -> &'static [crate::engine::readings::ReadingPoint] {
        READING_POINTS
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
                    "Capek Golems is for {}, not {n}",
                    crate::engine::players_text(&self.rules.players)
                ));
            }
        };
        CapekState::new(Arc::clone(&self.rules), flags, players, rng)
    }

    fn bot(&self, name: &str) -> Option<Box<dyn Bot<CapekState>>> {
        match name {
            HEURISTIC => Some(Box::new(Heuristic)),
            RISKY => Some(Box::new(Risky)),
            _ => None,
        }
    }

    fn bot_names(&self) -> Vec<String> {
        vec![HEURISTIC.to_string(), RISKY.to_string()]
    }
}
