//! Exact Pray odds by counting.
//!
//! A Pray N action draws N common cards without replacement. A card matches a colour when its
//! colour field shows that colour: a divided field matches every colour it shows, a colourless
//! card (Ruins, Newlyweds) matches none (rulebook: Prayers; Cards that have no color). So the
//! number of matching cards is hypergeometric over the common deck's colour mix, which we read
//! from the data (`params.common_deck`).
//!
//! Blessing tokens (rulebook: Taking a Pray Action with a Blessing token): a player holding
//! tokens of the colour may skip drawing and count each such token as one matching card, or
//! draw and get +1 per such token, but only if at least one drawn card matches. The tricolor
//! token acts as one of its colours (`params.tricolor_acts_as`) for one action.
//!
//! The yield of a Pray action here is its number of matches, tokens included: what a card
//! that rewards "each matching card" multiplies.

use std::collections::BTreeSet;

use super::param_strs;
use crate::model::Game;

/// Most colours a colour mask holds.
const MAX_COLOURS: usize = 32;

/// The common deck as Pray sees it: kinds of card (a colour set) with their counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommonDeck {
    /// The deck's id and name in the data, and where its counts come from (`kind: reason`),
    /// so every table can say which data it used.
    pub id: String,
    pub name: String,
    pub provenance: String,
    /// Colour ids; a colour's index is its bit in a mask. Blessing colours first, in data order.
    pub colours: Vec<String>,
    /// Display names of the colours, same order.
    pub colour_names: Vec<String>,
    /// How many of `colours` have blessing tokens (they come first).
    pub blessing_colours: usize,
    /// One kind per card entry of the common deck.
    pub kinds: Vec<CardKind>,
    /// The colours the tricolor token may stand for, as a mask.
    pub tricolor: u32,
}

/// Cards of the common deck that share one colour field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardKind {
    /// The card entry's id in the data.
    pub id: String,
    pub name: String,
    /// The colours of its colour field, as bits of [`CommonDeck::colours`]; 0 for colourless.
    pub mask: u32,
    pub count: u32,
}

impl CommonDeck {
    /// Reads the common deck named by `params.common_deck`: see [`CommonDeck::named`].
    pub fn from_model(game: &Game) -> Result<Self, String> {
        let deck_id = game.param_str("common_deck")?;
        if game.deck(deck_id).is_none() {
            return Err(format!(
                "`common_deck` names deck `{deck_id}`, which does not exist"
            ));
        }
        Self::named(game, deck_id)
    }

    /// Reads the deck `deck_id`, its `colours` field, the blessing token colours (pieces of
    /// kind `blessing`; the one with `tricolor = true` excluded) and `params.tricolor_acts_as`.
    pub fn named(game: &Game, deck_id: &str) -> Result<Self, String> {
        let deck = game
            .deck(deck_id)
            .filter(|d| d.fields.contains_key("colours"))
            .ok_or_else(|| {
                format!(
                    "`{deck_id}` is not a deck of {} with a `colours` field",
                    game.slug
                )
            })?;
        let mut colours: Vec<String> = game
            .pieces_of_kind("blessing")
            .filter(|p| !is_tricolor(p))
            .filter_map(|p| p.symbol.clone())
            .collect();
        let blessing_colours = colours.len();
        if blessing_colours == 0 {
            return Err("the game has no blessing tokens with a colour symbol".into());
        }
        let card_colours: BTreeSet<&str> =
            deck.cards.iter().flat_map(|c| c.strs("colours")).collect();
        for c in card_colours {
            if !colours.iter().any(|k| k == c) {
                colours.push(c.to_string());
            }
        }
        if colours.len() > MAX_COLOURS {
            return Err(format!("Pray odds handle at most {MAX_COLOURS} colours"));
        }
        let index = |id: &str| colours.iter().position(|c| c == id);
        let kinds = deck
            .cards
            .iter()
            .map(|card| CardKind {
                id: card.id.get_ref().clone(),
                name: card.name.clone(),
                mask: card
                    .strs("colours")
                    .into_iter()
                    .filter_map(index)
                    .fold(0, |m, i| m | 1 << i),
                count: card.count.0,
            })
            .collect();
        let mut tricolor = 0;
        for c in param_strs(game, "tricolor_acts_as")? {
            let i = index(&c)
                .filter(|&i| i < blessing_colours)
                .ok_or_else(|| format!("`tricolor_acts_as` names `{c}`, not a blessing colour"))?;
            tricolor |= 1 << i;
        }
        let colour_names = colours
            .iter()
            .map(|c| game.symbol(c).map_or_else(|| c.clone(), |s| s.name.clone()))
            .collect();
        Ok(CommonDeck {
            id: deck_id.to_string(),
            name: deck.name.clone(),
            provenance: format!("{}: {}", deck.counts.kind(), deck.counts.reason()),
            colours,
            colour_names,
            blessing_colours,
            kinds,
            tricolor,
        })
    }

    /// The full deck's count of each kind.
    pub fn counts(&self) -> Vec<u32> {
        self.kinds.iter().map(|k| k.count).collect()
    }

    /// The colour masks of the kinds.
    pub fn masks(&self) -> Vec<u32> {
        self.kinds.iter().map(|k| k.mask).collect()
    }

    /// The index of a colour id.
    pub fn colour_index(&self, id: &str) -> Option<usize> {
        self.colours.iter().position(|c| c == id)
    }

    /// The full deck as a [`Pile`].
    pub fn pile(&self) -> Pile {
        Pile {
            masks: self.masks(),
            counts: self.counts(),
        }
    }
}

fn is_tricolor(p: &crate::model::Piece) -> bool {
    p.fields
        .get("tricolor")
        .and_then(|v| v.get_ref().as_bool())
        .unwrap_or(false)
}

/// Cards left to draw from: a count per card kind, with each kind's colour mask.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pile {
    pub masks: Vec<u32>,
    pub counts: Vec<u32>,
}

/// The exact distribution of a count: `P(X = k) = ways[k] / total`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distribution {
    pub ways: Vec<u128>,
    pub total: u128,
}

impl Distribution {
    /// `P(X = k)`.
    pub fn prob(&self, k: usize) -> f64 {
        self.ways
            .get(k)
            .map_or(0.0, |&w| w as f64 / self.total as f64)
    }

    /// `P(X >= 1)`.
    pub fn p_any(&self) -> f64 {
        1.0 - self.prob(0)
    }

    /// `E[X]`.
    pub fn mean(&self) -> f64 {
        (0..self.ways.len()).map(|k| k as f64 * self.prob(k)).sum()
    }
}

/// `n choose k`, exactly (0 when k > n). Callers keep `n choose k` within `u128`: see
/// [`fits`], which [`pray_odds_table`] and the engine check on the data first.
pub fn binomial(n: u64, k: u64) -> u128 {
    checked_binomial(n, k).unwrap_or(u128::MAX)
}

/// `n choose k`, or `None` when it does not fit in `u128`.
pub fn checked_binomial(n: u64, k: u64) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    (0..k).try_fold(1u128, |acc, i| {
        acc.checked_mul(u128::from(n - i))
            .map(|x| x / u128::from(i + 1))
    })
}

/// Whether exact counting of a Pray `n` over a deck of `total` cards stays within `u128`.
pub fn fits(total: u32, n: u32) -> bool {
    checked_binomial(u64::from(total), u64::from(n)).is_some_and(|b| b < u128::MAX / 2)
}

impl Pile {
    pub fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Cards whose colour field shows `colour` (divided fields count for each colour).
    pub fn matching(&self, colour: usize) -> u32 {
        self.masks
            .iter()
            .zip(&self.counts)
            .filter(|(m, _)| *m & (1 << colour) != 0)
            .map(|(_, c)| c)
            .sum()
    }

    /// Drawing `n` cards (all that are left if fewer): how many match `colour`. Hypergeometric.
    pub fn matches(&self, colour: usize, n: u32) -> Distribution {
        let total = u64::from(self.total());
        let good = u64::from(self.matching(colour));
        let n = u64::from(n).min(total);
        let ways = (0..=n)
            .map(|k| binomial(good, k) * binomial(total - good, n - k))
            .collect();
        Distribution {
            ways,
            total: binomial(total, n),
        }
    }

    /// Expected yield of drawing `n` with `tokens` applicable tokens of an announced colour:
    /// `E[X] + tokens * P(X >= 1)`.
    pub fn draw_value(&self, colour: usize, n: u32, tokens: u32) -> f64 {
        let d = self.matches(colour, n);
        d.mean() + f64::from(tokens) * d.p_any()
    }

    /// Every multiset of `n` cards the pile can give, with its number of ways: the joint
    /// (multivariate hypergeometric) distribution of a draw. Calls `visit(drawn, ways)`.
    pub fn for_each_draw(&self, n: u32, mut visit: impl FnMut(&[u32], u128)) {
        let n = n.min(self.total());
        let mut drawn = vec![0u32; self.counts.len()];
        self.enumerate(0, n, 1, &mut drawn, &mut visit);
    }

    fn enumerate(
        &self,
        kind: usize,
        left: u32,
        ways: u128,
        drawn: &mut [u32],
        visit: &mut impl FnMut(&[u32], u128),
    ) {
        if kind == self.counts.len() {
            if left == 0 {
                visit(drawn, ways);
            }
            return;
        }
        let have = self.counts[kind];
        let rest: u32 = self.counts[kind + 1..].iter().sum();
        let low = left.saturating_sub(rest);
        for k in low..=left.min(have) {
            drawn[kind] = k;
            let w = ways * binomial(u64::from(have), u64::from(k));
            self.enumerate(kind + 1, left - k, w, drawn, visit);
        }
        drawn[kind] = 0;
    }

    /// Matches of `colour` among drawn cards (`drawn` counts per kind).
    pub fn matches_in(&self, drawn: &[u32], colour: usize) -> u32 {
        self.masks
            .iter()
            .zip(drawn)
            .filter(|(m, _)| *m & (1 << colour) != 0)
            .map(|(_, d)| d)
            .sum()
    }

    /// Expected yield of drawing `n` and choosing the colour afterwards, the best for what was
    /// drawn, among `colours`, where `tokens[c]` applicable tokens add to colour `c` when it
    /// matched at least once. Exact, by enumerating every possible draw.
    pub fn choose_value(&self, n: u32, colours: usize, tokens: &[u32]) -> f64 {
        let n = n.min(self.total());
        let total = binomial(u64::from(self.total()), u64::from(n));
        // Ways to take k cards of each kind, and the cards left after each kind. The ways of a
        // draw are integers below C(total, n), which `fits` keeps small enough for an f64 sum.
        let ways: Vec<Vec<f64>> = self
            .counts
            .iter()
            .map(|&have| {
                (0..=n)
                    .map(|k| binomial(u64::from(have), u64::from(k)) as f64)
                    .collect()
            })
            .collect();
        let mut after = vec![0u32; self.counts.len() + 1];
        for k in (0..self.counts.len()).rev() {
            after[k] = after[k + 1] + self.counts[k];
        }
        let mut walk = ChooseWalk {
            masks: &self.masks,
            counts: &self.counts,
            ways: &ways,
            after: &after,
            tokens: &tokens[..colours],
            matches: vec![0; colours],
            sum: 0.0,
        };
        walk.visit(0, n, 1.0);
        walk.sum / total as f64
    }
}

/// The enumeration behind [`Pile::choose_value`]: keeps each colour's matches as it goes, so
/// a complete draw costs one pass over the colours.
struct ChooseWalk<'a> {
    masks: &'a [u32],
    counts: &'a [u32],
    /// `ways[kind][k]`: ways to draw k cards of the kind.
    ways: &'a [Vec<f64>],
    /// `after[kind]`: cards of the kinds from `kind` on.
    after: &'a [u32],
    tokens: &'a [u32],
    matches: Vec<u32>,
    sum: f64,
}

impl ChooseWalk<'_> {
    fn visit(&mut self, kind: usize, left: u32, ways: f64) {
        if kind == self.counts.len() {
            if left == 0 {
                let best = self
                    .matches
                    .iter()
                    .zip(self.tokens)
                    .map(|(&m, &t)| pray_yield(m, t))
                    .max()
                    .unwrap_or(0);
                self.sum += f64::from(best) * ways;
            }
            return;
        }
        let mask = self.masks[kind];
        for k in left.saturating_sub(self.after[kind + 1])..=left.min(self.counts[kind]) {
            self.add(mask, k, true);
            let w = ways * self.ways[kind][k as usize];
            self.visit(kind + 1, left - k, w);
            self.add(mask, k, false);
        }
    }

    fn add(&mut self, mask: u32, k: u32, on: bool) {
        if mask == 0 || k == 0 {
            return;
        }
        for (c, m) in self.matches.iter_mut().enumerate() {
            if mask & (1 << c) != 0 {
                if on {
                    *m += k;
                } else {
                    *m -= k;
                }
            }
        }
    }
}

/// The yield of a drawn Pray action: matches, plus one per applicable token when at least one
/// card matched (the gods were propitiated).
pub fn pray_yield(matches: u32, tokens: u32) -> u32 {
    if matches > 0 { matches + tokens } else { 0 }
}

/// Tokens that apply to a colour in one Pray action: the player's own token of that colour and
/// the tricolor if it may stand for the colour. `stack` says whether the tricolor adds to an
/// own token of the same colour (the rules let a player use several tokens for one action).
pub fn applicable_tokens(owns: bool, tricolor_fits: bool, stack: bool) -> u32 {
    match (owns, tricolor_fits) {
        (true, true) if stack => 2,
        (false, false) => 0,
        _ => 1,
    }
}

/// One line of the Pray odds table: Pray N for one announced colour, drawn from the full
/// common deck.
#[derive(Debug, Clone, PartialEq)]
pub struct OddsRow {
    /// Colour id and display name.
    pub colour: String,
    pub colour_name: String,
    /// The N of Pray N.
    pub pray: u32,
    /// Cards of the common deck that match the colour (divided fields included).
    pub matching_cards: u32,
    pub deck_size: u32,
    /// `P(k matches)` for k = 0..=N.
    pub distribution: Vec<f64>,
    /// Chance of at least one match.
    pub p_any: f64,
    /// Expected matches without tokens.
    pub expected: f64,
    /// With one token of the colour, drawing: expected matches plus the token's bonus.
    pub token_draw: f64,
    /// With one token of the colour, skipping the draw: the token counts as one card.
    pub token_skip: f64,
    /// For the tricolor's colours: own token plus tricolor, drawing.
    pub tricolor_draw: Option<f64>,
    /// For the tricolor's colours: own token plus tricolor, skipping the draw.
    pub tricolor_skip: Option<f64>,
}

impl OddsRow {
    /// The better choice with one token: `"draw"` or `"skip"` (ties go to skipping, which is
    /// certain).
    pub fn token_choice(&self) -> &'static str {
        if self.token_draw > self.token_skip {
            "draw"
        } else {
            "skip"
        }
    }
}

/// The Pray odds table: for every blessing colour some card of the common deck shows and every
/// N of `params.pray_odds_sizes`, the exact odds of an announced-colour Pray N drawn from the
/// full common deck, without and with tokens. Rows are grouped by colour, in the data's colour
/// order. A token colour no card shows has no odds to give (its token only counts by skipping
/// the draw), so it has no row.
pub fn pray_odds_table(game: &Game) -> Result<Vec<OddsRow>, String> {
    let deck = CommonDeck::from_model(game)?;
    let sizes = game.param_ints("pray_odds_sizes")?;
    let pile = deck.pile();
    let mut rows = Vec::new();
    for c in (0..deck.blessing_colours).filter(|&c| pile.matching(c) > 0) {
        for &n in &sizes {
            let n = u32::try_from(n)
                .ok()
                .filter(|&n| fits(pile.total(), n))
                .ok_or_else(|| format!("`pray_odds_sizes` holds {n}; a Pray size is 0 or more and small enough to count exactly"))?;
            rows.push(odds_row(&deck, &pile, c, n));
        }
    }
    Ok(rows)
}

/// For "choose" Pray actions: with no tokens, the expected matches of the best colour picked
/// after seeing the cards, for each N of `params.pray_odds_sizes`, as `(N, expected)`.
/// Compare with the best single colour's `expected` in [`pray_odds_table`] to see what
/// choosing after the draw is worth.
pub fn choose_odds(game: &Game) -> Result<Vec<(u32, f64)>, String> {
    let deck = CommonDeck::from_model(game)?;
    let pile = deck.pile();
    let none = vec![0; deck.colours.len()];
    game.param_ints("pray_odds_sizes")?
        .into_iter()
        .map(|n| {
            let n = u32::try_from(n)
                .ok()
                .filter(|&n| fits(pile.total(), n))
                .ok_or_else(|| format!("`pray_odds_sizes` holds {n}, which cannot be counted"))?;
            Ok((n, pile.choose_value(n, deck.colours.len(), &none)))
        })
        .collect()
}

fn odds_row(deck: &CommonDeck, pile: &Pile, c: usize, n: u32) -> OddsRow {
    let d = pile.matches(c, n);
    let tricolor = deck.tricolor & (1 << c) != 0;
    let both = applicable_tokens(true, true, true);
    OddsRow {
        colour: deck.colours[c].clone(),
        colour_name: deck.colour_names[c].clone(),
        pray: n,
        matching_cards: pile.matching(c),
        deck_size: pile.total(),
        distribution: (0..d.ways.len()).map(|k| d.prob(k)).collect(),
        p_any: d.p_any(),
        expected: d.mean(),
        token_draw: pile.draw_value(c, n, 1),
        token_skip: 1.0,
        tricolor_draw: tricolor.then(|| pile.draw_value(c, n, both)),
        tricolor_skip: tricolor.then_some(f64::from(both)),
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_chacha::ChaCha8Rng;

    use super::super::testdata::shipped;
    use super::*;

    fn deck() -> CommonDeck {
        CommonDeck::from_model(&shipped()).unwrap()
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(84, 4), 1_929_501);
        assert_eq!(binomial(5, 0), 1);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!(binomial(60, 30), 118_264_581_564_861_424);
        assert_eq!(checked_binomial(5000, 60), None);
        assert!(fits(84, 4) && !fits(5000, 60));
    }

    #[test]
    fn divided_fields_count_for_every_colour_and_colourless_for_none() {
        // Prayers: "the player resolves the effects of all the colors shown in the color field
        // (e.g., golden and grey, not golden or grey)"; Cards that have no color: "Ruins have
        // no color". The invented divided deck exercises both.
        let d = CommonDeck::named(&shipped(), "common-divided-example").unwrap();
        let pile = d.pile();
        let total = pile.total();
        assert_eq!(
            i64::from(total),
            shipped().param_int("common_deck_size").unwrap()
        );
        // Every match count is the sum over card entries that show the colour.
        for c in 0..d.colours.len() {
            let expected: u32 = d
                .kinds
                .iter()
                .filter(|k| k.mask & (1 << c) != 0)
                .map(|k| k.count)
                .sum();
            assert_eq!(pile.matching(c), expected);
        }
        let divided: Vec<&CardKind> = d.kinds.iter().filter(|k| k.mask.count_ones() > 1).collect();
        assert!(!divided.is_empty(), "the data exercises divided fields");
        let colourless: u32 = d
            .kinds
            .iter()
            .filter(|k| k.mask == 0)
            .map(|k| k.count)
            .sum();
        assert!(colourless > 0, "the data exercises colourless cards");
        // Colour totals exceed the deck by the divided cards' extra colours and fall short by
        // the colourless ones.
        let by_colour: u32 = (0..d.colours.len()).map(|c| pile.matching(c)).sum();
        let extra: u32 = divided
            .iter()
            .map(|k| (k.mask.count_ones() - 1) * k.count)
            .sum();
        assert_eq!(by_colour, total + extra - colourless);
    }

    #[test]
    fn distribution_sums_to_one_and_matches_hand_count() {
        let d = deck();
        let pile = d.pile();
        let brown = d.colour_index("brown").unwrap();
        let m = u64::from(pile.matching(brown));
        let t = u64::from(pile.total());
        let dist = pile.matches(brown, 2);
        assert_eq!(dist.ways.iter().sum::<u128>(), dist.total);
        // P(no brown in 2) = (t-m)(t-m-1) / (t(t-1)).
        let p0 = ((t - m) * (t - m - 1)) as f64 / (t * (t - 1)) as f64;
        assert!((dist.prob(0) - p0).abs() < 1e-12);
        // Hypergeometric mean n * m / t.
        assert!((dist.mean() - 2.0 * m as f64 / t as f64).abs() < 1e-12);
    }

    #[test]
    fn choose_value_with_one_colour_equals_announce_value() {
        let d = deck();
        let pile = d.pile();
        let red = d.colour_index("red").unwrap();
        let mut tokens = vec![0; d.colours.len()];
        tokens[red] = 1;
        // With only `red` to choose from, choosing after the draw is announcing red.
        let only_red = Pile {
            masks: pile.masks.iter().map(|m| m & (1 << red)).collect(),
            counts: pile.counts.clone(),
        };
        let choose = only_red.choose_value(3, d.colours.len(), &tokens);
        assert!((choose - pile.draw_value(red, 3, 1)).abs() < 1e-12);
        // With every colour, choosing after seeing the cards is worth at least as much.
        let best_announced = (0..d.colours.len())
            .map(|c| pile.draw_value(c, 3, tokens[c]))
            .fold(0.0, f64::max);
        assert!(pile.choose_value(3, d.colours.len(), &tokens) > best_announced);
    }

    /// Draws `n` cards from a shuffled copy of the full deck and returns them as kind indices.
    fn draw(physical: &mut [usize], n: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
        let (drawn, _) = physical.partial_shuffle(rng, n);
        drawn.to_vec()
    }

    /// The exact odds agree with a seeded Monte Carlo run. With `SAMPLES` draws a frequency's
    /// standard error is at most sqrt(0.25 / SAMPLES) = 0.0011; we allow 5 standard errors of
    /// the actual p (a false alarm about once in 1.7 million per figure), and for means 5
    /// standard errors of the yield (its standard deviation is at most N + tokens).
    #[test]
    fn exact_odds_agree_with_monte_carlo() {
        const SAMPLES: usize = 200_000;
        let d = deck();
        let pile = d.pile();
        let mut physical: Vec<usize> = d
            .kinds
            .iter()
            .enumerate()
            .flat_map(|(i, k)| std::iter::repeat_n(i, k.count as usize))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let colours = d.colours.len();
        let gold = d.colour_index("gold").unwrap();
        let brown = d.colour_index("brown").unwrap();
        let mut tokens = vec![0u32; colours];
        tokens[brown] = 2; // own brown token and the tricolor
        tokens[gold] = 1;
        let n = 3;
        let mut hist = vec![0usize; n + 1];
        let mut gold_token_yield = 0u64;
        let mut choose_yield = 0u64;
        for _ in 0..SAMPLES {
            let cards = draw(&mut physical, n, &mut rng);
            let matches_of = |c: usize| {
                cards
                    .iter()
                    .filter(|&&k| d.kinds[k].mask & (1 << c) != 0)
                    .count() as u32
            };
            hist[matches_of(gold) as usize] += 1;
            gold_token_yield += u64::from(pray_yield(matches_of(gold), 1));
            choose_yield += u64::from(
                (0..colours)
                    .map(|c| pray_yield(matches_of(c), tokens[c]))
                    .max()
                    .unwrap(),
            );
        }
        let exact = pile.matches(gold, n as u32);
        for (k, &seen) in hist.iter().enumerate() {
            let p = exact.prob(k);
            let freq = seen as f64 / SAMPLES as f64;
            let se = (p * (1.0 - p) / SAMPLES as f64).sqrt().max(1e-9);
            assert!(
                (freq - p).abs() < 5.0 * se + 1e-9,
                "k = {k}: exact {p}, seen {freq}"
            );
        }
        let mean_tol = 5.0 * (n as f64 + 2.0) / (SAMPLES as f64).sqrt();
        let token_mc = gold_token_yield as f64 / SAMPLES as f64;
        assert!((token_mc - pile.draw_value(gold, n as u32, 1)).abs() < mean_tol);
        let choose_mc = choose_yield as f64 / SAMPLES as f64;
        let choose_exact = pile.choose_value(n as u32, colours, &tokens);
        assert!((choose_mc - choose_exact).abs() < mean_tol);
        // Shown with `--nocapture`, for the record.
        let freqs: Vec<String> = hist
            .iter()
            .enumerate()
            .map(|(k, &h)| {
                format!(
                    "{k}: {:.5} vs {:.5}",
                    exact.prob(k),
                    h as f64 / SAMPLES as f64
                )
            })
            .collect();
        println!("gold Pray {n}, exact vs Monte Carlo: {}", freqs.join(", "));
        println!(
            "gold Pray {n} with a token: {:.5} vs {token_mc:.5}; choose after drawing: {choose_exact:.5} vs {choose_mc:.5} (tolerance {mean_tol:.5})",
            pile.draw_value(gold, n as u32, 1)
        );
        // The sample saw every outcome with a chance above one in ten thousand.
        assert!((0..=n).all(|k| exact.prob(k) < 1e-4 || hist[k] > 0));
    }

    #[test]
    fn odds_table_covers_every_colour_and_size_from_the_data() {
        let game = shipped();
        let rows = pray_odds_table(&game).unwrap();
        let sizes = game.param_ints("pray_odds_sizes").unwrap();
        let d = deck();
        let shown = (0..d.blessing_colours)
            .filter(|&c| d.pile().matching(c) > 0)
            .count();
        assert!(
            shown < d.blessing_colours,
            "the data has a token colour no card shows"
        );
        assert_eq!(rows.len(), shown * sizes.len());
        for row in &rows {
            let sum: f64 = row.distribution.iter().sum();
            assert!((sum - 1.0).abs() < 1e-12);
            assert_eq!(row.distribution.len(), row.pray as usize + 1);
            assert!((row.token_draw - (row.expected + row.p_any)).abs() < 1e-12);
            let tricolor = param_strs(&game, "tricolor_acts_as").unwrap();
            assert_eq!(row.tricolor_draw.is_some(), tricolor.contains(&row.colour));
        }
        // A colour without cards in the deck has no odds: it gets no row.
        assert!(rows.iter().all(|r| r.matching_cards > 0));
    }

    #[test]
    fn choosing_after_the_draw_beats_every_announced_colour() {
        let game = shipped();
        let rows = pray_odds_table(&game).unwrap();
        for (n, value) in choose_odds(&game).unwrap() {
            let best_announced = rows
                .iter()
                .filter(|r| r.pray == n)
                .map(|r| r.expected)
                .fold(0.0, f64::max);
            assert!(value >= best_announced - 1e-12, "Pray {n}");
            // Pray 1: one card, every colour it shows counts, so choose = P(card has a colour).
            if n == 1 {
                let d = deck();
                let coloured: u32 = d
                    .kinds
                    .iter()
                    .filter(|k| k.mask != 0)
                    .map(|k| k.count)
                    .sum();
                assert!((value - f64::from(coloured) / f64::from(d.pile().total())).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn changing_the_deck_changes_the_odds() {
        use crate::model::COMPONENTS_FILE;
        let game = super::super::testdata::edited(
            COMPONENTS_FILE,
            "id = \"common-brown\"\nname = \"Brown common cards\"\ncount = 16",
            "id = \"common-brown\"\nname = \"Brown common cards\"\ncount = 31",
        );
        let before = pray_odds_table(&shipped()).unwrap();
        let after = pray_odds_table(&game).unwrap();
        let brown1 = |rows: &[OddsRow]| {
            rows.iter()
                .find(|r| r.colour == "brown" && r.pray == 1)
                .cloned()
                .unwrap()
        };
        let (b, a) = (brown1(&before), brown1(&after));
        assert!((b.p_any - f64::from(b.matching_cards) / f64::from(b.deck_size)).abs() < 1e-12);
        assert_eq!(
            (a.matching_cards, a.deck_size),
            (b.matching_cards + 15, b.deck_size + 15)
        );
        assert!((a.p_any - f64::from(a.matching_cards) / f64::from(a.deck_size)).abs() < 1e-12);
    }
}
