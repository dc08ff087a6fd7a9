//! A card design's (or piece's) numbers as sweepable and tunable parameters: `DESIGN.FIELD`
//! names the numeric field FIELD of the design whose `id` is DESIGN (`the-engineer.value`),
//! or its `count` (`the-engineer.count`). `simulate --sweep` and `tune --params` set it as
//! they set a `[params.*]` value; the game with the new value is checked again, as `printplay
//! check` checks the data, before a game of it is played, so that a value that breaks an
//! invariant (a deck that must hold 12 cards, a field's declared range, what the engine can
//! read) is refused with the check's reason instead of being simulated.

use std::fmt::Write;

use crate::engine::RunError;
use crate::model::Count;
use crate::model::Game;

/// The words of every refusal of a value by the check, a data problem (exit 1) not a mistake
/// on the command line: [`recheck`] says so by its error's cause.
const REFUSED: &str = "is refused by the game's check";

/// The most copies of one design a swept `count` may ask for (the data's own bound on a
/// count is checked after).
const MAX_COUNT: u32 = 10_000;

/// Whether `name` has the form of a design's field (`DESIGN.FIELD`): it holds a dot. A
/// `[params.*]` value or a variant may hold one too: [`swept`] decides what a name sets.
fn names_field(name: &str) -> bool {
    name.contains('.')
}

/// What a swept or tuned name sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Swept {
    /// A `[params.*]` value of game.toml.
    Param,
    /// A design's field (`DESIGN.FIELD`).
    Field,
    /// A rule variant of the engine.
    Variant,
}

/// What `name` sets, given the engine's variant names: the `[params.*]` value or the variant
/// of exactly that name, else (a name with a dot) a design's field. A name that is both (a
/// value or variant `x.y` and the field `y` of design `x`, or a value and a variant) is an
/// error naming each (a usage error: rename one in the data). A name that is none is left to
/// the variant check (no dot) or to [`with_field`] (a dot), whose errors name the nearest.
pub fn swept(game: &Game, variants: &[String], name: &str) -> Result<Swept, String> {
    let mut found = Vec::new();
    if game.params.contains_key(name) {
        found.push((
            Swept::Param,
            format!("the value [params.{name}] of game.toml"),
        ));
    }
    if variants.iter().any(|v| v == name) {
        found.push((Swept::Variant, format!("the rule variant `{name}`")));
    }
    if names_field(name)
        && let Ok((_, field, _)) = resolve(game, name)
    {
        let design = &name[..name.len() - field.len() - 1];
        found.push((
            Swept::Field,
            format!("the field `{field}` of the design `{design}`"),
        ));
    }
    match found.as_slice() {
        [] if names_field(name) => Ok(Swept::Field),
        [] => Ok(Swept::Variant),
        [(what, _)] => Ok(*what),
        many => Err(format!(
            "`{name}` names both {} of {}; rename one in the data so that the name says which",
            many.iter()
                .map(|(_, w)| w.as_str())
                .collect::<Vec<_>>()
                .join(" and "),
            game.slug
        )),
    }
}

/// What a design's field is: a whole number, a number, or the design's count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Integer,
    Float,
    Count,
}

/// Where the design lives: a deck's card or a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Card { deck: usize, card: usize },
    Piece(usize),
}

/// Every design of the game, with its place: each deck's cards, then the pieces.
fn designs(game: &Game) -> Vec<(String, Place)> {
    let mut out = Vec::new();
    for (d, deck) in game.components.decks.iter().enumerate() {
        for (c, card) in deck.cards.iter().enumerate() {
            out.push((card.id.get_ref().clone(), Place::Card { deck: d, card: c }));
        }
    }
    for (p, piece) in game.components.pieces.iter().enumerate() {
        out.push((piece.id.get_ref().clone(), Place::Piece(p)));
    }
    out
}

fn fields_of(
    game: &Game,
    place: Place,
) -> &std::collections::BTreeMap<String, toml::Spanned<toml::Value>> {
    match place {
        Place::Card { deck, card } => &game.components.decks[deck].cards[card].fields,
        Place::Piece(p) => &game.components.pieces[p].fields,
    }
}

/// The numeric fields of a design, `count` first.
fn numeric_fields(game: &Game, place: Place) -> Vec<String> {
    let mut out = vec!["count".to_string()];
    out.extend(
        fields_of(game, place)
            .iter()
            .filter(|(_, v)| v.get_ref().is_integer() || v.get_ref().is_float())
            .map(|(k, _)| k.clone()),
    );
    out
}

/// Up to five of `known`, nearest `wanted` first (by Jaro-Winkler similarity), each as
/// `prefix` and the name in backticks, for a message.
fn near<'a>(wanted: &str, known: impl Iterator<Item = &'a str>, prefix: &str) -> String {
    let mut scored: Vec<(f64, &str)> = known
        .map(|k| (strsim::jaro_winkler(wanted, k), k))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored
        .iter()
        .take(5)
        .map(|(_, k)| format!("`{prefix}{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Finds `DESIGN.FIELD` in the game: the design's place and the field's kind. The error (a
/// usage error) names what is wrong and the nearest names the game has.
fn resolve(game: &Game, name: &str) -> Result<(Place, String, Kind), String> {
    let (design, field) = name
        .rsplit_once('.')
        .filter(|(d, f)| !d.is_empty() && !f.is_empty())
        .ok_or_else(|| {
            format!("`{name}` names no design's field: write DESIGN.FIELD, as `the-engineer.value`")
        })?;
    let all = designs(game);
    let found: Vec<&(String, Place)> = all.iter().filter(|(id, _)| id == design).collect();
    let place = match found.as_slice() {
        [(_, place)] => *place,
        [] => {
            return Err(format!(
                "{} has no card design or piece `{design}` (for `{name}`); the nearest: {}",
                game.slug,
                near(design, all.iter().map(|(id, _)| id.as_str()), "")
            ));
        }
        _ => {
            return Err(format!(
                "`{design}` names {} designs of {} (cards and pieces share the id), so \
                 `{name}` is ambiguous; give each its own id",
                found.len(),
                game.slug
            ));
        }
    };
    if field == "count" {
        return Ok((place, field.to_string(), Kind::Count));
    }
    let fields = fields_of(game, place);
    let numeric = numeric_fields(game, place);
    match fields.get(field).map(|v| v.get_ref()) {
        Some(toml::Value::Integer(_)) => Ok((place, field.to_string(), Kind::Integer)),
        Some(toml::Value::Float(_)) => Ok((place, field.to_string(), Kind::Float)),
        Some(other) => Err(format!(
            "`{name}`: field `{field}` of `{design}` is {} (`{other}`), not a number; the \
             design's numbers: {}",
            other.type_str(),
            numeric
                .iter()
                .map(|f| format!("`{design}.{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        None => Err(format!(
            "`{design}` has no field `{field}` (for `{name}`); its numbers, nearest first: {}",
            near(
                field,
                numeric.iter().map(String::as_str),
                &format!("{design}.")
            )
        )),
    }
}

/// The game with the design field `name` (`DESIGN.FIELD`) set to `value`, typed as the
/// data's value is (a whole number, a number, or a count from 0). Not yet checked: see
/// [`recheck`]. The error (a usage error) names the field and the value.
pub fn with_field(game: &Game, name: &str, value: &str) -> Result<Game, String> {
    let (place, field, kind) = resolve(game, name)?;
    let mut g = game.clone();
    let bad = |what: &str| format!("`{name}` is {what}; `{value}` is not");
    match kind {
        Kind::Count => {
            let n: u32 = value
                .parse()
                .ok()
                .filter(|n| *n <= MAX_COUNT)
                .ok_or_else(|| bad(&format!("a count of copies (0 to {MAX_COUNT})")))?;
            match place {
                Place::Card { deck, card } => {
                    g.components.decks[deck].cards[card].count = Count(n);
                }
                Place::Piece(p) => g.components.pieces[p].count = Count(n),
            }
        }
        Kind::Integer | Kind::Float => {
            let new = if kind == Kind::Integer {
                toml::Value::Integer(value.parse().map_err(|_| bad("a whole number"))?)
            } else {
                toml::Value::Float(
                    value
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| bad("a number"))?,
                )
            };
            let fields = match place {
                Place::Card { deck, card } => &mut g.components.decks[deck].cards[card].fields,
                Place::Piece(p) => &mut g.components.pieces[p].fields,
            };
            let slot = fields.get_mut(&field).expect("resolved above");
            *slot = toml::Spanned::new(slot.span(), new);
        }
    }
    Ok(g)
}

/// Checks the game again, as `printplay check` does, after the design fields `fields` (names
/// and values) were set: `Ok` when none was set or the check finds no problem; otherwise the
/// check's problems, with the values that caused them: the data's error (exit status 1).
pub fn recheck(game: &Game, fields: &[(String, String)]) -> Result<(), RunError> {
    let set: Vec<String> = fields.iter().map(|(n, v)| format!("{n}={v}")).collect();
    if set.is_empty() {
        return Ok(());
    }
    let problems: Vec<_> = crate::check::check_game(game)
        .into_iter()
        .filter(|p| !p.is_warning())
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    let mut out = format!(
        "{} {REFUSED}, so no game of it is played ({}):",
        set.join(", "),
        crate::messages::count_of(problems.len(), "problem", "problems")
    );
    // Each problem at the place of the data the value replaces (the file, line and column a
    // designer would change to make the value theirs).
    for p in &problems {
        let _ = write!(out, "\n  {p}");
    }
    Err(RunError::data(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Cause;

    fn scaffold() -> (tempfile::TempDir, Game) {
        let dir = tempfile::tempdir().unwrap();
        crate::scaffold::new_game_with_engine(dir.path(), "g", "lua").unwrap();
        let game = crate::model::load_game(dir.path(), "g").unwrap();
        (dir, game)
    }

    #[test]
    fn a_design_field_is_set_typed_and_checked_again() {
        let (_dir, game) = scaffold();
        let g = with_field(&game, "sun-low.value", "4").unwrap();
        let card = &g.deck("deck").unwrap().cards[0];
        assert_eq!(card.int("value"), Some(4));
        assert!(recheck(&g, &[("sun-low.value".into(), "4".into())]).is_ok());
        assert!(recheck(&g, &[]).is_ok());
        // The deck must hold 12 cards (an invariant): three copies break it.
        let g = with_field(&game, "sun-low.count", "3").unwrap();
        let e = recheck(&g, &[("sun-low.count".into(), "3".into())]).unwrap_err();
        assert!(
            e.cause == Cause::Data && e.contains("sun-low.count=3"),
            "{e}"
        );
        assert!(e.contains("12"), "{e}");
        // Outside the field's declared range.
        let g = with_field(&game, "sun-low.value", "10").unwrap();
        let e = recheck(&g, &[("sun-low.value".into(), "10".into())]).unwrap_err();
        assert_eq!(e.cause, Cause::Data, "{e}");
    }

    #[test]
    fn unknown_and_non_numeric_fields_name_the_nearest() {
        let (_dir, game) = scaffold();
        let e = with_field(&game, "sun-lo.value", "1").unwrap_err();
        assert!(e.contains("`sun-low`"), "{e}");
        let e = with_field(&game, "sun-low.valeu", "1").unwrap_err();
        assert!(e.contains("`sun-low.value`"), "{e}");
        let e = with_field(&game, "sun-low.suit", "1").unwrap_err();
        assert!(
            e.contains("not a number") && e.contains("`sun-low.value`"),
            "{e}"
        );
        let e = with_field(&game, "sun-low.value", "x").unwrap_err();
        assert!(e.contains("whole number"), "{e}");
        assert!(with_field(&game, "sun-low.count", "-1").is_err());
        assert!(with_field(&game, ".value", "1").is_err());
    }

    #[test]
    fn a_name_with_a_dot_sets_what_it_names_exactly_or_is_refused_as_ambiguous() {
        let (_dir, mut game) = scaffold();
        let variants = vec!["suit-bonus".to_string(), "deal.mode".to_string()];
        assert_eq!(swept(&game, &variants, "goal"), Ok(Swept::Param));
        assert_eq!(swept(&game, &variants, "suit-bonus"), Ok(Swept::Variant));
        assert_eq!(swept(&game, &variants, "sun-low.value"), Ok(Swept::Field));
        // A variant with a dot that is no design's field is the variant, not a field.
        assert_eq!(swept(&game, &variants, "deal.mode"), Ok(Swept::Variant));
        // A dotted name that is nothing goes to the field's errors (they name the nearest).
        assert_eq!(swept(&game, &variants, "sun-lo.value"), Ok(Swept::Field));
        // A [params] value with a dot is the value ...
        let goal = game.params["goal"].clone();
        game.params.insert("round.limit".into(), goal.clone());
        assert_eq!(swept(&game, &variants, "round.limit"), Ok(Swept::Param));
        // ... and one spelled as a design's field is refused, naming both.
        game.params.insert("sun-low.value".into(), goal);
        let e = swept(&game, &variants, "sun-low.value").unwrap_err();
        assert!(
            e.contains("[params.sun-low.value]")
                && e.contains("field `value` of the design `sun-low`"),
            "{e}"
        );
        let both = vec!["goal".to_string()];
        let e = swept(&game, &both, "goal").unwrap_err();
        assert!(
            e.contains("[params.goal]") && e.contains("rule variant `goal`"),
            "{e}"
        );
    }
}
