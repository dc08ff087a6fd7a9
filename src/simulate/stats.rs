//! Statistics of many games, accumulated as they finish so memory stays flat in the number
//! of games. Every total is an integer (results in millionths of a point, statistics in
//! thousandths, each field named with its unit), so merging is exact and order-free: shards,
//! threads and `printplay merge` all agree. The figures a reader wants come from
//! [`super::report::Summary`], in plain units.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Results are stored in millionths of a point.
pub const POINT: f64 = 1_000_000.0;
/// End statistics are stored in thousandths.
pub const STAT: f64 = 1_000.0;

/// One finished (or capped) game, as the accumulator needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    /// Each seat's result (1 win, 0 loss, shares for ties); all 0 at the move cap.
    pub returns: Vec<f64>,
    /// The bot spec that played each seat.
    pub seat_bots: Vec<String>,
    pub moves: u32,
    /// Turns played, where the engine counts them.
    pub turns: Option<u32>,
    pub timeout: bool,
    pub end_reason: Option<&'static str>,
    pub end_stats: Vec<(&'static str, f64)>,
    pub actions: Vec<(&'static str, u64)>,
    /// With `--cards`: the designs each seat played or acquired.
    pub cards: Option<super::cards::GameCards>,
}

/// Totals of one end statistic.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aggregate {
    pub count: u64,
    #[serde(rename = "sum_thousandths")]
    pub sum: i64,
    /// Sum of the squares of the values as stored (in thousandths), so in millionths of the
    /// squared unit: the spread is then that of exactly the values summed, and is 0 when
    /// every game ends on the same value, whole or not.
    #[serde(rename = "sum_of_squares_millionths")]
    pub sum_sq: i64,
    #[serde(rename = "min_thousandths")]
    pub min: i64,
    #[serde(rename = "max_thousandths")]
    pub max: i64,
}

impl Aggregate {
    pub(super) fn add(&mut self, value: f64) {
        let v = rounded(value * STAT);
        let sq = v * v;
        if self.count == 0 {
            self.min = v;
            self.max = v;
        }
        self.count += 1;
        self.sum += v;
        self.sum_sq += sq;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    pub(super) fn merge(&mut self, other: &Aggregate) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 {
            *self = other.clone();
            return;
        }
        self.count += other.count;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    pub fn mean(&self) -> f64 {
        self.sum as f64 / STAT / self.count.max(1) as f64
    }

    pub fn sd(&self) -> f64 {
        let n = self.count.max(1) as f64;
        let mean = self.mean();
        (self.sum_sq as f64 / (STAT * STAT) / n - mean * mean)
            .max(0.0)
            .sqrt()
    }
}

/// A bot's record over every seat it played.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotRecord {
    /// Seats played (one per game per seat).
    pub seats: u64,
    /// Points: 1 a win, shares for ties.
    #[serde(rename = "points_millionths")]
    pub points: u64,
    /// Outright wins.
    pub wins: u64,
}

/// Everything counted over a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub games: u64,
    /// Games stopped by the simulator's move cap, counted apart from finished ones.
    pub timeouts: u64,
    /// Finished games with one outright winner.
    pub decided: u64,
    /// Finished games where nobody scored (a shared loss).
    pub shared_losses: u64,
    /// Finished games whose points were shared (a tie).
    pub ties: u64,
    /// Per seat: points (1 a win, shares for ties), and outright wins.
    #[serde(rename = "seat_points_millionths")]
    pub seat_points: Vec<u64>,
    pub seat_wins: Vec<u64>,
    pub bots: BTreeMap<String, BotRecord>,
    pub end_reasons: BTreeMap<String, u64>,
    /// Length of the finished games in moves (chance events excluded); timeouts apart.
    pub moves: Histogram,
    /// Length of the finished games in turns, where the engine counts turns.
    pub turns: Histogram,
    pub end_stats: BTreeMap<String, Aggregate>,
    /// Moves played, by kind.
    pub actions: BTreeMap<String, u64>,
    /// With `--cards`: per design, who played or acquired it and how they did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<super::cards::CardStats>,
}

impl Stats {
    /// Adds one game. A worker adding many games keeps a [`super::tally::Tally`] instead,
    /// which this goes through, and turns it into `Stats` at the end.
    pub fn add(&mut self, g: &GameResult) {
        let mut tally = super::tally::Tally::default();
        tally.add(g);
        self.merge(&tally.into_stats());
    }

    /// Adds another run's totals (a shard, a thread's share).
    pub fn merge(&mut self, o: &Stats) {
        let seats = self.seat_points.len().max(o.seat_points.len());
        self.seat_points.resize(seats, 0);
        self.seat_wins.resize(seats, 0);
        for (i, (&p, &w)) in o.seat_points.iter().zip(&o.seat_wins).enumerate() {
            self.seat_points[i] += p;
            self.seat_wins[i] += w;
        }
        self.games += o.games;
        self.timeouts += o.timeouts;
        self.decided += o.decided;
        self.shared_losses += o.shared_losses;
        self.ties += o.ties;
        for (k, b) in &o.bots {
            let mine = self.bots.entry(k.clone()).or_default();
            mine.seats += b.seats;
            mine.points += b.points;
            mine.wins += b.wins;
        }
        add_counts(&mut self.end_reasons, &o.end_reasons);
        add_counts(&mut self.actions, &o.actions);
        self.moves.merge(&o.moves);
        self.turns.merge(&o.turns);
        for (k, a) in &o.end_stats {
            self.end_stats.entry(k.clone()).or_default().merge(a);
        }
        if let Some(c) = &o.cards {
            self.cards.get_or_insert_with(Default::default).merge(c);
        }
    }

    pub fn merged(mut self, o: Stats) -> Stats {
        self.merge(&o);
        self
    }
}

/// Counts of games by length, with the sums the mean and spread need.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    /// Games of each length.
    pub games_by_length: BTreeMap<u32, u64>,
    pub games: u64,
    pub sum: u64,
    pub sum_of_squares: u64,
}

impl Histogram {
    pub fn add(&mut self, length: u32) {
        let l = u64::from(length);
        *self.games_by_length.entry(length).or_default() += 1;
        self.games += 1;
        self.sum += l;
        self.sum_of_squares += l * l;
    }

    pub fn merge(&mut self, o: &Histogram) {
        add_counts(&mut self.games_by_length, &o.games_by_length);
        self.games += o.games;
        self.sum += o.sum;
        self.sum_of_squares += o.sum_of_squares;
    }

    /// The length at or below which a share `q` of the games ended.
    pub fn quantile(&self, q: f64) -> u32 {
        let target = (q * self.games as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (&len, &n) in &self.games_by_length {
            seen += n;
            if seen >= target {
                return len;
            }
        }
        0
    }

    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.games.max(1) as f64
    }

    pub fn sd(&self) -> f64 {
        let m = self.mean();
        (self.sum_of_squares as f64 / self.games.max(1) as f64 - m * m)
            .max(0.0)
            .sqrt()
    }

    pub fn max(&self) -> u32 {
        self.games_by_length
            .keys()
            .next_back()
            .copied()
            .unwrap_or(0)
    }
}

fn add_counts<K: Ord + Clone>(to: &mut BTreeMap<K, u64>, from: &BTreeMap<K, u64>) {
    for (k, n) in from {
        *to.entry(k.clone()).or_default() += n;
    }
}

/// The seat with result 1 when every other seat has 0.
pub fn sole_winner(returns: &[f64]) -> Option<usize> {
    let mut scorers = returns.iter().enumerate().filter(|(_, r)| **r > 0.0);
    match (scorers.next(), scorers.next()) {
        (Some((seat, &r)), None) if r >= 1.0 => Some(seat),
        _ => None,
    }
}

/// `x.round() as i64`, without the call to `round` when `x` is already whole (a count, a
/// whole number of points), as it nearly always is.
#[inline]
pub fn rounded(x: f64) -> i64 {
    let whole = x as i64;
    if whole as f64 == x {
        whole
    } else {
        x.round() as i64
    }
}

/// Wilson score interval (95 %) for `successes` out of `n`; successes may be fractional.
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let p = successes / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Newcombe's interval (95 %) for the difference of two proportions from their Wilson
/// intervals: `p1 - p2`, low, high.
pub fn difference(p1: f64, ci1: (f64, f64), p2: f64, ci2: (f64, f64)) -> (f64, f64, f64) {
    let d = p1 - p2;
    let low = d - ((p1 - ci1.0).powi(2) + (ci2.1 - p2).powi(2)).sqrt();
    let high = d + ((ci1.1 - p1).powi(2) + (p2 - ci2.0).powi(2)).sqrt();
    (d, low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: the textbook interval is 0.4038 to 0.5962.
        let (lo, hi) = wilson(50.0, 100.0);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4, "{hi}");
    }

    #[test]
    fn rounding_whole_numbers_first_rounds_as_round_does() {
        for x in [
            0.0,
            -0.0,
            1.0,
            2.5,
            -2.5,
            0.499_999_999_999_999_94,
            1e300,
            -1e300,
            12_345.678,
            f64::NAN,
            f64::INFINITY,
            4_503_599_627_370_497.0,
        ] {
            assert_eq!(rounded(x), x.round() as i64, "{x}");
        }
    }

    #[test]
    fn a_sole_winner_is_the_only_seat_that_scored() {
        assert_eq!(sole_winner(&[0.0, 1.0]), Some(1));
        assert_eq!(sole_winner(&[0.5, 0.5]), None, "a tie");
        assert_eq!(sole_winner(&[0.0, 0.0]), None, "a shared loss");
        assert_eq!(sole_winner(&[1.0, 1.0, 0.0]), None);
        assert_eq!(sole_winner(&[0.7, 0.0]), None, "a share is not a win");
    }

    #[test]
    fn a_statistic_that_never_varies_has_no_spread_whole_or_not() {
        // `simulate aether --players 3` ends every game at 43 / 3 placements per player; the
        // report once gave that an sd of 0.10 (the square was rounded apart from the value).
        let mut a = Aggregate::default();
        for _ in 0..50 {
            a.add(43.0 / 3.0);
        }
        assert_eq!(a.sd(), 0.0);
        assert!((a.mean() - 14.333).abs() < 1e-9, "{}", a.mean());
        // A known spread: 0.25 and 0.75 alternately have sd 0.25; fractions keep three decimals.
        let mut b = Aggregate::default();
        for i in 0..100 {
            b.add(if i % 2 == 0 { 0.25 } else { 0.75 });
        }
        assert!((b.sd() - 0.25).abs() < 1e-9, "{}", b.sd());
        let mut c = Aggregate::default();
        for x in [0.5714, 0.7857, 0.9286] {
            c.add(x);
        }
        let values = [0.571, 0.786, 0.929];
        let mean = values.iter().sum::<f64>() / 3.0;
        let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
        assert!((c.sd() - sd).abs() < 1e-9, "{} against {sd}", c.sd());
    }

    #[test]
    fn quantiles_come_from_the_histogram() {
        let mut s = Stats::default();
        for m in 1..=10 {
            s.add(&GameResult {
                returns: vec![1.0, 0.0],
                seat_bots: vec!["a".into(), "b".into()],
                moves: m,
                turns: None,
                timeout: false,
                end_reason: Some("x"),
                end_stats: vec![("v", m as f64)],
                actions: vec![],
                cards: None,
            });
        }
        assert_eq!(s.moves.quantile(0.5), 5);
        assert_eq!(s.moves.quantile(0.9), 9);
        assert_eq!(s.moves.max(), 10);
        assert_eq!(s.turns.games, 0, "the engine counted no turns");
        assert_eq!(s.end_stats["v"].mean(), 5.5);
        assert_eq!(s.seat_wins, vec![10, 0]);
    }
}
