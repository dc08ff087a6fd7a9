//! `{placeholders}` in rules prose: every number the text states is read from the data.
//!
//! Syntax: `{path}` or `{path noun}`; `{{` and `}}` stand for literal braces. Paths:
//! - `players.min`, `players.max`, `players.counts` (every supported count, a list)
//! - `params.NAME`, with `.N` (0-based item, repeatable for nested lists), `.first`, `.last`,
//!   `.min`, `.max`, `.sum`, `.len` for list parameters, and `.slash` to show a list as `14/11/9`
//! - `deck.ID.cards` (copies), `deck.ID.designs`, `deck.ID.sum.FIELD`, `deck.ID.min.FIELD`,
//!   `deck.ID.max.FIELD`, `deck.ID.distinct.FIELD` (how many different values); a filter `deck.ID[field=value,...]` selects cards first;
//!   `deck.ID.card.CARD.FIELD` is one card's field
//! - `pieces.KIND.count` (copies of every piece of a kind, filters allowed), `pieces.KIND.designs`,
//!   `pieces.KIND.sum.FIELD`, `.min.FIELD`, `.max.FIELD`;
//!   `piece.ID.count`, `piece.ID.label`, `piece.ID.FIELD`
//! - `track.ID.min`, `track.ID.max`, `track.ID.start`
//! - `board.ID.cells` (filters on `kind` allowed), `board.ID.pieces` (cells holding a piece)
//! - `symbols.GROUP.count`
//! - `diagram.ID.NAME`: a number a diagram computes (the strength in an example)
//!
//! With a noun, the number is followed by the noun's form for that number in the page's language
//! (`{params.hand_size card}` gives "4 cards", "4 korttia"). A last word `words` spells a number
//! from zero to ten as the language's prose does (`Words` with a capital, to open a sentence), in
//! the case its noun names (`{params.team_players player:adessive Words}` gives "Neljällä
//! pelaajalla"); larger numbers stay digits.

use std::collections::BTreeMap;

use toml::Value;

use crate::model::{Card, Game, Piece, PluralForms};

/// A value a placeholder stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    Int(i64),
    Ints(Vec<i64>),
    /// A list shown with its own separator (`.slash`: `14/11/9`).
    Joined(Vec<i64>, &'static str),
    Text(String),
}

/// One placeholder found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    /// Byte range of the whole `{...}` in the text.
    pub range: std::ops::Range<usize>,
    pub path: String,
    pub noun: Option<String>,
    pub spell: Spell,
}

/// Whether a number is written in digits or spelled out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spell {
    Digits,
    /// `words`: "four".
    Words,
    /// `Words`: "Four", opening a sentence.
    Capital,
}

/// A piece of prose: literal text and placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chunk {
    Literal(String),
    Hole(Placeholder),
}

/// A placeholder problem: where it is in the text and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoleError {
    pub range: std::ops::Range<usize>,
    pub message: String,
}

/// Splits a text into literals and placeholders.
pub fn parse(text: &str) -> Result<Vec<Chunk>, HoleError> {
    let mut out = Vec::new();
    let mut literal = String::new();
    let mut rest = text.char_indices().peekable();
    while let Some((i, c)) = rest.next() {
        match c {
            '{' if rest.peek().map(|p| p.1) == Some('{') => {
                rest.next();
                literal.push('{');
            }
            '}' if rest.peek().map(|p| p.1) == Some('}') => {
                rest.next();
                literal.push('}');
            }
            '{' => {
                let close = text[i..].find('}').map(|j| i + j).ok_or(HoleError {
                    range: i..i + 1,
                    message:
                        "a `{` opens a placeholder that is never closed (write `{{` for a brace)"
                            .into(),
                })?;
                let inner = &text[i + 1..close];
                let hole = placeholder(inner, i..close + 1)?;
                if !literal.is_empty() {
                    out.push(Chunk::Literal(std::mem::take(&mut literal)));
                }
                out.push(Chunk::Hole(hole));
                while rest.peek().is_some_and(|p| p.0 <= close) {
                    rest.next();
                }
            }
            '}' => {
                return Err(HoleError {
                    range: i..i + 1,
                    message: "a lone `}` (write `}}` for a brace)".into(),
                });
            }
            c => literal.push(c),
        }
    }
    if !literal.is_empty() {
        out.push(Chunk::Literal(literal));
    }
    Ok(out)
}

fn placeholder(inner: &str, range: std::ops::Range<usize>) -> Result<Placeholder, HoleError> {
    let mut tokens: Vec<&str> = inner.split_whitespace().collect();
    let spell = match tokens.last() {
        Some(&"words") if tokens.len() > 1 => Spell::Words,
        Some(&"Words") if tokens.len() > 1 => Spell::Capital,
        _ => Spell::Digits,
    };
    if spell != Spell::Digits {
        tokens.pop();
    }
    let mut words = tokens.into_iter();
    let path = words.next().unwrap_or_default().to_string();
    let noun = words.next().map(str::to_string);
    let valid = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-[]=,:".contains(c))
    };
    if !valid(&path) || words.next().is_some() || noun.as_deref().is_some_and(|n| !valid(n)) {
        return Err(HoleError {
            range,
            message: format!(
                "`{{{inner}}}` is not a placeholder: write {{path}}, {{path noun}} or {{path noun words}}"
            ),
        });
    }
    Ok(Placeholder {
        range,
        path,
        noun,
        spell,
    })
}

/// Looks placeholder paths up in a game's data.
pub struct Resolver<'a> {
    pub game: &'a Game,
    /// Numbers computed by diagrams, keyed `diagram.ID.NAME`.
    pub extra: &'a BTreeMap<String, Val>,
}

impl Resolver<'_> {
    pub fn resolve(&self, path: &str) -> Result<Val, String> {
        if let Some(v) = self.extra.get(path) {
            return Ok(v.clone());
        }
        let segs = segments(path)?;
        let head = segs.first().map(|s| s.name.as_str()).unwrap_or_default();
        let result = match head {
            "players" => self.players(&segs[1..]),
            "params" => self.params(&segs[1..]),
            "deck" => self.deck(&segs[1..]),
            "pieces" => self.pieces(&segs[1..]),
            "piece" => self.piece(&segs[1..]),
            "track" => self.track(&segs[1..]),
            "board" => self.board(&segs[1..]),
            "symbols" => self.symbols(&segs[1..]),
            "diagram" => Err("no diagram computes this value".to_string()),
            _ => Err("paths start with players, params, deck, pieces, piece, track, board, symbols or diagram".to_string()),
        };
        result.map_err(|why| format!("placeholder `{{{path}}}`: {why}"))
    }

    fn players(&self, rest: &[Seg]) -> Result<Val, String> {
        let p = self.game.info.players;
        let counts = || Val::Ints((p.min..=p.max).map(i64::from).collect());
        match names(rest).as_slice() {
            ["min"] => Ok(Val::Int(p.min.into())),
            ["max"] => Ok(Val::Int(p.max.into())),
            ["counts"] => Ok(counts()),
            ["counts", op] => list_op(counts(), op),
            _ => Err("use players.min, players.max or players.counts".into()),
        }
    }

    fn params(&self, rest: &[Seg]) -> Result<Val, String> {
        let name = rest.first().ok_or("name a parameter: params.NAME")?;
        let param = self
            .game
            .param(&name.name)
            .ok_or_else(|| format!("game.toml has no parameter `{}`", name.name))?;
        // Index into nested lists first (`params.teams.0`), then apply a list operation.
        let mut value = param.value.get_ref();
        let mut ops = &rest[1..];
        while let Some(seg) = ops.first() {
            let (Ok(i), Some(list)) = (seg.name.parse::<usize>(), value.as_array()) else {
                break;
            };
            value = list
                .get(i)
                .ok_or_else(|| format!("the list has no item {i}"))?;
            ops = &ops[1..];
        }
        let value = toml_val(value)?;
        match ops {
            [] => Ok(value),
            [op] => list_op(value, &op.name),
            _ => Err("too many parts after the parameter".into()),
        }
    }

    fn deck(&self, rest: &[Seg]) -> Result<Val, String> {
        let id = rest.first().ok_or("name a deck: deck.ID.cards")?;
        let deck = self
            .game
            .deck(&id.name)
            .ok_or_else(|| format!("components.toml has no deck `{}`", id.name))?;
        if rest.get(1).is_some_and(|s| s.name == "card") {
            let card_id = rest.get(2).ok_or("name a card: deck.ID.card.CARD.FIELD")?;
            let card = deck
                .cards
                .iter()
                .find(|c| c.id.get_ref() == &card_id.name)
                .ok_or_else(|| format!("deck `{}` has no card `{}`", id.name, card_id.name))?;
            let field = rest.get(3).ok_or("name a field: deck.ID.card.CARD.FIELD")?;
            return card
                .fields
                .get(&field.name)
                .ok_or_else(|| format!("card `{}` has no field `{}`", card_id.name, field.name))
                .and_then(|v| toml_val(v.get_ref()));
        }
        let cards: Vec<&Card> = deck
            .cards
            .iter()
            .filter(|c| id.filters.iter().all(|(k, v)| card_matches(c, k, v)))
            .collect();
        let count = |c: &Card| i64::from(c.count.0);
        match names(&rest[1..]).as_slice() {
            ["cards"] => Ok(Val::Int(cards.iter().map(|c| count(c)).sum())),
            ["designs"] => Ok(Val::Int(cards.len() as i64)),
            ["distinct", field] => {
                let mut seen: Vec<String> = cards
                    .iter()
                    .filter_map(|c| c.fields.get(*field).map(|v| v.get_ref().to_string()))
                    .collect();
                seen.sort();
                seen.dedup();
                Ok(Val::Int(seen.len() as i64))
            }
            [op @ ("sum" | "min" | "max"), field] => {
                let values: Vec<(i64, i64)> = cards
                    .iter()
                    .filter_map(|c| c.int(field).map(|v| (v, count(c))))
                    .collect();
                if values.is_empty() {
                    return Err(format!("no selected card has an integer `{field}`"));
                }
                Ok(Val::Int(match *op {
                    "sum" => saturating_sum(values.iter().map(|(v, n)| v.saturating_mul(*n))),
                    "min" => values.iter().map(|p| p.0).min().unwrap_or_default(),
                    _ => values.iter().map(|p| p.0).max().unwrap_or_default(),
                }))
            }
            _ => Err("end a deck path with cards, designs, distinct.FIELD, sum.FIELD, min.FIELD or max.FIELD".into()),
        }
    }

    fn pieces(&self, rest: &[Seg]) -> Result<Val, String> {
        let kind = rest.first().ok_or("name a piece kind: pieces.KIND.count")?;
        let found: Vec<&Piece> = self
            .game
            .pieces_of_kind(&kind.name)
            .filter(|p| kind.filters.iter().all(|(k, v)| piece_matches(p, k, v)))
            .collect();
        if self.game.pieces_of_kind(&kind.name).next().is_none() {
            return Err(format!(
                "components.toml has no piece of kind `{}`",
                kind.name
            ));
        }
        match names(&rest[1..]).as_slice() {
            ["count"] => Ok(Val::Int(found.iter().map(|p| i64::from(p.count.0)).sum())),
            ["designs"] => Ok(Val::Int(found.len() as i64)),
            [op @ ("sum" | "min" | "max"), field] => {
                let values: Vec<(i64, i64)> = found
                    .iter()
                    .filter_map(|p| p.int(field).map(|v| (v, i64::from(p.count.0))))
                    .collect();
                if values.is_empty() {
                    return Err(format!("no selected piece has an integer `{field}`"));
                }
                Ok(Val::Int(match *op {
                    "sum" => saturating_sum(values.iter().map(|(v, n)| v.saturating_mul(*n))),
                    "min" => values.iter().map(|p| p.0).min().unwrap_or_default(),
                    _ => values.iter().map(|p| p.0).max().unwrap_or_default(),
                }))
            }
            _ => Err(
                "end a pieces path with count, designs, sum.FIELD, min.FIELD or max.FIELD".into(),
            ),
        }
    }

    fn piece(&self, rest: &[Seg]) -> Result<Val, String> {
        let id = rest.first().ok_or("name a piece: piece.ID.count")?;
        let piece = self
            .game
            .piece(&id.name)
            .ok_or_else(|| format!("components.toml has no piece `{}`", id.name))?;
        match names(&rest[1..]).as_slice() {
            ["count"] => Ok(Val::Int(piece.count.0.into())),
            ["label"] => piece
                .label
                .clone()
                .map(Val::Text)
                .ok_or_else(|| "the piece has no label".into()),
            [field] => piece
                .fields
                .get(*field)
                .ok_or_else(|| format!("piece `{}` has no field `{field}`", id.name))
                .and_then(|v| toml_val(v.get_ref())),
            _ => Err("end a piece path with count, label or a field".into()),
        }
    }

    fn track(&self, rest: &[Seg]) -> Result<Val, String> {
        let id = rest.first().ok_or("name a track: track.ID.max")?;
        let t = self
            .game
            .track(&id.name)
            .ok_or_else(|| format!("components.toml has no track `{}`", id.name))?;
        match names(&rest[1..]).as_slice() {
            ["min"] => Ok(Val::Int(t.min)),
            ["max"] => Ok(Val::Int(t.max)),
            ["start"] => Ok(Val::Int(t.start)),
            _ => Err("end a track path with min, max or start".into()),
        }
    }

    fn board(&self, rest: &[Seg]) -> Result<Val, String> {
        let id = rest.first().ok_or("name a board: board.ID.cells")?;
        let b = self
            .game
            .board(&id.name)
            .ok_or_else(|| format!("components.toml has no board `{}`", id.name))?;
        let cells = b.hex_cells().iter().filter(|c| {
            id.filters.iter().all(|(k, v)| match k.as_str() {
                "kind" => c.kind.get_ref() == v,
                "piece" => c.piece.as_deref() == Some(v.as_str()),
                _ => false,
            })
        });
        match names(&rest[1..]).as_slice() {
            ["cells"] => Ok(Val::Int(cells.count() as i64)),
            ["pieces"] => Ok(Val::Int(cells.filter(|c| c.piece.is_some()).count() as i64)),
            _ => Err("end a board path with cells or pieces".into()),
        }
    }

    fn symbols(&self, rest: &[Seg]) -> Result<Val, String> {
        let group = rest.first().ok_or("name a group: symbols.GROUP.count")?;
        let n = self.game.symbols_in(&group.name).count();
        if n == 0 {
            return Err(format!(
                "components.toml has no symbol group `{}`",
                group.name
            ));
        }
        match names(&rest[1..]).as_slice() {
            ["count"] => Ok(Val::Int(n as i64)),
            _ => Err("end a symbols path with count".into()),
        }
    }
}

/// One dotted part of a path, with its `[field=value,...]` filters.
#[derive(Debug)]
struct Seg {
    name: String,
    filters: Vec<(String, String)>,
}

fn segments(path: &str) -> Result<Vec<Seg>, String> {
    let mut out = Vec::new();
    for part in split_outside_brackets(path) {
        let (name, filters) = match part.split_once('[') {
            None => (part, Vec::new()),
            Some((name, f)) => {
                let f = f
                    .strip_suffix(']')
                    .ok_or("a filter `[...]` is not closed")?;
                let pairs = f
                    .split(',')
                    .map(|kv| {
                        kv.split_once('=')
                            .map(|(k, v)| (k.to_string(), v.to_string()))
                            .ok_or_else(|| format!("filter `{kv}` is not field=value"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                (name, pairs)
            }
        };
        if name.is_empty() {
            return Err("an empty part in the path".into());
        }
        out.push(Seg {
            name: name.to_string(),
            filters,
        });
    }
    Ok(out)
}

fn split_outside_brackets(path: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in path.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            '.' if depth == 0 => {
                parts.push(&path[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&path[start..]);
    parts
}

fn names(segs: &[Seg]) -> Vec<&str> {
    segs.iter().map(|s| s.name.as_str()).collect()
}

fn toml_val(v: &Value) -> Result<Val, String> {
    match v {
        Value::Integer(i) => Ok(Val::Int(*i)),
        Value::String(s) => Ok(Val::Text(s.clone())),
        Value::Array(a) => a
            .iter()
            .map(|x| {
                x.as_integer()
                    .ok_or("a list placeholder must hold integers")
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Val::Ints)
            .map_err(str::to_string),
        _ => Err("only integers, lists of integers and strings can be shown".into()),
    }
}

fn list_op(value: Val, op: &str) -> Result<Val, String> {
    let Val::Ints(list) = value else {
        return Err(format!("`.{op}` applies to list parameters only"));
    };
    let pick = |v: Option<&i64>| {
        v.copied()
            .map(Val::Int)
            .ok_or("the list is empty".to_string())
    };
    match op {
        "first" => pick(list.first()),
        "last" => pick(list.last()),
        "min" => pick(list.iter().min()),
        "max" => pick(list.iter().max()),
        "sum" => Ok(Val::Int(saturating_sum(list.iter().copied()))),
        "len" => Ok(Val::Int(list.len() as i64)),
        "slash" => Ok(Val::Joined(list, "/")),
        n => {
            let i: usize = n.parse().map_err(|_| {
                format!("`.{n}` is not first, last, min, max, sum, len or an index")
            })?;
            pick(list.get(i)).map_err(|_| format!("the list has no item {i}"))
        }
    }
}

fn field_equals(v: Option<&toml::Spanned<Value>>, want: &str) -> bool {
    match v.map(|v| v.get_ref()) {
        Some(Value::String(s)) => s == want,
        Some(Value::Integer(i)) => i.to_string() == want,
        Some(Value::Boolean(b)) => b.to_string() == want,
        _ => false,
    }
}

fn card_matches(card: &Card, key: &str, want: &str) -> bool {
    match key {
        "id" => card.id.get_ref() == want,
        "count" => card.count.0.to_string() == want,
        _ => field_equals(card.fields.get(key), want),
    }
}

fn piece_matches(piece: &Piece, key: &str, want: &str) -> bool {
    match key {
        "id" => piece.id.get_ref() == want,
        "symbol" => piece.symbol.as_deref() == Some(want),
        "label" => piece.label.as_deref() == Some(want),
        _ => field_equals(piece.fields.get(key), want),
    }
}

/// How placeholders become text in one language.
pub struct Wording<'a> {
    pub separator: &'a str,
    pub plural: crate::messages::PluralRule,
    /// Nouns by name: the game's own first, then the message file's.
    pub nouns: Vec<&'a BTreeMap<String, PluralForms>>,
    /// Numbers as words, by grammatical case (`nominative`, `adessive`...), from zero.
    pub numerals: &'a BTreeMap<String, Vec<String>>,
}

impl<'a> Wording<'a> {
    /// The wording of a language's message file, the game's own nouns (when it has rules in
    /// that language) before the file's.
    pub fn new(
        msgs: &'a crate::messages::Messages,
        own: Option<&'a BTreeMap<String, PluralForms>>,
    ) -> Wording<'a> {
        Wording {
            separator: &msgs.list_separator,
            plural: msgs.plural,
            nouns: own.into_iter().chain([&msgs.nouns]).collect(),
            numerals: &msgs.numerals,
        }
    }

    fn noun(&self, name: &str) -> Option<&PluralForms> {
        self.nouns.iter().find_map(|m| m.get(name))
    }

    /// A number in words in the case of its noun (`point:adessive` takes the adessive), when
    /// the language spells it; `None` for numbers it writes in digits.
    fn spelled(&self, n: i64, noun: Option<&str>, spell: Spell) -> Result<Option<String>, String> {
        if spell == Spell::Digits {
            return Ok(None);
        }
        let case = noun
            .and_then(|n| n.rsplit_once(':'))
            .map(|(_, case)| case)
            .filter(|case| self.numerals.contains_key(*case))
            .unwrap_or("nominative");
        let list = self
            .numerals
            .get(case)
            .ok_or("this language's message file has no [numerals] to spell numbers with")?;
        let Some(word) = usize::try_from(n).ok().and_then(|i| list.get(i)) else {
            return Ok(None);
        };
        Ok(Some(match spell {
            Spell::Capital => capitalised(word),
            _ => word.clone(),
        }))
    }

    /// The text a placeholder stands for; text values are escaped for Markdown.
    pub fn show(&self, value: &Val, noun: Option<&str>, spell: Spell) -> Result<String, String> {
        let number = match value {
            Val::Int(n) => match self.spelled(*n, noun, spell)? {
                Some(word) => word,
                None => n.to_string(),
            },
            Val::Ints(list) => join(list, self.separator),
            Val::Joined(list, sep) => join(list, sep),
            Val::Text(t) => {
                return match noun {
                    None => Ok(super::markdown::escape(t)),
                    Some(_) => Err("a text value takes no noun".into()),
                };
            }
        };
        let Some(noun) = noun else {
            return Ok(number);
        };
        let forms = self
            .noun(noun)
            .ok_or_else(|| format!("no noun `{noun}` in [nouns] of this language"))?;
        // A list takes the form of its last number ("14/11/9 elementals").
        let n = match value {
            Val::Int(n) => *n,
            Val::Ints(l) | Val::Joined(l, _) => l.last().copied().unwrap_or_default(),
            Val::Text(_) => 0,
        };
        // A noun with empty forms only chooses the case of a spelled number: `{params.teams.0.0
        // nth:ordinal words}` gives "first".
        let form = crate::messages::form(forms, self.plural.category(n));
        if form.is_empty() {
            return Ok(number);
        }
        Ok(format!("{number} {form}"))
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A sum that stops at the largest integer instead of overflowing (the data may be absurd).
fn saturating_sum(values: impl Iterator<Item = i64>) -> i64 {
    values.fold(0, i64::saturating_add)
}

fn join(list: &[i64], separator: &str) -> String {
    list.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

/// Fills every placeholder of a text; all problems are returned together.
pub fn fill(text: &str, resolver: &Resolver, wording: &Wording) -> Result<String, Vec<HoleError>> {
    let pieces = parse(text).map_err(|e| vec![e])?;
    let mut out = String::with_capacity(text.len());
    let mut errors = Vec::new();
    for piece in pieces {
        match piece {
            Chunk::Literal(s) => out.push_str(&s),
            Chunk::Hole(h) => match resolver
                .resolve(&h.path)
                .and_then(|v| wording.show(&v, h.noun.as_deref(), h.spell))
            {
                Ok(s) => out.push_str(&s),
                Err(message) => errors.push(HoleError {
                    range: h.range,
                    message,
                }),
            },
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_holes_and_literal_braces() {
        let p = parse("a {params.x card} b {{c}}").unwrap();
        assert_eq!(p.len(), 3);
        match &p[1] {
            Chunk::Hole(h) => {
                assert_eq!(h.path, "params.x");
                assert_eq!(h.noun.as_deref(), Some("card"));
                assert_eq!(h.range, 2..17);
            }
            other => panic!("expected a hole, got {other:?}"),
        }
        assert_eq!(p[2], Chunk::Literal(" b {c}".into()));
    }

    #[test]
    fn rejects_unclosed_and_malformed() {
        assert!(parse("a {params.x").is_err());
        assert!(parse("a }").is_err());
        assert!(parse("{a b c}").is_err());
        assert!(parse("{a b words}").is_ok());
        assert!(parse("{a words}").is_ok());
        assert!(parse("{<b>}").is_err());
    }

    #[test]
    fn small_numbers_are_spelled_in_their_nouns_case() {
        let numerals: BTreeMap<String, Vec<String>> = [
            ("nominative", ["nolla", "yksi", "kaksi"]),
            ("adessive", ["nollalla", "yhdellä", "kahdella"]),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
        .collect();
        let forms = |one: &str, other: &str| PluralForms {
            one: one.into(),
            other: other.into(),
            zero: None,
            two: None,
            few: None,
            many: None,
        };
        let nouns: BTreeMap<String, PluralForms> = [
            ("point".to_string(), forms("piste", "pistettä")),
            (
                "point:adessive".to_string(),
                forms("pisteellä", "pisteellä"),
            ),
        ]
        .into_iter()
        .collect();
        let w = Wording {
            separator: ", ",
            plural: crate::messages::PluralRule::OneOther,
            nouns: vec![&nouns],
            numerals: &numerals,
        };
        let show = |n, noun, spell| w.show(&Val::Int(n), noun, spell).unwrap();
        assert_eq!(show(2, Some("point"), Spell::Words), "kaksi pistettä");
        assert_eq!(
            show(1, Some("point:adessive"), Spell::Capital),
            "Yhdellä pisteellä"
        );
        assert_eq!(show(2, Some("point"), Spell::Digits), "2 pistettä");
        // Beyond the language's list the number stays in digits.
        assert_eq!(show(14, Some("point"), Spell::Words), "14 pistettä");
        assert_eq!(show(1, None, Spell::Words), "yksi");
    }

    #[test]
    fn list_operations() {
        let l = Val::Ints(vec![4, 3, 2, 1]);
        assert_eq!(list_op(l.clone(), "first"), Ok(Val::Int(4)));
        assert_eq!(list_op(l.clone(), "2"), Ok(Val::Int(2)));
        assert_eq!(list_op(l.clone(), "sum"), Ok(Val::Int(10)));
        assert!(list_op(l, "9").is_err());
    }

    #[test]
    fn filters_split_correctly() {
        let s = segments("deck.game[kind=wild,value=2].cards").unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[1].filters.len(), 2);
    }
}
