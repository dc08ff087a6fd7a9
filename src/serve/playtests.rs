//! `printplay playtests GAME`: what the stored tables of a game say. Sessions played and
//! finished, results per seat and per kind of player (a person or a bot spec), game lengths,
//! and how often the people chose the move the engine's `heuristic` bot would have chosen in
//! their place (seen as they saw the game). [`export`] writes every session out, move by
//! move with its time, with the testers' chat and notes and how often each card was played,
//! as JSON and CSV.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::engine::registry::{EngineRun, seat_names};
use crate::engine::view::Observer;
use crate::engine::{Engine, RunError, State, Turn};
use crate::model::Game;
use crate::play::{PERSON, Transcript};
use crate::simulate::persons::PersonGames;
use crate::simulate::{game_rng, make_bot};

use serde_json::{Value, json};

use super::store::{StoredTable, Voice, VoiceKind};

/// One game played at a stored table: a past round (before a rematch) or the game now.
struct Played<'a> {
    id: &'a str,
    round: usize,
    data_version: &'a str,
    transcript: &'a Transcript,
    times: &'a [Option<i64>],
    /// When it began, in milliseconds since 1970: the table's making, or the last move of the
    /// round before it (`None`: unknown).
    began: Option<i64>,
    closed: Option<i64>,
    voices: Vec<&'a Voice>,
}

/// Every game played at a table, its past rounds first.
fn played(t: &StoredTable) -> Vec<Played<'_>> {
    let mut out = Vec::new();
    let mut began = Some(t.created * 1000);
    let said = |round: usize| t.voices.iter().filter(|v| v.round == round).collect();
    for (round, r) in t.rounds.iter().enumerate() {
        out.push(Played {
            id: &t.id,
            round,
            data_version: &r.data_version,
            transcript: &r.transcript,
            times: &r.times,
            began,
            closed: None,
            voices: said(round),
        });
        began = r.times.iter().rev().find_map(|t| *t).or(began);
    }
    let round = t.rounds.len();
    out.push(Played {
        id: &t.id,
        round,
        data_version: &t.data_version,
        transcript: &t.transcript,
        times: &t.times,
        began,
        closed: t.closed,
        voices: said(round),
    });
    out
}

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
    /// The games with a person seat, per seat and per card, for the balance report.
    pub persons: PersonGames,
}

/// Reads every stored session of `game`.
pub fn summarise(game: &Game, tables: &[StoredTable]) -> Result<Playtests, RunError> {
    struct Task<'a>(&'a [StoredTable]);
    impl EngineRun for Task<'_> {
        type Output = Playtests;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Playtests, RunError> {
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
                for r in played(t) {
                    p.sessions += 1;
                    if let Err(e) = session(&engine, game, r.transcript, &mut p) {
                        p.unreadable
                            .push(format!("table {} round {}: {e}", t.id, r.round));
                    }
                }
            }
            Ok(p)
        }
    }
    crate::engine::free::run_table(game, false, Task(tables))
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
    let mut cards = Vec::new();
    let mut person_plays: BTreeMap<&'static str, u64> = BTreeMap::new();
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
        {
            cards.clear();
            state.cards_of(action, &mut cards);
            for c in &cards {
                *person_plays.entry(c.id).or_default() += 1;
            }
        }
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
    let with_person = t.seats.iter().any(|s| s == PERSON);
    if with_person {
        p.persons.games += 1;
        for (id, n) in person_plays {
            *p.persons.card_plays.entry(id.to_string()).or_default() += n;
        }
    }
    if state.turn() == Turn::Terminal && state.failure().is_none() {
        p.finished += 1;
        p.lengths.push(state.moves_played());
        let names = seat_names(engine, game, t.players);
        if with_person {
            p.persons.finished += 1;
        }
        for (seat, r) in state.returns().iter().enumerate() {
            if t.seats.get(seat).is_some_and(|s| s == PERSON) {
                let rec = p.persons.seats.entry(names[seat].clone()).or_default();
                rec.games += 1;
                rec.wins += r;
            }
        }
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

/// Every stored session of a game, written out: its seats, each move (who, what, the cards
/// it plays, when it was stored and the seconds since the move before, or since the table was
/// made), its chat and notes (every one: the designer's), its length, and how often each card
/// was played by persons and by bots over all sessions.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    pub json: Value,
    pub csv: String,
}

/// Writes out every stored session of `game` ([`Export`]).
pub fn export(game: &Game, tables: &[StoredTable]) -> Result<Export, RunError> {
    struct Task<'a>(&'a [StoredTable]);
    impl EngineRun for Task<'_> {
        type Output = Export;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Export, RunError> {
            let free = !crate::engine::free::has_rules(game);
            let mut sessions = Vec::new();
            let mut plays: BTreeMap<&'static str, (u64, u64)> = BTreeMap::new();
            let mut rows = Vec::new();
            for t in self
                .0
                .iter()
                .filter(|t| t.transcript.game == game.slug && (free || !t.transcript.free))
            {
                for r in played(t) {
                    sessions.push(session_out(&engine, game, &r, &mut plays, &mut rows));
                }
            }
            for (card, (persons, bots)) in &plays {
                for (player, count) in [("person", persons), ("bot", bots)] {
                    let mut row = vec![String::new(); COLUMNS.len()];
                    row[1] = "plays".into();
                    row[6] = player.into();
                    row[8] = cell(card);
                    row[11] = count.to_string();
                    rows.push(row);
                }
            }
            let card_plays: serde_json::Map<String, Value> = plays
                .iter()
                .map(|(c, (p, b))| (c.to_string(), json!({"persons": p, "bots": b})))
                .collect();
            let json = json!({
                "game": game.slug,
                "sessions": sessions,
                "card_plays": card_plays,
            });
            let mut w = csv::Writer::from_writer(Vec::new());
            let io = |e: csv::Error| format!("writing CSV: {e}");
            w.write_record(COLUMNS).map_err(io)?;
            for row in &rows {
                w.write_record(row).map_err(io)?;
            }
            let bytes = w.into_inner().map_err(|e| format!("writing CSV: {e}"))?;
            let csv = String::from_utf8(bytes).map_err(|e| format!("writing CSV: {e}"))?;
            Ok(Export { json, csv })
        }
    }
    crate::engine::free::run_table(game, false, Task(tables))
}

/// The CSV's columns: one row per move, chat line and note of every session, then two per
/// card (its plays by persons and by bots).
pub const COLUMNS: [&str; 13] = [
    "table",
    "kind",
    "n",
    "at_ms",
    "turn_seconds",
    "seat",
    "player",
    "move",
    "card",
    "text",
    "shared",
    "count",
    "round",
];

/// A text a tester or the data wrote, made safe to open in a spreadsheet: a cell starting
/// with `=`, `+`, `-`, `@` or a control character is a formula there, so it is led by `'`.
fn cell(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r' | '\n') => format!("'{text}"),
        _ => text.to_string(),
    }
}

/// One session as JSON, its rows pushed onto `rows` and its players' cards onto `plays`. A
/// session whose moves no longer replay on the data says so (`unreadable`) and keeps its
/// chat and notes.
fn session_out<E: Engine>(
    engine: &E,
    game: &Game,
    t: &Played,
    plays: &mut BTreeMap<&'static str, (u64, u64)>,
    rows: &mut Vec<Vec<String>>,
) -> Value {
    let tr = t.transcript;
    let names = seat_names(engine, game, tr.players);
    let name = |seat: Option<usize>| {
        seat.and_then(|s| names.get(s).cloned())
            .unwrap_or_else(|| "spectator".to_string())
    };
    let mut moves = Vec::new();
    let mut unreadable = None;
    let mut finished = false;
    let mut returns = Vec::new();
    let config = crate::engine::Config {
        players: tr.players,
        variants: tr.variants.clone(),
    };
    let mut before = t.began;
    let mut last = None;
    match engine.new_game(&config, &mut game_rng(tr.seed, 0)) {
        Err(e) => unreadable = Some(e),
        Ok(mut state) => {
            let mut cards = Vec::new();
            for (k, &index) in tr.moves.iter().enumerate() {
                let turn = state.turn();
                let choices: Vec<_> = match turn {
                    Turn::Chance => state.chance_outcomes().into_iter().map(|o| o.0).collect(),
                    Turn::Player(_) => state.legal_actions(),
                    Turn::Terminal => Vec::new(),
                };
                let Some(&action) = choices.get(index) else {
                    unreadable = Some(format!("move {} is not open", k + 1));
                    break;
                };
                let (seat, player) = match turn {
                    Turn::Player(s) => (
                        names.get(s).cloned().unwrap_or_default(),
                        tr.seats.get(s).cloned().unwrap_or_default(),
                    ),
                    _ => ("chance".to_string(), "chance".to_string()),
                };
                cards.clear();
                let mut ids: Vec<&str> = Vec::new();
                if matches!(turn, Turn::Player(_)) {
                    state.cards_of(action, &mut cards);
                    ids = cards.iter().map(|c| c.id).collect();
                    for &c in &ids {
                        let e = plays.entry(c).or_default();
                        if player == PERSON {
                            e.0 += 1;
                        } else {
                            e.1 += 1;
                        }
                    }
                }
                let at = t.times.get(k).copied().flatten();
                let seconds = match (at, before) {
                    (Some(a), Some(b)) => Some((a - b) as f64 / 1000.0),
                    _ => None,
                };
                if at.is_some() {
                    before = at;
                    last = at;
                }
                // The designer reads every seat's moves, as an onlooker who sees every hand.
                let words = crate::engine::view::action_words(&state, action, Observer::Omniscient);
                rows.push(vec![
                    t.id.to_string(),
                    "move".into(),
                    k.to_string(),
                    at.map(|a| a.to_string()).unwrap_or_default(),
                    seconds.map(|s| format!("{s:.3}")).unwrap_or_default(),
                    cell(&seat),
                    cell(&player),
                    cell(&words),
                    cell(&ids.join(";")),
                    String::new(),
                    String::new(),
                    String::new(),
                    t.round.to_string(),
                ]);
                moves.push(json!({
                    "n": k,
                    "seat": seat,
                    "player": player,
                    "move": words,
                    "cards": ids,
                    "at": at,
                    "turn_seconds": seconds,
                }));
                state.apply(action);
            }
            if unreadable.is_none() && state.turn() == Turn::Terminal && state.failure().is_none() {
                finished = true;
                returns = state.returns();
            }
        }
    }
    let mut chat = Vec::new();
    let mut notes = Vec::new();
    for v in &t.voices {
        let who = name(v.seat);
        let (kind, list) = match v.kind {
            VoiceKind::Chat => ("chat", &mut chat),
            VoiceKind::Note => ("note", &mut notes),
        };
        rows.push(vec![
            t.id.to_string(),
            kind.into(),
            v.n.to_string(),
            v.at.to_string(),
            String::new(),
            cell(&who),
            String::new(),
            v.at_move.to_string(),
            cell(v.card.as_deref().unwrap_or("")),
            cell(&v.text),
            if v.kind == VoiceKind::Note {
                v.shared.to_string()
            } else {
                String::new()
            },
            String::new(),
            t.round.to_string(),
        ]);
        let mut line = json!({"n": v.n, "who": who, "at": v.at, "move": v.at_move, "text": v.text});
        if v.kind == VoiceKind::Note {
            line["card"] = json!(v.card);
            line["shared"] = json!(v.shared);
        }
        list.push(line);
    }
    let last_said = t.voices.iter().map(|v| v.at).max();
    let end = last.max(last_said);
    json!({
        "id": t.id,
        "round": t.round,
        "data_version": t.data_version,
        "seed": tr.seed,
        "variants": tr.variants,
        "seats": names.iter().zip(&tr.seats).map(|(n, p)| json!({"name": n, "plays": p})).collect::<Vec<_>>(),
        "began_ms": t.began,
        "closed_ms": t.closed.map(|c| c * 1000),
        "length_seconds": end.zip(t.began).map(|(e, b)| (e - b) as f64 / 1000.0),
        "finished": finished,
        "returns": if finished { json!(returns) } else { Value::Null },
        "unreadable": unreadable,
        "moves": moves,
        "chat": chat,
        "notes": notes,
    })
}
