//! The yield of Pray actions: an analysis of what the rulebook defines, not a game.
//!
//! Our copy of the rulebook has no goal, flow or scoring sections, so there is no game to play
//! to an end and nobody to win. What it does define is a Pray action (rulebook: Prayers): draw
//! N common cards and resolve their colours, with blessing tokens (Taking a Pray Action with a
//! Blessing token), the tricolor token (Blessing), cards stored for future Pray actions
//! (Clarifications) and colourless cards (Cards that have no color). For a given common deck,
//! tokens held and stored cards, [`analyze`] gives the distribution and expected value of a
//! Pray action's yield for each way its card may name the colour: announced before the draw,
//! chosen after it, several colours, or none. It counts every possible draw when that is
//! feasible and samples seeded draws otherwise, and says which.
//!
//! The yield is the number of matching cards (each colour a divided field shows counts, stored
//! cards included) plus the tokens' bonuses: what a card that rewards "each matching card"
//! multiplies.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::param_bool;
use super::pray::{CommonDeck, Pile, applicable_tokens, checked_binomial};
use crate::engine::Variant;
use crate::model::Game;

/// The rulebook's open questions that change a yield, as `--variant NAME=VALUE`.
pub static VARIANTS: &[Variant] = &[
    Variant {
        name: "tricolor",
        values: &["stacks", "one-per-colour"],
        doc: "A player may use several tokens in one Pray action, and the tricolor does not \
              stop a player from holding a brown, grey or red token: `stacks` lets both count \
              for the same colour; `one-per-colour` counts at most one token per colour.",
    },
    Variant {
        name: "stored-cards",
        values: &["drawn-only", "propitiate"],
        doc: "A token's +1 needs at least one drawn card of the colour: `drawn-only` (the \
              rulebook's word, draw) ignores matching stored cards for it; `propitiate` lets a \
              matching stored card count as well.",
    },
];

/// Multisets of drawn cards up to which every draw is counted; beyond, draws are sampled.
const EXACT_LIMIT: u128 = 2_000_000;
/// Draws sampled when counting every draw is not feasible and no `samples` is given.
const DEFAULT_SAMPLES: u64 = 200_000;
/// The colour word meaning a colourless stored card (Ruins, Newlyweds).
pub const NO_COLOUR: &str = "none";

/// What to analyse. Empty fields take the data's defaults.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The common deck (a deck with a `colours` field); default `params.common_deck`.
    pub deck: Option<String>,
    /// The N of each Pray N; default `params.pray_odds_sizes`.
    pub pray: Vec<u32>,
    /// Blessing tokens held: blessing colours, and the tricolor's symbol.
    pub blessings: Vec<String>,
    /// Stored cards, each its colours joined by `+` (`brown+red`), or `none` for colourless.
    pub stored: Vec<String>,
    /// A Pray action that resolves several colours at once: these.
    pub colours: Vec<String>,
    pub variants: BTreeMap<String, String>,
    /// Draws to sample when counting is not feasible (0: the default).
    pub samples: u64,
    pub seed: u64,
}

/// How a Pray card names its colour (rulebook: Taking a Pray Action without Blessing tokens).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Naming {
    /// Announced before drawing.
    Announce(usize),
    /// Chosen after seeing the cards: the best colour for the draw.
    Choose,
    /// Several colours, each resolved (listed colour indices).
    Several(Vec<usize>),
    /// No colour: the card says what each drawn card does; the yield counts coloured cards.
    NoColour,
}

/// One way of naming the colour: the yield's distribution when drawing, and the certain yield
/// of skipping the draw with tokens when that is allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub naming: Naming,
    pub label: String,
    /// `draw[k]`: the chance the yield is k when drawing.
    pub draw: Vec<f64>,
    pub draw_mean: f64,
    /// The yield of skipping the draw (tokens count as cards), when a token applies.
    pub skip: Option<u32>,
}

/// How a section's figures were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Every possible draw counted, with its number of ways.
    Exact { draws: u128 },
    /// Seeded random draws.
    Sampled { samples: u64, seed: u64 },
}

/// The figures for one Pray N.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub pray: u32,
    pub method: Method,
    pub rows: Vec<Row>,
    /// With no colour named: the expected number of drawn and stored cards of each colour.
    pub per_colour: Vec<(String, f64)>,
}

/// The whole analysis, with what it rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub game: String,
    pub deck: CommonDeck,
    /// Cards left to draw from: the deck without the stored cards.
    pub pile: Pile,
    pub blessings: Vec<String>,
    pub stored: Vec<String>,
    pub readings: Vec<(String, String)>,
    pub sections: Vec<Section>,
}

/// The inputs, resolved against the deck.
struct Setup {
    deck: CommonDeck,
    pile: Pile,
    /// Stored cards' matches per colour.
    stored: Vec<u32>,
    /// Stored cards that show any colour.
    stored_coloured: u32,
    /// Tokens that apply to each colour.
    tokens: Vec<u32>,
    own: u32,
    tricolor: bool,
    stack: bool,
    stored_propitiates: bool,
}

/// The analysis as text, for a game of this module (`printplay analyze`).
pub fn analysis_text(game: &Game, request: &Request) -> Result<String, String> {
    if game.info.engine.as_deref() != Some(super::ID) {
        return Err(format!(
            "{} has no Pray analysis: `printplay analyze` is for games with engine = \"{}\"",
            game.slug,
            super::ID
        ));
    }
    analyze(game, request).map(|a| a.text())
}

/// Analyses Pray actions as `request` asks. Errors name the input at fault.
pub fn analyze(game: &Game, request: &Request) -> Result<Analysis, String> {
    let readings = readings(request)?;
    let deck = match &request.deck {
        Some(id) => CommonDeck::named(game, id)?,
        None => CommonDeck::from_model(game)?,
    };
    let stack = readings[0].1 == "stacks";
    let stored_propitiates = readings[1].1 == "propitiate";
    let setup = Setup::new(game, deck, request, stack, stored_propitiates)?;
    let several = request
        .colours
        .iter()
        .map(|c| colour(&setup.deck, c))
        .collect::<Result<Vec<usize>, String>>()?;
    let sizes = match request.pray.as_slice() {
        [] => game
            .param_ints("pray_odds_sizes")?
            .into_iter()
            .map(|n| u32::try_from(n).map_err(|_| format!("`pray_odds_sizes` holds {n}")))
            .collect::<Result<Vec<u32>, String>>()?,
        list => list.to_vec(),
    };
    let total = setup.pile.total();
    let mut sections = Vec::new();
    for n in sizes {
        if n == 0 || n > total {
            return Err(format!(
                "Pray {n}: a Pray action draws 1 to {total} cards from this deck"
            ));
        }
        sections.push(setup.section(n, &several, request));
    }
    Ok(Analysis {
        game: game.info.name.clone(),
        blessings: request.blessings.clone(),
        stored: request.stored.clone(),
        readings: readings
            .into_iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        pile: setup.pile.clone(),
        deck: setup.deck,
        sections,
    })
}

/// Each variant's value: the request's, or the default.
fn readings(request: &Request) -> Result<Vec<(&'static str, &str)>, String> {
    for (name, value) in &request.variants {
        let v = VARIANTS
            .iter()
            .find(|v| v.name == name)
            .ok_or_else(|| format!("the Pray analysis has no variant `{name}`"))?;
        if !v.values.contains(&value.as_str()) {
            return Err(format!(
                "variant `{name}` takes {}, not `{value}`",
                v.values.join(" or ")
            ));
        }
    }
    Ok(VARIANTS
        .iter()
        .map(|v| {
            let value = request
                .variants
                .get(v.name)
                .map_or(v.values[0], String::as_str);
            (v.name, value)
        })
        .collect())
}

fn colour(deck: &CommonDeck, id: &str) -> Result<usize, String> {
    deck.colour_index(id).ok_or_else(|| {
        format!(
            "`{id}` is not a colour of the common deck or the blessing tokens (colours: {})",
            deck.colours.join(", ")
        )
    })
}

impl Setup {
    fn new(
        game: &Game,
        deck: CommonDeck,
        request: &Request,
        stack: bool,
        stored_propitiates: bool,
    ) -> Result<Setup, String> {
        let (own, tricolor) = held_tokens(game, &deck, &request.blessings)?;
        let mut pile = deck.pile();
        let mut stored = vec![0; deck.colours.len()];
        let mut stored_coloured = 0;
        for card in &request.stored {
            let mask = stored_mask(&deck, card)?;
            let kind = (0..pile.masks.len())
                .find(|&k| pile.masks[k] == mask && pile.counts[k] > 0)
                .ok_or_else(|| {
                    format!(
                        "stored card `{card}`: no card of deck `{}` with that colour field is left to store",
                        deck.id
                    )
                })?;
            // A stored card came from the common deck, so it is not there to be drawn.
            pile.counts[kind] -= 1;
            for (c, s) in stored.iter_mut().enumerate() {
                *s += u32::from(mask & (1 << c) != 0);
            }
            stored_coloured += u32::from(mask != 0);
        }
        let tokens = (0..deck.colours.len())
            .map(|c| {
                let fits = tricolor && deck.tricolor & (1 << c) != 0;
                applicable_tokens(own & (1 << c) != 0, fits, stack)
            })
            .collect();
        Ok(Setup {
            deck,
            pile,
            stored,
            stored_coloured,
            tokens,
            own,
            tricolor,
            stack,
            stored_propitiates,
        })
    }

    /// The yield of one colour for a draw with `drawn` matches of it: the drawn and stored
    /// matches, plus `tokens` when the gods were propitiated (a matching card drawn).
    fn colour_yield(&self, c: usize, drawn: u32, tokens: u32) -> u32 {
        let stored = self.stored[c];
        let propitiated = drawn > 0 || (self.stored_propitiates && stored > 0);
        drawn + stored + if propitiated { tokens } else { 0 }
    }

    /// Tokens that apply to each listed colour of a several-colour Pray action: own tokens,
    /// and the tricolor on the first listed colour it may stand for (one colour per action),
    /// skipping colours an own token already covers when tokens do not stack.
    fn several_tokens(&self, list: &[usize]) -> Vec<u32> {
        let mut out: Vec<u32> = list
            .iter()
            .map(|&c| u32::from(self.own & (1 << c) != 0))
            .collect();
        if self.tricolor {
            let target = list.iter().position(|&c| {
                self.deck.tricolor & (1 << c) != 0 && (self.stack || self.own & (1 << c) == 0)
            });
            if let Some(i) = target {
                out[i] += 1;
            }
        }
        out
    }

    /// The yield of a draw (`matches[c]`: drawn cards showing colour c; `coloured`: drawn
    /// cards showing any colour) under one naming.
    fn draw_yield(&self, naming: &Naming, matches: &[u32], coloured: u32) -> u32 {
        match naming {
            Naming::Announce(c) => self.colour_yield(*c, matches[*c], self.tokens[*c]),
            Naming::Choose => (0..matches.len())
                .map(|c| self.colour_yield(c, matches[c], self.tokens[c]))
                .max()
                .unwrap_or(0),
            Naming::Several(list) => list
                .iter()
                .zip(self.several_tokens(list))
                .map(|(&c, t)| self.colour_yield(c, matches[c], t))
                .sum(),
            Naming::NoColour => coloured + self.stored_coloured,
        }
    }

    /// Skipping the draw: each applicable token counts as one card of its colour, stored
    /// cards add as usual. `None` when no token applies (then the player must draw).
    fn skip_yield(&self, naming: &Naming) -> Option<u32> {
        let one = |c: usize| (self.tokens[c] > 0).then(|| self.tokens[c] + self.stored[c]);
        match naming {
            Naming::Announce(c) => one(*c),
            Naming::Choose => (0..self.tokens.len()).filter_map(one).max(),
            Naming::Several(list) => {
                let tokens = self.several_tokens(list);
                (tokens.iter().any(|&t| t > 0)).then(|| {
                    list.iter()
                        .zip(tokens)
                        .map(|(&c, t)| t + self.stored[c])
                        .sum()
                })
            }
            Naming::NoColour => None,
        }
    }

    /// Announced colours worth a row: those some card of the pile shows, or a token covers.
    fn namings(&self, several: &[usize]) -> Vec<Naming> {
        let mut out: Vec<Naming> = (0..self.deck.colours.len())
            .filter(|&c| self.pile.matching(c) > 0 || self.tokens[c] > 0 || self.stored[c] > 0)
            .map(Naming::Announce)
            .collect();
        out.push(Naming::Choose);
        if !several.is_empty() {
            out.push(Naming::Several(several.to_vec()));
        }
        out.push(Naming::NoColour);
        out
    }

    fn label(&self, naming: &Naming) -> String {
        let name = |c: usize| self.deck.colour_names[c].clone();
        match naming {
            Naming::Announce(c) => {
                let cards = self.pile.matching(*c);
                let noun = if cards == 1 { "card" } else { "cards" };
                format!("announce {} ({cards} {noun})", name(*c))
            }
            Naming::Choose => "choose after drawing".into(),
            Naming::Several(list) => format!(
                "several: {}",
                list.iter()
                    .map(|&c| name(c))
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
            Naming::NoColour => "no colour (coloured cards)".into(),
        }
    }

    fn section(&self, n: u32, several: &[usize], request: &Request) -> Section {
        let namings = self.namings(several);
        let colours = self.deck.colours.len();
        let mut hist: Vec<Vec<f64>> = vec![Vec::new(); namings.len()];
        let mut colour_means = vec![0.0; colours];
        let mut matches = vec![0u32; colours];
        let mut add = |drawn: &[u32], weight: f64| {
            matches.iter_mut().for_each(|m| *m = 0);
            let mut coloured = 0;
            for (k, &d) in drawn.iter().enumerate().filter(|(_, d)| **d > 0) {
                let mask = self.pile.masks[k];
                coloured += if mask != 0 { d } else { 0 };
                for (c, m) in matches.iter_mut().enumerate() {
                    if mask & (1 << c) != 0 {
                        *m += d;
                    }
                }
            }
            for (c, m) in matches.iter().enumerate() {
                colour_means[c] += weight * f64::from(*m);
            }
            for (h, naming) in hist.iter_mut().zip(&namings) {
                let y = self.draw_yield(naming, &matches, coloured) as usize;
                if h.len() <= y {
                    h.resize(y + 1, 0.0);
                }
                h[y] += weight;
            }
        };
        let method = self.method(n, request);
        match method {
            Method::Exact { draws } => {
                let total = draws as f64;
                self.pile
                    .for_each_draw(n, |drawn, ways| add(drawn, ways as f64 / total));
            }
            Method::Sampled { samples, seed } => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut physical: Vec<usize> = (0..self.pile.counts.len())
                    .flat_map(|k| std::iter::repeat_n(k, self.pile.counts[k] as usize))
                    .collect();
                let mut drawn = vec![0u32; self.pile.counts.len()];
                let weight = 1.0 / samples as f64;
                for _ in 0..samples {
                    drawn.iter_mut().for_each(|d| *d = 0);
                    let (hand, _) = physical.partial_shuffle(&mut rng, n as usize);
                    hand.iter().for_each(|&k| drawn[k] += 1);
                    add(&drawn, weight);
                }
            }
        }
        let rows = namings
            .into_iter()
            .zip(hist)
            .map(|(naming, draw)| Row {
                label: self.label(&naming),
                draw_mean: draw.iter().enumerate().map(|(k, p)| k as f64 * p).sum(),
                skip: self.skip_yield(&naming),
                naming,
                draw,
            })
            .collect();
        let per_colour = (0..colours)
            .filter(|&c| self.pile.matching(c) > 0 || self.stored[c] > 0)
            .map(|c| {
                let mean = colour_means[c] + f64::from(self.stored[c]);
                (self.deck.colour_names[c].clone(), mean)
            })
            .collect();
        Section {
            pray: n,
            method,
            rows,
            per_colour,
        }
    }

    /// Counting when the draws (multisets of card kinds) are few enough, else sampling.
    fn method(&self, n: u32, request: &Request) -> Method {
        let kinds = self.pile.counts.iter().filter(|&&c| c > 0).count() as u64;
        let multisets = checked_binomial(kinds + u64::from(n) - 1, u64::from(n));
        let draws = checked_binomial(u64::from(self.pile.total()), u64::from(n));
        match (multisets, draws) {
            (Some(m), Some(d)) if m <= EXACT_LIMIT && d < u128::MAX / 2 => {
                Method::Exact { draws: d }
            }
            _ => Method::Sampled {
                samples: if request.samples == 0 {
                    DEFAULT_SAMPLES
                } else {
                    request.samples
                },
                seed: request.seed,
            },
        }
    }
}

/// The tokens held, as a mask of own blessing colours and whether the tricolor is among them;
/// refuses unknown colours and more tokens of a colour than `blessing_limit_per_colour`.
fn held_tokens(game: &Game, deck: &CommonDeck, held: &[String]) -> Result<(u32, bool), String> {
    let limit = game.param_int("blessing_limit_per_colour")?;
    let tricolor_limits = param_bool(game, "tricolor_counts_toward_limit")?;
    let tricolor_symbol = game
        .pieces_of_kind("blessing")
        .find(|p| {
            p.fields
                .get("tricolor")
                .and_then(|v| v.get_ref().as_bool())
                .unwrap_or(false)
        })
        .and_then(|p| p.symbol.clone());
    let mut own = 0u32;
    let mut tricolor = false;
    let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
    for id in held {
        let n = counts.entry(id.as_str()).or_default();
        *n += 1;
        if tricolor_symbol.as_deref() == Some(id.as_str()) {
            if *n > 1 {
                return Err(format!("there is only one `{id}` token"));
            }
            tricolor = true;
            continue;
        }
        let c = deck
            .colour_index(id)
            .filter(|&c| c < deck.blessing_colours)
            .ok_or_else(|| {
                format!(
                    "`{id}` is not a blessing token colour (tokens: {}{})",
                    deck.colours[..deck.blessing_colours].join(", "),
                    tricolor_symbol
                        .as_deref()
                        .map_or(String::new(), |t| format!(", {t}"))
                )
            })?;
        if *n > limit {
            return Err(format!(
                "{n} `{id}` tokens: a faction holds at most {limit} token of each colour (rulebook: Blessing)"
            ));
        }
        own |= 1 << c;
    }
    if tricolor && tricolor_limits && own & deck.tricolor != 0 {
        return Err(
            "the data counts the tricolor toward the limit (`tricolor_counts_toward_limit`), so a \
             faction holding it holds none of the colours it stands for"
                .into(),
        );
    }
    Ok((own, tricolor))
}

/// A stored card's colour field as a mask: colours joined by `+`, or `none`.
fn stored_mask(deck: &CommonDeck, card: &str) -> Result<u32, String> {
    if card == NO_COLOUR {
        return Ok(0);
    }
    card.split('+')
        .map(|c| colour(deck, c.trim()).map(|i| 1u32 << i))
        .try_fold(0, |m, bit| bit.map(|b| m | b))
}

impl Analysis {
    /// The analysis as text: what it rests on, then a table per Pray size.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: the yield of single Pray actions. An analysis of the rules, not a game: nobody wins or loses.",
            self.game
        );
        let _ = writeln!(
            out,
            "Yield: matching cards (each colour of a divided field counts; stored cards included) plus each applicable token's +1 when a matching card was drawn."
        );
        let _ = writeln!(
            out,
            "Common deck: `{}` ({}), {} cards: {}",
            self.deck.id,
            self.deck.name,
            self.deck.pile().total(),
            self.mix()
        );
        let _ = writeln!(out, "  its counts are {}", self.deck.provenance);
        let listed = |l: &[String]| {
            if l.is_empty() {
                "none".to_string()
            } else {
                l.join(", ")
            }
        };
        let _ = writeln!(out, "Blessing tokens held: {}", listed(&self.blessings));
        let _ = writeln!(
            out,
            "Stored cards: {} (taken out of the deck; the draw is from the other {})",
            listed(&self.stored),
            self.pile.total()
        );
        let readings: Vec<String> = self
            .readings
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        let _ = writeln!(out, "Readings: {}", readings.join(", "));
        for s in &self.sections {
            out.push('\n');
            s.write(&mut out);
        }
        out
    }

    fn mix(&self) -> String {
        self.deck
            .kinds
            .iter()
            .map(|k| {
                let colours: Vec<&str> = (0..self.deck.colours.len())
                    .filter(|&c| k.mask & (1 << c) != 0)
                    .map(|c| self.deck.colours[c].as_str())
                    .collect();
                let field = if colours.is_empty() {
                    NO_COLOUR.to_string()
                } else {
                    colours.join("+")
                };
                format!("{} {field}", k.count)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Section {
    fn write(&self, out: &mut String) {
        let how = match self.method {
            Method::Exact { draws } => format!("exact: all {draws} draws counted"),
            Method::Sampled { samples, seed } => {
                format!("sampled: {samples} seeded draws, seed {seed}")
            }
        };
        let _ = writeln!(out, "Pray {} ({how})", self.pray);
        let width = self.rows.iter().map(|r| r.label.len()).max().unwrap_or(0);
        let _ = writeln!(
            out,
            "  {:<width$}  {:>6}  {:>13}  chance of yield 0, 1, 2, ...",
            "colour named", "E draw", "skip the draw"
        );
        for r in &self.rows {
            let skip = r.skip.map_or("-".to_string(), |s| {
                let better = if r.draw_mean > f64::from(s) {
                    "draw"
                } else {
                    "skip"
                };
                format!("{s} ({better})")
            });
            let dist: Vec<String> = r
                .draw
                .iter()
                .map(|p| format!("{:.1} %", 100.0 * p))
                .collect();
            let _ = writeln!(
                out,
                "  {:<width$}  {:>6.3}  {skip:>13}  {}",
                r.label,
                r.draw_mean,
                dist.join(", ")
            );
        }
        if !self.per_colour.is_empty() {
            let means: Vec<String> = self
                .per_colour
                .iter()
                .map(|(c, m)| format!("{c} {m:.3}"))
                .collect();
            let _ = writeln!(
                out,
                "  no colour named, expected cards of each colour: {}",
                means.join(", ")
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testdata::shipped;
    use super::*;

    fn request(pray: u32, blessings: &[&str], stored: &[&str]) -> Request {
        Request {
            pray: vec![pray],
            blessings: blessings.iter().map(|s| s.to_string()).collect(),
            stored: stored.iter().map(|s| s.to_string()).collect(),
            ..Request::default()
        }
    }

    fn row<'a>(a: &'a Analysis, naming: &Naming) -> &'a Row {
        a.sections[0]
            .rows
            .iter()
            .find(|r| r.naming == *naming)
            .expect("row")
    }

    fn announce(a: &Analysis, colour: &str) -> Naming {
        Naming::Announce(a.deck.colour_index(colour).expect("colour"))
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// The shipped deck's cards of a colour, and its size.
    fn share(a: &Analysis, colour: &str) -> (f64, f64) {
        let c = a.deck.colour_index(colour).unwrap();
        (f64::from(a.pile.matching(c)), f64::from(a.pile.total()))
    }

    #[test]
    fn the_default_deck_is_the_public_tally() {
        // The data cites a public tally: grey 13, red 12, and no divided card.
        let a = analyze(&shipped(), &request(1, &[], &[])).unwrap();
        assert_eq!(a.deck.id, "common-base");
        assert_eq!(share(&a, "grey"), (13.0, 84.0));
        assert_eq!(share(&a, "red"), (12.0, 84.0));
        assert!(a.deck.kinds.iter().all(|k| k.mask.count_ones() <= 1));
        let text = a.text();
        assert!(text.contains("Common deck: `common-base`"), "{text}");
        assert!(text.contains("not a game"), "{text}");
    }

    #[test]
    fn a_token_skips_the_draw_as_one_card_or_adds_one_to_a_matching_draw() {
        // "A player with a Blessing token may decide to skip drawing cards and instead, count
        // the Blessing token as if it was one COMMON card of the token's color." "If they draw
        // at least one card of the chosen color, the player will get a +1 bonus for each
        // Blessing token ... If they do not draw any cards of the matching color, the Blessing
        // tokens will provide no bonus."
        let a = analyze(&shipped(), &request(1, &["brown"], &[])).unwrap();
        let brown = row(&a, &announce(&a, "brown"));
        let (m, t) = share(&a, "brown");
        assert_eq!(brown.skip, Some(1));
        assert!(close(brown.draw[0], 1.0 - m / t));
        assert!(
            close(brown.draw[1], 0.0),
            "one brown card drawn always brings the bonus"
        );
        assert!(close(brown.draw[2], m / t));
        // Without a token of the colour there is nothing to skip with.
        assert_eq!(row(&a, &announce(&a, "red")).skip, None);
    }

    #[test]
    fn the_tricolor_stands_for_one_of_its_colours_and_its_stacking_is_a_reading() {
        // "For each Pray Action, it may be used as either a brown, a grey, or a red token."
        let mut req = request(2, &["brown", "tricolor"], &[]);
        let a = analyze(&shipped(), &req).unwrap();
        assert_eq!(row(&a, &announce(&a, "brown")).skip, Some(2));
        assert_eq!(row(&a, &announce(&a, "grey")).skip, Some(1));
        assert_eq!(row(&a, &announce(&a, "pink")).skip, None);
        req.variants
            .insert("tricolor".into(), "one-per-colour".into());
        let a = analyze(&shipped(), &req).unwrap();
        assert_eq!(row(&a, &announce(&a, "brown")).skip, Some(1));
        // One colour per action: across several colours it covers only one of them.
        req.variants.clear();
        req.colours = vec!["grey".into(), "red".into()];
        let a = analyze(&shipped(), &req).unwrap();
        let grey = a.deck.colour_index("grey").unwrap();
        let red = a.deck.colour_index("red").unwrap();
        assert_eq!(row(&a, &Naming::Several(vec![grey, red])).skip, Some(1));
    }

    #[test]
    fn stored_cards_add_to_the_draw_and_leave_the_deck() {
        // "During one Pray Action, a player may use any number of these stored cards, and they
        // are always used in addition to the cards drawn for the regular Pray Action."
        let a = analyze(&shipped(), &request(1, &[], &["grey"])).unwrap();
        assert_eq!(a.pile.total(), 83, "the stored card is not in the deck");
        let grey = row(&a, &announce(&a, "grey"));
        assert!(close(grey.draw[0], 0.0));
        assert!(close(grey.draw[1], 1.0 - 12.0 / 83.0));
        assert!(close(grey.draw[2], 12.0 / 83.0));
        // With a grey token: the bonus needs a drawn grey card unless stored ones propitiate.
        let mut req = request(1, &["grey"], &["grey"]);
        let strict = analyze(&shipped(), &req).unwrap();
        let strict = row(&strict, &announce(&strict, "grey")).clone();
        assert!(close(strict.draw[1], 1.0 - 12.0 / 83.0));
        assert_eq!(strict.skip, Some(2), "token and stored card");
        req.variants
            .insert("stored-cards".into(), "propitiate".into());
        let loose = analyze(&shipped(), &req).unwrap();
        let loose = row(&loose, &announce(&loose, "grey"));
        assert!(close(loose.draw[1], 0.0));
        assert!(close(loose.draw[2], 1.0 - 12.0 / 83.0));
    }

    #[test]
    fn colourless_cards_match_nothing() {
        // "Ruins have no color, so whenever a color is needed for a particular Pray Action, a
        // Ruins card cannot be used for that prayer."
        let a = analyze(&shipped(), &request(2, &[], &["none"])).unwrap();
        for r in &a.sections[0].rows {
            if let Naming::Announce(c) = r.naming {
                let m = f64::from(a.pile.matching(c));
                let t = f64::from(a.pile.total());
                assert!(close(r.draw_mean, 2.0 * m / t), "{}", r.label);
            }
        }
        // With no colour named, the yield counts the coloured cards drawn.
        let coloured: u32 = a
            .deck
            .kinds
            .iter()
            .filter(|k| k.mask != 0)
            .map(|k| k.count)
            .sum();
        let none = row(&a, &Naming::NoColour);
        assert!(close(
            none.draw_mean,
            2.0 * f64::from(coloured) / f64::from(a.pile.total())
        ));
    }

    #[test]
    fn several_colours_count_a_divided_card_for_each() {
        // "In Pray Actions, the player resolves the effects of all the colors shown in the color
        // field (e.g., golden and grey, not golden or grey)."
        let mut req = request(1, &[], &[]);
        req.deck = Some("common-divided-example".into());
        req.colours = vec!["brown".into(), "red".into()];
        let a = analyze(&shipped(), &req).unwrap();
        assert!(a.text().contains("invented"), "the table names its data");
        let brown = a.deck.colour_index("brown").unwrap();
        let red = a.deck.colour_index("red").unwrap();
        let both = row(&a, &Naming::Several(vec![brown, red]));
        assert!(close(both.draw[2], 1.0 / 84.0));
        assert!(close(both.draw_mean, (16.0 + 13.0) / 84.0));
    }

    #[test]
    fn choosing_after_the_draw_is_worth_at_least_any_announced_colour() {
        // "If the Pray card instructs a player to "choose" a color, this can be done after they
        // have drawn and seen the cards."
        let a = analyze(&shipped(), &request(3, &["gold", "tricolor"], &[])).unwrap();
        let choose = row(&a, &Naming::Choose).draw_mean;
        for r in &a.sections[0].rows {
            if matches!(r.naming, Naming::Announce(_)) {
                assert!(choose >= r.draw_mean - 1e-12, "{}", r.label);
            }
            let sum: f64 = r.draw.iter().sum();
            assert!((sum - 1.0).abs() < 1e-9, "{}", r.label);
        }
    }

    #[test]
    fn large_draws_are_sampled_and_agree_with_the_exact_mean() {
        let mut req = request(30, &[], &[]);
        req.samples = 20_000;
        req.seed = 3;
        let a = analyze(&shipped(), &req).unwrap();
        assert_eq!(
            a.sections[0].method,
            Method::Sampled {
                samples: 20_000,
                seed: 3
            }
        );
        assert!(a.text().contains("sampled: 20000 seeded draws, seed 3"));
        // Hypergeometric mean 30 * 16 / 84; its standard deviation is below 1.8, so five
        // standard errors of 20 000 draws stay under 0.064.
        let mean = row(&a, &announce(&a, "brown")).draw_mean;
        assert!((mean - 30.0 * 16.0 / 84.0).abs() < 0.064, "{mean}");
        assert_eq!(analyze(&shipped(), &req).unwrap(), a, "seeded");
        let exact = analyze(&shipped(), &request(4, &[], &[])).unwrap();
        assert!(matches!(exact.sections[0].method, Method::Exact { .. }));
    }

    #[test]
    fn bad_requests_name_what_is_wrong() {
        let game = shipped();
        let err = |req: Request| analyze(&game, &req).unwrap_err();
        assert!(err(request(1, &["plaid"], &[])).contains("`plaid`"));
        assert!(err(request(1, &["brown", "brown"], &[])).contains("at most 1"));
        assert!(err(request(1, &[], &["brown+red"])).contains("no card of deck `common-base`"));
        assert!(err(request(0, &[], &[])).contains("Pray 0"));
        assert!(err(request(85, &[], &[])).contains("Pray 85"));
        let mut req = request(1, &[], &[]);
        req.variants.insert("timing".into(), "choose".into());
        assert!(err(req).contains("no variant `timing`"));
        let mut req = request(1, &[], &[]);
        req.deck = Some("aztec-cards".into());
        assert!(err(req).contains("`aztec-cards` is not a deck"));
    }
}
