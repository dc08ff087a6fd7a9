//! `printplay replay`: one simulated game move by move, as a playtester follows it at the
//! table: after every move the public state and the hands the chosen observer may see, chance
//! events named, and the final scores. The same game the simulator plays as game `index`.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use super::{
    EngineRun, RunError, SimOptions, Step, checked_config, play_steps, seat_names, seat_specs,
};
use crate::engine::view;
pub use crate::engine::view::Observer;
use crate::engine::{Config, Engine, State, Variant};
use crate::model::Game;

/// A seat's hand, as far as the observer may see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatView {
    pub seat: usize,
    pub name: String,
    pub view: String,
    /// The hand as data (typed fields), where the engine gives it; `null` otherwise.
    pub data: serde_json::Value,
}

/// The table at one moment: what everybody sees and the hands the observer sees.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    pub public: String,
    /// What everybody sees as data (typed fields per shared area), where the engine gives
    /// it; `null` otherwise.
    pub public_data: serde_json::Value,
    pub hands: Vec<SeatView>,
}

/// One move or chance outcome and the table after it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReplayStep {
    /// The move's number (chance outcomes are not moves and have none).
    pub number: Option<u32>,
    /// The seat that moved (its name), or `chance`.
    pub by: String,
    pub action: String,
    /// Chance events inside the move (cards discarded at random, reshuffles).
    pub events: Vec<String>,
    pub after: Table,
}

/// A seat's result at the end.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Score {
    pub seat: usize,
    pub name: String,
    pub bot: String,
    /// 1 a win, 0 a loss, shares for ties; all 0 when stopped at the move cap.
    pub result: f64,
    /// The seat's points by the game's own scoring, where it scores points (Aether).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<i64>,
}

/// One game, move by move.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replay {
    pub game: String,
    pub seed: u64,
    /// The game's number in the run, counted from 1 (`replay --game`, `simulate --csv`).
    pub number: u64,
    /// Seats at the table.
    pub players: usize,
    /// The run's bots as `--bots` names them (one per seat, or one for every seat; which seat
    /// each played in this game is in `scores`): with the seed, players and variants, the run
    /// whose game this is.
    pub bots: Vec<String>,
    /// Every rule variant of the engine with the value this game was played with (the
    /// defaults included), by name.
    pub variants: BTreeMap<String, String>,
    /// `omniscient`, `public` (no hand) or the observing seat's name.
    pub observer: String,
    pub setup: Table,
    pub steps: Vec<ReplayStep>,
    pub moves: u32,
    pub turns: Option<u32>,
    /// How the game ended, or `stopped at the move cap`.
    pub ending: String,
    pub scores: Vec<Score>,
    pub end_stats: Vec<(String, f64)>,
}

/// Plays game `index` (0-based: the game's random stream; the game a person calls number
/// `index + 1`) of the run `opts` describes and records it for `observer`
/// (`None`: every hand shown). `observer` names a seat by number from 1 or by name.
pub fn replay(
    game: &Game,
    opts: &SimOptions,
    index: u64,
    observer: Option<&str>,
) -> Result<Replay, RunError> {
    struct Task<'a> {
        opts: &'a SimOptions,
        index: u64,
        observer: Option<&'a str>,
    }
    impl EngineRun for Task<'_> {
        type Output = Replay;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Replay, RunError> {
            let config = checked_config(&engine, game, self.opts)?;
            let names = seat_names(&engine, game, config.players);
            let observer = match self.observer {
                Some(text) => Observer::parse(text, &names)?,
                None => Observer::Omniscient,
            };
            let mut recorder = Recorder::new(&names, observer);
            let result = play_steps(&engine, &config, self.opts, self.index, |step| {
                recorder.see(step)
            })?;
            let bots = seat_specs(self.opts, config.players, self.index);
            let points = recorder.points.take();
            let scores = names
                .iter()
                .zip(bots)
                .zip(&result.returns)
                .enumerate()
                .map(|(i, ((name, bot), &result))| Score {
                    seat: i + 1,
                    name: name.clone(),
                    bot,
                    result,
                    points: points.as_ref().and_then(|p| p.get(i).copied()),
                })
                .collect();
            let ending = if result.timeout {
                super::tally::CAP_REASON.to_string()
            } else {
                result.end_reason.unwrap_or("game over").to_string()
            };
            Ok(Replay {
                game: game.slug.clone(),
                seed: self.opts.seed,
                number: self.index + 1,
                players: config.players,
                bots: self.opts.bots.clone(),
                variants: variants_in_effect(engine.variants(), &config),
                observer: match observer {
                    Observer::Seat(s) => names[s].clone(),
                    Observer::Public => "public".into(),
                    Observer::Omniscient => "omniscient".into(),
                },
                setup: recorder.setup.unwrap_or_else(Table::empty),
                steps: recorder.steps,
                moves: result.moves,
                turns: result.turns,
                ending,
                scores,
                end_stats: result
                    .end_stats
                    .iter()
                    .map(|(k, v)| (k.to_string(), *v))
                    .collect(),
            })
        }
    }
    let task = Task {
        opts,
        index,
        observer,
    };
    super::run_engine(game, task)
}

/// Builds the replay as the game is played: each move is written down with the state before
/// it, and completed with the table once the next state is seen.
struct Recorder<'a, S: State> {
    names: &'a [String],
    observer: Observer,
    setup: Option<Table>,
    steps: Vec<ReplayStep>,
    /// The state before the move last recorded, and the move.
    before: Option<(S, S::Action)>,
    /// Each seat's points in the final state, where the game scores points.
    points: Option<Vec<i64>>,
}

impl<'a, S: State> Recorder<'a, S> {
    fn new(names: &'a [String], observer: Observer) -> Self {
        Recorder {
            names,
            observer,
            setup: None,
            steps: Vec::new(),
            before: None,
            points: None,
        }
    }

    fn see(&mut self, step: Step<'_, S>) {
        let state = match step {
            Step::Move(s, _) | Step::End(s) => s,
        };
        if self.setup.is_none() {
            self.setup = Some(self.table(state));
        } else {
            self.complete_last(state);
        }
        if let Step::End(s) = step {
            self.points = s.final_points();
        }
        if let Step::Move(s, action) = step {
            let by = match s.turn() {
                crate::engine::Turn::Player(p) => self.names[p].clone(),
                _ => "chance".to_string(),
            };
            self.steps.push(ReplayStep {
                number: None,
                by,
                action: String::new(),
                events: Vec::new(),
                after: Table::empty(),
            });
            self.before = Some((s.clone(), action));
        }
    }

    /// Fills in the last step from the state after it: the move's words, the events inside
    /// it and the table, as the observer knows them.
    fn complete_last(&mut self, after: &S) {
        let table = self.table(after);
        let Some((before, action)) = &self.before else {
            return;
        };
        let seen = view::seen(before, *action, after, self.observer);
        if let Some(last) = self.steps.last_mut() {
            last.number = seen.number;
            last.action = seen.action;
            last.events = seen.events;
            last.after = table;
        }
    }

    fn table(&self, s: &S) -> Table {
        let t = view::table(s, self.observer);
        Table {
            public: t.public,
            public_data: t.public_data,
            hands: t
                .hands
                .into_iter()
                .zip(t.hands_data)
                .map(|((p, view), (_, data))| SeatView {
                    seat: p + 1,
                    name: self.names[p].clone(),
                    view,
                    data,
                })
                .collect(),
        }
    }
}

impl Table {
    fn empty() -> Table {
        Table {
            public: String::new(),
            public_data: serde_json::Value::Null,
            hands: Vec::new(),
        }
    }
}

impl Replay {
    /// The replay in words, as `printplay replay` prints it.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} game {} of seed {}, hands as {} sees them",
            self.game,
            self.number,
            self.seed,
            match self.observer.as_str() {
                "omniscient" => "an onlooker who sees every hand".to_string(),
                "public" => "every seat sees them: none shown".to_string(),
                seat => format!("the {seat}"),
            }
        );
        let _ = writeln!(
            out,
            "{} players, bots {}; variants: {}",
            self.players,
            self.bots.join(","),
            variants_line(&self.variants)
        );
        let _ = writeln!(out, "\nsetup:");
        write_table(&mut out, &self.setup);
        for step in &self.steps {
            let head = match step.number {
                Some(n) => format!("{n:>4}. {}", step.action),
                None => format!("   chance: {}", step.action),
            };
            let _ = writeln!(out, "\n{head}");
            for e in &step.events {
                let _ = writeln!(out, "      chance: {e}");
            }
            write_table(&mut out, &step.after);
        }
        self.write_end(&mut out);
        out
    }

    fn write_end(&self, out: &mut String) {
        let turns = self.turns.map_or(String::new(), |t| {
            format!(", {}", crate::messages::count_of(t, "turn", "turns"))
        });
        let _ = writeln!(
            out,
            "\nend: {} after {}{turns}",
            self.ending,
            crate::messages::count_of(self.moves, "move", "moves")
        );
        let stopped = self.ending == super::tally::CAP_REASON;
        for s in &self.scores {
            let outcome = match s.result {
                _ if stopped => "stopped".to_string(),
                r if r >= 1.0 => "won".to_string(),
                r if r > 0.0 => format!("tied for the win, a share of {r}"),
                _ => "lost".to_string(),
            };
            let points = s.points.map_or(String::new(), |p| {
                format!("{}, ", crate::messages::count(p, "point", "points"))
            });
            let _ = writeln!(
                out,
                "  {} ({}): {points}{outcome} (result {})",
                s.name, s.bot, s.result
            );
        }
        for (k, v) in &self.end_stats {
            let _ = writeln!(out, "  {k}: {v}");
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("replays serialise") + "\n"
    }
}

fn write_table(out: &mut String, t: &Table) {
    for line in t.public.lines() {
        let _ = writeln!(out, "      {line}");
    }
    if t.public.is_empty() {
        // An engine without a public view: each hand is the seat's whole observation, which
        // labels its own lines; one seat's is shown as it is, several each under a heading.
        for h in &t.hands {
            let indent = if t.hands.len() == 1 {
                "      "
            } else {
                let _ = writeln!(out, "      {} sees:", h.name);
                "        "
            };
            for line in h.view.lines() {
                let _ = writeln!(out, "{indent}{line}");
            }
        }
        return;
    }
    for h in &t.hands {
        let mut lines = h.view.lines();
        if let Some(first) = lines.next() {
            let _ = writeln!(out, "      {}: {first}", h.name);
        }
        for line in lines {
            let _ = writeln!(out, "        {line}");
        }
    }
}

/// Every variant of an engine with the value `config` plays it with (its default unless
/// chosen), by name.
pub fn variants_in_effect(variants: &[Variant], config: &Config) -> BTreeMap<String, String> {
    variants
        .iter()
        .map(|v| (v.name.to_string(), config.variant(v).to_string()))
        .collect()
}

/// Variants in words for a replay's head: `setup=normal, teams=off`, or `none`.
pub fn variants_line(variants: &BTreeMap<String, String>) -> String {
    if variants.is_empty() {
        return "none".into();
    }
    let pairs: Vec<String> = variants.iter().map(|(k, v)| format!("{k}={v}")).collect();
    pairs.join(", ")
}
