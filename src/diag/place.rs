//! Placing a problem in the file a designer must change: helpers the checks, the game
//! modules, the renderer and the rules stage share, so that none of them needs another's.

use std::ops::Range;

use toml::Value;

use super::{Problem, SourceFile};
use crate::model::{Card, Game};

/// A problem placed at a span of the file a card came from (`components.toml` or its sheet).
pub fn at_card(
    game: &Game,
    card: &Card,
    span: Range<usize>,
    message: impl Into<String>,
) -> Problem {
    Problem::data(message).at(game.card_file(card), span, "here")
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
    let message = message.into();
    // A message that quotes a parameter (`initial_hand`) is about that parameter's value.
    let quoted = message
        .split('`')
        .skip(1)
        .step_by(2)
        .find(|name| game.param(name).is_some());
    let p = Problem::data(message.clone()).rule(rule);
    match param.or(quoted).and_then(|name| game.param(name)) {
        Some(param) => p.at(
            &game.game_file,
            param.value.span(),
            "the data this rule reads",
        ),
        None => p.in_file(&game.components_file),
    }
}

/// A TOML value in words, for messages ("the text \"two\"", "the integer 3").
pub fn describe_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the text \"{s}\""),
        Value::Integer(n) => format!("the integer {n}"),
        Value::Float(f) => format!("the number {f}"),
        Value::Boolean(b) => format!("{b}"),
        Value::Array(_) => "a list".into(),
        Value::Table(_) => "a table".into(),
        Value::Datetime(_) => "a date".into(),
    }
}

/// Where `needle` is first written in the record that holds `at` (a card, deck or piece):
/// in a TOML file from its `[[...]]` header to the next one (its sub-tables included), in a
/// sheet its row. `None` when the record does not hold it as written.
pub fn in_record(file: &SourceFile, at: &Range<usize>, needle: &str) -> Option<Range<usize>> {
    let text = &file.text;
    let at_start = at.start.min(text.len());
    let toml = file.path.extension().is_some_and(|e| e == "toml");
    let (from, to) = if toml {
        (
            text[..at_start].rfind("\n[[").map_or(0, |i| i + 1),
            text[at_start..]
                .find("\n[[")
                .map_or(text.len(), |i| at_start + i),
        )
    } else {
        (
            text[..at_start].rfind('\n').map_or(0, |i| i + 1),
            text[at_start..]
                .find('\n')
                .map_or(text.len(), |i| at_start + i),
        )
    };
    let record = &text[from..to];
    let bytes = record.as_bytes();
    let written_at = |i: usize| {
        if needle == "*" {
            // A lone asterisk: not one of a pair or triple, nor escaped.
            bytes[i] == b'*'
                && (i == 0 || !matches!(bytes[i - 1], b'*' | b'\\'))
                && bytes.get(i + 1) != Some(&b'*')
        } else {
            record[i..].starts_with(needle)
        }
    };
    // The first after `at` (a back's own value follows its card's id), else the first.
    let after = at_start - from;
    let found = (after..bytes.len())
        .chain(0..after)
        .find(|&i| record.is_char_boundary(i) && written_at(i))?;
    Some(from + found..from + found + needle.len())
}
