//! One sandboxed Lua VM with a game's `engine.lua` loaded: the standard library cut down to
//! what cannot reach outside (no `io`, `os`, `debug`, `package`, file loading, bytecode or
//! `math.random`), a memory limit, and an instruction budget for every call from the host.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};

use mlua::chunk::ChunkMode;
use mlua::{
    AnyUserData, Function, HookTriggers, IntoLuaMulti, Lua, LuaOptions, StdLib, Table, UserData,
    UserDataMethods, Value, VmState,
};
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::limits;

/// The script's file name in the game folder.
pub const SCRIPT_FILE: &str = "engine.lua";
/// Bytes a script's VM may hold (game states, the model, its own tables).
pub const MEMORY_LIMIT: usize = 256 << 20;
/// Lua instructions one call from the host (setup, legal actions, a bot's move...) may run.
pub const INSTRUCTION_BUDGET: i64 = 50_000_000;
/// The budget is counted in steps of this many instructions.
const HOOK_STEP: u32 = 10_000;
/// Frames an overrun looks through for the game's own line.
const MAX_FRAMES_SEARCHED: usize = 64;

/// Everything a VM is made from; shared by all VMs of one engine.
pub struct Script {
    /// The game folder, the only place `require` reads from.
    pub dir: PathBuf,
    /// `engine.lua` as text.
    pub source: String,
    /// The game's canonical model, as JSON-like values.
    pub model: serde_json::Value,
}

impl Script {
    /// How errors name the script: its path as given (`data/my-game/engine.lua`).
    pub fn label(&self) -> String {
        self.dir.join(SCRIPT_FILE).display().to_string()
    }
}

/// The host's random generator as the script sees it (`rng:random(n)`, `rng:shuffle(t)`).
pub struct LuaRng(pub ChaCha8Rng);

impl UserData for LuaRng {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        // Like math.random: no argument a float in [0, 1), one argument 1..=n, two lo..=hi.
        methods.add_method_mut("random", |lua, rng, (a, b): (Option<i64>, Option<i64>)| {
            let value = match (a, b) {
                (None, _) => Value::Number(rng.0.random::<f64>()),
                (Some(n), None) => {
                    Value::Integer(draw(&mut rng.0, 1, n).map_err(|e| at_caller(lua, e))?)
                }
                (Some(lo), Some(hi)) => {
                    Value::Integer(draw(&mut rng.0, lo, hi).map_err(|e| at_caller(lua, e))?)
                }
            };
            Ok(value)
        });
        // 1..=n drawn as `random_range(0..n)` over `usize`: the host's uniform move.
        methods.add_method_mut("index", |lua, rng, n: i64| {
            let n = usize::try_from(n)
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| at_caller(lua, format!("rng:index({n}): the range is empty")))?;
            Ok(rng.0.random_range(0..n) + 1)
        });
        methods.add_method_mut("shuffle", |_, rng, list: Table| {
            let mut items: Vec<Value> = list.sequence_values().collect::<mlua::Result<_>>()?;
            items.shuffle(&mut rng.0);
            for (i, v) in items.into_iter().enumerate() {
                list.raw_set(i + 1, v)?;
            }
            Ok(())
        });
    }
}

/// An integer in `lo..=hi`, drawn as `random_range` over `u32` offsets when they fit (the
/// same draw a Rust engine makes with `random_range(0..n)` on a `u32` count).
fn draw(rng: &mut ChaCha8Rng, lo: i64, hi: i64) -> Result<i64, String> {
    if hi < lo {
        return Err(format!("rng:random({lo}, {hi}): the range is empty"));
    }
    let span = (hi as i128 - lo as i128 + 1) as u128;
    let offset = match u32::try_from(span) {
        Ok(n) => i64::from(rng.random_range(0..n)),
        Err(_) => rng.random_range(0..=(hi - lo) as u64) as i64,
    };
    Ok(lo + offset)
}

/// The functions of the engine table printplay calls, required or optional.
pub const ENGINE_FUNCTIONS: &[&str] = &[
    "setup",
    "current_player",
    "legal_actions",
    "chance_outcomes",
    "apply",
    "returns",
    "action_name",
    "observation",
    "end_reason",
    "end_stats",
    "determinize",
    "estimate",
    "action_kind",
    "cards_of",
    "targets",
    "random_action",
    "sample_chance",
    "chance_name",
    "skip_determinize",
];

/// host.lua's shortcuts, kept with the engine's functions.
pub const HOST_FUNCTIONS: [&str; 4] = ["step", "sample", "pick", "redeal"];

/// The deep copy of a game state: copy.rs's native one, prelude.lua's for a state nested too
/// deeply for it.
const COPY: &str = "local fast, slow, views = ...
return function(state)
  local c = fast(state, views)
  if c == nil then
    return slow(state)
  end
  return c
end";

/// A loaded script in its own VM.
pub struct Vm {
    pub lua: Lua,
    /// The table `engine.lua` returned.
    pub api: Table,
    /// Its functions among [`ENGINE_FUNCTIONS`] and host.lua's [`HOST_FUNCTIONS`], looked up once.
    pub functions: std::collections::HashMap<&'static str, Function>,
    /// The deep copy of a game state (prelude.lua).
    pub copy: Function,

    /// The generator handed to the script, swapped with the host's around each call.
    rng: AnyUserData,
    budget: Arc<AtomicI64>,
    /// The last line of the game's own files the budget hook saw run in the current call,
    /// for errors that carry no position (running out of memory).
    last_line: Arc<AtomicUsize>,
    /// The line where the script's function of the current call starts (0 for none): where
    /// such an error is placed when the hook has not run yet (memory exhausted in a few
    /// instructions, `s = s .. s`).
    call_line: AtomicUsize,
    pub label: String,
}

impl Vm {
    /// A fresh VM with the model loaded and `engine.lua` run.
    pub fn new(script: &Script) -> Result<Vm, String> {
        let label = script.label();
        let lua = sandbox(script).map_err(|e| format!("{label}: {}", describe(&e)))?;
        let budget = Arc::new(AtomicI64::new(INSTRUCTION_BUDGET));
        let last_line = Arc::new(AtomicUsize::new(0));
        install_budget(&lua, budget.clone(), last_line.clone())
            .map_err(|e| format!("{label}: {}", describe(&e)))?;
        let rng = lua
            .create_userdata(LuaRng(rand::SeedableRng::seed_from_u64(0)))
            .map_err(|e| format!("{label}: {}", describe(&e)))?;
        let mut vm = Vm {
            functions: std::collections::HashMap::new(),
            api: lua.create_table().map_err(|e| e.to_string())?,
            copy: lua
                .create_function(|_, v: Value| Ok(v))
                .map_err(|e| e.to_string())?,
            lua,
            rng,
            budget,
            last_line,
            call_line: AtomicUsize::new(0),
            label,
        };
        let (copy, api) = vm.load(script)?;
        vm.copy = copy;
        for &name in ENGINE_FUNCTIONS {
            if let Ok(Some(f)) = api.raw_get::<Option<Function>>(name) {
                vm.functions.insert(name, f);
            }
        }
        let host: Table = vm.run(|| {
            vm.lua
                .load(include_str!("host.lua"))
                .set_name("=host.lua")
                .set_mode(ChunkMode::Text)
                .call((&api, &vm.copy))
        })?;
        for name in HOST_FUNCTIONS {
            let f = host.raw_get::<Function>(name).map_err(|e| vm.fail(&e))?;
            vm.functions.insert(name, f);
        }
        vm.api = api;
        Ok(vm)
    }

    fn load(&self, script: &Script) -> Result<(Function, Table), String> {
        let (charge, shape) =
            limits::host_functions(&self.lua, self.budget.clone()).map_err(|e| self.fail(&e))?;
        let raw: Table = self.run(|| {
            self.lua
                .load(include_str!("limits.lua"))
                .set_name("=limits.lua")
                .set_mode(ChunkMode::Text)
                .call((charge, shape))
        })?;
        let model = self.json_to_lua(&script.model).map_err(|e| self.fail(&e))?;
        let rawset = self
            .lua
            .create_function(|_, (t, k, v): (Table, Value, Value)| t.raw_set(k, v))
            .map_err(|e| self.fail(&e))?;
        let (slow, views): (Function, Table) = self.run(|| {
            self.lua
                .load(include_str!("prelude.lua"))
                .set_name("=prelude.lua")
                .set_mode(ChunkMode::Text)
                .call((model, rawset, raw))
        })?;
        // SAFETY: `copy` is a C function of Lua's own API conventions (see copy.rs).
        let fast =
            unsafe { self.lua.create_c_function(super::copy::copy) }.map_err(|e| self.fail(&e))?;
        let copy: Function = self.run(|| {
            self.lua
                .load(COPY)
                .set_name("=prelude.lua")
                .set_mode(ChunkMode::Text)
                .call((fast, slow, views))
        })?;
        let api: Value = self.run(|| {
            self.lua
                .load(script.source.as_str())
                .set_name(format!("@{}", self.label))
                .set_mode(ChunkMode::Text)
                .call(())
        })?;
        match api {
            Value::Table(t) => Ok((copy, t)),
            other => Err(format!(
                "{}: the script must end with `return game`, a table of the engine's functions; it returned {}",
                self.label,
                other.type_name()
            )),
        }
    }

    /// Runs one call from the host under a fresh instruction budget.
    pub fn run<R>(&self, call: impl FnOnce() -> mlua::Result<R>) -> Result<R, String> {
        self.budget.store(INSTRUCTION_BUDGET, Ordering::Relaxed);
        self.last_line.store(0, Ordering::Relaxed);
        self.call_line.store(0, Ordering::Relaxed);
        call().map_err(|e| self.report(&e))
    }

    /// [`Vm::run`] for a call of the script's function `name` (or of host.lua's helper for
    /// it): a value it returned that the host cannot read is an error at the function (the
    /// line it starts on), not at a line the budget's hook happened to see last.
    pub fn run_fn<R>(
        &self,
        name: &str,
        f: &Function,
        call: impl FnOnce() -> mlua::Result<R>,
    ) -> Result<R, String> {
        self.budget.store(INSTRUCTION_BUDGET, Ordering::Relaxed);
        self.last_line.store(0, Ordering::Relaxed);
        let own = self.functions.get(name).unwrap_or(f);
        let starts = own.info().line_defined.unwrap_or(0);
        self.call_line.store(starts, Ordering::Relaxed);
        call().map_err(|e| match e {
            mlua::Error::FromLuaConversionError { .. } => {
                let place = self.place(self.functions.get(name).unwrap_or(f));
                format!(
                    "{place}: `{name}` returned what printplay cannot read: {}",
                    describe(&e)
                )
            }
            e => self.report(&e),
        })
    }

    fn report(&self, e: &mlua::Error) -> String {
        {
            let text = self.fail(e);
            // The call ran over its budget, whatever error ended it (an error handler of
            // xpcall that itself ran out): the reader learns why.
            if self.budget.load(Ordering::Relaxed) <= 0 && !text.contains("budget") {
                format!(
                    "{text} (after running over its budget of {INSTRUCTION_BUDGET} Lua instructions in one call)"
                )
            } else {
                text
            }
        }
    }

    /// Calls `f` with the host's generator lent to the script as its last argument;
    /// `name` is the script's function that `f` is or calls (for errors; see [`Vm::run_fn`]).
    pub fn with_rng<R: mlua::FromLuaMulti>(
        &self,
        f: &Function,
        name: &str,
        args: impl IntoLuaMulti,
        rng: &mut ChaCha8Rng,
    ) -> Result<R, String> {
        self.set_rng(rng)?;
        let mut args = args.into_lua_multi(&self.lua).map_err(|e| self.fail(&e))?;
        args.push_back(Value::UserData(self.rng.clone()));
        let out = self.run_fn(name, f, || f.call::<R>(args));
        let back = self.rng.borrow::<LuaRng>().map_err(|e| self.fail(&e))?;
        *rng = back.0.clone();
        out
    }

    fn set_rng(&self, rng: &ChaCha8Rng) -> Result<(), String> {
        let mut lent = self.rng.borrow_mut::<LuaRng>().map_err(|e| self.fail(&e))?;
        lent.0 = rng.clone();
        Ok(())
    }

    /// An error as a diagnostic naming the script and a line: the line of the game's own
    /// files (engine.lua and the modules it requires) where it happened, or, for an error
    /// inside the sandbox's wrappers (limits.lua, host.lua, prelude.lua) or a library
    /// function, the line of the game's file that called them.
    pub fn fail(&self, e: &mlua::Error) -> String {
        let (first, frames) = error_parts(e);
        let first = readable_error_value(&first);
        if let Some((src, _, _)) = position(&first)
            && !internal_source(src)
        {
            return first;
        }
        let text = match position(&first) {
            Some((_, _, rest)) => rest.to_string(),
            None => first.clone(),
        };
        match frames.iter().find_map(|f| game_frame(f)) {
            Some((src, line)) => format!("{src}:{line}: {text}"),
            None => match (
                self.last_line.load(Ordering::Relaxed),
                self.call_line.load(Ordering::Relaxed),
            ) {
                (0, 0) => format!("{}: {text}", self.label),
                (0, starts) => format!(
                    "{}:{starts}: {text} (in the function that starts on this line)",
                    self.label
                ),
                (line, _) => format!("{}:{line}: {text} (near this line)", self.label),
            },
        }
    }

    /// Where a function of the script starts, for contract errors: `engine.lua:LINE`.
    pub fn place(&self, f: &Function) -> String {
        let line = f.info().line_defined.unwrap_or(0);
        format!("{}:{line}", self.label)
    }

    fn json_to_lua(&self, v: &serde_json::Value) -> mlua::Result<Value> {
        use serde_json::Value as J;
        Ok(match v {
            J::Null => Value::Nil,
            J::Bool(b) => Value::Boolean(*b),
            J::Number(n) => match n.as_i64() {
                Some(i) => Value::Integer(i),
                None => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
            },
            J::String(s) => Value::String(self.lua.create_string(s)?),
            J::Array(items) => {
                let t = self.lua.create_table_with_capacity(items.len(), 0)?;
                for (i, item) in items.iter().enumerate() {
                    t.raw_set(i + 1, self.json_to_lua(item)?)?;
                }
                Value::Table(t)
            }
            J::Object(map) => {
                let t = self.lua.create_table_with_capacity(0, map.len())?;
                for (k, item) in map {
                    t.raw_set(k.as_str(), self.json_to_lua(item)?)?;
                }
                Value::Table(t)
            }
        })
    }
}

/// The Lua standard library minus everything that reaches outside the VM or breaks
/// reproducibility, plus `require` of modules in the game folder and `print` to stderr.
fn sandbox(script: &Script) -> mlua::Result<Lua> {
    let lua = Lua::new_with(
        StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
        LuaOptions::new(),
    )?;
    lua.set_memory_limit(MEMORY_LIMIT)?;
    let globals = lua.globals();
    for name in [
        "dofile",
        "loadfile",
        "load",
        "collectgarbage",
        "rawset",
        "require",
    ] {
        globals.raw_set(name, Value::Nil)?;
    }
    let math: Table = globals.get("math")?;
    math.raw_set("random", Value::Nil)?;
    math.raw_set("randomseed", Value::Nil)?;
    let string: Table = globals.get("string")?;
    string.raw_set("dump", Value::Nil)?;
    globals.raw_set(
        "print",
        lua.create_function(|_, args: mlua::Variadic<Value>| {
            let words: Vec<String> = args
                .iter()
                .map(|v| v.to_string().unwrap_or_else(|_| v.type_name().to_string()))
                .collect();
            eprintln!("{}", words.join("\t"));
            Ok(())
        })?,
    )?;
    globals.raw_set("require", make_require(&lua, &script.dir)?)?;
    Ok(lua)
}

/// `require "name"` loads `name.lua` (`a.b` loads `a/b.lua`) from the game folder, once.
fn make_require(lua: &Lua, dir: &Path) -> mlua::Result<Function> {
    let dir = dir.to_path_buf();
    let loaded = lua.create_table()?;
    lua.create_function(move |lua, name: String| {
        if let Some(done) = loaded.raw_get::<Option<Value>>(name.as_str())? {
            return Ok(done);
        }
        let valid = !name.is_empty()
            && name.split('.').all(|part| {
                !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
        if !valid {
            return Err(at_caller(lua, format!(
                "require `{name}`: a module is named by letters, digits, `_` and `.` and lives in the game folder"
            )));
        }
        let rel = format!("{}.lua", name.replace('.', "/"));
        let path = dir.join(&rel);
        // Nothing outside the game folder is read, through a link either.
        let real = crate::model::paths::resolve_in(&dir, &rel)
            .map_err(|e| at_caller(lua, format!("require `{name}`: {e}")))?;
        let text = std::fs::read_to_string(&real)
            .map_err(|e| at_caller(lua, format!("require `{name}`: {}: {e}", path.display())))?;
        let value: Value = lua
            .load(text)
            .set_name(format!("@{}", path.display()))
            .set_mode(ChunkMode::Text)
            .call(())?;
        let value = if value.is_nil() {
            Value::Boolean(true)
        } else {
            value
        };
        loaded.raw_set(name.as_str(), value.clone())?;
        Ok(value)
    })
}

/// An error raised by a host function, placed at the line of the script that called it.
fn at_caller(lua: &Lua, message: String) -> mlua::Error {
    let place = lua.inspect_stack(1, |d| {
        let src = d
            .source()
            .short_src
            .map(|s| s.to_string())
            .unwrap_or_default();
        format!("{src}:{}", d.current_line().unwrap_or(0))
    });
    mlua::Error::runtime(match place {
        Some(place) => format!("{place}: {message}"),
        None => message,
    })
}

/// Counts instructions in steps of [`HOOK_STEP`] and stops a call that runs over its budget.
fn install_budget(
    lua: &Lua,
    budget: Arc<AtomicI64>,
    last_line: Arc<AtomicUsize>,
) -> mlua::Result<()> {
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(HOOK_STEP),
        move |lua, debug| {
            // The line of the game's own code: the nearest frame that is not the sandbox's.
            let top = debug.source().short_src.map(|s| s.to_string()).unwrap_or_default();
            let line = if internal_source(&top) {
                (1..MAX_FRAMES_SEARCHED)
                    .map_while(|level| {
                        lua.inspect_stack(level, |d| {
                            let src = d.source().short_src.map(|s| s.to_string());
                            (src.unwrap_or_default(), d.current_line().unwrap_or(0))
                        })
                    })
                    .find(|(src, line)| !internal_source(src) && *line > 0)
                    .map_or(0, |(_, line)| line)
            } else {
                debug.current_line().unwrap_or(0)
            };
            if line > 0 {
                last_line.store(line, Ordering::Relaxed);
            }
            if budget.fetch_sub(i64::from(HOOK_STEP), Ordering::Relaxed) > i64::from(HOOK_STEP) {
                return Ok(VmState::Continue);
            }
            // The overrun is placed at the game's own line on the stack, not at a line of
            // the sandbox's wrappers the loop happened to be in.
            let here = (
                debug.source().short_src.map(|s| s.to_string()).unwrap_or_default(),
                line,
            );
            let (src, line) = (0..MAX_FRAMES_SEARCHED)
                .map_while(|level| {
                    lua.inspect_stack(level, |d| {
                        let src = d.source().short_src.map(|s| s.to_string()).unwrap_or_default();
                        (src, d.current_line().unwrap_or(0))
                    })
                })
                .find(|(src, line)| !internal_source(src) && *line > 0)
                .unwrap_or(here);
            Err(mlua::Error::runtime(format!(
                "{src}:{line}: ran over its budget of {INSTRUCTION_BUDGET} Lua instructions in one call (an endless loop?)"
            )))
        },
    )
}

/// The first line of a Lua error's message, without mlua's wrapping and traceback.
pub fn describe(e: &mlua::Error) -> String {
    match e {
        mlua::Error::CallbackError { cause, .. } => describe(cause),
        mlua::Error::RuntimeError(msg) | mlua::Error::SyntaxError { message: msg, .. } => {
            msg.lines().next().unwrap_or("").to_string()
        }
        mlua::Error::MemoryError(_) => {
            format!(
                "ran out of memory (a script may use {} MB)",
                MEMORY_LIMIT >> 20
            )
        }
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    }
}

/// An error's first line and the frames of its tracebacks, innermost first (a callback's
/// error carries the traceback of where it was raised; a Lua error, mlua's handler's).
fn error_parts(e: &mlua::Error) -> (String, Vec<String>) {
    match e {
        mlua::Error::CallbackError { cause, traceback } => {
            let (first, mut frames) = error_parts(cause);
            frames.extend(traceback_frames(traceback));
            (first, frames)
        }
        mlua::Error::RuntimeError(msg) => {
            let first = msg.lines().next().unwrap_or("").to_string();
            (first, traceback_frames(msg))
        }
        other => (describe(other), Vec::new()),
    }
}

/// The frames of the traceback in `text` (the lines after `stack traceback:`).
fn traceback_frames(text: &str) -> Vec<String> {
    match text.split_once("stack traceback:") {
        Some((_, frames)) => frames
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect(),
        None => Vec::new(),
    }
}

/// A frame `src:line: in ...` of a file of the game (not the sandbox's own chunks, not C).
fn game_frame(frame: &str) -> Option<(&str, usize)> {
    let (place, _) = frame.split_once(": in ")?;
    let (src, line) = place.rsplit_once(':')?;
    let line = line.parse::<usize>().ok()?;
    (!internal_source(src) && line > 0).then_some((src, line))
}

/// Where a message says it happened: `src:line: rest`.
fn position(message: &str) -> Option<(&str, usize, &str)> {
    let mut from = 0;
    while let Some(i) = message[from..].find(':').map(|i| i + from) {
        let after = &message[i + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && after[digits..].starts_with(": ") {
            let line = after[..digits].parse().ok()?;
            return Some((&message[..i], line, &after[digits + 2..]));
        }
        from = i + 1;
    }
    None
}

/// The sandbox's own chunks, library functions and code given to the VM without a file name.
fn internal_source(src: &str) -> bool {
    matches!(src, "limits.lua" | "host.lua" | "prelude.lua" | "[C]" | "?")
        || src.starts_with("[string")
        || src.starts_with("(...")
}

/// An error value that is not a message (`error({})`) reads as Lua prints it, with the
/// value's address; it says instead what was raised.
fn readable_error_value(first: &str) -> String {
    let address = |rest: &str| {
        rest.strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    match first.split_once(": ") {
        Some((kind, rest))
            if matches!(kind, "table" | "function" | "userdata" | "thread") && address(rest) =>
        {
            format!(
                "error was given a {kind}, not a message; give it the words a designer should read: error(\"...\")"
            )
        }
        _ => first.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vm() -> Vm {
        let script = Script {
            dir: std::env::temp_dir(),
            source: "return {}".into(),
            model: serde_json::json!({}),
        };
        Vm::new(&script).expect("an empty engine loads")
    }

    /// Running out of memory names the script's line, not `engine.lua:0`: the line the hook
    /// saw last, or where the function starts when the memory went before the hook ran.
    #[test]
    fn running_out_of_memory_names_the_scripts_line() {
        let source = "local game = {}\n\
                      function game.setup(config)\n\
                      \x20 local s = 'x'\n\
                      \x20 while true do s = s .. s end\n\
                      end\n\
                      function game.estimate(state)\n\
                      \x20 local t = {}\n\
                      \x20 for i = 1, 100000 do\n\
                      \x20   t[i] = string.rep('x', 1000000 + i)\n\
                      \x20 end\n\
                      end\n\
                      return game";
        let script = Script {
            dir: std::env::temp_dir(),
            source: source.into(),
            model: serde_json::json!({}),
        };
        let vm = Vm::new(&script).expect("loads");
        let call = |name: &str| {
            let f = vm.functions.get(name).expect("defined").clone();
            vm.run_fn(name, &f, || f.call::<()>(()))
                .expect_err("out of memory")
        };
        let setup = call("setup");
        assert!(setup.contains("ran out of memory"), "{setup}");
        assert!(setup.starts_with(&format!("{}:2: ", vm.label)), "{setup}");
        let score = call("estimate");
        assert!(score.contains("ran out of memory"), "{score}");
        assert!(score.starts_with(&format!("{}:9: ", vm.label)), "{score}");
    }

    fn eval(vm: &Vm, code: &str) -> Result<String, String> {
        vm.run(|| vm.lua.load(code).eval::<String>())
    }

    #[test]
    fn ordinary_string_and_table_calls_work_as_in_lua() {
        let vm = vm();
        let cases = [
            ("(\"a,b,,c\"):gsub(\",\", \";\")", "a;b;;c"),
            ("select(3, (\"key=value\"):find(\"^(%w+)=(%w+)$\"))", "key"),
            ("(\"x = 1\"):match(\"(%w+)%s*=%s*(%d+)\")", "x"),
            ("(\"abc\"):find(\"b\", 1, true) .. \"\"", "2"),
            (
                "local n = 0 for w in (\"one two three\"):gmatch(\"%a+\") do n = n + #w end return tostring(n)",
                "11",
            ),
            ("(\"ab\"):rep(3, \"-\")", "ab-ab-ab"),
            ("(\"hello\"):sub(2, 3):upper()", "EL"),
            (
                "local t = { 1, 2, 4 } table.insert(t, 3, 3) table.remove(t, 1) table.sort(t, function(a, b) return a > b end) return table.concat(t, \",\")",
                "4,3,2",
            ),
            (
                "local t = table.move({ 1, 2, 3 }, 1, 3, 2) return table.concat({ table.unpack(t) }, \",\")",
                "1,1,2,3",
            ),
            // Classes: metatables changed after use, and given metatables of their own.
            (
                "local Base = {} Base.__index = Base function Base.hi() return \"hi\" end local Derived = setmetatable({}, { __index = Base }) Derived.__index = Derived local o = setmetatable({}, Derived) Derived.extra = 1 setmetatable(Derived, { __index = Base }) return o.hi() .. o.extra .. tostring(3) .. (\"%s\"):format(setmetatable({}, { __tostring = function() return \"!\" end }))",
                "hi13!",
            ),
        ];
        for (code, want) in cases {
            let code = if code.contains("return") {
                code.to_string()
            } else {
                format!("return {code}")
            };
            assert_eq!(eval(&vm, &code).as_deref(), Ok(want), "{code}");
        }
    }

    #[test]
    fn next_and_pairs_visit_keys_in_a_fixed_order() {
        let script = Script {
            dir: std::env::temp_dir(),
            source: "return {}".into(),
            model: serde_json::json!({ "b": 1, "a": { "y": 1, "x": 2 }, "c": [5, 6] }),
        };
        let vm = Vm::new(&script).expect("an empty engine loads");
        let t = "local t = { b = 1, a = 2, [3] = \"x\", [1] = \"y\", [true] = 0, [2.5] = 1 } ";
        let cases = [
            (
                "local out = {} for k in pairs(t) do out[#out + 1] = tostring(k) end return table.concat(out, \",\")",
                "true,1,2.5,3,a,b",
            ),
            (
                "local out, k = {}, next(t) while k ~= nil do out[#out + 1] = tostring(k) k = next(t, k) end return table.concat(out, \",\")",
                "true,1,2.5,3,a,b",
            ),
            // Keys removed during a traversal are skipped, as in Lua.
            (
                "for k in next, t do t[k] = nil end return tostring(next(t))",
                "nil",
            ),
            (
                "local n = 0 for _ in next, t do for _ in next, t do n = n + 1 end end return tostring(n)",
                "36",
            ),
            ("return tostring(next({}))", "nil"),
            // The key after one that is gone, as when a traversal removes keys and an inner
            // one (`next(t) == nil`) interrupts it.
            ("return next(t, \"aa\")", "b"),
            (
                "local n = 0 for k in next, t do t[k] = nil if next(t) == nil then n = n + 10 end n = n + 1 end return tostring(n)",
                "16",
            ),
            (
                "local out = {} for k, v in pairs(model) do out[#out + 1] = k end for k in next, model.a do out[#out + 1] = k end return table.concat(out, \",\")",
                "a,b,c,x,y",
            ),
        ];
        for (code, want) in cases {
            let code = format!("{t}{code}");
            assert_eq!(eval(&vm, &code).as_deref(), Ok(want), "{code}");
        }
    }

    #[test]
    fn error_positions_are_read_from_messages_and_tracebacks() {
        assert_eq!(
            position("data/g/engine.lua:12: boom: 3: x"),
            Some(("data/g/engine.lua", 12, "boom: 3: x"))
        );
        assert_eq!(
            position("C:\\g\\engine.lua:4: x"),
            Some(("C:\\g\\engine.lua", 4, "x"))
        );
        assert_eq!(position("no place"), None);
        assert_eq!(
            game_frame("data/g/engine.lua:7: in function 'f'"),
            Some(("data/g/engine.lua", 7))
        );
        assert_eq!(game_frame("limits.lua:7: in function 'string.byte'"), None);
        assert_eq!(game_frame("[C]: in function 'error'"), None);
        assert_eq!(
            readable_error_value("table: 0x55d0c0ffee00"),
            "error was given a table, not a message; give it the words a designer should read: error(\"...\")"
        );
        assert_eq!(readable_error_value("table: custom"), "table: custom");
    }

    #[test]
    fn a_catastrophic_pattern_is_refused_before_it_runs() {
        let vm = vm();
        let err = eval(
            &vm,
            "return tostring(string.find(string.rep(\"a\", 3000), string.rep(\"a*\", 10) .. \"b\"))",
        )
        .unwrap_err();
        assert!(err.contains("string.find: this pattern"), "{err}");
        assert!(err.contains("budget"), "{err}");
    }

    #[test]
    fn charges_add_up_within_one_call_and_reset_for_the_next() {
        let vm = vm();
        // Each move costs just over a fifth of the budget: four fit, the fifth does not.
        let n = INSTRUCTION_BUDGET / 5 + 1;
        let code = format!("for _ = 1, 5 do table.move({{}}, 1, {n}, 2) end return \"done\"");
        let err = eval(&vm, &code).unwrap_err();
        assert!(err.contains("table.move"), "{err}");
        assert_eq!(
            eval(&vm, "return table.concat({ \"a\", \"b\" })").as_deref(),
            Ok("ab")
        );
    }
}
