//! The game as the unit of sampling. The seats of one game are not independent samples: in a
//! two-player game one seat's win is the other's loss, and a card held by one seat is missed
//! by the others. Every interval and test of the cards table therefore takes its variance from
//! the games (a cluster-robust, "sandwich" variance with the game as the cluster), never from
//! the seats as if each were a game of its own.
//!
//! Each seat of each game falls in a *cell*: its stratum (seat and bot, see `cards.rs`) and
//! whether it played the design (`2 * stratum + 1`) or not (`2 * stratum`). A figure of the
//! table is a weighted sum of cell means, `sum_c alpha_c * mean_c`; its variance over games is
//! `sum_g u_g^2` with `u_g = sum_(seats s of g) alpha_c(s) * (y_s - p_c(s))`. Expanded, that
//! needs, for every pair of cells two seats of one game were in (a seat with itself included),
//! the games, each seat's points and the product of their points: integer sums, so shards and
//! threads merge them exactly and the memory does not grow with the games.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::stats::POINT;

/// Sums over the games in which two seats were in cells `cells[0] <= cells[1]` (the same seat
/// twice when the cells are equal, since two seats of one game never share a stratum).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairSums {
    pub cells: [u32; 2],
    pub games: u64,
    /// Each seat's points, summed (millionths).
    #[serde(rename = "points_millionths")]
    pub points: [u64; 2],
    /// The products of the two seats' points, summed (millionths squared), as a decimal
    /// string: it can pass 2^64 in a long run.
    #[serde(rename = "products_millionths_squared", with = "decimal")]
    pub products: u128,
}

mod decimal {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

/// The pair sums of a run (or of one design), keyed by their cells while they are added.
pub type PairMap = BTreeMap<[u32; 2], PairSums>;

/// Adds one game's seats, each `(cell, points in millionths)`, to `pairs`.
pub fn add_game(pairs: &mut PairMap, seats: &[(u32, u64)]) {
    for (i, &(ca, ya)) in seats.iter().enumerate() {
        for &(cb, yb) in &seats[i..] {
            let (key, points) = if ca <= cb {
                ([ca, cb], [ya, yb])
            } else {
                ([cb, ca], [yb, ya])
            };
            let p = pairs.entry(key).or_insert_with(|| PairSums {
                cells: key,
                ..PairSums::default()
            });
            p.games += 1;
            p.points[0] += points[0];
            p.points[1] += points[1];
            p.products += u128::from(ya) * u128::from(yb);
        }
    }
}

/// Adds `from` to `to`, with each cell renumbered by `map`.
pub fn add_pairs(to: &mut PairMap, from: &[PairSums], map: impl Fn(u32) -> u32) {
    for p in from {
        let (a, b) = (map(p.cells[0]), map(p.cells[1]));
        let (key, points) = if a <= b {
            ([a, b], p.points)
        } else {
            ([b, a], [p.points[1], p.points[0]])
        };
        let mine = to.entry(key).or_insert_with(|| PairSums {
            cells: key,
            ..PairSums::default()
        });
        mine.games += p.games;
        mine.points[0] += points[0];
        mine.points[1] += points[1];
        mine.products += p.products;
    }
}

/// One pair of cells in plain units: games, each seat's points, the products' sum.
#[derive(Debug, Clone, Copy, Default)]
struct Pair {
    games: f64,
    points: [f64; 2],
    products: f64,
}

/// A design's cells over every game of the run, ready for variances.
#[derive(Debug, Clone)]
pub struct Cells {
    /// Seat-games in each cell, and their points.
    pub n: Vec<f64>,
    pub points: Vec<f64>,
    pairs: Vec<([usize; 2], Pair)>,
    /// Games of the run.
    games: f64,
}

impl Cells {
    /// The cells of one design: `all` holds every game's seats with no design (every seat in
    /// an even cell), `design` the games in which some seat played it, in their true cells.
    /// The games without the design are `all` less the games with it.
    pub fn of(all: &[PairSums], design: &[PairSums], strata: usize, games: u64) -> Cells {
        let mut sums: BTreeMap<[u32; 2], (i128, [i128; 2], i128)> = BTreeMap::new();
        let mut add = |key: [u32; 2], p: &PairSums, sign: i128| {
            let e = sums.entry(key).or_default();
            e.0 += sign * i128::from(p.games);
            e.1[0] += sign * i128::from(p.points[0]);
            e.1[1] += sign * i128::from(p.points[1]);
            e.2 += sign * p.products as i128;
        };
        for p in all {
            add(p.cells, p, 1);
        }
        for p in design {
            // Cells `a <= b` stay in that order with the design's mark taken off.
            add([p.cells[0] & !1, p.cells[1] & !1], p, -1);
            add(p.cells, p, 1);
        }
        let cells = 2 * strata;
        let mut n = vec![0.0; cells];
        let mut points = vec![0.0; cells];
        let mut pairs = Vec::with_capacity(sums.len());
        for ([a, b], (g, y, q)) in sums {
            if g <= 0 {
                continue;
            }
            let (a, b) = (a as usize, b as usize);
            if a >= cells || b >= cells {
                continue;
            }
            let pair = Pair {
                games: g as f64,
                points: [y[0] as f64 / POINT, y[1] as f64 / POINT],
                products: q as f64 / (POINT * POINT),
            };
            if a == b {
                n[a] = pair.games;
                points[a] = pair.points[0];
            }
            pairs.push(([a, b], pair));
        }
        Cells {
            n,
            points,
            pairs,
            games: games as f64,
        }
    }

    /// The mean points of cell `c` (0 when it is empty).
    pub fn mean(&self, c: usize) -> f64 {
        if self.n[c] > 0.0 {
            self.points[c] / self.n[c]
        } else {
            0.0
        }
    }

    /// The variance over games of `sum_c alpha[c] * mean_c`, each cell's seats centred on
    /// `centre[c]`, with the small-sample factor `G / (G - 1)`.
    pub fn variance(&self, alpha: &[f64], centre: &[f64]) -> f64 {
        let mut v = 0.0;
        for &([a, b], p) in &self.pairs {
            let (wa, wb) = (alpha[a], alpha[b]);
            if wa == 0.0 || wb == 0.0 {
                continue;
            }
            let (ca, cb) = (centre[a], centre[b]);
            let term = p.products - cb * p.points[0] - ca * p.points[1] + ca * cb * p.games;
            v += if a == b {
                wa * wa * term
            } else {
                2.0 * wa * wb * term
            };
        }
        let g = self.games;
        (v * if g > 1.0 { g / (g - 1.0) } else { 1.0 }).max(0.0)
    }

    /// The same variance as if every seat were a game of its own (the cells' own spreads
    /// only): what the design effect is measured against.
    pub fn independent_variance(&self, alpha: &[f64], centre: &[f64]) -> f64 {
        let mut v = 0.0;
        for &([a, b], p) in &self.pairs {
            if a != b || alpha[a] == 0.0 {
                continue;
            }
            let c = centre[a];
            v += alpha[a] * alpha[a] * (p.products - 2.0 * c * p.points[0] + c * c * p.games);
        }
        v.max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_variance_from_pair_sums_is_the_variance_over_games() {
        // Games of three seats in four strata (seat 2 played by two bots); each seat played
        // the design or not, and scored 0, 1/3, 1/2 or 1. The variance from the sums must be
        // sum over games of (sum over seats of alpha (y - centre))^2, times G / (G - 1).
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut all = PairMap::new();
        let mut design = PairMap::new();
        let mut kept = Vec::new();
        let games = 500;
        for _ in 0..games {
            let strata = [0u32, 1, if rng.random_bool(0.5) { 2 } else { 3 }];
            let seats: Vec<(u32, u64)> = strata
                .iter()
                .map(|&k| {
                    let y = [0, 333_333, 500_000, 1_000_000][rng.random_range(0..4)];
                    let with = rng.random_bool(0.3) as u32;
                    (2 * k + with, y)
                })
                .collect();
            let even: Vec<(u32, u64)> = seats.iter().map(|&(c, y)| (c & !1, y)).collect();
            add_game(&mut all, &even);
            if seats.iter().any(|&(c, _)| c % 2 == 1) {
                add_game(&mut design, &seats);
            }
            kept.push(seats);
        }
        let all: Vec<PairSums> = all.into_values().collect();
        let design: Vec<PairSums> = design.into_values().collect();
        let cells = Cells::of(&all, &design, 4, games);
        let alpha: Vec<f64> = (0..8).map(|c| (c as f64 - 3.5) / 100.0).collect();
        let centre: Vec<f64> = (0..8).map(|c| c as f64 / 10.0).collect();
        let brute: f64 = kept
            .iter()
            .map(|seats| {
                seats
                    .iter()
                    .map(|&(c, y)| alpha[c as usize] * (y as f64 / POINT - centre[c as usize]))
                    .sum::<f64>()
                    .powi(2)
            })
            .sum::<f64>()
            * games as f64
            / (games as f64 - 1.0);
        let got = cells.variance(&alpha, &centre);
        assert!(
            (got - brute).abs() < 1e-9 * brute.max(1.0),
            "{got} against {brute}"
        );
        // Each cell's seat-games and points are the plain counts.
        for c in 0..8u32 {
            let n = kept.iter().flatten().filter(|s| s.0 == c).count() as f64;
            let y: f64 = kept
                .iter()
                .flatten()
                .filter(|s| s.0 == c)
                .map(|s| s.1 as f64)
                .sum();
            assert_eq!(cells.n[c as usize], n, "cell {c}");
            assert!((cells.points[c as usize] - y / POINT).abs() < 1e-9);
        }
        // Seats one by one: only each seat with itself.
        let own: f64 = kept
            .iter()
            .flatten()
            .map(|&(c, y)| (alpha[c as usize] * (y as f64 / POINT - centre[c as usize])).powi(2))
            .sum();
        let got = cells.independent_variance(&alpha, &centre);
        assert!(
            (got - own).abs() < 1e-9 * own.max(1.0),
            "{got} against {own}"
        );
    }

    #[test]
    fn products_past_two_to_the_64_survive_json() {
        let p = PairSums {
            cells: [0, 1],
            games: 3,
            points: [1, 2],
            products: u128::from(u64::MAX) * 7,
        };
        let text = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<PairSums>(&text).unwrap(), p);
    }
}
