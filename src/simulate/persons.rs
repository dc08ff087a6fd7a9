//! Person seats beside bot seats: what the games people played at the table (`printplay
//! serve`, read back by `printplay playtests`) say, shown in the balance report next to the
//! bots' figures (`simulate --playtests`). Each figure names the games it rests on: a handful
//! of person games says little, and the page says how little.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::html::{esc, table};
use super::report::{Rate, RunReport, percent};

/// What the stored person games of a game say, per seat and per card.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PersonGames {
    /// Where they were read (the tables' database).
    pub source: String,
    /// Finished games with at least one person seat.
    pub finished: u32,
    /// Games (finished or not) that replay on the data, with at least one person seat: what
    /// the card plays rest on.
    pub games: u32,
    /// Per seat name, the finished games a person played it and the points they won.
    pub seats: BTreeMap<String, PersonSeat>,
    /// Per card id, the times persons played it (for its effect or not) in `games`.
    pub card_plays: BTreeMap<String, u64>,
}

/// A seat as persons played it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PersonSeat {
    pub games: u32,
    /// Points (a win 1, shares for ties).
    pub wins: f64,
}

impl PersonSeat {
    pub fn win_rate(&self) -> Rate {
        Rate::of(self.wins, f64::from(self.games))
    }
}

fn pc(x: f64) -> String {
    format!("{:.1} %", percent(x))
}

fn rate_text(r: Rate) -> String {
    format!("{} ({} to {})", pc(r.rate), pc(r.low), pc(r.high))
}

impl PersonGames {
    /// The report page's section: each seat's win rate by bots and by persons, each with the
    /// games it rests on; each card's plays per game by bots (with `--cards`) and by persons.
    pub fn html(&self, run: &RunReport) -> String {
        let mut out = String::from("<h2>Person seats beside bot seats</h2>\n");
        let _ = writeln!(
            out,
            "<p>Games people played at the table, from {}: {} finished with a person seat, {} read for card plays. A figure on a few games says little: its interval says how little.</p>",
            esc(&self.source),
            self.finished,
            self.games
        );
        let rows: Vec<String> = run
            .summary
            .seats
            .iter()
            .map(|seat| {
                let person = self.seats.get(&seat.name).cloned().unwrap_or_default();
                let persons = if person.games == 0 {
                    "<td data-sort=\"-1\">no game</td>".to_string()
                } else {
                    let r = person.win_rate();
                    format!("<td data-sort=\"{}\">{}</td>", r.rate, rate_text(r))
                };
                format!(
                    "<td>{}</td><td data-sort=\"{}\">{}</td><td>{}</td>{persons}<td>{}</td>",
                    esc(&seat.name),
                    seat.win_rate.rate,
                    rate_text(seat.win_rate),
                    run.stats.games,
                    person.games
                )
            })
            .collect();
        out.push_str(&table(
            "Win rate by seat (points per game, 95 % interval): bots, and persons at that seat",
            &[
                "seat",
                "bots' win rate",
                "bot games",
                "persons' win rate",
                "person games",
            ],
            &rows,
        ));
        if self.card_plays.is_empty() && run.cards.is_none() {
            return out;
        }
        let bots: BTreeMap<&str, (&str, u64)> = run
            .cards
            .iter()
            .flatten()
            .map(|c| (c.id.as_str(), (c.name.as_str(), c.times + c.dead)))
            .collect();
        let mut ids: Vec<&str> = bots.keys().copied().collect();
        ids.extend(self.card_plays.keys().map(String::as_str));
        ids.sort_unstable();
        ids.dedup();
        let per_game = |n: u64, games: u64| {
            if games == 0 {
                "<td data-sort=\"-1\">no game</td>".to_string()
            } else {
                let x = n as f64 / games as f64;
                format!("<td data-sort=\"{x}\">{x:.2}</td>")
            }
        };
        let rows: Vec<String> = ids
            .iter()
            .map(|id| {
                let (name, bot) = bots.get(id).copied().unwrap_or((id, 0));
                let bot_cell = if run.cards.is_some() {
                    per_game(bot, run.stats.games)
                } else {
                    "<td data-sort=\"-1\">run with --cards</td>".to_string()
                };
                let plays = self.card_plays.get(*id).copied().unwrap_or(0);
                format!(
                    "<td>{}</td>{bot_cell}<td>{}</td>{}<td>{}</td>",
                    esc(name),
                    run.stats.games,
                    per_game(plays, u64::from(self.games)),
                    self.games
                )
            })
            .collect();
        out.push_str(&table(
            "Card plays per game: by bots, and by persons",
            &[
                "card",
                "bots' plays per game",
                "bot games",
                "persons' plays per game",
                "person games",
            ],
            &rows,
        ));
        out
    }

    /// The same in words, for the terminal.
    pub fn text(&self, run: &RunReport) -> String {
        let mut s = format!(
            "person seats ({}: {} finished games with a person seat):\n",
            self.source, self.finished
        );
        for seat in &run.summary.seats {
            let person = self.seats.get(&seat.name).cloned().unwrap_or_default();
            let persons = if person.games == 0 {
                "no person game".to_string()
            } else {
                format!(
                    "persons {} over {} games",
                    rate_text(person.win_rate()),
                    person.games
                )
            };
            let _ = writeln!(
                s,
                "  {}: bots {} over {} games; {persons}",
                seat.name,
                rate_text(seat.win_rate),
                run.stats.games
            );
        }
        s
    }
}
