//! Hidden information, one rule everywhere: a seat is never told a card, tile or order it
//! could not see at the table; not by `play`, not by `replay` (text or JSON), not by
//! `replay --moves`. All of them name moves, events and the table through
//! `printplay::engine::view`; this test checks that module over every engine (Capek, The
//! Search, Aether, the Lua Aether of tests/fixtures/aether-lua and the scaffold's Lua game),
//! every observer, in seeded games.
//!
//! The property is differential, so it needs no list of secret words:
//! * Moves: at every decision and chance node, the choices there are tried one by one. Two
//!   choices after which a seat's observation (what the engine says it sees) is the same are
//!   the same to that seat, so the seat must be told the same words for both, the same events
//!   inside them and the same table after them. So must the public observer (what every seat
//!   knows). A drawn tile named to the other seats, or the order the police put cards back in
//!   named to the criminal, fails here.
//! * Tables: a determinization for a seat (everything it cannot see dealt afresh) shows that
//!   seat, and the public, the same table, and the seat the same observation, as the real game.
//! * Every observer is taken through every kind of move of every engine, the free table's
//!   (src/engine/free, by the move's shape, listed in `FREE_KINDS`) included at 2, 3 and 4
//!   seats; a configuration's walk stops once that holds (and fails at its bound if not).
//!
//! Then one test per shipped game runs `replay --observer` through the library and the CLI
//! and looks for the leaks the issue reported, and one drives `play`.

mod common;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::rc::Rc;

use printplay::engine::registry::{EngineTask, with_engine};
use printplay::engine::view::{self, Observer};
use printplay::engine::{Config, Engine, State, Turn};
use printplay::model::{Game, load_game};
use printplay::serve::faces::Faces;
use printplay::serve::live;
use printplay::simulate::{SimOptions, game_rng, replay};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// At most this many choices are tried at one node (the one played among them), besides one
/// of each kind of move open there.
const SIBLINGS: usize = 10;

/// A configuration's walk stops, once every kind of move was compared for every observer,
/// after at least this many nodes.
const MIN_NODES: u64 = 40;

/// At most this many moves of the same kind are tried in a world dealt afresh, for a move
/// that names a card that world does not hold where the real game does.
const STAND_INS: usize = 6;

/// Whose eyes the check looks through: every seat, the public (the table's spectator, a
/// screen several people share) and the onlooker who sees every hand.
fn observers(n: usize) -> Vec<Observer> {
    (0..n)
        .map(Observer::Seat)
        .chain([Observer::Public, Observer::Omniscient])
        .collect()
}

fn label(observer: Observer) -> String {
    match observer {
        Observer::Seat(s) => format!("seat {}", s + 1),
        Observer::Public => "public".into(),
        Observer::Omniscient => "onlooker".into(),
    }
}

/// How the moves of an engine are told apart into kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kinds {
    /// By the engine's [`State::action_kind`] (chance outcomes are `chance`).
    Engine,
    /// By the move's shape: its variant and where a card goes (`FromHand(, Hand())`: a card
    /// from the hand handed to another seat), its numbers left out. The free table's
    /// `action_kind` puts every card's move in one kind; this tells a card handed to another
    /// seat from one discarded.
    Shape,
}

/// Every kind of move of the free table (src/engine/free), by shape: each must be compared
/// for every observer at 2, 3 and 4 seats, and the walk finds no other (a kind added to the
/// engine fails the test until it is listed here and compared). `chance` is a die's roll.
const FREE_KINDS: &[&str] = &[
    "Shuffle()",
    "Gather()",
    "Deal(, )",
    "Draw()",
    "Reveal()",
    "TakeDiscard()",
    "FromHand(, TableUp)",
    "FromHand(, TableDown)",
    "FromHand(, Discard)",
    "FromHand(, PileTop)",
    "FromHand(, Hand())",
    "FromTable(, Hand())",
    "FromTable(, Discard)",
    "FromTable(, PileTop)",
    "FromTable(, Place())",
    "Flip()",
    "ShowHand(true)",
    "ShowHand(false)",
    "Take(, )",
    "Put()",
    "Roll",
    "chance",
    "Pass()",
    "End",
];

/// The free table's kinds that need dice, and pieces.
const FREE_DICE_KINDS: &[&str] = &["Roll", "chance"];
const FREE_PIECE_KINDS: &[&str] = &["Take(, )", "Put()"];

/// What the check saw, so that a test can insist the interesting nodes were reached.
#[derive(Debug, Default)]
struct Seen {
    nodes: u64,
    /// Pairs of different choices an observer could not tell apart, compared.
    blind_pairs: u64,
    /// Of those, pairs whose full (onlooker's) words differ: the hidden part was really there.
    hidden_pairs: u64,
    /// Moves compared in a world where what the observer cannot see was dealt afresh.
    worlds: u64,
    /// Of those, moves the onlooker is told differently in the two worlds.
    hidden_worlds: u64,
    /// Of those, moves that named a card the other world does not hold where the real game
    /// does, compared with a move of the same kind there.
    stand_ins: u64,
    /// The kinds of move offered at the nodes visited.
    offered: BTreeSet<String>,
    /// Each kind of move compared, with the observers it was compared for.
    compared: BTreeMap<String, BTreeSet<String>>,
}

impl Seen {
    fn compared(&mut self, kind: &str, observer: Observer) {
        let label = label(observer);
        match self.compared.get_mut(kind) {
            Some(done) => {
                done.insert(label);
            }
            None => {
                self.compared
                    .insert(kind.to_string(), BTreeSet::from([label]));
            }
        }
    }

    /// Every kind of move offered, and every kind of `required`, was compared for every
    /// observer of an `n`-seat game.
    fn every_kind_for_everyone(&self, n: usize, required: &[&str]) -> Result<(), String> {
        let everyone: Vec<String> = observers(n).into_iter().map(label).collect();
        let kinds = self
            .offered
            .iter()
            .map(String::as_str)
            .chain(required.iter().copied());
        for kind in kinds {
            let done = self.compared.get(kind);
            let missing: Vec<&String> = everyone
                .iter()
                .filter(|o| !done.is_some_and(|d| d.contains(*o)))
                .collect();
            if !missing.is_empty() {
                return Err(format!(
                    "`{kind}` moves were never compared for {missing:?} (offered: {:?})",
                    self.offered
                ));
            }
        }
        Ok(())
    }

    /// The check has seen enough of a configuration: at least `MIN_NODES` nodes, every kind
    /// compared for everyone, and (if `hidden`) choices that differ in what an observer
    /// cannot see.
    fn enough(&self, n: usize, required: &[&str], hidden: bool) -> bool {
        self.nodes >= MIN_NODES
            && (self.hidden_pairs > 0 || !hidden)
            && self.every_kind_for_everyone(n, required).is_ok()
    }

    fn add(&mut self, one: Seen) {
        self.nodes += one.nodes;
        self.blind_pairs += one.blind_pairs;
        self.hidden_pairs += one.hidden_pairs;
        self.worlds += one.worlds;
        self.hidden_worlds += one.hidden_worlds;
        self.stand_ins += one.stand_ins;
        self.offered.extend(one.offered);
        for (k, o) in one.compared {
            self.compared.entry(k).or_default().extend(o);
        }
    }
}

/// The differential check over seeded games of each configuration: at most `games` games of
/// at most `max_steps` steps each; a configuration stops as soon as every kind of move
/// offered (and every kind of `required`) was compared for every observer and hidden
/// information was exercised (blind pairs and worlds whose words differ), and fails if the
/// bound is reached before.
struct Check {
    configs: Vec<Config>,
    games: u64,
    max_steps: usize,
    required: Vec<&'static str>,
    kinds: Kinds,
    /// Steer the moves played to the kinds played least in the game so far (never closing
    /// the table), so that a short walk reaches every kind; else play at random.
    steer: bool,
}

impl EngineTask for Check {
    type Output = Seen;
    fn run<E: Engine>(self, engine: E, _game: &Game) -> Result<Seen, String> {
        let mut seen = Seen::default();
        for (c, config) in self.configs.iter().enumerate() {
            let mut one = Seen::default();
            'games: for g in 0..self.games {
                let mut rng = game_rng(1000 + c as u64, g);
                let mut state = engine.new_game(config, &mut rng)?;
                let mut played: BTreeMap<String, u32> = BTreeMap::new();
                for step in 0..self.max_steps {
                    let action = match state.turn() {
                        Turn::Terminal => break,
                        Turn::Chance => state.sample_chance(&mut rng),
                        Turn::Player(_) if self.steer => {
                            steered(&state, &played, self.kinds, &mut rng)
                        }
                        Turn::Player(_) => state.random_action(&mut rng),
                    };
                    *played.entry(kind(&state, action, self.kinds)).or_default() += 1;
                    check_node(&state, action, self.kinds, &mut rng, &mut one)
                        .map_err(|e| format!("config {c}, game {g}, step {step}: {e}"))?;
                    state.apply(action);
                    if let Some(e) = state.failure() {
                        return Err(e);
                    }
                    if one.enough(config.players, &self.required, self.kinds == Kinds::Engine) {
                        break 'games;
                    }
                }
            }
            one.every_kind_for_everyone(config.players, &self.required)
                .map_err(|e| format!("config {c} ({config:?}): {e}"))?;
            seen.add(one);
        }
        Ok(seen)
    }
}

/// A move of the kind played least so far in this game (at random among those), never
/// closing the free table while another move is open.
fn steered<S: State>(
    state: &S,
    played: &BTreeMap<String, u32>,
    kinds: Kinds,
    rng: &mut ChaCha8Rng,
) -> S::Action {
    let legal = state.legal_actions();
    let open: Vec<(S::Action, String)> = legal
        .iter()
        .map(|&a| (a, kind(state, a, kinds)))
        .filter(|(_, k)| k != "End")
        .collect();
    if open.is_empty() {
        return legal[rng.random_range(0..legal.len())];
    }
    let times = |k: &String| played.get(k).copied().unwrap_or(0);
    let least = open.iter().map(|(_, k)| times(k)).min().unwrap_or(0);
    let fewest: Vec<S::Action> = open
        .iter()
        .filter(|(_, k)| times(k) == least)
        .map(|(a, _)| *a)
        .collect();
    fewest[rng.random_range(0..fewest.len())]
}

/// A move's shape: its debug form without its numbers.
fn shape<A: std::fmt::Debug>(action: A) -> String {
    format!("{action:?}")
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .collect()
}

/// A move's debug form without its first number (for the free table, the card it moves).
fn but_first_number<A: std::fmt::Debug>(action: A) -> String {
    let text = format!("{action:?}");
    let Some(start) = text.find(|c: char| c.is_ascii_digit()) else {
        return text;
    };
    let end = text[start..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |e| start + e);
    format!("{}{}", &text[..start], &text[end..])
}

/// The choices at a node: every one, or `SIBLINGS` of them drawn at random, with `played` and
/// one of each kind of move open there first (so that every kind is tried wherever it is
/// open), then a second of each kind, each with its kind. The first `kinds` of them are `played` and those of each kind.
fn choices<S: State>(
    state: &S,
    played: S::Action,
    all: &[(S::Action, String)],
    rng: &mut ChaCha8Rng,
) -> (Vec<(S::Action, String)>, usize) {
    let mut all = all.to_vec();
    for i in (1..all.len()).rev() {
        let j = rng.random_range(0..=i);
        all.swap(i, j);
    }
    let played_kind = all
        .iter()
        .find(|(a, _)| *a == played)
        .map_or_else(|| kind(state, played, Kinds::Engine), |(_, k)| k.clone());
    let mut first = vec![(played, played_kind)];
    let mut kinds_in: BTreeSet<String> = first.iter().map(|(_, k)| k.clone()).collect();
    for (a, k) in &all {
        if kinds_in.insert(k.clone()) {
            first.push((*a, k.clone()));
        }
    }
    let kinds = first.len();
    // A second of each kind (choices of one kind are the ones most alike), then others.
    let mut twice: BTreeSet<String> = BTreeSet::new();
    for (a, k) in &all {
        if !first.iter().any(|(f, _)| f == a) && twice.insert(k.clone()) {
            first.push((*a, k.clone()));
        }
    }
    for (a, k) in all {
        if first.len() >= SIBLINGS.max(kinds) {
            break;
        }
        if !first.iter().any(|(f, _)| *f == a) {
            first.push((a, k));
        }
    }
    (first, kinds)
}

fn every_choice<S: State>(state: &S) -> Vec<S::Action> {
    match state.turn() {
        Turn::Chance => state.chance_outcomes().into_iter().map(|o| o.0).collect(),
        Turn::Player(_) => state.legal_actions(),
        Turn::Terminal => Vec::new(),
    }
}

fn kind<S: State>(state: &S, action: S::Action, kinds: Kinds) -> String {
    match (state.turn(), kinds) {
        (Turn::Chance, _) => "chance".into(),
        (_, Kinds::Engine) => state.action_kind(action).into(),
        (_, Kinds::Shape) => shape(action),
    }
}

/// Every choice at a node with its kind.
fn kinded<S: State>(state: &S, kinds: Kinds) -> Vec<(S::Action, String)> {
    every_choice(state)
        .into_iter()
        .map(|a| (a, kind(state, a, kinds)))
        .collect()
}

/// The log's lines for one choice as `observer` is told them: the move's words and the
/// events inside it, as `play`, `replay` and the table's log show them.
fn log_lines<S: State>(before: &S, action: S::Action, after: &S, observer: Observer) -> String {
    let seen = view::seen(before, action, after, observer);
    format!("{}\n{}", seen.action, seen.events.join("\n"))
}

/// The table as `observer` sees it (as the table's server sends it: the view's text and
/// data, the hands it may see) and the card faces (by design) and backs its page is given.
fn table_seen<S: State>(state: &S, observer: Observer, names: &[String]) -> String {
    let table = live::table_json(state, observer, names).to_string();
    let faces = faces_of(&table, names);
    format!("{table}\n{faces}")
}

/// What `observer` sees of `state` itself: for a seat its observation too.
fn sees<S: State>(state: &S, observer: Observer, names: &[String]) -> String {
    let own = match observer {
        Observer::Seat(s) => view::seat_view(state, s),
        _ => String::new(),
    };
    format!("{own}\n{}", table_seen(state, observer, names))
}

/// A world `observer` cannot tell from `state`: everything it cannot see dealt afresh. For
/// the public, each seat's determinization in turn (every hand and pile changes, the public
/// table stays); the onlooker sees everything, so its world is the game itself.
fn world<S: State>(state: &S, observer: Observer, rng: &mut ChaCha8Rng) -> S {
    match observer {
        Observer::Seat(s) => state.determinize(s, rng),
        Observer::Public => {
            (0..state.num_players()).fold(state.clone(), |w, s| w.determinize(s, rng))
        }
        Observer::Omniscient => state.clone(),
    }
}

fn words(text: &str) -> BTreeSet<&str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

fn check_node<S: State>(
    state: &S,
    played: S::Action,
    kinds_by: Kinds,
    rng: &mut ChaCha8Rng,
    seen: &mut Seen,
) -> Result<(), String> {
    seen.nodes += 1;
    let n = state.num_players();
    let names: Vec<String> = (0..n).map(|s| format!("player {}", s + 1)).collect();
    let all = kinded(state, kinds_by);
    let (options, kinds) = choices(state, played, &all, rng);
    for (_, k) in &all {
        if !seen.offered.contains(k) {
            seen.offered.insert(k.clone());
        }
    }
    let afters: Vec<S> = options
        .iter()
        .map(|&(a, _)| {
            let mut after = state.clone();
            after.apply(a);
            after
        })
        .collect();
    let full = |before: &S, a: S::Action| view::action_words(before, a, Observer::Omniscient);
    for observer in observers(n) {
        // Tables: a world the observer cannot tell from this one shows it the same table,
        // the same faces and (a seat) the same observation.
        let other = world(state, observer, rng);
        let (real, alt) = (
            sees(state, observer, &names),
            sees(&other, observer, &names),
        );
        if real != alt {
            return Err(format!(
                "{}'s table changes with what it cannot see:\n{real}\n-- in another world --\n{alt}",
                label(observer)
            ));
        }
        if observer == Observer::Omniscient {
            for (_, k) in &options {
                seen.compared(k, observer);
            }
            continue;
        }
        // What the observer sees after each choice, made once.
        let seen_after: Vec<String> = afters.iter().map(|a| sees(a, observer, &names)).collect();
        // Moves: choices the observer cannot tell apart afterwards are told to it alike. (An
        // engine without a public view shows the public no table, only the log: its moves
        // are all it knows, so there is nothing to tell them apart by.)
        let no_table =
            observer == Observer::Public && view::table(state, observer).public.is_empty();
        let mut by_view: BTreeMap<&String, usize> = BTreeMap::new();
        for (i, key) in seen_after.iter().enumerate().filter(|_| !no_table) {
            let Some(&j) = by_view.get(key) else {
                by_view.insert(key, i);
                continue;
            };
            let ((a_i, k_i), (a_j, k_j)) = (&options[i], &options[j]);
            seen.blind_pairs += 1;
            seen.compared(k_i, observer);
            seen.compared(k_j, observer);
            if full(state, *a_i) != full(state, *a_j) {
                seen.hidden_pairs += 1;
            }
            let (a, b) = (
                log_lines(state, *a_i, &afters[i], observer),
                log_lines(state, *a_j, &afters[j], observer),
            );
            if a != b {
                return Err(format!(
                    "{} sees the same table after `{}` and `{}`, but is told\n{a}\n-- and --\n{b}\n-- with the table --\n{key}",
                    label(observer),
                    full(state, *a_i),
                    full(state, *a_j)
                ));
            }
        }
        // The same choices in the other world: what the observer is told may change only
        // by what it sees afterwards. Where it sees the same table in both, it is told the
        // same; else every word that changed is one its own view after the move shows.
        // (The played choice and one of each kind: the rest were compared above.) A move
        // that names a card the other world holds elsewhere (a card from a hidden hand) is
        // compared, where kinds are shapes, with the same move of another card there: one after
        // which the observer sees the same table if there is one (then it must be told the
        // same), else the first.
        let open = kinded(&other, kinds_by);
        for (i, (a, k)) in options.iter().enumerate().take(kinds) {
            let view_after = &seen_after[i];
            let (b, alt, alt_view) = if open.iter().any(|(b, _)| b == a) {
                let mut alt = other.clone();
                alt.apply(*a);
                let alt_view = sees(&alt, observer, &names);
                (*a, alt, alt_view)
            } else if kinds_by == Kinds::Engine {
                // An engine's kind may hold moves that differ in what everyone sees
                // (placing one tile or another): only a move's shape stands in for it.
                continue;
            } else {
                // The same move on another card: its debug form but for its first number.
                let like = but_first_number(*a);
                let mut same: Vec<S::Action> = open
                    .iter()
                    .filter(|(b, kb)| kb == k && but_first_number(*b) == like)
                    .map(|(b, _)| *b)
                    .collect();
                if same.is_empty() {
                    continue;
                }
                for x in (1..same.len()).rev() {
                    let y = rng.random_range(0..=x);
                    same.swap(x, y);
                }
                let mut tried = Vec::new();
                for &b in same.iter().take(STAND_INS) {
                    let mut alt = other.clone();
                    alt.apply(b);
                    let alt_view = sees(&alt, observer, &names);
                    let equal = alt_view == *view_after;
                    tried.push((b, alt, alt_view));
                    if equal {
                        break;
                    }
                }
                seen.stand_ins += 1;
                let pick = tried.iter().position(|t| t.2 == *view_after).unwrap_or(0);
                tried.swap_remove(pick)
            };
            seen.worlds += 1;
            seen.compared(k, observer);
            let (full_real, full_alt) = (
                log_lines(state, *a, &afters[i], Observer::Omniscient),
                log_lines(&other, b, &alt, Observer::Omniscient),
            );
            if full_real != full_alt {
                seen.hidden_worlds += 1;
            }
            let (lines, alt_lines) = (
                log_lines(state, *a, &afters[i], observer),
                log_lines(&other, b, &alt, observer),
            );
            let leaked: Vec<&str> = if *view_after == alt_view {
                if lines == alt_lines {
                    Vec::new()
                } else {
                    vec!["(the whole line)"]
                }
            } else {
                let (visible, other_words) = (words(view_after), words(&alt_lines));
                words(&lines)
                    .into_iter()
                    .filter(|w| !other_words.contains(w) && !visible.contains(w))
                    .collect()
            };
            if !leaked.is_empty() {
                return Err(format!(
                    "{} is told `{}` of `{}` here, but `{}` of `{}` where only what it cannot see differs \
                     ({leaked:?} is nowhere in its view after the move)",
                    label(observer),
                    lines.trim_end(),
                    full_real.trim_end(),
                    alt_lines.trim_end(),
                    full_alt.trim_end(),
                ));
            }
        }
    }
    Ok(())
}

/// The card faces and backs the table's server gives `observer`'s page with this table
/// (`table`: [`live::table_json`] of it; by design and deck: [`Faces::unpainted`] names each
/// as the drawn faces would be). They are a function of that table and the seats' names
/// alone, so each distinct table is given its faces once.
fn faces_of(table: &str, names: &[String]) -> String {
    FACES.with(|faces| {
        let mut faces = faces.borrow_mut();
        let Some((faces, cache)) = faces.as_mut() else {
            return String::new();
        };
        let key = format!("{names:?}\n{table}");
        if let Some(done) = cache.get(&key) {
            return done.clone();
        }
        let view: serde_json::Value = serde_json::from_str(table).expect("the table's json");
        let mut page = serde_json::json!({ "view": view, "legal": [] });
        faces.annotate(&mut page, names, "t");
        let done = page["cards"].to_string();
        cache.insert(key, done.clone());
        done
    })
}

type FaceCache = (Rc<Faces>, HashMap<String, String>);

thread_local! {
    /// The faces of the game under test (each test runs on its own thread), with those
    /// already given to each table.
    static FACES: RefCell<Option<FaceCache>> = const { RefCell::new(None) };
}

fn with_faces<T>(game: &Game, run: impl FnOnce() -> T) -> T {
    FACES.with(|f| *f.borrow_mut() = Some((Rc::new(Faces::unpainted(game)), HashMap::new())));
    let out = run();
    FACES.with(|f| *f.borrow_mut() = None);
    out
}

fn data() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data"))
}

fn configs(players: &[usize], variants: &[&[(&str, &str)]]) -> Vec<Config> {
    let mut out = Vec::new();
    for &p in players {
        for v in variants {
            out.push(Config::with_variants(p, v));
        }
    }
    out
}

fn check(
    game: &Game,
    configs: Vec<Config>,
    games: u64,
    max_steps: usize,
    required: &[&'static str],
) -> Seen {
    check_steered(game, configs, games, max_steps, required, false)
}

/// [`check`], the moves played steered to the kinds played least so far if `steer`.
fn check_steered(
    game: &Game,
    configs: Vec<Config>,
    games: u64,
    max_steps: usize,
    required: &[&'static str],
    steer: bool,
) -> Seen {
    let seen = with_faces(game, || {
        with_engine(
            game,
            Check {
                configs,
                games,
                max_steps,
                required: required.to_vec(),
                kinds: Kinds::Engine,
                steer,
            },
        )
    })
    .unwrap_or_else(|e| panic!("{}: {e}", game.slug));
    assert!(seen.worlds > 0, "{}: {seen:?}", game.slug);
    seen
}

/// Capek's kinds of move: those of the default rules, and the variant's short-hand draw.
const CAPEK_KINDS: &[&str] = &[
    "buy",
    "chance",
    "discard to draw",
    "end turn",
    "keep bought card",
    "pay",
    "place research marker",
    "play set",
    "research bought card",
];

#[test]
fn capek_tells_no_seat_another_hand() {
    let game = load_game(data(), "capek-golems").unwrap();
    let mut seen = check(&game, configs(&[2], &[&[]]), 2, 300, CAPEK_KINDS);
    let short = [
        CAPEK_KINDS,
        &["short-hand draw", "skip short-hand draw"][..],
    ]
    .concat();
    let may = configs(&[2], &[&[("short-hand-draw", "may")]]);
    seen.add(check(&game, may, 2, 300, &short));
    // Cards dealt into a hand: different cards, the same to the other seats.
    assert!(seen.hidden_pairs > 0, "{seen:?}");
}

/// The Search's kinds of move. "wound another officer" follows a card that wounds several
/// officers (`wound` of 2 or more); the shipped A Shot in the Dark wounds one, as the rulebook
/// says ("remove any one police pawn"), so the walk plays a copy of the game whose Shot in the
/// Dark wounds two (a designer may write that), where every other kind is open too.
const SEARCH_KINDS: &[&str] = &[
    "canvass: reorder",
    "end turn",
    "move",
    "place a pawn",
    "play A Shot in the Dark",
    "play Anonymous in the Crowd",
    "play Call in Reinforcements",
    "play Canvassing the District",
    "play In Pursuit",
    "play Mistaken Identity",
    "play One Step Ahead",
    "play Questioning Witnesses",
    "play Set Up a Barricade",
    "play Take to the Sewers",
    "play a card for no effect",
    "wound another officer",
];

#[test]
fn the_search_tells_neither_side_the_other_s_cards_or_order() {
    let fixture = common::Fixture::with_games(&["the-search"]);
    fixture.edit(
        "the-search",
        "components.toml",
        "effect = \"wound-officer\", wound = 1",
        "effect = \"wound-officer\", wound = 2",
    );
    let game = load_game(fixture.data(), "the-search").unwrap();
    let seen = check_steered(&game, configs(&[2], &[&[]]), 4, 300, SEARCH_KINDS, true);
    // The police putting canvassed cards back in different orders: the same to the criminal.
    assert!(seen.hidden_pairs > 0, "{seen:?}");
}

#[test]
fn aether_tells_no_seat_the_tiles_behind_another_screen() {
    let game = load_game(data(), "aether").unwrap();
    let seen = check(
        &game,
        configs(&[2, 4], &[&[("setup", "long")]]),
        1,
        150,
        &["chance", "move"],
    );
    assert!(seen.hidden_pairs > 0, "{seen:?}");
}

#[test]
fn lua_aether_tells_no_seat_the_tiles_behind_another_screen() {
    let fixture = common::Fixture::with_games(&["aether"]);
    fixture.edit(
        "aether",
        "game.toml",
        "engine = \"aether\"",
        "engine = \"lua\"",
    );
    let script = common::repo().join("tests/fixtures/aether-lua/engine.lua");
    std::fs::copy(script, fixture.file("aether", "engine.lua")).unwrap();
    let game = load_game(fixture.data(), "aether").unwrap();
    let seen = check(&game, configs(&[2, 4], &[&[]]), 1, 120, &["chance", "move"]);
    assert!(seen.hidden_pairs > 0, "{seen:?}");
}

#[test]
fn the_scaffold_s_lua_game_tells_no_seat_another_hand() {
    let dir = tempfile::tempdir().unwrap();
    printplay::scaffold::new_game_with_engine(dir.path(), "my-game", "lua").unwrap();
    let game = load_game(dir.path(), "my-game").unwrap();
    let seen = check(&game, configs(&[2, 3], &[&[]]), 5, 150, &["move"]);
    assert!(seen.hidden_pairs > 0, "{seen:?}");
}

fn opts(seed: u64, bots: &[&str]) -> SimOptions {
    SimOptions {
        seed,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        ..Default::default()
    }
}

/// The Search, `replay --observer criminal`: the police's canvassing is told without the
/// order (it was "police: put back, top first: ..." 228 times in 60 games); the police is
/// told its own order.
#[test]
fn search_replay_hides_the_canvassed_order_from_the_criminal() {
    let game = load_game(data(), "the-search").unwrap();
    let o = opts(1, &["heuristic", "random"]);
    let (mut hidden, mut own) = (0, 0);
    for k in 0..30 {
        let criminal = replay(&game, &o, k, Some("criminal")).unwrap();
        for text in [criminal.text(), criminal.to_json()] {
            assert!(!text.contains("top first"), "game {k}:\n{text}");
        }
        hidden += criminal
            .steps
            .iter()
            .filter(|s| s.action.starts_with("police: put the top"))
            .count();
        let police = replay(&game, &o, k, Some("police")).unwrap();
        own += police
            .steps
            .iter()
            .filter(|s| s.action.starts_with("police: put back, top first: "))
            .count();
    }
    assert!(hidden > 0 && hidden == own, "{hidden} hidden, {own} own");
}

/// Aether, `replay --observer 1`: the other seats' draws are told without the tile.
#[test]
fn aether_replay_hides_the_other_seats_draws() {
    let game = load_game(data(), "aether").unwrap();
    let o = SimOptions {
        players: 3,
        ..opts(2, &["random"])
    };
    let yellow = replay(&game, &o, 0, Some("1")).unwrap();
    let mut own = 0;
    for s in yellow.steps.iter().filter(|s| s.by == "chance") {
        if s.action.starts_with("yellow draws") {
            own += 1;
            assert_ne!(s.action, "yellow draws a tile");
        } else {
            assert!(s.action.ends_with(" draws a tile"), "{}", s.action);
        }
    }
    assert!(own > 0);
    for hand in yellow
        .steps
        .iter()
        .flat_map(|s| &s.after.hands)
        .chain(&yellow.setup.hands)
    {
        assert!(hand.name.eq_ignore_ascii_case("yellow"), "{}", hand.name);
    }
}

/// Capek, `replay --observer 1` and `--observer 2`: a card drawn into the other hand is told
/// without the card, and the reshuffle of the discard pile into a new draw pile is named.
#[test]
fn capek_replay_hides_the_other_hand_and_names_the_reshuffle() {
    let game = load_game(data(), "capek-golems").unwrap();
    let o = opts(3, &["heuristic"]);
    let mut reshuffles = 0;
    for k in 0..4 {
        for (me, other) in [("1", "player 2"), ("2", "player 1")] {
            let r = replay(&game, &o, k, Some(me)).unwrap();
            for s in r.steps.iter().filter(|s| s.by == "chance") {
                if s.action.starts_with(&format!("{other} draws")) {
                    assert_eq!(s.action, format!("{other} draws a card"));
                }
            }
            reshuffles += r
                .steps
                .iter()
                .flat_map(|s| &s.events)
                .filter(|e| e.contains("shuffled into a new draw pile"))
                .count();
        }
    }
    assert!(reshuffles > 0, "a reshuffle in eight replays");
}

/// The CLI's `replay --observer` (text and JSON) is the library's.
#[test]
fn cli_replay_observer_shows_only_what_the_seat_sees() {
    let fixture = common::Fixture::with_games(&["the-search"]);
    for json in [false, true] {
        let mut args = vec![
            "replay",
            "the-search",
            "--seed",
            "1",
            "--bots",
            "heuristic,random",
            "--game",
            "3",
            "--observer",
            "criminal",
        ];
        if json {
            args.push("--json");
        }
        let run = fixture.run(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(!run.stdout.contains("top first"), "{}", run.stdout);
        assert!(!run.stdout.contains("police: hand"), "{}", run.stdout);
    }
}

/// `play` against bots: the person is never told a bot's tile, and `replay --moves` of the
/// saved game as the person's seat tells the same.
#[test]
fn play_tells_the_person_only_their_own_draws() {
    let fixture = common::Fixture::with_games(&["aether"]);
    let save = fixture.data().join("saved.toml");
    let run = common::run_with_input(
        fixture.data(),
        &[
            "play",
            "aether",
            "--seat",
            "1",
            "--bots",
            "random",
            "--seed",
            "5",
            "--save",
            save.to_str().unwrap(),
        ],
        &"1\n".repeat(400),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let draws = |text: &str| -> (usize, usize) {
        let lines: Vec<&str> = text.lines().filter(|l| l.contains(" * ")).collect();
        let mine = lines.iter().filter(|l| l.contains("yellow draws")).count();
        for l in lines.iter().filter(|l| !l.contains("yellow draws")) {
            assert!(l.ends_with(" draws a tile"), "{l}");
        }
        (mine, lines.len())
    };
    let (mine, all) = draws(&run.stdout);
    assert!(mine > 0 && all > mine, "{}", run.stdout);
    let replayed = fixture.run(&[
        "replay",
        "aether",
        "--moves",
        save.to_str().unwrap(),
        "--observer",
        "1",
    ]);
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    assert_eq!(draws(&replayed.stdout), (mine, all));
    let head = replayed.stdout.lines().next().unwrap_or_default();
    assert!(
        head.starts_with("aether with seed 5, 2 players; variants: ")
            && head.contains("setup=normal"),
        "{head}"
    );
    // Without --observer, a saved game replays as the person saw it; --omniscient shows all.
    let saved = save.to_str().unwrap();
    let default = fixture.run(&["replay", "aether", "--moves", saved]);
    assert_eq!(default.stdout, replayed.stdout);
    // A saved game replays as text only: --json is refused, not silently ignored.
    let json = fixture.run(&["replay", "aether", "--moves", saved, "--json"]);
    assert_eq!(json.code, 2, "{}", json.stdout);
    let all = fixture.run(&["replay", "aether", "--moves", saved, "--omniscient"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert!(
        all.stdout
            .lines()
            .any(|l| l.contains(" * ") && !l.contains("yellow") && !l.ends_with(" a tile")),
        "{}",
        all.stdout
    );
    assert!(
        !replayed.stdout.lines().any(|l| l.trim() == "red:"),
        "{}",
        replayed.stdout
    );
}

/// The rule has one way in: outside the engines themselves (src/games, src/engine), no code
/// asks a state for its words directly; everything that shows a game goes through
/// `engine::view`. A new output that called `action_name` or `observation` itself would show
/// every seat everything.
#[test]
fn only_the_view_module_asks_a_state_for_words() {
    const WORDS: [&str; 7] = [
        ".action_name(",
        ".move_name(",
        ".chance_name(",
        ".hidden_events(",
        ".observation(",
        ".public_view(",
        ".private_view(",
    ];
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("games") && !path.ends_with("engine") {
                    walk(&path, found);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (n, line) in text.lines().enumerate() {
                    if WORDS.iter().any(|w| line.contains(w)) {
                        found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(&common::repo().join("src"), &mut found);
    assert!(found.is_empty(), "{found:#?}");
}

/// The seat counts and ways of passing the turn each game is checked with at the free
/// table: every game at two seats, and at three and four seats the scaffold (the one with
/// every kind of component: decks, dice, pieces on mats and a board); both ways of passing
/// the turn.
fn free_configs(slug: &str) -> &'static [(usize, &'static str)] {
    match slug {
        "my-game" => &[(2, "free"), (3, "free"), (4, "seat-order")],
        _ => &[(2, "seat-order")],
    }
}

#[test]
fn the_free_table_tells_no_seat_another_hand_a_pile_order_or_a_face_down_card() {
    // Every shipped game at the free table, and the scaffold (mats, a board, a die).
    let (_dir, games) = common::shipped_and_scaffold_games();
    let mut by_seats: BTreeMap<usize, Seen> = BTreeMap::new();
    for game in &games {
        let dice = game
            .components
            .table
            .as_ref()
            .is_some_and(|t| !t.dice.is_empty());
        let pieces = game.components.pieces.iter().any(|p| p.count.0 > 0);
        let required: Vec<&'static str> = FREE_KINDS
            .iter()
            .copied()
            .filter(|k| dice || !FREE_DICE_KINDS.contains(k))
            .filter(|k| pieces || !FREE_PIECE_KINDS.contains(k))
            .collect();
        for &(n, turns) in free_configs(&game.slug) {
            let seen = with_faces(game, || {
                printplay::engine::free::with_table(
                    game,
                    true,
                    Check {
                        configs: vec![Config::with_variants(n, &[("turns", turns)])],
                        games: 2,
                        max_steps: 200,
                        required: required.clone(),
                        kinds: Kinds::Shape,
                        steer: true,
                    },
                )
            })
            .unwrap_or_else(|e| panic!("{}, {n} seats, turns {turns}: {e}", game.slug));
            by_seats.entry(n).or_default().add(seen);
        }
    }
    for n in 2..=4 {
        let seen = &by_seats[&n];
        // Every kind of the free table, at every seat count, for every observer...
        seen.every_kind_for_everyone(n, FREE_KINDS)
            .unwrap_or_else(|e| panic!("{n} seats: {e}"));
        // ...and no kind the list above does not name.
        let unlisted: Vec<&String> = seen
            .offered
            .iter()
            .filter(|k| !FREE_KINDS.contains(&k.as_str()))
            .collect();
        assert!(
            unlisted.is_empty(),
            "{n} seats: kinds not in FREE_KINDS: {unlisted:?}"
        );
        // Cards played face down or handed over: different cards, the same to the others.
        assert!(seen.hidden_pairs > 0, "{n} seats: {seen:?}");
        // Cards dealt or drawn from piles in another order, or handed over from a hand the
        // observer does not see: other cards, the same to those who do not see them.
        assert!(seen.hidden_worlds > 0, "{n} seats: {seen:?}");
        assert!(seen.stand_ins > 0, "{n} seats: {seen:?}");
    }
}

/// The case, through the table's own log and `replay --moves`: at a two-seat free
/// table, "deal 2 to each seat" and a card handed from one seat to the other are told to the
/// spectator without the cards (it was told "player 1 gets ..." and "give <card> to player 2"),
/// while each seat is still told its own cards.
#[test]
fn the_free_table_s_spectator_is_told_no_dealt_or_handed_card() {
    use printplay::play::{PERSON, Transcript};
    use printplay::serve::live::Next;
    let game = load_game(data(), "capek-golems").unwrap();
    let t = Transcript {
        game: game.slug.clone(),
        seed: 5,
        players: 2,
        free: true,
        variants: Default::default(),
        seats: vec![PERSON.into(), PERSON.into()],
        moves: Vec::new(),
    };
    let mut table = live::open(&game, t).unwrap();
    let pick = |table: &dyn live::Live, start: &str| {
        let Next::Person(p) = table.next() else {
            panic!("{:?}", table.next())
        };
        table
            .legal(p)
            .iter()
            .position(|m| m.starts_with(start))
            .unwrap_or_else(|| panic!("no `{start}...` in {:?}", table.legal(p)))
    };
    let deal = pick(table.as_ref(), "deal 2 cards from");
    table.play(deal).unwrap();
    let give = pick(table.as_ref(), "give ");
    table.play(give).unwrap();
    let last = |observer: Observer| table.log(observer).unwrap().to_vec();
    let (public, all) = (last(Observer::Public), last(Observer::Omniscient));
    assert_eq!(public[0].events, Vec::<String>::new(), "{public:?}");
    assert_eq!(all[0].events.len(), 2, "{all:?}");
    assert_eq!(public[1].action, "give a card to player 2", "{public:?}");
    assert_ne!(all[1].action, public[1].action);
    for seat in 0..2 {
        let mine = last(Observer::Seat(seat));
        assert_eq!(mine[0].events, vec![all[0].events[seat].clone()]);
        assert_eq!(
            mine[1].action, all[1].action,
            "both seats know the card handed over"
        );
    }
    // `replay --moves` of the two-person session shows what every seat knows: the public's.
    let fixture = common::Fixture::with_games(&["capek-golems"]);
    let saved = fixture.data().join("session.toml");
    std::fs::write(&saved, table.transcript().to_toml()).unwrap();
    let run = fixture.run(&["replay", "capek-golems", "--moves", saved.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("give a card to player 2"),
        "{}",
        run.stdout
    );
    for line in all[0].events.iter().chain([&all[1].action]) {
        assert!(
            !run.stdout.contains(line.as_str()),
            "`{line}` in\n{}",
            run.stdout
        );
    }
}
