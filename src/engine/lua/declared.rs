//! What a game's script declares (seat counts from the model, variants, bots, the sum of
//! its returns), read once when it is loaded, and the configurations it takes.

use std::collections::HashSet;
use std::sync::Arc;

use mlua::{Function, Table, Value};

use super::vm::Vm;
use super::{api_fn, intern, intern_variants};
use crate::engine::{Config, Variant};
use crate::model::Game;

/// What the script declares, read once when it is loaded.
pub(super) struct Declared {
    pub players: std::ops::RangeInclusive<usize>,
    pub variants: &'static [Variant],
    pub bots: Vec<String>,
    pub returns_sum: Option<f64>,
    /// The ids of the data's designs and pieces (interned): all `cards_of` may name.
    pub ids: Arc<HashSet<&'static str>>,
}

/// Reads the script's declarations: seat counts (from the model), variants, bots.
pub(super) fn declared(vm: &Vm, game: &Game) -> Result<Declared, String> {
    for name in [
        "setup",
        "current_player",
        "legal_actions",
        "chance_outcomes",
        "apply",
        "returns",
        "action_name",
        "observation",
    ] {
        api_fn(vm, name)?;
    }
    let bad = |what: &str| format!("{}: {what}", vm.label);
    let bots = match vm.api.raw_get::<Value>("bots") {
        Ok(Value::Nil) => Vec::new(),
        Ok(Value::Table(t)) => {
            let mut names = Vec::new();
            for pair in t.pairs::<String, Function>() {
                names.push(
                    pair.map_err(|_| bad("`bots` maps bot names to functions"))?
                        .0,
                );
            }
            names.sort();
            names
        }
        _ => return Err(bad("`bots` maps bot names to functions")),
    };
    let returns_sum = match vm.api.raw_get::<Value>("returns_sum") {
        Ok(Value::Nil) => None,
        Ok(Value::Integer(n)) => Some(n as f64),
        Ok(Value::Number(x)) if x.is_finite() => Some(x),
        _ => return Err(bad("`returns_sum` is a number (finite)")),
    };
    let players = usize::from(game.info.players.min)..=usize::from(game.info.players.max);
    Ok(Declared {
        players,
        variants: declared_variants(vm)?,
        bots,
        returns_sum,
        ids: Arc::new(
            crate::simulate::cards::names(game)
                .keys()
                .map(|id| intern(id))
                .collect(),
        ),
    })
}

/// `variants = { { name = "...", values = { "default", "other" }, doc = "..." } }`.
fn declared_variants(vm: &Vm) -> Result<&'static [Variant], String> {
    let bad = || {
        format!(
            "{}: `variants` is a list of {{ name = \"...\", values = {{ \"default\", ... }}, doc = \"...\" }}",
            vm.label
        )
    };
    let list = match vm.api.raw_get::<Value>("variants") {
        Ok(Value::Nil) => return Ok(&[]),
        Ok(Value::Table(t)) => t,
        _ => return Err(bad()),
    };
    let mut variants = Vec::new();
    for entry in list.sequence_values::<Table>() {
        let entry = entry.map_err(|_| bad())?;
        let name: String = entry.raw_get("name").map_err(|_| bad())?;
        let values: Vec<String> = entry.raw_get("values").map_err(|_| bad())?;
        let doc: String = entry
            .raw_get::<Option<String>>("doc")
            .ok()
            .flatten()
            .unwrap_or_default();
        if values.is_empty() {
            return Err(bad());
        }
        variants.push((name, values, doc));
    }
    Ok(intern_variants(variants))
}

pub(super) fn check_variants(variants: &[Variant], config: &Config) -> Result<(), String> {
    for (name, value) in &config.variants {
        let v = variants
            .iter()
            .find(|v| v.name == name)
            .ok_or_else(|| format!("the script declares no variant `{name}`"))?;
        if !v.values.contains(&value.as_str()) {
            return Err(format!(
                "variant `{name}` takes {}, not `{value}`",
                v.values.join(" or ")
            ));
        }
    }
    Ok(())
}
