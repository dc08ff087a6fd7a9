//! `printplay check`: proves a game's data obeys the generic rules of the model, the
//! invariants the data declares, and the rules its game module knows.

mod invariants;
mod references;
mod values;

use std::ops::Range;

use crate::diag::Problem;
use crate::games;
use crate::model::Game;

pub use invariants::evaluate as evaluate_invariants;
pub use values::MARKS;

/// Every problem with one game, generic checks first; empty when the game is sound.
pub fn check_game(game: &Game) -> Vec<Problem> {
    let mut problems = Vec::new();
    problems.extend(references::check(game));
    problems.extend(values::check(game));
    problems.extend(invariants::evaluate(game));
    problems.extend(crate::rules::check(game));
    // Every template a deck names exists, and every card's text fits its box.
    problems.extend(crate::render::check_faces(game));
    if let Some(module) = game.info.engine.as_deref().and_then(games::module) {
        problems.extend(module.check(game));
    }
    problems
}

/// A problem placed at a span of `components.toml`.
pub fn in_components(game: &Game, span: Range<usize>, message: impl Into<String>) -> Problem {
    Problem::data(message).at(&game.components_file, span, "here")
}

/// A problem placed at a span of `game.toml`.
pub fn in_game_file(game: &Game, span: Range<usize>, message: impl Into<String>) -> Problem {
    Problem::data(message).at(&game.game_file, span, "here")
}

/// A problem about a game-wide rule, placed at the parameter it reads (or the file if none).
pub fn rule_problem(
    game: &Game,
    rule: &str,
    param: Option<&str>,
    message: impl Into<String>,
) -> Problem {
    let p = Problem::data(message).rule(rule);
    match param.and_then(|name| game.param(name)) {
        Some(param) => p.at(
            &game.game_file,
            param.value.span(),
            "the data this rule reads",
        ),
        None => p.in_file(&game.components_file),
    }
}
