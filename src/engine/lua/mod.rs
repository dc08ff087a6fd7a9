//! Rule engines written in Lua: a game whose `game.toml` names `engine = "lua"` is played by
//! its folder's `engine.lua`, under the same [`State`] contract as the Rust engines.
//!
//! The script returns a table of functions (see the README's "Simulating your own game" and
//! the scaffold's tutorial script): `setup`, `current_player`, `legal_actions`,
//! `chance_outcomes`, `apply`, `returns`, `action_name`, `observation`, `end_reason`,
//! `end_stats`, and optionally `determinize`, `estimate`, `action_kind`, `cards_of`, `targets`, `chance_name`, `bots`,
//! `variants`, `returns_sum`, and `random_action`, `sample_chance` and `skip_determinize` (the
//! random player's move and a chance outcome drawn inside the VM without listing, and what
//! `determinize` draws without a copy; they must draw what the defaults do). Seats are numbered from 1 in Lua, actions are integers, and a game
//! state is a Lua table the script owns. The model is the global `model`, read-only.
//!
//! Each worker thread gets its own VM (a VM serves one thread at a time), so a script must
//! keep everything that changes in its state table: then a game depends only on its seed.
//! Any error, a budget overrun or a broken contract ends the game with a diagnostic naming
//! `engine.lua:LINE` and the move; [`State::failure`] carries it to the simulator.

mod copy;
mod declared;
mod limits;
mod vm;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use mlua::{Function, Table, Value};
use rand_chacha::ChaCha8Rng;

use declared::{Declared, check_variants, declared};
pub use vm::{INSTRUCTION_BUDGET, MEMORY_LIMIT, SCRIPT_FILE};
use vm::{Script, Vm};

use super::view::{Observer, UNNAMED_CHANCE};
use super::{Bot, CardUse, Config, Engine, Player, RunError, State, Turn, Variant};
use crate::model::Game;

/// The `engine` id in `game.toml` that selects a Lua script.
pub const ENGINE_ID: &str = "lua";

/// Most targets one move may name (`targets`).
pub const MAX_TARGETS: usize = 32;
/// Longest target key (`targets`), in bytes.
pub const MAX_TARGET_KEY: usize = 200;

/// Returns whose sum differs from the declared `returns_sum` by more than this break the
/// contract.
const SUM_TOLERANCE: f64 = 1e-9;

/// A game's `engine.lua`, ready to start games.
pub struct LuaEngine {
    script: Arc<Script>,
    declared: Declared,
    /// One VM per worker thread, made on first use.
    vms: Mutex<HashMap<usize, Arc<Vm>>>,
}

impl LuaEngine {
    /// The VM of the calling thread.
    fn vm(&self) -> Result<Arc<Vm>, RunError> {
        let key = rayon::current_thread_index().map_or(0, |i| i + 1);
        let mut vms = self.vms.lock().map_err(|_| "a Lua VM pool is poisoned")?;
        if let Some(vm) = vms.get(&key) {
            return Ok(vm.clone());
        }
        let vm = Arc::new(Vm::new(&self.script).map_err(RunError::data)?);
        vms.insert(key, vm.clone());
        Ok(vm)
    }
}

impl Engine for LuaEngine {
    type State = LuaState;

    fn from_model(game: &Game) -> Result<Self, String> {
        Self::load(game).map_err(String::from)
    }

    /// The script unreadable, failing or declaring what it may not is the data's error.
    fn load(game: &Game) -> Result<Self, RunError> {
        let path = game.dir.join(SCRIPT_FILE);
        // Read only inside the game folder, through a link either.
        let source = crate::model::paths::resolve_in(&game.dir, SCRIPT_FILE)
            .and_then(|real| std::fs::read_to_string(real).map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e} (engine = \"lua\" plays this file)", path.display()))
            .map_err(RunError::data)?;
        let script = Arc::new(Script {
            dir: game.dir.clone(),
            source,
            model: model_json(game)?,
        });
        let vm = Vm::new(&script).map_err(RunError::data)?;
        let declared = declared(&vm, game).map_err(RunError::data)?;
        let key = rayon::current_thread_index().map_or(0, |i| i + 1);
        Ok(LuaEngine {
            script,
            declared,
            vms: Mutex::new(HashMap::from([(key, Arc::new(vm))])),
        })
    }

    fn variants(&self) -> &'static [Variant] {
        self.declared.variants
    }

    fn player_counts(&self) -> std::ops::RangeInclusive<usize> {
        self.declared.players.clone()
    }

    fn new_game(&self, config: &Config, rng: &mut ChaCha8Rng) -> Result<LuaState, String> {
        self.start(config, rng).map_err(String::from)
    }

    /// A seat count or a variant the script does not take is the command line's error; the
    /// script failing to set up the game is the data's.
    fn start(&self, config: &Config, rng: &mut ChaCha8Rng) -> Result<LuaState, RunError> {
        // 0 is the smallest count, as for every engine; a count outside the game's range
        // never reaches the script.
        let seats = &self.declared.players;
        let mut config = config.clone();
        if config.players == 0 {
            config.players = *seats.start();
        }
        if !seats.contains(&config.players) {
            return Err(RunError::usage(format!(
                "the game takes {} (game.toml), not {}",
                crate::engine::players_text(seats),
                config.players
            )));
        }
        let config = &config;
        check_variants(self.declared.variants, config)?;
        let vm = self.vm()?;
        let table: Table = config_table(&vm, config)
            .and_then(|cfg| vm.with_rng(api_fn(&vm, "setup")?, "setup", cfg, rng))
            .map_err(RunError::data)?;
        let mut state = LuaState {
            vm,
            table,
            players: config.players,
            returns_sum: self.declared.returns_sum,
            ids: self.declared.ids.clone(),
            moves: 0,
            turn: Turn::Terminal,
            failure: Arc::new(OnceLock::new()),
        };
        state.turn = state.ask_turn();
        match state.failure() {
            Some(e) => Err(RunError::data(e)),
            None => Ok(state),
        }
    }

    fn bot(&self, name: &str) -> Option<Box<dyn Bot<LuaState>>> {
        self.declared
            .bots
            .iter()
            .any(|b| b == name)
            .then(|| Box::new(ScriptBot { name: name.into() }) as Box<dyn Bot<LuaState>>)
    }

    fn bot_names(&self) -> Vec<String> {
        self.declared.bots.clone()
    }
}

/// The model as the script sees it: `game`, `params` (as in game.toml), and `symbol`, `deck`,
/// `piece`, `board`, `track` (as in components.toml).
fn model_json(game: &Game) -> Result<serde_json::Value, String> {
    let err = |e: serde_json::Error| format!("{}: the model as Lua values: {e}", game.slug);
    let mut model = serde_json::to_value(&game.components).map_err(err)?;
    let map = model
        .as_object_mut()
        .ok_or("the components are not a table")?;
    map.insert(
        "game".into(),
        serde_json::to_value(&game.info).map_err(err)?,
    );
    map.insert(
        "params".into(),
        serde_json::to_value(&game.params).map_err(err)?,
    );
    Ok(model)
}

fn api_fn<'v>(vm: &'v Vm, name: &str) -> Result<&'v Function, String> {
    vm.functions.get(name).ok_or_else(|| {
        format!(
            "{}: the engine table has no function `{name}` (see the tutorial engine of `printplay new --engine lua`)",
            vm.label
        )
    })
}

fn optional_fn<'v>(vm: &'v Vm, name: &str) -> Option<&'v Function> {
    vm.functions.get(name)
}

fn config_table(vm: &Vm, config: &Config) -> Result<Table, String> {
    let build = || -> mlua::Result<Table> {
        let t = vm.lua.create_table()?;
        t.raw_set("players", config.players)?;
        let variants = vm.lua.create_table()?;
        for (k, v) in &config.variants {
            variants.raw_set(k.as_str(), v.as_str())?;
        }
        t.raw_set("variants", variants)?;
        Ok(t)
    };
    build().map_err(|e| vm.fail(&e))
}

/// Names a script hands back as `&'static str` (end reasons, statistics, action kinds, variant
/// words) are kept once per distinct text for the life of the process.
static INTERNED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
/// More distinct names than this is a script that builds names from numbers; they are then
/// not kept.
const MAX_INTERNED: usize = 100_000;

/// `text` kept for the life of the process, once per distinct text (the ids and names the
/// engines hand out as `&'static str`: Lua's kinds and reasons, every engine's card ids).
pub(crate) fn intern(text: &str) -> &'static str {
    let Ok(mut guard) = INTERNED.lock() else {
        return "?";
    };
    let set = guard.get_or_insert_with(HashSet::new);
    if let Some(&s) = set.get(text) {
        return s;
    }
    if set.len() >= MAX_INTERNED {
        return "(too many distinct names)";
    }
    let s: &'static str = Box::leak(text.to_string().into_boxed_str());
    set.insert(s);
    s
}

type VariantKey = Vec<(String, Vec<String>, String)>;
static VARIANT_LISTS: Mutex<BTreeMap<VariantKey, &'static [Variant]>> = Mutex::new(BTreeMap::new());

/// The variant list as `'static` values, made once per distinct declaration.
fn intern_variants(list: VariantKey) -> &'static [Variant] {
    let Ok(mut lists) = VARIANT_LISTS.lock() else {
        return &[];
    };
    if let Some(v) = lists.get(&list) {
        return v;
    }
    let made: Vec<Variant> = list
        .iter()
        .map(|(name, values, doc)| Variant {
            name: intern(name),
            values: Box::leak(
                values
                    .iter()
                    .map(|v| intern(v))
                    .collect::<Vec<_>>()
                    .into_boxed_slice(),
            ),
            doc: intern(doc),
        })
        .collect();
    let made: &'static [Variant] = Box::leak(made.into_boxed_slice());
    lists.insert(list, made);
    made
}

/// One game of a Lua engine: the script's state table in the VM of the thread that made it.
pub struct LuaState {
    vm: Arc<Vm>,
    table: Table,
    players: usize,
    returns_sum: Option<f64>,
    /// The ids `cards_of` may name (the data's designs and pieces).
    ids: Arc<HashSet<&'static str>>,
    moves: u32,
    /// Whose turn it is, asked once after every change.
    turn: Turn,
    /// The first error of this game or any copy of it (bots search on copies).
    failure: Arc<OnceLock<String>>,
}

impl Clone for LuaState {
    fn clone(&self) -> Self {
        let table = if self.failed() {
            Ok(self.table.clone())
        } else {
            self.vm.run(|| self.vm.copy.call::<Table>(&self.table))
        };
        let table = table.unwrap_or_else(|e| {
            self.fail(e);
            self.table.clone()
        });
        LuaState {
            vm: self.vm.clone(),
            table,
            players: self.players,
            returns_sum: self.returns_sum,
            ids: self.ids.clone(),
            moves: self.moves,
            turn: self.turn,
            failure: self.failure.clone(),
        }
    }
}

impl LuaState {
    fn failed(&self) -> bool {
        self.failure.get().is_some()
    }

    /// Records the game's first error, with the move it happened at.
    fn fail(&self, message: String) {
        let _ = self
            .failure
            .set(format!("{message} (move {})", self.moves + 1));
    }

    /// Calls the script's function `name` with the state first; `None` after an error.
    fn call<R: mlua::FromLuaMulti>(&self, name: &str, args: impl mlua::IntoLua) -> Option<R> {
        if self.failed() {
            return None;
        }
        let result = api_fn(&self.vm, name).and_then(|f| {
            self.vm
                .run_fn(name, f, || f.call::<R>((&self.table, args)))
                .map_err(|e| format!("{e} (in `{name}`)"))
        });
        result.map_err(|e| self.fail(e)).ok()
    }

    /// Calls host.lua's `helper` for the script's function `name`; `None` after an error.
    fn call_host<R: mlua::FromLuaMulti>(
        &self,
        name: &str,
        helper: &str,
        args: impl mlua::IntoLuaMulti,
        rng: Option<&mut ChaCha8Rng>,
    ) -> Option<R> {
        if self.failed() {
            return None;
        }
        let result = api_fn(&self.vm, helper)
            .and_then(|f| match rng {
                Some(rng) => self.vm.with_rng::<R>(f, name, (&self.table, args), rng),
                None => self.vm.run_fn(name, f, || f.call::<R>((&self.table, args))),
            })
            .map_err(|e| format!("{e} (in `{name}`)"));
        result.map_err(|e| self.fail(e)).ok()
    }

    fn ask_turn(&self) -> Turn {
        let seat = self.call::<Value>("current_player", Value::Nil);
        self.turn_of(seat)
    }

    /// What `current_player` returned, as a turn.
    fn turn_of(&self, seat: Option<Value>) -> Turn {
        match seat {
            None => Turn::Terminal,
            Some(Value::Nil | Value::Boolean(false)) => Turn::Terminal,
            Some(Value::String(s)) if s.to_str().is_ok_and(|s| &*s == "chance") => Turn::Chance,
            Some(Value::Integer(seat)) if seat >= 1 && seat as usize <= self.players => {
                Turn::Player(seat as usize - 1)
            }
            Some(other) => {
                self.contract(
                    "current_player",
                    &format!(
                        "returned {}; it must return a seat from 1 to {}, \"chance\" or nil when the game is over",
                        show(&other),
                        self.players
                    ),
                );
                Turn::Terminal
            }
        }
    }

    /// Records a broken contract, naming where the function is defined.
    fn contract(&self, name: &str, what: &str) {
        let place = api_fn(&self.vm, name)
            .map(|f| self.vm.place(f))
            .unwrap_or_else(|_| self.vm.label.clone());
        self.fail(format!("{place}: `{name}` {what}"));
    }

    /// The first error, if this game or a copy of it met one.
    pub fn error(&self) -> Option<String> {
        self.failure.get().cloned()
    }

    /// The script's own `random_action(state, rng)`: a legal move drawn as printplay's
    /// default would, without listing the moves.
    fn own_random_action(&self, f: &Function, rng: &mut ChaCha8Rng) -> i64 {
        if self.failed() {
            return 0;
        }
        match self
            .vm
            .with_rng::<Value>(f, "random_action", &self.table, rng)
        {
            Ok(Value::Integer(action)) => action,
            Ok(other) => {
                self.contract(
                    "random_action",
                    &format!("returned {}; it must return a legal action", show(&other)),
                );
                0
            }
            Err(e) => {
                self.fail(format!("{e} (in `random_action`)"));
                0
            }
        }
    }
}

/// A Lua value in a message.
impl LuaState {
    /// One entry of a `cards_of` list: an id, or `{ id = "...", effect = false }`; the id as
    /// text, and whether the card is played for its effect.
    fn card_use(entry: &Value) -> Option<(String, bool)> {
        let id = |v: &Value| match v {
            Value::String(s) => s.to_str().ok().map(|s| s.to_string()),
            _ => None,
        };
        match entry {
            Value::String(_) => id(entry).map(|id| (id, true)),
            Value::Table(t) => {
                let effect = match t.raw_get::<Value>("effect").ok()? {
                    Value::Nil => true,
                    Value::Boolean(b) => b,
                    _ => return None,
                };
                Some((id(&t.raw_get::<Value>("id").ok()?)?, effect))
            }
            _ => None,
        }
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => format!("\"{}\"", s.to_string_lossy()),
        Value::Integer(i) => i.to_string(),
        Value::Number(x) => x.to_string(),
        Value::Boolean(b) => b.to_string(),
        other => other.type_name().to_string(),
    }
}

impl State for LuaState {
    type Action = i64;

    fn num_players(&self) -> usize {
        self.players
    }

    fn turn(&self) -> Turn {
        if self.failed() {
            Turn::Terminal
        } else {
            self.turn
        }
    }

    fn legal_actions(&self) -> Vec<i64> {
        if !matches!(self.turn(), Turn::Player(_)) {
            return Vec::new();
        }
        let Some(list) = self.call::<Vec<i64>>("legal_actions", Value::Nil) else {
            return Vec::new();
        };
        if list.is_empty() {
            self.contract(
                "legal_actions",
                "returned no move while the game is not over (current_player names a seat)",
            );
        }
        list
    }

    fn random_action(&self, rng: &mut ChaCha8Rng) -> i64 {
        if !matches!(self.turn(), Turn::Player(_)) {
            return 0;
        }
        if let Some(f) = optional_fn(&self.vm, "random_action") {
            return self.own_random_action(f, rng);
        }
        match self.call_host::<Option<i64>>("legal_actions", "pick", Value::Nil, Some(rng)) {
            Some(Some(action)) => action,
            Some(None) => {
                self.contract(
                    "legal_actions",
                    "returned no move (or a move that is not an integer) while the game is not over",
                );
                0
            }
            None => 0,
        }
    }

    fn chance_outcomes(&self) -> Vec<(i64, f64)> {
        if self.turn() != Turn::Chance {
            return Vec::new();
        }
        let Some(pairs) = self.call::<Vec<Table>>("chance_outcomes", Value::Nil) else {
            return Vec::new();
        };
        let list: Vec<(i64, f64)> = pairs
            .iter()
            .map_while(|p| Some((p.raw_get::<i64>(1).ok()?, p.raw_get::<f64>(2).ok()?)))
            .collect();
        if list.len() != pairs.len() {
            self.contract(
                "chance_outcomes",
                "must list {action, probability} pairs of an integer and a number",
            );
            return Vec::new();
        }
        let total: f64 = list.iter().map(|o| o.1).sum();
        // A NaN fails every test: a probability is a number from 0 to 1, and a NaN sum is
        // never within the tolerance.
        if list.is_empty()
            || (total - 1.0).abs().is_nan()
            || (total - 1.0).abs() > 1e-9
            || list.iter().any(|o| !(0.0..=1.0).contains(&o.1))
        {
            self.contract(
                "chance_outcomes",
                &format!(
                    "must list {{action, probability}} pairs with probabilities summing to 1; they sum to {total}"
                ),
            );
            return Vec::new();
        }
        list
    }

    fn sample_chance(&self, rng: &mut ChaCha8Rng) -> i64 {
        if self.turn() != Turn::Chance {
            return 0;
        }
        let x: f64 = rand::RngExt::random(rng);
        if optional_fn(&self.vm, "sample_chance").is_some() {
            return self.call::<i64>("sample_chance", x).unwrap_or(0);
        }
        match self.call_host::<(Option<i64>, Option<f64>)>("chance_outcomes", "sample", x, None) {
            Some((Some(action), _)) => action,
            Some((None, total)) => {
                let sum = total.map_or_else(String::new, |t| format!("; they sum to {t}"));
                self.contract(
                    "chance_outcomes",
                    &format!(
                        "must list {{action, probability}} pairs of an integer and a number from 0 to 1, summing to 1{sum}"
                    ),
                );
                0
            }
            None => 0,
        }
    }

    fn apply(&mut self, action: i64) {
        let by_player = matches!(self.turn(), Turn::Player(_));
        let Some(seat) = self.call_host::<Value>("apply", "step", action, None) else {
            return;
        };
        if by_player {
            self.moves += 1;
        }
        // host.lua's step says i64::MIN for chance and the next integer once over.
        self.turn = match seat {
            Value::Integer(i64::MIN) => Turn::Chance,
            Value::Integer(code) if code == i64::MIN + 1 => Turn::Terminal,
            seat => self.turn_of(Some(seat)),
        };
    }

    fn returns(&self) -> Vec<f64> {
        let zeros = vec![0.0; self.players];
        let Some(returns) = self.call::<Vec<f64>>("returns", Value::Nil) else {
            return zeros;
        };
        if returns.len() != self.players {
            self.contract(
                "returns",
                &format!("gave {} results for {} seats", returns.len(), self.players),
            );
            return zeros;
        }
        if let Some(bad) = returns.iter().find(|r| !r.is_finite()) {
            self.contract(
                "returns",
                &format!("gave {bad}; a result is a finite number"),
            );
            return zeros;
        }
        let sum: f64 = returns.iter().sum();
        if let Some(declared) = self.returns_sum
            && (sum - declared).abs() > SUM_TOLERANCE
        {
            self.contract(
                "returns",
                &format!("sum to {sum}, but the script declares returns_sum = {declared}"),
            );
            return zeros;
        }
        returns
    }

    fn action_name(&self, action: i64) -> String {
        self.call::<String>("action_name", action)
            .unwrap_or_else(|| format!("action {action}"))
    }

    /// The script's optional `chance_name(state, action, observer)`, `observer` a seat from
    /// 1, 0 for the public (what every seat knows: no hand) or nil for an onlooker who sees
    /// every hand; without it, `action_name` for the onlooker.
    fn chance_name(&self, action: i64, observer: Observer) -> String {
        // Without the script's own wording, a seat is told only that chance decided
        // something, as the Rust engines' default: an outcome may go into another seat's
        // hidden hand, and only the script could say which are public.
        let Some(f) = optional_fn(&self.vm, "chance_name") else {
            return match observer {
                Observer::Omniscient => self.action_name(action),
                _ => UNNAMED_CHANCE.to_string(),
            };
        };
        if self.failed() {
            return format!("outcome {action}");
        }
        let seat = match observer {
            Observer::Seat(p) => Some(p + 1),
            Observer::Public => Some(0),
            Observer::Omniscient => None,
        };
        let named = self
            .vm
            .run_fn("chance_name", f, || {
                f.call::<String>((&self.table, action, seat))
            })
            .map_err(|e| format!("{e} (in `chance_name`)"));
        match (named, observer) {
            (Ok(words), _) => words,
            // A script written before the public was an observer of its own may not know
            // seat 0: the public is told only that chance decided something, and the game
            // goes on (a spectator's wording never stops it).
            (Err(_), Observer::Public) => UNNAMED_CHANCE.to_string(),
            (Err(e), _) => {
                self.fail(e);
                format!("outcome {action}")
            }
        }
    }

    fn observation(&self, player: Player) -> String {
        self.call::<String>("observation", player + 1)
            .unwrap_or_default()
    }

    fn determinize(&self, observer: Player, rng: &mut ChaCha8Rng) -> Self {
        let copy = self.clone();
        if let Some(f) = optional_fn(&self.vm, "determinize")
            && !copy.failed()
            && let Err(e) =
                self.vm
                    .with_rng::<()>(f, "determinize", (&copy.table, observer + 1), rng)
        {
            copy.fail(format!("{e} (in `determinize`)"));
        }
        copy
    }

    /// The script's own `skip_determinize(state, seat, rng)` (the bare draws), else, with a
    /// `determinize`, host.lua's `redeal`: a copy determinized and dropped, in one call into
    /// the VM. Without either, a determinization draws nothing.
    fn skip_determinize(&self, observer: Player, rng: &mut ChaCha8Rng) {
        if self.failed() {
            return;
        }
        if let Some(f) = optional_fn(&self.vm, "skip_determinize") {
            if let Err(e) =
                self.vm
                    .with_rng::<()>(f, "skip_determinize", (&self.table, observer + 1), rng)
            {
                self.fail(format!("{e} (in `skip_determinize`)"));
            }
        } else if optional_fn(&self.vm, "determinize").is_some() {
            self.call_host::<()>("determinize", "redeal", observer + 1, Some(rng));
        }
    }

    fn moves_played(&self) -> u32 {
        self.moves
    }

    fn end_reason(&self) -> Option<&'static str> {
        if self.turn() != Turn::Terminal || optional_fn(&self.vm, "end_reason").is_none() {
            return None;
        }
        self.call::<Option<String>>("end_reason", Value::Nil)
            .flatten()
            .map(|s| intern(&s))
    }

    fn end_stats(&self) -> Vec<(&'static str, f64)> {
        if optional_fn(&self.vm, "end_stats").is_none() {
            return Vec::new();
        }
        let stats = self
            .call::<Option<BTreeMap<String, f64>>>("end_stats", Value::Nil)
            .flatten()
            .unwrap_or_default();
        if let Some((name, bad)) = stats.iter().find(|(_, v)| !v.is_finite()) {
            self.contract(
                "end_stats",
                &format!("gave `{name}` = {bad}; a statistic is a finite number"),
            );
            return Vec::new();
        }
        stats.iter().map(|(k, v)| (intern(k), *v)).collect()
    }

    fn action_kind(&self, action: i64) -> &'static str {
        if optional_fn(&self.vm, "action_kind").is_none() {
            return "move";
        }
        self.call::<String>("action_kind", action)
            .map_or("move", |s| intern(&s))
    }

    /// The script's optional `cards_of(state, action)`: a list of design or piece ids (`nil`
    /// or an empty list for a move that involves none), each an id (played for its effect) or
    /// `{ id = "...", effect = false }` (discarded for no effect). An id the data does not
    /// hold, or one named twice in a move, breaks the contract.
    fn cards_of(&self, action: i64, out: &mut Vec<CardUse>) -> bool {
        if optional_fn(&self.vm, "cards_of").is_none() {
            return false;
        }
        let Some(list) = self.call::<Option<Vec<Value>>>("cards_of", action) else {
            return false;
        };
        let from = out.len();
        for (i, entry) in list.unwrap_or_default().iter().enumerate() {
            let Some((text, effect)) = Self::card_use(entry) else {
                self.contract(
                    "cards_of",
                    &format!(
                        "gave {} as card {}; a card is an id (played for its effect) or {{ id = \"...\", effect = false }} (discarded for no effect)",
                        show(entry),
                        i + 1
                    ),
                );
                out.truncate(from);
                return true;
            };
            let Some(&id) = self.ids.get(text.as_str()) else {
                self.contract(
                    "cards_of",
                    &format!(
                        "named \"{text}\", which is no design or piece id of the data (the ids of the game's decks and pieces are its cards)"
                    ),
                );
                out.truncate(from);
                return true;
            };
            let card = CardUse { id, effect };
            if out[from..].iter().any(|c| std::ptr::eq(c.id, card.id)) {
                self.contract(
                    "cards_of",
                    &format!(
                        "named \"{}\" twice for one move; name each card once (a move that plays two copies of a design names the design once)",
                        card.id
                    ),
                );
                out.truncate(from);
                return true;
            }
            out.push(card);
        }
        true
    }

    /// The script's optional `targets(state, action)`: where the move acts, a list of
    /// target keys in the order a person clicks them (`"cell:1,-2"`, `"piece:pawn@D2"`,
    /// `"card:crowbar"`, `"card:torso@auction house"`, `"zone:bag"`); without it, none
    /// (the table offers the move as a button only). A key that is not one of these forms, or
    /// more than [`MAX_TARGETS`] of them, or one longer than [`MAX_TARGET_KEY`] bytes, breaks
    /// the contract.
    fn targets(&self, action: i64) -> Vec<super::Target> {
        if optional_fn(&self.vm, "targets").is_none() {
            return Vec::new();
        }
        let Some(keys) = self.call::<Option<Vec<String>>>("targets", action) else {
            return Vec::new();
        };
        let keys = keys.unwrap_or_default();
        if keys.len() > MAX_TARGETS {
            self.contract(
                "targets",
                &format!(
                    "gave {} targets for one move; at most {MAX_TARGETS}",
                    keys.len()
                ),
            );
            return Vec::new();
        }
        let mut out = Vec::with_capacity(keys.len());
        for key in &keys {
            match super::Target::parse(key).filter(|_| key.len() <= MAX_TARGET_KEY) {
                Some(t) => out.push(t),
                None => {
                    let shown: String = key.chars().take(60).collect();
                    self.contract(
                        "targets",
                        &format!(
                            "gave `{shown}`; a target is `cell:NAME`, `piece:ID`, `piece:ID@CELL`, `card:ID`, `card:ID@ZONE` or `zone:NAME`, at most {MAX_TARGET_KEY} bytes"
                        ),
                    );
                    return Vec::new();
                }
            }
        }
        out
    }

    fn estimate(&self) -> Vec<f64> {
        let even = vec![1.0 / self.players as f64; self.players];
        if optional_fn(&self.vm, "estimate").is_none() {
            return even;
        }
        match self.call::<Vec<f64>>("estimate", Value::Nil) {
            Some(v) if v.len() == self.players && v.iter().all(|x| x.is_finite()) => v,
            Some(v) if v.len() == self.players => {
                self.contract(
                    "estimate",
                    &format!("gave {v:?}; an estimate is a finite number for each seat"),
                );
                even
            }
            Some(v) => {
                self.contract(
                    "estimate",
                    &format!("gave {} values for {} seats", v.len(), self.players),
                );
                even
            }
            None => even,
        }
    }

    fn failure(&self) -> Option<String> {
        self.error()
    }
}

/// A bot the script defines: `bots.NAME(state, seat, rng)` returns a legal action.
struct ScriptBot {
    name: String,
}

impl Bot<LuaState> for ScriptBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, state: &LuaState, rng: &mut ChaCha8Rng) -> i64 {
        let Turn::Player(seat) = state.turn() else {
            return 0;
        };
        let vm = &state.vm;
        // Listed first, so that a game without a legal move is reported as that, whatever
        // the bot makes of it.
        let legal = state.legal_actions();
        if state.failed() {
            return 0;
        }
        let bot = vm
            .api
            .raw_get::<Table>("bots")
            .and_then(|t| t.raw_get::<Function>(self.name.as_str()));
        let chosen = match bot {
            Ok(f) => vm
                .with_rng::<i64>(
                    &f,
                    &format!("bots.{}", self.name),
                    (&state.table, seat + 1),
                    rng,
                )
                .map_err(|e| format!("{e} (in bot `{}`)", self.name))
                .and_then(|a| {
                    if legal.contains(&a) {
                        Ok(a)
                    } else {
                        Err(format!(
                            "{}: bot `{}` chose action {a}, which is not among the legal actions",
                            vm.place(&f),
                            self.name
                        ))
                    }
                }),
            Err(e) => Err(vm.fail(&e)),
        };
        chosen.unwrap_or_else(|e| {
            state.fail(e);
            0
        })
    }
}
