//! The rule variants of a game's engine (the rulebook's ambiguities), for `printplay
//! variants` and for the message when `--variant` names one the engine does not know.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::EngineRun;
use crate::engine::{Engine, Variant};
use crate::model::Game;
use crate::rules::PlainProse;

/// One variant as a designer reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantInfo {
    pub name: String,
    /// Every value, the default first.
    pub values: Vec<String>,
    /// What the rulebook leaves open: the rules reference's words where it has them (English),
    /// else the engine's.
    pub ambiguity: String,
    /// The reading played by default, in the reference's words, when it gives them.
    pub reading: Option<String>,
}

impl VariantInfo {
    pub fn default_value(&self) -> &str {
        &self.values[0]
    }
}

fn info(v: &Variant, game: &Game, prose: Option<&PlainProse>) -> VariantInfo {
    let text = game
        .rules
        .texts
        .get("en")
        .and_then(|t| t.text.variants.iter().find(|x| x.id.get_ref() == v.name));
    // The reference's prose with its numbers filled in from the data, as the reference shows
    // it; the text as written should a placeholder not resolve (`check` reports that).
    let line = |t: &str| {
        prose
            .and_then(|p| p.line(game, "en", t).ok())
            .unwrap_or_else(|| plain(t))
    };
    VariantInfo {
        name: v.name.to_string(),
        values: v.values.iter().map(|s| s.to_string()).collect(),
        ambiguity: text.map_or(v.doc.to_string(), |t| line(t.ambiguity.get_ref())),
        reading: text.map(|t| line(t.reading.get_ref())),
    }
}

/// Every variant in words, the prose filled in once for the whole list.
fn infos(known: &[Variant], game: &Game) -> Vec<VariantInfo> {
    let prose = PlainProse::new(game).ok();
    known
        .iter()
        .map(|v| info(v, game, prose.as_ref()))
        .collect()
}

/// Prose on one line: paragraphs joined, spaces collapsed.
fn plain(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The variants of the game's engine; for Imperial Settlers: Aztecs, which has no engine to
/// simulate, the readings of `printplay analyze`'s Pray analysis (its `--variant`).
pub fn variants(game: &Game) -> Result<Vec<VariantInfo>, super::RunError> {
    if game.info.engine.as_deref() == Some(crate::games::settlers_aztecs::ID) {
        return Ok(infos(crate::games::settlers_aztecs::VARIANTS, game));
    }
    struct Task;
    impl EngineRun for Task {
        type Output = Vec<VariantInfo>;
        fn run<E: Engine>(
            self,
            engine: E,
            game: &Game,
        ) -> Result<Vec<VariantInfo>, super::RunError> {
            Ok(infos(engine.variants(), game))
        }
    }
    super::run_engine(game, Task)
}

/// The variants in words: name, values with the default marked, the ambiguity, the reading.
pub fn variants_text(game: &Game, list: &[VariantInfo]) -> String {
    let mut out = format!("{} ({})", game.info.name, game.slug);
    if list.is_empty() {
        out.push_str(": no rule variants\n");
        return out;
    }
    if game.info.engine.as_deref() == Some(crate::games::settlers_aztecs::ID) {
        let _ = writeln!(
            out,
            ": {} readings of the Pray analysis (printplay analyze {} --variant NAME=VALUE; \
             there is no game to simulate)",
            list.len(),
            game.slug
        );
    } else {
        let _ = writeln!(out, ": {} rule variants (--variant NAME=VALUE)", list.len());
    }
    for v in list {
        let values: Vec<String> = v
            .values
            .iter()
            .enumerate()
            .map(|(i, x)| {
                if i == 0 {
                    format!("{x} (default)")
                } else {
                    x.clone()
                }
            })
            .collect();
        let _ = writeln!(out, "\n  {}: {}", v.name, values.join(" | "));
        let _ = writeln!(out, "    open question: {}", v.ambiguity);
        if let Some(r) = &v.reading {
            let _ = writeln!(out, "    played by default: {r}");
        }
    }
    out
}

/// Checks `--variant` choices against the engine's variants; the error lists them all.
pub fn check_choices(
    game: &Game,
    known: &[Variant],
    chosen: &BTreeMap<String, String>,
) -> Result<(), String> {
    for (name, value) in chosen {
        let problem = match known.iter().find(|v| v.name == name) {
            None => format!("{} has no variant `{name}`", game.slug),
            Some(v) if !v.values.contains(&value.as_str()) => {
                format!("variant `{name}` has no value `{value}`")
            }
            Some(_) => continue,
        };
        return Err(format!(
            "{problem}; {}",
            variants_text(game, &infos(known, game))
        ));
    }
    Ok(())
}
