//! `printplay play`: a person plays one seat (or every seat, hot-seat) in the terminal against
//! the bots, with any engine. Each turn shows the seat's observation and the legal moves by
//! name; `undo` goes back to the person's previous decision; a game is saved as its seed and
//! the list of moves, so it can be resumed and replayed exactly.
//!
//! A move is recorded as its index in the list of legal moves (or chance outcomes) at that
//! point, which works for every engine's action type. Setup draws from the seed's stream 0
//! and the `k`-th move (counting every entry of the list) from stream `k + 1`, so a resumed or
//! undone game continues exactly as an uninterrupted one would.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::free::run_table;
use crate::engine::registry::{EngineRun, seat_names};
use crate::engine::view::{self, Observer};
use crate::engine::{Bot, Config, Engine, RunError, State, Turn};
use crate::model::Game;
use crate::simulate::{game_rng, make_bot, variants_in_effect, variants_line};

/// Who plays a seat in a transcript: a person, or a bot spec.
pub const PERSON: &str = "person";

/// A game as played: enough to rebuild it move by move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transcript {
    /// The game's slug.
    pub game: String,
    pub seed: u64,
    pub players: usize,
    /// Played at the free table (the game's components, no rules), though an engine
    /// plays the game; a game without an engine is always played there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free: bool,
    #[serde(default)]
    pub variants: BTreeMap<String, String>,
    /// Who plays each seat: `person` or a bot spec.
    pub seats: Vec<String>,
    /// Each move or chance outcome, as its 0-based index in the list of legal moves (or
    /// outcomes) at that point.
    #[serde(default)]
    pub moves: Vec<usize>,
}

impl Transcript {
    pub fn to_toml(&self) -> String {
        let head = "# A game of `printplay play`: resume it with `printplay play GAME --resume FILE`,\n\
                    # replay it with `printplay replay GAME --moves FILE`. Each move is its index in\n\
                    # the list of legal moves (or chance outcomes) at that point, counted from 0.\n";
        format!(
            "{head}{}",
            toml::to_string(self).unwrap_or_else(|e| format!("# cannot write: {e}\n"))
        )
    }

    /// Reads a saved game; the error names the file.
    pub fn read(path: &Path) -> Result<Transcript, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        crate::output::write_named(path, self.to_toml().as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Whose eyes the game was played through: the person's seat (what every seat knows
    /// when several people shared the screen).
    pub fn observer(&self) -> Observer {
        let people: Vec<usize> = (0..self.seats.len())
            .filter(|&p| self.seats[p] == PERSON)
            .collect();
        Observer::of_people(&people)
    }

    fn config(&self) -> Config {
        Config {
            players: self.players,
            variants: self.variants.clone(),
        }
    }
}

/// How to start (or resume) a game.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// The game as far as it has been played (no moves for a new game).
    pub transcript: Transcript,
    /// Where to keep the transcript after every move, if anywhere.
    pub save: Option<PathBuf>,
}

impl PlayOptions {
    /// A new game: the person at `seat` (0-based; `None` for every seat) and `bots` for the
    /// others (one spec for all, or one per other seat in order). `players` 0 means the
    /// game's smallest count.
    pub fn new_game(
        game: &Game,
        seed: u64,
        players: usize,
        seat: Option<usize>,
        bots: &[String],
        variants: BTreeMap<String, String>,
    ) -> Result<PlayOptions, String> {
        let players = if players == 0 {
            usize::from(game.info.players.min)
        } else {
            players
        };
        if seat.is_some_and(|s| s >= players) {
            return Err(format!(
                "--seat is a seat from 1 to {players}, not {}",
                seat.unwrap_or(0) + 1
            ));
        }
        let others = players - usize::from(seat.is_some());
        let bots: Vec<String> = match bots.len() {
            0 => vec!["heuristic".to_string(); others],
            1 => vec![bots[0].clone(); others],
            n if n == others => bots.to_vec(),
            n => {
                return Err(format!(
                    "give one bot for all other seats or one for each of the {others}, not {n}"
                ));
            }
        };
        let mut bots = bots.into_iter();
        let seats = (0..players)
            .map(|p| match seat {
                None => PERSON.to_string(),
                Some(s) if s == p => PERSON.to_string(),
                Some(_) => bots.next().unwrap_or_default(),
            })
            .collect();
        Ok(PlayOptions {
            transcript: Transcript {
                game: game.slug.clone(),
                seed,
                players,
                free: false,
                variants,
                seats,
                moves: Vec::new(),
            },
            save: None,
        })
    }
}

/// How a `play` session ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    pub transcript: Transcript,
    /// The game reached its end (not quit, and the input did not run out).
    pub finished: bool,
}

/// Plays a game at the terminal: reads the person's choices from `input`, writes the game to
/// `out`. Errors are the engine's or the transcript's; bad input gets a message and the
/// prompt again.
pub fn play(
    game: &Game,
    opts: PlayOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Played, RunError> {
    struct Task<'a> {
        opts: PlayOptions,
        input: &'a mut dyn BufRead,
        out: &'a mut dyn Write,
    }
    impl EngineRun for Task<'_> {
        type Output = Played;
        fn run<E: Engine>(self, engine: E, _game: &Game) -> Result<Played, RunError> {
            Session::start(&engine, self.opts)?.run(self.input, self.out)
        }
    }
    // `--save FILE` is written after every move: a folder that is not there is said now, and
    // never made.
    if let Some(dir) = opts
        .save
        .as_deref()
        .and_then(Path::parent)
        .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        return Err(RunError::usage(format!(
            "--save: the folder {} does not exist; name a file in a folder that does",
            dir.display()
        )));
    }
    let free = opts.transcript.free;
    run_table(game, free, Task { opts, input, out })
}

/// `printplay replay GAME --moves FILE`: a saved game move by move, in words, as `observer`
/// sees it (a seat by number from 1 or by name, or `omniscient`; `None`: as it was played,
/// [`Transcript::observer`]).
pub fn replay_transcript(
    game: &Game,
    transcript: &Transcript,
    observer: Option<&str>,
) -> Result<Vec<String>, RunError> {
    struct Task<'a> {
        transcript: &'a Transcript,
        observer: Option<&'a str>,
    }
    impl EngineRun for Task<'_> {
        type Output = Vec<String>;
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Vec<String>, RunError> {
            let t = self.transcript;
            let mut state = new_state(&engine, t)?;
            let names = seat_names(&engine, game, t.players);
            let observer = match self.observer {
                Some(text) => Observer::parse(text, &names)?,
                None => t.observer(),
            };
            let who = match observer {
                Observer::Seat(p) => format!(
                    "seat {} ({}, {})",
                    p + 1,
                    names.get(p).map_or("?", String::as_str),
                    t.seats.get(p).map_or("?", String::as_str)
                ),
                Observer::Public => "every seat".to_string(),
                Observer::Omniscient => "an onlooker who sees every hand".to_string(),
            };
            let config = t.config();
            let variants = variants_in_effect(engine.variants(), &config);
            let mut lines = vec![
                format!(
                    "{} with seed {}, {} players; variants: {}",
                    t.game,
                    t.seed,
                    t.players,
                    variants_line(&variants)
                ),
                format!("-- setup, as {who} sees it --"),
            ];
            table_lines(&view::table(&state, observer), &names, &mut lines);
            for (k, &index) in t.moves.iter().enumerate() {
                let action = action_at(&state, index, k)?;
                let before = state.clone();
                state.apply(action);
                check_failure(&state)?;
                lines.extend(move_lines(&before, action, &state, observer));
            }
            lines.push(end_line(&state, &t.seats));
            Ok(lines)
        }
    }
    run_table(
        game,
        transcript.free,
        Task {
            transcript,
            observer,
        },
    )
}

/// The table's lines, indented, each hand under its seat's name.
fn table_lines(table: &view::Table, names: &[String], lines: &mut Vec<String>) {
    lines.extend(table.public.lines().map(|l| format!("   {l}")));
    // Without a public view each hand is the seat's whole observation, which labels its own
    // lines: one seat's is shown as it is, several each under a heading.
    let whole = table.public.is_empty();
    for (seat, hand) in &table.hands {
        let name = names.get(*seat).map_or("?", String::as_str);
        if whole && table.hands.len() == 1 {
            lines.extend(hand.lines().map(|l| format!("   {l}")));
            continue;
        }
        lines.push(if whole {
            format!("   {name} sees:")
        } else {
            format!("   {name}:")
        });
        lines.extend(hand.lines().map(|l| format!("     {l}")));
    }
}

fn new_state<E: Engine>(engine: &E, t: &Transcript) -> Result<E::State, RunError> {
    if t.seats.len() != t.players {
        return Err(RunError::usage(format!(
            "the transcript names {} seats for {} players",
            t.seats.len(),
            t.players
        )));
    }
    let state = engine.start(&t.config(), &mut game_rng(t.seed, 0))?;
    check_failure(&state)?;
    Ok(state)
}

/// The game's own failure (its script's), the data's error.
fn check_failure<S: State>(state: &S) -> Result<(), RunError> {
    state.failure().map_or(Ok(()), |e| Err(RunError::data(e)))
}

/// The action a recorded index names in this state.
fn action_at<S: State>(state: &S, index: usize, k: usize) -> Result<S::Action, RunError> {
    let actions: Vec<S::Action> = match state.turn() {
        Turn::Terminal => Vec::new(),
        Turn::Chance => state.chance_outcomes().into_iter().map(|o| o.0).collect(),
        Turn::Player(_) => state.legal_actions(),
    };
    check_failure(state)?;
    actions
        .get(index)
        .copied()
        .ok_or_else(|| {
            format!(
                "move {} of the transcript is choice {index}, but there are {} choices there",
                k + 1,
                actions.len()
            )
        })
        .map_err(RunError::usage)
}

/// One move as `play` and `replay --moves` print it, as `observer` knows it: the move
/// number, `*` for chance, the words; then each chance event inside it on a line of its own.
pub fn move_lines<S: State>(
    before: &S,
    action: S::Action,
    after: &S,
    observer: Observer,
) -> Vec<String> {
    let seen = view::seen(before, action, after, observer);
    let mark = if seen.by.is_none() { "  *" } else { "" };
    let mut lines = vec![format!(
        "{:>4}{mark} {}",
        before.moves_played() + 1,
        seen.action
    )];
    lines.extend(seen.events.iter().map(|e| format!("        chance: {e}")));
    lines
}

fn end_line<S: State>(state: &S, seats: &[String]) -> String {
    if state.turn() != Turn::Terminal {
        return format!("not finished after {} moves", state.moves_played());
    }
    let results: Vec<String> = state
        .returns()
        .iter()
        .zip(seats)
        .enumerate()
        .map(|(i, (r, who))| format!("seat {} ({who}) {r}", i + 1))
        .collect();
    format!(
        "ended after {} moves: {}; results: {}",
        state.moves_played(),
        state.end_reason().unwrap_or("game over"),
        results.join(", ")
    )
}

/// A game in progress at the terminal.
struct Session<'e, E: Engine> {
    engine: &'e E,
    transcript: Transcript,
    save: Option<PathBuf>,
    state: E::State,
    bots: Vec<Option<Box<dyn Bot<E::State>>>>,
    /// Whose eyes the moves are named for: the person's seat; every seat's when several
    /// people share the screen.
    observer: Observer,
}

/// What the person typed.
#[derive(Debug)]
enum Input {
    Choose(usize),
    Undo,
    Save(PathBuf),
    Quit,
    Help,
}

const HELP: &str =
    "type a move's number, `undo` (back to your previous decision), `save FILE` or `quit`";

impl<'e, E: Engine> Session<'e, E> {
    /// Sets up the game and replays the moves already in the transcript.
    fn start(engine: &'e E, opts: PlayOptions) -> Result<Self, RunError> {
        let t = opts.transcript;
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
        let state = new_state(engine, &t)?;
        let observer = t.observer();
        let mut session = Session {
            engine,
            state,
            bots,
            observer,
            save: opts.save,
            transcript: Transcript {
                moves: Vec::new(),
                ..t.clone()
            },
        };
        session.rebuild(t.moves)?;
        Ok(session)
    }

    /// Starts over and plays `moves`.
    fn rebuild(&mut self, moves: Vec<usize>) -> Result<(), RunError> {
        self.state = new_state(self.engine, &self.transcript)?;
        self.transcript.moves.clear();
        for (k, index) in moves.into_iter().enumerate() {
            let action = action_at(&self.state, index, k)?;
            self.record(index, action)?;
        }
        Ok(())
    }

    fn record(
        &mut self,
        index: usize,
        action: <E::State as State>::Action,
    ) -> Result<(), RunError> {
        self.state.apply(action);
        check_failure(&self.state)?;
        self.transcript.moves.push(index);
        Ok(())
    }

    fn is_person(&self, seat: usize) -> bool {
        self.bots.get(seat).is_some_and(Option::is_none)
    }

    fn run(mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<Played, RunError> {
        let io = |e: std::io::Error| format!("the terminal: {e}");
        writeln!(
            out,
            "{}: seed {}, {} players ({}); {HELP}",
            self.transcript.game,
            self.transcript.seed,
            self.transcript.players,
            self.seats_text()
        )
        .map_err(io)?;
        let finished = loop {
            let k = self.transcript.moves.len();
            let mut rng = game_rng(self.transcript.seed, k as u64 + 1);
            let chosen = match self.state.turn() {
                Turn::Terminal => break true,
                Turn::Chance => {
                    let action = self.state.sample_chance(&mut rng);
                    self.index_of(action, k)?
                }
                Turn::Player(p) if self.is_person(p) => match self.ask(p, input, out)? {
                    Some(i) => i,
                    None => break false,
                },
                Turn::Player(p) => {
                    let view = self.state.determinize(p, &mut rng);
                    let bot = self.bots[p].as_mut().ok_or("a seat lost its bot")?;
                    let action = bot.choose(&view, &mut rng);
                    check_failure(&self.state)?;
                    self.index_of(action, k)?
                }
            };
            let action = action_at(&self.state, chosen, k)?;
            let before = self.state.clone();
            self.record(chosen, action)?;
            for line in move_lines(&before, action, &self.state, self.observer) {
                writeln!(out, "{line}").map_err(io)?;
            }
            if let Some(path) = &self.save {
                self.transcript.save(path)?;
            }
        };
        writeln!(out, "{}", end_line(&self.state, &self.transcript.seats)).map_err(io)?;
        if finished {
            for p in (0..self.state.num_players()).filter(|&p| self.is_person(p)) {
                writeln!(out, "-- the end, as seat {} sees it --", p + 1).map_err(io)?;
                writeln!(out, "{}", view::seat_view(&self.state, p)).map_err(io)?;
            }
        }
        Ok(Played {
            transcript: self.transcript,
            finished,
        })
    }

    fn seats_text(&self) -> String {
        self.transcript
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| format!("seat {} {s}", i + 1))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The index of a chosen action among this state's choices.
    fn index_of(&self, action: <E::State as State>::Action, k: usize) -> Result<usize, RunError> {
        let choices: Vec<_> = match self.state.turn() {
            Turn::Chance => self
                .state
                .chance_outcomes()
                .into_iter()
                .map(|o| o.0)
                .collect(),
            _ => self.state.legal_actions(),
        };
        check_failure(&self.state)?;
        choices
            .iter()
            .position(|&a| a == action)
            .ok_or_else(|| {
                format!(
                    "move {}: the chosen action {action:?} is not among the legal ones",
                    k + 1
                )
            })
            .map_err(RunError::usage)
    }

    /// Shows the seat its view and moves and reads a choice; `None` when the person quits or
    /// the input ends. Undo and save are handled here.
    fn ask(
        &mut self,
        seat: usize,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<Option<usize>, RunError> {
        let io = |e: std::io::Error| format!("the terminal: {e}");
        let mut shown = false;
        loop {
            let legal = view::choices(&self.state, seat);
            check_failure(&self.state)?;
            if !shown {
                writeln!(out, "-- seat {} to play --", seat + 1).map_err(io)?;
                writeln!(out, "{}", view::seat_view(&self.state, seat)).map_err(io)?;
                for (i, name) in legal.iter().enumerate() {
                    writeln!(out, "  {:>3}. {name}", i + 1).map_err(io)?;
                }
                shown = true;
            }
            write!(out, "seat {} move> ", seat + 1).map_err(io)?;
            out.flush().map_err(io)?;
            let mut line = String::new();
            if input.read_line(&mut line).map_err(io)? == 0 {
                writeln!(out, "\n(input ended; the game stops here)").map_err(io)?;
                return Ok(None);
            }
            match parse_input(&line, legal.len()) {
                Ok(Input::Choose(i)) => return Ok(Some(i)),
                Ok(Input::Quit) => return Ok(None),
                Ok(Input::Help) => writeln!(out, "{HELP}").map_err(io)?,
                Ok(Input::Save(path)) => match self.transcript.save(&path) {
                    Ok(()) => writeln!(out, "saved to {}", path.display()).map_err(io)?,
                    Err(e) => writeln!(out, "could not save: {e}").map_err(io)?,
                },
                Ok(Input::Undo) => {
                    let msg = self.undo()?;
                    writeln!(out, "{msg}").map_err(io)?;
                    return self.resume_after_undo(input, out);
                }
                Err(msg) => writeln!(out, "{msg}").map_err(io)?,
            }
        }
    }

    /// After an undo it is a person's turn again (the one whose move was taken back).
    fn resume_after_undo(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<Option<usize>, RunError> {
        match self.state.turn() {
            Turn::Player(p) if self.is_person(p) => self.ask(p, input, out),
            _ => Err("after undo it is not a person's turn".into()),
        }
    }

    /// Takes back every move since the person's previous decision, that decision included.
    fn undo(&mut self) -> Result<String, RunError> {
        let mut moves = self.transcript.moves.clone();
        let last_person = self.person_moves().last().copied();
        let Some(at) = last_person else {
            return Ok("nothing to undo: no decision of yours yet".into());
        };
        moves.truncate(at);
        let taken = self.transcript.moves.len() - at;
        self.rebuild(moves)?;
        if let Some(path) = &self.save {
            self.transcript.save(path)?;
        }
        Ok(format!(
            "took back {}",
            crate::messages::count_of(taken, "move", "moves")
        ))
    }

    /// Positions in the move list where a person decided.
    fn person_moves(&self) -> Vec<usize> {
        let mut state = match new_state(self.engine, &self.transcript) {
            Ok(s) => s,
            Err(_) => return Vec::new(),
        };
        let mut found = Vec::new();
        for (k, &index) in self.transcript.moves.iter().enumerate() {
            if let Turn::Player(p) = state.turn()
                && self.is_person(p)
            {
                found.push(k);
            }
            match action_at(&state, index, k) {
                Ok(a) => state.apply(a),
                Err(_) => break,
            }
        }
        found
    }
}

/// Reads one line typed at the prompt.
fn parse_input(line: &str, choices: usize) -> Result<Input, String> {
    let text = line.trim();
    let word = text.split_whitespace().next().unwrap_or("");
    match word {
        "" => Err(format!("type a number from 1 to {choices}, or `help`")),
        "undo" | "u" => Ok(Input::Undo),
        "quit" | "q" | "exit" => Ok(Input::Quit),
        "help" | "h" | "?" => Ok(Input::Help),
        "save" => {
            let path = text["save".len()..].trim();
            if path.is_empty() {
                Err("save needs a file name: `save my-game.toml`".into())
            } else {
                Ok(Input::Save(PathBuf::from(path)))
            }
        }
        _ => match text.parse::<usize>() {
            Ok(n) if (1..=choices).contains(&n) => Ok(Input::Choose(n - 1)),
            Ok(n) => Err(format!("there is no move {n}; choose 1 to {choices}")),
            Err(_) => Err(format!("`{text}` is not a move number; {HELP}")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_input_is_read_or_refused_with_a_reason() {
        assert!(matches!(parse_input("2\n", 3), Ok(Input::Choose(1))));
        assert!(matches!(parse_input(" undo ", 3), Ok(Input::Undo)));
        assert!(
            matches!(parse_input("save a.toml", 3), Ok(Input::Save(p)) if p == Path::new("a.toml"))
        );
        assert!(parse_input("4", 3).unwrap_err().contains("no move 4"));
        assert!(parse_input("0", 3).unwrap_err().contains("no move 0"));
        assert!(
            parse_input("x", 3)
                .unwrap_err()
                .contains("not a move number")
        );
        assert!(parse_input("save", 3).is_err());
        assert!(parse_input("", 3).is_err());
    }
}
