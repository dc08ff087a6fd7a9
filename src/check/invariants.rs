//! Evaluates the count-style invariants a game declares in `game.toml`.

use std::collections::BTreeMap;

use toml::Value;

use crate::diag::Problem;
use crate::model::{Game, Invariant, Measure};

/// One card or piece design as an invariant sees it.
struct Item<'a> {
    id: &'a str,
    /// The deck id for cards, the piece kind for pieces.
    kind: &'a str,
    count: i64,
    fields: BTreeMap<&'a str, Value>,
}

impl Item<'_> {
    /// The value of a field; `id`, `count`, `kind` and `deck` are built in where no field
    /// of that name exists.
    fn get(&self, key: &str) -> Option<Value> {
        if let Some(v) = self.fields.get(key) {
            return Some(v.clone());
        }
        match key {
            "id" => Some(Value::String(self.id.to_string())),
            "count" => Some(Value::Integer(self.count)),
            "kind" | "deck" => Some(Value::String(self.kind.to_string())),
            _ => None,
        }
    }

    fn matches(&self, key: &str, wanted: &Value) -> bool {
        match (self.get(key), wanted) {
            (None, Value::Boolean(false)) => true,
            (None, _) => false,
            (Some(Value::Array(have)), w) => have.contains(w),
            (Some(have), Value::Array(any)) => any.contains(&have),
            (Some(have), w) => &have == w,
        }
    }

    fn measure(&self, m: &Measure) -> i64 {
        match m {
            Measure::Cards => self.count,
            Measure::Designs => 1,
            Measure::Sum(field) => {
                self.get(field).and_then(|v| v.as_integer()).unwrap_or(0) * self.count
            }
        }
    }

    /// The group keys of this item; a list field puts it in every group it names.
    fn groups(&self, field: &str) -> Vec<String> {
        match self.get(field) {
            Some(Value::Array(items)) => items.iter().map(key_text).collect(),
            Some(v) => vec![key_text(&v)],
            None => vec!["(none)".to_string()],
        }
    }
}

fn key_text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

fn items<'a>(game: &'a Game, inv: &Invariant) -> Vec<Item<'a>> {
    let all_decks = inv.decks.is_empty() && inv.pieces.is_empty();
    let cards = game
        .components
        .decks
        .iter()
        .filter(|d| all_decks || inv.decks.contains(d.id.get_ref()))
        .flat_map(|d| {
            d.cards.iter().map(move |c| Item {
                id: c.id.get_ref(),
                kind: d.id.get_ref(),
                count: i64::from(c.count.0),
                fields: c
                    .fields
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.get_ref().clone()))
                    .collect(),
            })
        });
    let pieces = game
        .components
        .pieces
        .iter()
        .filter(|p| inv.pieces.contains(&p.kind))
        .map(|p| Item {
            id: p.id.get_ref(),
            kind: &p.kind,
            count: i64::from(p.count.0),
            fields: p
                .fields
                .iter()
                .map(|(k, v)| (k.as_str(), v.get_ref().clone()))
                .chain(
                    p.symbol
                        .iter()
                        .map(|s| ("symbol", Value::String(s.clone()))),
                )
                .collect(),
        });
    cards
        .chain(pieces)
        .filter(|item| inv.filter.iter().all(|(k, v)| item.matches(k, v)))
        .collect()
}

/// The problems with every declared invariant; empty when all hold.
pub fn evaluate(game: &Game) -> Vec<Problem> {
    game.invariants
        .iter()
        .flat_map(|inv| evaluate_one(game, inv))
        .collect()
}

fn evaluate_one(game: &Game, inv: &Invariant) -> Vec<Problem> {
    let items = items(game, inv);
    let bound = Bound::of(game, inv);
    let Some(bound) = bound else {
        return vec![problem(
            game,
            inv,
            "states no bound: give `equals`, `equals_param`, `min` or `max`".into(),
        )];
    };
    let total = |members: &[&Item]| {
        members
            .iter()
            .map(|i| inv.measure.iter().map(|m| i.measure(m)).sum::<i64>())
            .sum::<i64>()
    };
    let mut out = Vec::new();
    match &inv.group_by {
        None => {
            let members: Vec<&Item> = items.iter().collect();
            if let Some(msg) = bound.violated(total(&members)) {
                out.push(problem(game, inv, format!("{msg}{}", listing(&members))));
            }
        }
        Some(field) => {
            let mut groups: BTreeMap<String, Vec<&Item>> = BTreeMap::new();
            for item in &items {
                for g in item.groups(field) {
                    groups.entry(g).or_default().push(item);
                }
            }
            if let Some(n) = inv.groups
                && groups.len() as i64 != n
            {
                let names: Vec<&str> = groups.keys().map(String::as_str).collect();
                out.push(problem(
                    game,
                    inv,
                    format!(
                        "expected {n} distinct values of `{field}`, found {}: {}",
                        groups.len(),
                        names.join(", ")
                    ),
                ));
            }
            for (name, members) in &groups {
                if let Some(msg) = bound.violated(total(members)) {
                    out.push(problem(
                        game,
                        inv,
                        format!("{field} = {name}: {msg}{}", listing(members)),
                    ));
                }
            }
        }
    }
    out
}

fn problem(game: &Game, inv: &Invariant, found: String) -> Problem {
    Problem::data(format!("invariant `{}` fails: {found}", inv.id.get_ref()))
        .rule(match game.is_original() {
            false => format!("{} (rulebook: {})", inv.rule, inv.section),
            true => format!("{} (section: {})", inv.rule, inv.section),
        })
        .at(&game.game_file, inv.id.span(), "this invariant")
}

fn listing(members: &[&Item]) -> String {
    if members.is_empty() {
        return " (nothing matched)".into();
    }
    let ids: Vec<String> = members
        .iter()
        .take(8)
        .map(|i| format!("{} x{}", i.id, i.count))
        .collect();
    let more = if members.len() > 8 {
        format!(", and {} more", members.len() - 8)
    } else {
        String::new()
    };
    format!(" (from {}{more})", ids.join(", "))
}

struct Bound {
    equals: Option<i64>,
    min: Option<i64>,
    max: Option<i64>,
}

impl Bound {
    fn of(game: &Game, inv: &Invariant) -> Option<Bound> {
        let param = |name: &Option<String>| name.as_ref().and_then(|p| game.param_int(p).ok());
        let b = Bound {
            equals: inv.equals.or_else(|| param(&inv.equals_param)),
            min: inv.min.or_else(|| param(&inv.min_param)),
            max: inv.max.or_else(|| param(&inv.max_param)),
        };
        (b.equals.is_some() || b.min.is_some() || b.max.is_some()).then_some(b)
    }

    fn violated(&self, found: i64) -> Option<String> {
        if let Some(e) = self.equals.filter(|&e| e != found) {
            return Some(format!("expected {e}, found {found}"));
        }
        if let Some(m) = self.min.filter(|&m| found < m) {
            return Some(format!("expected at least {m}, found {found}"));
        }
        if let Some(m) = self.max.filter(|&m| found > m) {
            return Some(format!("expected at most {m}, found {found}"));
        }
        None
    }
}
