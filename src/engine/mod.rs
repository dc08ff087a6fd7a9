//! The shared rule-engine interface, in the style of OpenSpiel's State API.
//!
//! Each game's engine lives in its own module under `crate::games` and implements [`State`];
//! the simulator, the bots and `printplay replay` only ever see this trait.
//! Engines read every number and component from the canonical model ([`crate::model::Game`]).

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::hash::Hash;

use rand_chacha::ChaCha8Rng;

pub mod draws;
pub mod fault;
pub mod free;
pub mod lua;
pub mod readings;
pub mod registry;
pub mod testing;
pub mod view;

pub use fault::{Cause, RunError};

use crate::model::Game;

/// A seat at the table, numbered from 0.
pub type Player = usize;

/// A game's player counts in words: `2 players`, `1 player`, `2-4 players`.
pub fn players_text(counts: &std::ops::RangeInclusive<usize>) -> String {
    match (counts.start(), counts.end()) {
        (1, 1) => "1 player".into(),
        (a, b) if a == b => format!("{a} players"),
        (a, b) => format!("{a}-{b} players"),
    }
}

/// Who acts next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    Player(Player),
    /// A random event (a draw, a shuffle, a layout); see [`State::chance_outcomes`].
    Chance,
    Terminal,
}

/// A card a move names ([`State::cards_of`]): its id in the data, and whether the move plays
/// it for its effect (`true`) or only discards it for none (`false`: a "(no effect)" play,
/// which `simulate --cards` counts apart and leaves out of the with/without comparison).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardUse {
    pub id: &'static str,
    pub effect: bool,
}

impl CardUse {
    /// Played for its effect.
    pub fn effect(id: &'static str) -> CardUse {
        CardUse { id, effect: true }
    }

    /// Discarded for no effect.
    pub fn dead(id: &'static str) -> CardUse {
        CardUse { id, effect: false }
    }
}

/// One game in progress. Cloning is cheap enough for search.
pub trait State: Clone + Send + Sync + 'static {
    /// An action: a player's move or a chance outcome.
    type Action: Copy + Eq + Hash + Debug + Send + Sync;

    fn num_players(&self) -> usize;

    fn turn(&self) -> Turn;

    /// The moves open to the player to act; never empty while the game is not over.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// A legal move drawn uniformly: exactly `legal_actions()[rng.random_range(0..len)]`, with
    /// the generator left in the same state, so that seeded games do not depend on which one a
    /// caller uses. An engine may override it with a sampler that does not list every move.
    /// Only called while a player is to act.
    fn random_action(&self, rng: &mut ChaCha8Rng) -> Self::Action {
        let legal = self.legal_actions();
        legal[rand::RngExt::random_range(rng, 0..legal.len())]
    }

    /// At a chance node: each outcome with its probability (they sum to 1).
    fn chance_outcomes(&self) -> Vec<(Self::Action, f64)>;

    /// Plays a legal action or chance outcome.
    fn apply(&mut self, action: Self::Action);

    /// Per-player result once terminal: 1 for a win, 0 for a loss, shares for ties.
    fn returns(&self) -> Vec<f64>;

    /// The action in words, in full: as the seat that makes the move, or an onlooker who sees
    /// every hand, knows it. Outputs never show it directly; they ask [`view`], which picks
    /// [`State::move_name`] or [`State::chance_name`] for the observer.
    ///
    /// The observer of the wording functions below is a [`view::Observer`]: a seat, the
    /// public (what every seat knows and nobody's hand: a spectator, a screen several people
    /// share) or the onlooker who sees every hand. An engine asks
    /// [`view::Observer::sees_hand`] whether the observer sees a seat's hand, never compares
    /// seats itself: that one function decides what each observer may see.
    fn action_name(&self, action: Self::Action) -> String;

    /// A player's move in words as `observer` may know it. An engine whose moves hide
    /// something from those who do not see the mover's hand (the order cards are put back on
    /// a pile, a secret choice, a card handed to another seat) names them without it for
    /// those observers, the public included. The default: the move's
    /// [`State::action_name`], for games whose moves are all in the open.
    fn move_name(&self, action: Self::Action, _observer: view::Observer) -> String {
        self.action_name(action)
    }

    /// A chance outcome in words as `observer` may know it. An engine names an outcome that
    /// goes into a hidden hand without the card for every observer that does not see that
    /// hand, and a public one (a card turned face up) in full. The default, for an engine
    /// that does not say: the outcome's [`State::action_name`] for the onlooker and
    /// [`view::UNNAMED_CHANCE`] for anyone else, which cannot show a card it should not.
    fn chance_name(&self, action: Self::Action, observer: view::Observer) -> String {
        match observer {
            view::Observer::Omniscient => self.action_name(action),
            _ => view::UNNAMED_CHANCE.to_string(),
        }
    }

    /// What `player` can see, in words (hands of others and draw piles hidden).
    fn observation(&self, player: Player) -> String;

    /// What every player can see, in words, as `printplay replay` shows it after each move:
    /// the shared board, tracks and rows, pile sizes, how many cards each hand holds. The
    /// default is empty: the replay then shows each visible seat's [`State::observation`].
    fn public_view(&self) -> String {
        String::new()
    }

    /// [`State::public_view`] as data: typed fields per shared area (the board or map, the
    /// tracks, each pile's size, each seat's public counts), for `replay --json` and anything
    /// that shows the table to a program. `Null` (the default): only the words are offered.
    fn public_data(&self) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// [`State::private_view`] as data: what only `seat` sees (its hand, the cards it has
    /// looked at). `Null` (the default): only the words.
    fn private_data(&self, _seat: Player) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// What only `seat` sees (its hand, the cards it has looked at), in words. The default is
    /// the seat's whole [`State::observation`].
    fn private_view(&self, seat: Player) -> String {
        self.observation(seat)
    }

    /// Chance events inside the last move that no chance outcome shows (a card discarded at
    /// random, a reshuffle, cards dealt into hands), in words as `observer` may know them,
    /// given the state before it. The default: none.
    fn hidden_events(&self, _before: &Self, _observer: view::Observer) -> Vec<String> {
        Vec::new()
    }

    /// A copy in which everything `observer` cannot see is resampled consistently with what
    /// they can see. Bots only ever receive such copies.
    fn determinize(&self, observer: Player, rng: &mut ChaCha8Rng) -> Self;

    /// Draws from `rng` exactly what [`State::determinize`] would, without building the copy:
    /// the simulator calls it for a bot that needs no view of hidden information (the random
    /// bot), so that seeded games stay the same whichever a bot takes. The default builds the
    /// copy and drops it; an engine may override it with the bare draws.
    fn skip_determinize(&self, observer: Player, rng: &mut ChaCha8Rng) {
        drop(self.determinize(observer, rng));
    }

    /// Moves played so far (chance outcomes excluded); the simulator's move cap uses it.
    fn moves_played(&self) -> u32;

    /// Turns played so far, where the game has turns (a turn may hold several moves);
    /// reports give game length in turns as well as moves. The default: not counted.
    fn turns_played(&self) -> Option<u32> {
        None
    }

    /// How the game ended (`"crime scenes"`, `"surrounded"`, `"outrage"`...), once terminal.
    fn end_reason(&self) -> Option<&'static str>;

    /// Game-specific end statistics, by name (`"outrage"`, `"parts activated"`...).
    fn end_stats(&self) -> Vec<(&'static str, f64)>;

    /// Each seat's points by the game's own scoring, where the game scores points (Aether:
    /// aether tiles won plus the points of unplayed elementals), as `replay` shows them at
    /// the end. The default: `None`, for a game that is only won or lost.
    fn final_points(&self) -> Option<Vec<i64>> {
        None
    }

    /// Samples one chance outcome. The default draws from [`State::chance_outcomes`];
    /// an engine may override it with a faster sampler of the same distribution.
    fn sample_chance(&self, rng: &mut ChaCha8Rng) -> Self::Action {
        let outcomes = self.chance_outcomes();
        let mut x: f64 = rand::RngExt::random(rng);
        for &(action, p) in &outcomes {
            x -= p;
            if x < 0.0 {
                return action;
            }
        }
        outcomes.last().expect("a chance node has outcomes").0
    }

    /// A short category of an action for usage statistics (`"buy"`, `"play set"`...).
    /// The default counts every move alike.
    fn action_kind(&self, _action: Self::Action) -> &'static str {
        "move"
    }

    /// The card designs (and pieces) a player's move plays or acquires, by their id in the
    /// data (a design's `id`, a piece's `id`), for `simulate --cards`: pushed onto `out`, each
    /// with whether the move plays it for its effect or only discards it for none
    /// ([`CardUse`]; nothing for a move that involves none; the caller keeps one buffer for a
    /// whole game, so naming a move's cards allocates nothing). Each id at most once per move,
    /// and only ids of the data: the simulator refuses anything else. The same id should be
    /// the same `&'static str` every time (`engine::lua::intern`), which the tally finds by
    /// address. Returns whether the engine says: `false` (the default) means it does not, and
    /// card statistics are not offered for it.
    fn cards_of(&self, _action: Self::Action, _out: &mut Vec<CardUse>) -> bool {
        false
    }

    /// The error that ended this game early, for engines that can fail at run time (a
    /// script's error or broken contract); the simulator reports it instead of a result, as
    /// the game's data's ([`Cause::Data`]). A failed game reports [`Turn::Terminal`].
    fn failure(&self) -> Option<String> {
        None
    }

    /// Where a player's move acts on the table, for a page that plays a move by clicking what
    /// it means: in the order a person clicks them (a piece, then the cell it goes to; a card
    /// in hand; a zone). Every legal move's list is different from every other's, so that the
    /// clicks name one move. Empty (the default): the engine does not say, and the page offers
    /// the move as a button only.
    fn targets(&self, _action: Self::Action) -> Vec<Target> {
        Vec::new()
    }

    /// The board as a page draws it: the data's board the game is played on (or a grid of
    /// cards), the card on each cell and the pieces on the cells, as every seat sees them.
    /// Outputs ask [`view::table`], never this. `None` (the default): no board to draw.
    fn board(&self) -> Option<BoardView> {
        None
    }

    /// The pieces only `seat` sees in full (the tiles behind its screen, its unplayed
    /// pieces), by the data's piece id. Outputs ask [`view::table`], which gives them only to
    /// an observer who sees the seat's hand. The default: none.
    fn hand_pieces(&self, _seat: Player) -> Vec<Placed> {
        Vec::new()
    }

    /// Each player's expected result from this state, in `0..=1`, for search that stops
    /// before the end. The default knows nothing: equal shares.
    fn estimate(&self) -> Vec<f64> {
        let n = self.num_players();
        vec![1.0 / n as f64; n]
    }
}

/// Where a move acts ([`State::targets`]): what a person clicks to make it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A cell of the board, by the name the engine's [`BoardView`] gives it (`1,-2`: a hex's
    /// axial coordinates q and r; `D2`: a grid's column letter and row).
    Cell(String),
    /// A piece, by the data's piece id: on the board's cell `at`, or in the seat's own supply
    /// (`None`).
    Piece { piece: String, at: Option<String> },
    /// A card, by the data's design id: in the seat's hand (`at: None`) or in the zone of
    /// the table `at` (`auction house`, `golems`), as the engine's view names it.
    Card { card: String, at: Option<String> },
    /// A zone of the table, by the name the engine's view gives it (`auction house`,
    /// `discard pile`, `bag`, `end of turn`).
    Zone(String),
}

impl Target {
    /// The target as one string (`cell:1,-2`, `piece:police-pawn@D2`, `piece:tile-fire`,
    /// `card:crowbar`, `card:torso@auction house`, `zone:bag`): how the page names what was clicked.
    pub fn key(&self) -> String {
        match self {
            Target::Cell(c) => format!("cell:{c}"),
            Target::Piece {
                piece,
                at: Some(at),
            } => format!("piece:{piece}@{at}"),
            Target::Piece { piece, at: None } => format!("piece:{piece}"),
            Target::Card { card, at: Some(at) } => format!("card:{card}@{at}"),
            Target::Card { card, at: None } => format!("card:{card}"),
            Target::Zone(z) => format!("zone:{z}"),
        }
    }

    /// A target read back from its [`Target::key`] (for the Lua contract, which gives keys);
    /// `None` for a string that is no key.
    pub fn parse(key: &str) -> Option<Target> {
        let (kind, rest) = key.split_once(':')?;
        if rest.is_empty() {
            return None;
        }
        let (id, at) = match rest.split_once('@') {
            Some((id, at)) if !id.is_empty() && !at.is_empty() => (id, Some(at.to_string())),
            Some(_) => return None,
            None => (rest, None),
        };
        let id = id.to_string();
        Some(match (kind, at) {
            ("cell", None) => Target::Cell(id),
            ("piece", at) => Target::Piece { piece: id, at },
            ("card", at) => Target::Card { card: id, at },
            ("zone", None) => Target::Zone(id),
            _ => return None,
        })
    }
}

/// A game's board as a page draws it ([`State::board`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoardView {
    /// The data's `[[board]]` the game is played on, by id, drawn as the build draws it (a hex
    /// board's cells named `q,r`); `None`: a grid of cards (`columns` by `rows`).
    pub board: Option<String>,
    pub columns: u32,
    pub rows: u32,
    /// The cells of a grid of cards, in reading order: each cell's name and the card design
    /// (by id) lying there, if shown.
    pub cells: Vec<(String, Option<String>)>,
    /// What lies on the cells: pieces by the data's id, `at` the cell's name.
    pub pieces: Vec<Placed>,
}

/// Pieces of one design at one place: on a cell (`at`), or in a supply (`at: None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The data's piece id.
    pub piece: String,
    pub at: Option<String>,
    pub count: u32,
}

/// Options for a new game: seat count and named rule variants (`--variant NAME=VALUE`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    pub players: usize,
    pub variants: BTreeMap<String, String>,
}

/// A named reading of an ambiguous rule, with its possible values; the first is the default.
#[derive(Debug, Clone)]
pub struct Variant {
    pub name: &'static str,
    pub values: &'static [&'static str],
    /// The ambiguity, in a sentence.
    pub doc: &'static str,
}

impl Config {
    /// A config for `players` seats with the named variants set.
    pub fn with_variants(players: usize, variants: &[(&str, &str)]) -> Config {
        Config {
            players,
            variants: variants
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// The chosen value of a variant, or its default. Engines read their readings through it,
    /// so that [`readings::variants_read`] sees which ones a game depends on.
    pub fn variant<'a>(&'a self, v: &'a Variant) -> &'a str {
        readings::note_read(v.name);
        self.variants
            .get(v.name)
            .map_or(v.values[0], String::as_str)
    }
}

/// A player. It is handed a [`State::determinize`]d copy for the seat to act, so it sees no
/// more than that seat's observation.
pub trait Bot<S: State>: Send {
    fn name(&self) -> &str;
    fn choose(&mut self, state: &S, rng: &mut ChaCha8Rng) -> S::Action;

    /// Whether the bot looks at anything beyond the moves open to it. A bot that does not
    /// (the uniform random bot) is handed the game itself instead of a determinized copy, which
    /// is the same to it since the seat to act sees its own moves; the default is `true`. The
    /// simulator asks once, when the bot takes its seat.
    fn needs_view(&self) -> bool {
        true
    }

    /// Thinks for at most `slice` (a server shares its cores between the tables' bots): the
    /// move once decided, or `None` to be asked again later with the same state and
    /// generator, a search keeping what it learned meanwhile. Thinking in slices decides
    /// exactly what [`Bot::choose`] decides unless `slice` ends the move early. Bots that do
    /// not search decide at once (the default).
    fn think(&mut self, state: &S, rng: &mut ChaCha8Rng, slice: Slice) -> Option<S::Action> {
        let _ = slice;
        Some(self.choose(state, rng))
    }
}

/// How long a bot may think now ([`Bot::think`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slice {
    /// Stop at this instant and be asked again (`None`: think to the end).
    pub pause: Option<std::time::Instant>,
    /// The move's thinking time is up: decide now with what was learned so far.
    pub decide: bool,
    /// At most this many search iterations for the whole move, whatever the bot's own count.
    pub iterations: u32,
}

impl Slice {
    /// Think to the end, as [`Bot::choose`] does.
    pub const WHOLE: Slice = Slice {
        pause: None,
        decide: false,
        iterations: u32::MAX,
    };
}

/// A game's rules, read once from the model; makes new games and bots.
pub trait Engine: Send + Sync + Sized {
    type State: State;

    /// Reads every rule number and component from the model; the error says what is missing.
    fn from_model(game: &Game) -> Result<Self, String>;

    /// [`Engine::from_model`] with its error's cause. The default: whatever it says is not
    /// the data's (an engine whose data `check` passed); a script engine says which.
    fn load(game: &Game) -> Result<Self, RunError> {
        Self::from_model(game).map_err(RunError::usage)
    }

    /// The rule variants this engine understands (the rulebook's ambiguities).
    fn variants(&self) -> &'static [Variant];

    /// Every place the engine branches on a reading of its rulebook, each naming the variant
    /// that picks the branch ([`readings`]). An engine with variants must list them all
    /// (`tests/readings.rs` holds it to that); one without has none.
    fn reading_points(&self) -> &'static [readings::ReadingPoint] {
        &[]
    }

    /// Seat counts the game supports.
    fn player_counts(&self) -> std::ops::RangeInclusive<usize>;

    /// A new game after setup (shuffles and deals drawn from `rng`).
    fn new_game(&self, config: &Config, rng: &mut ChaCha8Rng) -> Result<Self::State, String>;

    /// [`Engine::new_game`] with its error's cause. The default: a configuration the engine
    /// refuses (a seat count, a variant) is the command line's; a script engine says which
    /// errors are its script's.
    fn start(&self, config: &Config, rng: &mut ChaCha8Rng) -> Result<Self::State, RunError> {
        self.new_game(config, rng).map_err(RunError::usage)
    }

    /// The seats' names when the game gives them roles (the criminal and the police), first
    /// seat first, read from the data. `None` (the default): the simulator names the seats
    /// by the data's player colours (symbols of group `player`), else "player N".
    fn seat_names(&self, _players: usize) -> Option<Vec<String>> {
        None
    }

    /// A game-specific bot by name; every engine offers `heuristic`.
    /// (`random` and `mcts` are generic and live in the simulator.)
    fn bot(&self, name: &str) -> Option<Box<dyn Bot<Self::State>>>;

    /// The names [`Engine::bot`] answers, in the order to offer them (empty: the game has no
    /// bots of its own, as a game without a rules engine).
    fn bot_names(&self) -> Vec<String>;
}

#[cfg(test)]
mod players_text_tests {
    #[test]
    fn player_counts_in_words_say_one_count_once() {
        assert_eq!(super::players_text(&(2..=2)), "2 players");
        assert_eq!(super::players_text(&(1..=1)), "1 player");
        assert_eq!(super::players_text(&(2..=4)), "2-4 players");
    }
}
