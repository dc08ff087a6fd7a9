//! One table's game behind a small object-safe interface, [`Live`], so that the server, the
//! storage and the page never see an engine's types. A game with an engine is a [`Typed`]
//! over its [`State`], built through the engine registry's `with_engine`
//! ([`crate::engine::registry`]), as `simulate` builds it; the free table (a game without
//! an engine, or any game played without its rules) is one more engine
//! ([`crate::engine::free`]), so it is a `Typed` too.
//!
//! Moves are indices into the list of legal moves (or chance outcomes) at that point, as in
//! the transcript `printplay play --save` writes, and the random streams are `play`'s: setup
//! from the seed's stream 0, the `k`-th entry of the move list from stream `k + 1`. A table
//! is therefore the same game as `printplay play --resume` and `printplay replay --moves` of
//! its transcript. Everything shown to a seat goes through [`crate::engine::view`].

use std::any::Any;
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::{Value, json};

use crate::engine::free::with_table;
use crate::engine::registry::{EngineTask, seat_names};
use crate::engine::view::{self, Observer};
use crate::engine::{Bot, Config, Engine, Player, Slice, State, Turn};
use crate::model::Game;
use crate::play::{PERSON, Transcript};
use crate::simulate::{check_choices, game_rng, make_bot};

/// Who is to act at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// A seat a person plays.
    Person(Player),
    /// A seat a bot plays.
    Bot(Player),
    /// A random event, decided by the server.
    Chance,
    /// The game is over (or an engine failed).
    Over,
}

/// A bot's decision, to be taken off the table and worked out elsewhere, in slices
/// ([`BotJob::think`]) so that one table's long search does not hold a core while another
/// table's bot waits.
pub struct BotJob(Box<dyn FnMut(Slice) -> Option<BotDone> + Send>);

impl BotJob {
    /// Thinks for at most `slice`: the decision, or `None` to be asked again (the search goes
    /// on where it stopped).
    pub fn think(&mut self, slice: Slice) -> Option<BotDone> {
        (self.0)(slice)
    }
}

/// A bot's decision, with the bot to hand back to the table.
pub struct BotDone {
    /// The move count the decision was made at; stale if the table moved on (an undo).
    pub at: usize,
    pub seat: Player,
    pub index: Result<usize, String>,
    bot: Box<dyn Any + Send>,
}

/// A seat's move as that seat may know it, for the log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogEntry {
    /// The move's number from 1; `null` for a chance outcome.
    pub number: Option<u32>,
    /// The seat's name, or `chance`.
    pub by: String,
    pub action: String,
    pub events: Vec<String>,
}

/// A seat's result once the game is over.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub ending: String,
    /// Each seat's result (1 a win, 0 a loss, shares for ties), in seat order.
    pub returns: Vec<f64>,
    pub points: Option<Vec<i64>>,
    pub moves: u32,
}

/// One table's game, whatever plays it.
pub trait Live: Send {
    /// The game as played so far: the stored format.
    fn transcript(&self) -> &Transcript;
    /// The seats' names (`criminal`, `police`; colours; `player N`).
    fn seat_names(&self) -> &[String];
    fn next(&self) -> Next;
    /// The moves open to a person at `seat` now, in words (empty when it is not to act).
    fn legal(&self, seat: Player) -> Vec<String>;
    /// Plays the choice `index` at this point (a move, a chance outcome, a bot's choice),
    /// after checking that it is one of the choices open; the transcript grows by one.
    fn play(&mut self, index: usize) -> Result<(), String>;
    /// The chance outcome the seed decides at this point, as an index.
    fn chance_index(&self) -> Result<usize, String>;
    /// At a bot's turn: its decision to work out elsewhere (the bot leaves the table until
    /// [`Live::bot_done`] hands it back).
    fn bot_job(&mut self) -> Option<BotJob>;
    /// Takes the bot back; the decision's index if it is still for this point of the game.
    fn bot_done(&mut self, done: BotDone) -> Option<usize>;
    /// The table as `observer` sees it after the first `at` entries of the transcript
    /// (`None`: now) and, for the seat to act now, its legal moves; without the log
    /// ([`Live::log`]), which the server sends apart.
    fn table_view(&self, observer: Observer, at: Option<usize>) -> Result<Value, String>;
    /// The log as `observer` knows it: one entry per entry of the transcript.
    fn log(&self, observer: Observer) -> Result<&[LogEntry], String>;
    /// [`Live::table_view`] with the log of those entries as the observer knows them
    /// (`"log"`).
    fn view(&self, observer: Observer, at: Option<usize>) -> Result<Value, String> {
        let mut view = self.table_view(observer, at)?;
        let log = self.log(observer)?;
        let shown = at.map_or(log.len(), |a| a.min(log.len()));
        view["log"] = serde_json::to_value(&log[..shown]).map_err(|e| e.to_string())?;
        Ok(view)
    }
    /// Goes back to the first `len` entries of the transcript.
    fn rewind(&mut self, len: usize) -> Result<(), String>;
    /// Where in the transcript `seat` made a decision.
    fn decisions(&self, seat: Player) -> Vec<usize>;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The error that stopped an engine, if any.
    fn failure(&self) -> Option<String>;
}

/// Opens a table: the engine the game names, set up from the transcript's seed, variants and
/// seats, with its moves replayed (and checked).
pub fn open(game: &Game, transcript: Transcript) -> Result<Box<dyn Live>, String> {
    struct Open(Transcript);
    impl EngineTask for Open {
        type Output = Box<dyn Live>;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Box<dyn Live>, String> {
            Ok(Box::new(Typed::new(&engine, game, self.0)?))
        }
    }
    let free = transcript.free;
    with_table(game, free, Open(transcript))
}

/// The seat names and seat count range of a game's engine (the free table's with `free`, or
/// for a game without an engine), for forms and `--seats`.
pub fn seating(
    game: &Game,
    players: usize,
    free: bool,
) -> Result<(Vec<String>, usize, usize), String> {
    struct Seating(usize);
    impl EngineTask for Seating {
        type Output = (Vec<String>, usize, usize);
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Self::Output, String> {
            let range = engine.player_counts();
            let players = if self.0 == 0 { *range.start() } else { self.0 };
            Ok((
                seat_names(&engine, game, players),
                *range.start(),
                *range.end(),
            ))
        }
    }
    with_table(game, free, Seating(players))
}

/// A game with an engine.
struct Typed<S: State> {
    transcript: Transcript,
    names: Vec<String>,
    /// The game after setup: time travel and undo start from it.
    start: S,
    state: S,
    /// Each seat's bot; `None` for a person, and for a bot while it thinks.
    bots: Vec<Option<Box<dyn Bot<S>>>>,
    person: Vec<bool>,
    /// The log as each seat knows it, then as every seat knows it (the spectator), then as
    /// an onlooker who sees every hand (never sent to a client; for tests). Each is made
    /// the first time it is asked for (by replaying the moves), then kept up move by move:
    /// a log nobody reads (a bot's seat, a spectator who never came) costs nothing.
    logs: Vec<OnceLock<Vec<LogEntry>>>,
}

fn config(t: &Transcript) -> Config {
    Config {
        players: t.players,
        variants: t.variants.clone(),
    }
}

fn choices<S: State>(state: &S) -> Vec<S::Action> {
    match state.turn() {
        Turn::Terminal => Vec::new(),
        Turn::Chance => state.chance_outcomes().into_iter().map(|o| o.0).collect(),
        Turn::Player(_) => state.legal_actions(),
    }
}

impl<S: State> Typed<S> {
    fn new<E: Engine<State = S>>(engine: &E, game: &Game, t: Transcript) -> Result<Self, String> {
        let range = engine.player_counts();
        if !range.contains(&t.players) {
            return Err(format!(
                "{} takes {}, not {}",
                game.slug,
                crate::engine::players_text(&range),
                t.players
            ));
        }
        if t.seats.len() != t.players {
            return Err(format!(
                "{} seats named for {} players",
                t.seats.len(),
                t.players
            ));
        }
        check_choices(game, engine.variants(), &t.variants)?;
        let bots = t
            .seats
            .iter()
            .map(|s| {
                if s == PERSON {
                    Ok(None)
                } else {
                    make_bot(engine, s).map(Some)
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        let start = engine.new_game(&config(&t), &mut game_rng(t.seed, 0))?;
        if let Some(e) = start.failure() {
            return Err(e);
        }
        let moves = t.moves.clone();
        let mut table = Typed {
            names: seat_names(engine, game, t.players),
            person: t.seats.iter().map(|s| s == PERSON).collect(),
            logs: (0..t.players + 2).map(|_| OnceLock::new()).collect(),
            state: start.clone(),
            start,
            bots,
            transcript: Transcript {
                moves: Vec::new(),
                ..t
            },
        };
        for index in moves {
            table.play(index)?;
        }
        Ok(table)
    }

    fn observers(&self) -> impl Iterator<Item = Observer> + use<S> {
        let n = self.names.len();
        (0..n + 2).map(move |i| match i {
            i if i < n => Observer::Seat(i),
            i if i == n => Observer::Public,
            _ => Observer::Omniscient,
        })
    }

    fn log_index(&self, observer: Observer) -> Result<usize, String> {
        match observer {
            Observer::Seat(s) if s < self.names.len() => Ok(s),
            Observer::Public => Ok(self.names.len()),
            Observer::Omniscient => Ok(self.names.len() + 1),
            Observer::Seat(_) => Err("no such seat".into()),
        }
    }

    /// The state after the first `len` entries, replayed from the start; `each` sees every
    /// move with the states before and after it.
    fn replay(&self, len: usize, mut each: impl FnMut(&S, S::Action, &S)) -> Result<S, String> {
        let mut state = self.start.clone();
        for (k, &index) in self.transcript.moves[..len].iter().enumerate() {
            let action = *choices(&state)
                .get(index)
                .ok_or_else(|| format!("entry {} of the transcript is out of range", k + 1))?;
            let before = state.clone();
            state.apply(action);
            each(&before, action, &state);
        }
        Ok(state)
    }

    fn hand_json(&self, state: &S, observer: Observer) -> Value {
        table_json(state, observer, &self.names)
    }
}

/// The table as `observer` sees it, as a table's page is sent it (`public`, `public_data`,
/// and `hands`: the seat, its name in `names`, the hand's words and data), from
/// [`view::table`].
pub fn table_json<S: State>(state: &S, observer: Observer, names: &[String]) -> Value {
    let table = view::table(state, observer);
    let placed = |pieces: &[crate::engine::Placed]| -> Value {
        pieces
            .iter()
            .map(|p| json!({"piece": p.piece, "at": p.at, "count": p.count}))
            .collect()
    };
    let mut supplies = table.supplies;
    // Built by moving each part in: `json!` would copy every tree it is given.
    let hands: Vec<Value> = table
        .hands
        .into_iter()
        .zip(table.hands_data)
        .map(|((seat, text), (_, data))| {
            let pieces = supplies
                .iter_mut()
                .find(|(s, _)| *s == seat)
                .map_or(Value::Array(Vec::new()), |(_, p)| placed(p));
            object([
                ("seat", seat.into()),
                ("name", names[seat].clone().into()),
                ("text", text.into()),
                ("data", data),
                ("pieces", pieces),
            ])
        })
        .collect();
    let board = table.board.map_or(Value::Null, |b| {
        json!({
            "board": b.board,
            "columns": b.columns,
            "rows": b.rows,
            "cells": b.cells,
            "pieces": placed(&b.pieces),
        })
    });
    object([
        ("public", table.public.into()),
        ("public_data", table.public_data),
        ("hands", hands.into()),
        ("board", board),
    ])
}

/// The log's entry for `action`, taken from `before` to `after`, as `observer` knows it.
fn entry<S: State>(
    names: &[String],
    before: &S,
    action: S::Action,
    after: &S,
    observer: Observer,
) -> LogEntry {
    let by = match before.turn() {
        Turn::Player(p) => names[p].clone(),
        _ => "chance".to_string(),
    };
    let seen = view::seen(before, action, after, observer);
    LogEntry {
        number: seen.number,
        by,
        action: seen.action,
        events: seen.events,
    }
}

/// A JSON object of `parts`, each moved in (`json!` copies every value it is given).
pub(crate) fn object<const N: usize>(parts: [(&str, Value); N]) -> Value {
    Value::Object(parts.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

impl<S: State> Live for Typed<S> {
    fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    fn seat_names(&self) -> &[String] {
        &self.names
    }

    fn next(&self) -> Next {
        if self.state.failure().is_some() {
            return Next::Over;
        }
        match self.state.turn() {
            Turn::Terminal => Next::Over,
            Turn::Chance => Next::Chance,
            Turn::Player(p) if self.person.get(p) == Some(&true) => Next::Person(p),
            Turn::Player(p) => Next::Bot(p),
        }
    }

    fn legal(&self, seat: Player) -> Vec<String> {
        match self.next() {
            Next::Person(p) if p == seat => view::choices(&self.state, seat),
            _ => Vec::new(),
        }
    }

    fn play(&mut self, index: usize) -> Result<(), String> {
        let k = self.transcript.moves.len();
        let action = *choices(&self.state).get(index).ok_or_else(|| {
            format!(
                "entry {} of the moves is choice {index}, which is not open there",
                k + 1
            )
        })?;
        let before = self.state.clone();
        self.state.apply(action);
        self.transcript.moves.push(index);
        let observers: Vec<Observer> = self.observers().collect();
        for (log, observer) in self.logs.iter_mut().zip(observers) {
            if let Some(log) = log.get_mut() {
                log.push(entry(&self.names, &before, action, &self.state, observer));
            }
        }
        Ok(())
    }

    fn chance_index(&self) -> Result<usize, String> {
        let k = self.transcript.moves.len();
        let mut rng = game_rng(self.transcript.seed, k as u64 + 1);
        let action = self.state.sample_chance(&mut rng);
        choices(&self.state)
            .iter()
            .position(|&a| a == action)
            .ok_or_else(|| "the engine drew a chance outcome it does not list".to_string())
    }

    fn bot_job(&mut self) -> Option<BotJob> {
        let Next::Bot(seat) = self.next() else {
            return None;
        };
        let bot = self.bots.get_mut(seat)?.take()?;
        let state = self.state.clone();
        let at = self.transcript.moves.len();
        let mut rng = game_rng(self.transcript.seed, at as u64 + 1);
        let mut bot = Some(bot);
        let mut view: Option<S> = None;
        Some(BotJob(Box::new(move |slice| {
            let thinking = bot.as_mut()?;
            let view = view.get_or_insert_with(|| state.determinize(seat, &mut rng));
            let action = thinking.think(view, &mut rng, slice)?;
            let index = state
                .legal_actions()
                .iter()
                .position(|&a| a == action)
                .ok_or_else(|| format!("the bot chose {action:?}, which is not a legal move"));
            Some(BotDone {
                at,
                seat,
                index,
                bot: Box::new(bot.take()?),
            })
        })))
    }

    fn bot_done(&mut self, done: BotDone) -> Option<usize> {
        let bot = done.bot.downcast::<Box<dyn Bot<S>>>().ok()?;
        if let Some(slot) = self.bots.get_mut(done.seat) {
            *slot = Some(*bot);
        }
        let still = done.at == self.transcript.moves.len() && self.next() == Next::Bot(done.seat);
        match done.index {
            Ok(i) if still => Some(i),
            _ => None,
        }
    }

    fn table_view(&self, observer: Observer, at: Option<usize>) -> Result<Value, String> {
        let len = self.transcript.moves.len();
        let at = at.map(|a| a.min(len));
        let past;
        let state = match at {
            Some(a) if a < len => {
                past = self.replay(a, |_, _, _| {})?;
                &past
            }
            _ => &self.state,
        };
        let shown = at.unwrap_or(len);
        let to_act: Vec<&str> = match state.turn() {
            Turn::Player(p) => vec![self.names[p].as_str()],
            _ => Vec::new(),
        };
        // Each move with the cards it involves, where the engine names them (`cards_of`).
        let legal: Vec<Value> = match (observer, self.next(), at) {
            (Observer::Seat(s), Next::Person(p), None) if p == s => {
                // The legal moves once, named (as `view::choices` names them) with their cards.
                let mut cards = Vec::new();
                self.state
                    .legal_actions()
                    .into_iter()
                    .enumerate()
                    .map(|(index, a)| {
                        cards.clear();
                        self.state.cards_of(a, &mut cards);
                        // Where it acts, as the page clicks it (`State::targets`).
                        let at: Value = self
                            .state
                            .targets(a)
                            .iter()
                            .map(|t| Value::from(t.key()))
                            .collect();
                        object([
                            ("index", index.into()),
                            ("name", view::action_words(&self.state, a, observer).into()),
                            ("cards", cards.iter().map(|c| Value::from(c.id)).collect()),
                            ("at", at),
                        ])
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        let outcome = (shown == len).then(|| self.outcome()).flatten();
        Ok(object([
            ("game", self.transcript.game.clone().into()),
            ("moves", shown.into()),
            ("length", len.into()),
            ("to_act", json!(to_act)),
            ("legal", legal.into()),
            ("view", self.hand_json(state, observer)),
            ("outcome", json!(outcome)),
            ("failure", self.state.failure().into()),
        ]))
    }

    fn log(&self, observer: Observer) -> Result<&[LogEntry], String> {
        let kept = &self.logs[self.log_index(observer)?];
        if let Some(log) = kept.get() {
            return Ok(log);
        }
        // First asked for: the moves replayed, as `play` logged them.
        let mut log = Vec::with_capacity(self.transcript.moves.len());
        self.replay(self.transcript.moves.len(), |before, action, after| {
            log.push(entry(&self.names, before, action, after, observer));
        })?;
        Ok(kept.get_or_init(|| log))
    }

    fn rewind(&mut self, len: usize) -> Result<(), String> {
        let moves: Vec<usize> =
            self.transcript.moves[..len.min(self.transcript.moves.len())].to_vec();
        self.state = self.start.clone();
        self.transcript.moves.clear();
        for log in self.logs.iter_mut().filter_map(OnceLock::get_mut) {
            log.clear();
        }
        for index in moves {
            self.play(index)?;
        }
        Ok(())
    }

    fn decisions(&self, seat: Player) -> Vec<usize> {
        let mut state = self.start.clone();
        let mut found = Vec::new();
        for (k, &index) in self.transcript.moves.iter().enumerate() {
            if state.turn() == Turn::Player(seat) {
                found.push(k);
            }
            match choices(&state).get(index) {
                Some(&a) => state.apply(a),
                None => break,
            }
        }
        found
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.state.turn() != Turn::Terminal || self.state.failure().is_some() {
            return None;
        }
        Some(Outcome {
            ending: self.state.end_reason().unwrap_or("game over").to_string(),
            returns: self.state.returns(),
            points: self.state.final_points(),
            moves: self.state.moves_played(),
        })
    }

    fn failure(&self) -> Option<String> {
        self.state.failure()
    }
}
