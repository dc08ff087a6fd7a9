//! `printplay playtests GAME`: what the stored tables of a game say. Sessions played and
//! finished, results per seat and per kind of player (a person or a bot spec), game lengths,
//! and how often the people chose the move the engine's `heuristic` bot would have chosen in
//! their place (seen as they saw the game).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::engine::registry::{EngineTask, seat_names};
use crate::engine::{Engine, State, Turn};
use crate::model::Game;
use crate::play::{PERSON, Transcript};
use crate::simulate::{game_rng, make_bot};

use super::store::StoredTable;

/// Wins (results added up) and games, for one seat or one kind of player.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Record {
    pub games: u32,
    pub wins: f64,
}

/// The summary of a game's stored sessions.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Playtests {
    pub game: String,
    pub sessions: u32,
    pub finished: u32,
    /// Finished sessions by seat name.
    pub by_seat: BTreeMap<String, Record>,
    /// Finished sessions by who played (`person`, `heuristic`...).
    pub by_player: BTreeMap<String, Record>,
    /// Moves of each finished session.
    pub lengths: Vec<u32>,
    /// People's decisions, and how many of them the heuristic bot would have made too.
    pub decisions: u32,
    pub as_heuristic: u32,
    /// Sessions that could not be read back (a data change, an engine error).
    pub unreadable: Vec<String>,
}

/// Reads every stored session of `game`.
pub fn summarise(game: &Game, tables: &[StoredTable]) -> Result<Playtests, String> {
    struct Task<'a>(&'a [StoredTable]);
    impl EngineTask for Task<'_> {
        type Output = Playtests;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Playtests, String> {
            let mut p = Playtests {
                game: game.slug.clone(),
                ..Playtests::default()
            };
            // Sessions at the free table of a game with an engine are another game: left out.
            let free = !crate::engine::free::has_rules(game);
            for t in self
                .0
                .iter()
                .filter(|t| t.transcript.game == game.slug && (free || !t.transcript.free))
            {
                p.sessions += 1;
                if let Err(e) = session(&engine, game, &t.transcript, &mut p) {
                    p.unreadable.push(format!("table {}: {e}", t.id));
                }
            }
            Ok(p)
        }
    }
    crate::engine::free::with_table(game, false, Task(tables))
}

fn session<E: Engine>(
    engine: &E,
    game: &Game,
    t: &Transcript,
    p: &mut Playtests,
) -> Result<(), String> {
    let config = crate::engine::Config {
        players: t.players,
        variants: t.variants.clone(),
    };
    let mut state = engine.new_game(&config, &mut game_rng(t.seed, 0))?;
    // The free table has no heuristic bot: its people's moves are not compared.
    let mut heuristic = make_bot(engine, "heuristic").ok();
    let mut decisions = 0;
    let mut agreed = 0;
    for (k, &index) in t.moves.iter().enumerate() {
        let choices: Vec<_> = match state.turn() {
            Turn::Chance => state.chance_outcomes().into_iter().map(|o| o.0).collect(),
            Turn::Player(_) => state.legal_actions(),
            Turn::Terminal => Vec::new(),
        };
        let action = *choices
            .get(index)
            .ok_or_else(|| format!("move {} is not open", k + 1))?;
        if let Turn::Player(seat) = state.turn()
            && t.seats.get(seat).is_some_and(|s| s == PERSON)
            && let Some(heuristic) = heuristic.as_mut()
        {
            let mut rng = game_rng(t.seed, k as u64 + 1);
            let view = state.determinize(seat, &mut rng);
            decisions += 1;
            if heuristic.choose(&view, &mut rng) == action {
                agreed += 1;
            }
        }
        state.apply(action);
    }
    p.decisions += decisions;
    p.as_heuristic += agreed;
    if state.turn() == Turn::Terminal && state.failure().is_none() {
        p.finished += 1;
        p.lengths.push(state.moves_played());
        let names = seat_names(engine, game, t.players);
        for (seat, r) in state.returns().iter().enumerate() {
            for (key, map) in [
                (&names[seat], &mut p.by_seat),
                (&t.seats[seat], &mut p.by_player),
            ] {
                let rec = map.entry(key.clone()).or_default();
                rec.games += 1;
                rec.wins += r;
            }
        }
    }
    Ok(())
}

impl Playtests {
    /// The summary in words.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}: {} stored sessions, {} finished",
            self.game, self.sessions, self.finished
        );
        let rate = |r: &Record| {
            format!(
                "{} games, won {:.1} ({:.0} %)",
                r.games,
                r.wins,
                100.0 * r.wins / f64::from(r.games.max(1))
            )
        };
        if !self.by_seat.is_empty() {
            let _ = writeln!(s, "results by seat:");
            for (seat, r) in &self.by_seat {
                let _ = writeln!(s, "  {seat}: {}", rate(r));
            }
            let _ = writeln!(s, "results by player:");
            for (who, r) in &self.by_player {
                let _ = writeln!(s, "  {who}: {}", rate(r));
            }
        }
        if let (Some(min), Some(max)) = (self.lengths.iter().min(), self.lengths.iter().max()) {
            let mean = f64::from(self.lengths.iter().sum::<u32>()) / self.lengths.len() as f64;
            let _ = writeln!(
                s,
                "length in moves: mean {mean:.1}, shortest {min}, longest {max}"
            );
        }
        if self.decisions > 0 {
            let _ = writeln!(
                s,
                "people's decisions: {}, of which the heuristic bot would have made {} ({:.0} %)",
                self.decisions,
                self.as_heuristic,
                100.0 * f64::from(self.as_heuristic) / f64::from(self.decisions)
            );
        }
        for u in &self.unreadable {
            let _ = writeln!(s, "not read: {u}");
        }
        s
    }
}
