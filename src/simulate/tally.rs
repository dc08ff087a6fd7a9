//! The statistics of the games one worker plays, kept in a form a game is quick to add to:
//! names found by their address first (engines name kinds, reasons and statistics with
//! string constants), lengths counted in a vector. [`Tally::into_stats`] turns it into
//! [`Stats`], whose maps are keyed by text for the report and for `merge`.
//!
//! Adding a game to [`Stats`] directly looked every name up in a `BTreeMap<String, _>`: about
//! 15 000 instructions a game of The Search, as much as a sixth of the game itself.

use super::cards::CardTally;
use super::stats::{
    Aggregate, BotRecord, GameResult, Histogram, POINT, Stats, rounded, sole_winner,
};

/// The reason counted for a game stopped at the move cap.
pub(super) const CAP_REASON: &str = "stopped at the move cap";

/// A run's statistics while games are being added; see the module's note.
#[derive(Debug, Default)]
pub struct Tally {
    games: u64,
    timeouts: u64,
    decided: u64,
    shared_losses: u64,
    ties: u64,
    seat_points: Vec<u64>,
    seat_wins: Vec<u64>,
    bots: Vec<(String, BotRecord)>,
    end_reasons: Vec<(&'static str, u64)>,
    moves: Lengths,
    turns: Lengths,
    end_stats: Vec<(&'static str, Aggregate)>,
    actions: Vec<(&'static str, u64)>,
    /// With `--cards`: each design's totals, and the moves the engine named cards for.
    cards: Option<CardTally>,
}

impl Tally {
    /// Adds one game.
    pub fn add(&mut self, g: &GameResult) {
        let seats = g.returns.len();
        if self.seat_points.len() < seats {
            self.seat_points.resize(seats, 0);
            self.seat_wins.resize(seats, 0);
        }
        self.games += 1;
        if let Some(cards) = &g.cards {
            let tally = self.cards.get_or_insert_with(Default::default);
            tally.add(cards, &g.returns, &g.seat_bots);
        }
        for (i, &(kind, n)) in g.actions.iter().enumerate() {
            *named(&mut self.actions, kind, i) += n;
        }
        if g.timeout {
            self.timeouts += 1;
            *named(&mut self.end_reasons, CAP_REASON, 0) += 1;
            for bot in &g.seat_bots {
                self.bot(bot).seats += 1;
            }
            return;
        }
        self.moves.add(g.moves);
        if let Some(turns) = g.turns {
            self.turns.add(turns);
        }
        self.add_result(g);
        *named(&mut self.end_reasons, g.end_reason.unwrap_or("ended"), 0) += 1;
        for (i, &(name, value)) in g.end_stats.iter().enumerate() {
            named(&mut self.end_stats, name, i).add(value);
        }
    }

    /// The points and wins of a finished game, by seat and by bot.
    fn add_result(&mut self, g: &GameResult) {
        let winner = sole_winner(&g.returns);
        match winner {
            Some(_) => self.decided += 1,
            None if g.returns.iter().all(|&r| r == 0.0) => self.shared_losses += 1,
            None => self.ties += 1,
        }
        for (seat, &r) in g.returns.iter().enumerate() {
            let points = rounded(r * POINT).max(0) as u64;
            self.seat_points[seat] += points;
            let won = winner == Some(seat);
            self.seat_wins[seat] += won as u64;
            let bot = self.bot(&g.seat_bots[seat]);
            bot.seats += 1;
            bot.points += points;
            bot.wins += won as u64;
        }
    }

    fn bot(&mut self, spec: &str) -> &mut BotRecord {
        let at = match self.bots.iter().position(|(b, _)| b == spec) {
            Some(at) => at,
            None => {
                self.bots.push((spec.to_string(), BotRecord::default()));
                self.bots.len() - 1
            }
        };
        &mut self.bots[at].1
    }

    /// The same totals as [`Stats`], keyed by text.
    pub fn into_stats(self) -> Stats {
        let mut s = Stats {
            games: self.games,
            timeouts: self.timeouts,
            decided: self.decided,
            shared_losses: self.shared_losses,
            ties: self.ties,
            seat_points: self.seat_points,
            seat_wins: self.seat_wins,
            moves: self.moves.into_histogram(),
            turns: self.turns.into_histogram(),
            ..Stats::default()
        };
        for (bot, record) in self.bots {
            s.bots.insert(bot, record);
        }
        for (reason, n) in self.end_reasons {
            *s.end_reasons.entry(reason.to_string()).or_default() += n;
        }
        for (kind, n) in self.actions {
            *s.actions.entry(kind.to_string()).or_default() += n;
        }
        s.cards = self.cards.map(CardTally::into_stats);
        for (name, aggregate) in self.end_stats {
            s.end_stats
                .entry(name.to_string())
                .or_default()
                .merge(&aggregate);
        }
        s
    }
}

/// The value named `key` in `list`, made on first use. Looked for at `hint` first (a game
/// lists its statistics in the same order every time), then by address, then by text; the
/// same text at another address shares the entry.
#[inline]
fn named<'a, V: Default>(
    list: &'a mut Vec<(&'static str, V)>,
    key: &'static str,
    hint: usize,
) -> &'a mut V {
    let at = match list.get(hint) {
        Some((k, _)) if std::ptr::eq(*k, key) => hint,
        _ => list
            .iter()
            .position(|(k, _)| std::ptr::eq(*k, key))
            .or_else(|| list.iter().position(|(k, _)| *k == key))
            .unwrap_or_else(|| {
                list.push((key, V::default()));
                list.len() - 1
            }),
    };
    &mut list[at].1
}

/// Games counted by length, as [`Histogram`] counts them, in a vector indexed by length.
#[derive(Debug, Default)]
struct Lengths {
    by_length: Vec<u64>,
    games: u64,
    sum: u64,
    sum_of_squares: u64,
}

impl Lengths {
    fn add(&mut self, length: u32) {
        let at = length as usize;
        if self.by_length.len() <= at {
            self.by_length.resize(at + 1, 0);
        }
        self.by_length[at] += 1;
        let l = u64::from(length);
        self.games += 1;
        self.sum += l;
        self.sum_of_squares += l * l;
    }

    fn into_histogram(self) -> Histogram {
        Histogram {
            games_by_length: self
                .by_length
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(length, n)| (length as u32, *n))
                .collect(),
            games: self.games,
            sum: self.sum,
            sum_of_squares: self.sum_of_squares,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: u32, returns: Vec<f64>, reason: &'static str, kind: &'static str) -> GameResult {
        GameResult {
            returns,
            seat_bots: vec!["random".into(), "heuristic".into()],
            moves,
            turns: Some(moves / 2),
            timeout: moves > 100,
            end_reason: Some(reason),
            end_stats: vec![("cards", f64::from(moves) / 3.0), ("turns", 4.0)],
            actions: vec![(kind, u64::from(moves))],
            cards: None,
        }
    }

    #[test]
    fn a_tally_adds_up_as_stats_add_each_game() {
        // The same text at another address, as another engine build might name a kind.
        let moved: &'static str = Box::leak(String::from("move").into_boxed_str());
        let games = [
            game(10, vec![1.0, 0.0], "caught", "move"),
            game(12, vec![0.0, 1.0], "escaped", moved),
            game(7, vec![0.5, 0.5], "caught", "play"),
            game(200, vec![0.0, 0.0], "caught", "move"),
            game(9, vec![0.0, 0.0], "outrage", "move"),
        ];
        let mut tally = Tally::default();
        let mut one_by_one = Stats::default();
        for g in &games {
            tally.add(g);
            one_by_one.merge(&{
                let mut single = Tally::default();
                single.add(g);
                single.into_stats()
            });
        }
        let stats = tally.into_stats();
        assert_eq!(stats, one_by_one);
        assert_eq!(stats.actions["move"], 10 + 12 + 200 + 9);
        assert_eq!(stats.actions.len(), 2, "{:?}", stats.actions);
        assert_eq!(stats.end_reasons[CAP_REASON], 1);
        assert_eq!(stats.end_reasons["caught"], 2);
        assert_eq!((stats.decided, stats.ties, stats.shared_losses), (2, 1, 1));
        assert_eq!(stats.moves.games_by_length.len(), 4);
        assert_eq!(stats.moves.max(), 12);
        assert_eq!(stats.end_stats["cards"].count, 4);
        assert_eq!(stats.bots["random"].seats, 5);
        assert_eq!(stats.bots["random"].points, 1_500_000);
    }
}
