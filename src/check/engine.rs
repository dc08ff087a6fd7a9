//! The game's rule engine, loaded as `simulate` and `play` load it, and a game set up once for
//! every seat count it allows: a script that does not compile or a setup that fails is a
//! data problem `check` reports, at the line of `engine.lua` that failed.

use std::ops::Range;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::diag::{Problem, SourceFile};
use crate::engine::lua::SCRIPT_FILE;
use crate::engine::registry::{ENGINES, EngineTask, with_engine};
use crate::engine::{Config, Engine};
use crate::model::Game;

/// Sets up one game for each seat count the engine takes, with the default variants.
struct SetupEach;

impl EngineTask for SetupEach {
    type Output = ();

    fn run<E: Engine>(self, engine: E, _game: &Game) -> Result<(), String> {
        let counts = engine.player_counts();
        if counts.is_empty() {
            return Err(format!(
                "the engine takes no seat count ({}-{})",
                counts.start(),
                counts.end()
            ));
        }
        for players in counts {
            let config = Config {
                players,
                variants: Default::default(),
            };
            engine
                .new_game(&config, &mut ChaCha8Rng::seed_from_u64(0))
                .map_err(|e| format!("setting up a game of {players} players: {e}"))?;
        }
        Ok(())
    }
}

/// The problem, if any, with the engine `game.toml` names: one that cannot be loaded or
/// cannot set up a game. Games without an engine, and the engine that plays no games
/// (`settlers-aztecs`, an analysis only), have none.
pub fn check(game: &Game) -> Option<Problem> {
    let id = game.info.engine.as_deref()?;
    if !ENGINES.contains(&id) {
        // A game module without a simulator (an analysis only) checks its own data.
        if crate::games::module(id).is_some() {
            return None;
        }
        let mut known: Vec<&str> = ENGINES.to_vec();
        known.extend(crate::games::modules().iter().map(|m| m.id()));
        known.sort_unstable();
        known.dedup();
        return Some(
            crate::diag::spans::at_value(
                Problem::data(format!("there is no engine `{id}`")),
                &game.game_file,
                &[
                    crate::diag::spans::Key::Name("game"),
                    crate::diag::spans::Key::Name("engine"),
                ],
                "here",
            )
            .help(format!(
                "name one of {}, or leave `engine` out for a game that is only printed",
                known.join(", ")
            )),
        );
    }
    let error = with_engine(game, SetupEach).err()?;
    let at_script = problem(game, &error);
    // A parameter the script computes with that holds text: at the parameter.
    let script = std::fs::read_to_string(game.dir.join(SCRIPT_FILE)).ok();
    Some(
        super::outputs::untyped_param_problem(game, &error, &at_script, script.as_deref())
            .unwrap_or(at_script),
    )
}

/// An engine's error as a problem: at the line of `engine.lua` it names, else at the
/// parameter of `game.toml` it quotes, else in `game.toml`.
pub fn problem(game: &Game, error: &str) -> Problem {
    if let Some((line, rest)) = script_line(error)
        && let Ok(file) = crate::model::read_source(&game.dir.join(SCRIPT_FILE))
    {
        let message = format!("the engine fails: {rest}");
        return match line_span(&file, line) {
            Some(span) => Problem::data(message).at(&file, span, "here"),
            None => Problem::data(message).in_file(&file),
        };
    }
    let message = format!("the engine fails: {error}");
    let quoted = error
        .split('`')
        .skip(1)
        .step_by(2)
        .find_map(|name| game.param(name));
    match quoted {
        Some(param) => Problem::data(message).at(&game.game_file, param.value.span(), "here"),
        None => crate::diag::spans::at_value(
            Problem::data(message),
            &game.game_file,
            &[
                crate::diag::spans::Key::Name("game"),
                crate::diag::spans::Key::Name("engine"),
            ],
            "the engine",
        ),
    }
}

/// The line an error names in `engine.lua` (`.../engine.lua:12: ...`), and the error without
/// that place (the problem shows it as the file and line).
fn script_line(error: &str) -> Option<(usize, String)> {
    let marker = format!("{SCRIPT_FILE}:");
    let mut from = 0;
    while let Some(found) = error[from..].find(&marker) {
        let at = from + found;
        let after = &error[at + marker.len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if let Ok(line) = after[..digits].parse::<usize>()
            && line > 0
        {
            // The place is one word: the path up to the script's name and its line.
            let start = error[..at].rfind(char::is_whitespace).map_or(0, |w| w + 1);
            let rest = after[digits..].trim_start_matches(':').trim_start();
            let message = format!("{}{rest}", &error[..start]);
            return Some((line, message));
        }
        from = at + marker.len();
    }
    None
}

/// The span of a line's text (1-based), without its line break.
fn line_span(file: &SourceFile, line: usize) -> Option<Range<usize>> {
    let mut start = 0;
    for (n, text) in file.text.split_inclusive('\n').enumerate() {
        if n + 1 == line {
            let body = text.trim_end_matches(['\n', '\r']);
            let indent = body.len() - body.trim_start().len();
            return Some(start + indent..start + body.len().max(indent));
        }
        start += text.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_of_the_script_is_read_from_an_error() {
        let (line, rest) = script_line("data/x/engine.lua:292: <eof> expected").unwrap();
        assert_eq!(line, 292);
        assert_eq!(rest, "<eof> expected");
        let (line, rest) = script_line("setting up 2 players: x/engine.lua:7: boom").unwrap();
        assert_eq!((line, rest.as_str()), (7, "setting up 2 players: boom"));
        assert_eq!(script_line("no script here"), None);
        assert_eq!(script_line("engine.lua: no line"), None);
    }

    #[test]
    fn a_line_span_covers_the_text_of_the_line() {
        let file = SourceFile::new("engine.lua", "a = 1\r\n  b = 2\nc");
        assert_eq!(&file.text[line_span(&file, 2).unwrap()], "b = 2");
        assert_eq!(&file.text[line_span(&file, 3).unwrap()], "c");
        assert_eq!(line_span(&file, 4), None);
    }
}
