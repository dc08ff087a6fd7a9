//! `simulate --csv`: one row per game for a spreadsheet.

use super::GameResult;
use super::stats::sole_winner;

/// The games of one reading of the rules, in game order.
pub struct ReadingRows<'a> {
    /// The compared variant's value, when comparing readings.
    pub reading: Option<&'a str>,
    pub games: &'a [(u64, GameResult)],
}

/// The CSV text: a header, then one row per game and reading. Columns: the game's number
/// from 1 (as `replay --game` takes it), the reading when comparing, each seat's bot and result,
/// the winner, moves, turns, whether it was stopped at the move cap, how it ended, and every
/// end statistic.
pub fn csv(seat_names: &[String], readings: &[ReadingRows<'_>]) -> Result<Vec<u8>, String> {
    let comparing = readings.iter().any(|r| r.reading.is_some());
    let stat_names = stat_names(readings);
    let mut out = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["game".to_string()];
    if comparing {
        header.push("reading".into());
    }
    for name in seat_names {
        header.push(format!("{name} bot"));
        header.push(format!("{name} result"));
    }
    header.extend(
        ["winner", "moves", "turns", "stopped at move cap", "end"]
            .iter()
            .map(|s| s.to_string()),
    );
    // An end statistic named like a column already there (The Search's and Capek's `turns`)
    // gets a column of its own name, so that a spreadsheet sees every header once.
    for name in &stat_names {
        let taken = header.iter().any(|h| h == name);
        header.push(if taken {
            format!("{name} (end statistic)")
        } else {
            name.to_string()
        });
    }
    out.write_record(&header).map_err(|e| e.to_string())?;
    for r in readings {
        for (index, g) in r.games {
            let mut row = vec![(index + 1).to_string()];
            if comparing {
                row.push(r.reading.unwrap_or_default().to_string());
            }
            for (bot, result) in g.seat_bots.iter().zip(&g.returns) {
                row.push(bot.clone());
                row.push(result.to_string());
            }
            let winner = sole_winner(&g.returns).filter(|_| !g.timeout);
            row.push(winner.map_or(String::new(), |w| seat_names[w].clone()));
            row.push(g.moves.to_string());
            row.push(g.turns.map_or(String::new(), |t| t.to_string()));
            row.push(g.timeout.to_string());
            row.push(end_of(g));
            for name in &stat_names {
                let value = g.end_stats.iter().find(|(k, _)| k == name);
                row.push(value.map_or(String::new(), |(_, v)| v.to_string()));
            }
            out.write_record(&row).map_err(|e| e.to_string())?;
        }
    }
    out.into_inner().map_err(|e| e.to_string())
}

fn end_of(g: &GameResult) -> String {
    if g.timeout {
        super::tally::CAP_REASON.into()
    } else {
        g.end_reason.unwrap_or("ended").into()
    }
}

/// Every end statistic's name, in the order the games first give them.
fn stat_names(readings: &[ReadingRows<'_>]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for r in readings {
        for (_, g) in r.games {
            for (name, _) in &g.end_stats {
                if !names.contains(name) {
                    names.push(name);
                }
            }
        }
    }
    names
}
