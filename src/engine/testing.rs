//! A random-play invariant harness any engine can use in its tests: it plays many games with
//! uniformly random moves and checks, at every step, the properties every engine promises.

use rand::RngExt;

use super::{Config, Engine, State, Turn};

/// What a harness run saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Harness {
    pub games: u64,
    pub moves: u64,
    pub chance_events: u64,
}

/// How many random games to play, and how thoroughly.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub games: u64,
    pub seed: u64,
    /// Moves within which every game must end.
    pub cap: u32,
    /// The first this many games also get the costly checks (clone, determinize) at every
    /// step; the rest get the cheap ones.
    pub deep_games: u64,
}

/// Plays `plan.games` random games (seeded from the seed and the game index) and checks at
/// every step that:
/// - a non-terminal player node has legal moves and a chance node has outcomes summing to 1;
/// - a clone is indistinguishable from the original (every observation, the legal moves,
///   whose turn it is, the move count);
/// - [`State::determinize`] keeps the acting player's observation and legal moves, and
///   [`State::skip_determinize`] draws what it draws (these in the first `plan.deep_games`
///   games);
/// - [`State::random_action`] draws what `legal_actions` and the same generator would;
/// - `extra` holds (the engine's own conservation rules);
/// - the game ends within `cap` moves, and a finished game has a result per seat and, when it
///   has an end statistic `turns`, the same count as [`State::turns_played`].
///
/// The first violation is returned as an error naming the game and move.
pub fn random_play<E: Engine>(
    engine: &E,
    config: &Config,
    plan: Plan,
    extra: impl Fn(&E::State) -> Result<(), String>,
) -> Result<Harness, String> {
    let mut seen = Harness::default();
    let cap = plan.cap;
    for game in 0..plan.games {
        let deep = game < plan.deep_games;
        let mut rng = crate::simulate::game_rng(plan.seed, game);
        let mut s = engine.new_game(config, &mut rng)?;
        let at =
            |s: &E::State, what: String| format!("game {game}, move {}: {what}", s.moves_played());
        extra(&s).map_err(|e| at(&s, e))?;
        loop {
            if s.moves_played() > cap {
                return Err(at(&s, format!("not over within {cap} moves")));
            }
            let action = match s.turn() {
                Turn::Terminal => {
                    if s.returns().len() != s.num_players() {
                        return Err(at(&s, "a result is missing for some seat".into()));
                    }
                    // A report gives the length in turns and the end statistic `turns`
                    // side by side: they must count alike.
                    let stat = s.end_stats().into_iter().find(|(name, _)| *name == "turns");
                    if let (Some((_, stat)), Some(turns)) = (stat, s.turns_played())
                        && stat != f64::from(turns)
                    {
                        return Err(at(
                            &s,
                            format!("the end statistic `turns` is {stat}, turns played {turns}"),
                        ));
                    }
                    break;
                }
                Turn::Chance => {
                    let outcomes = s.chance_outcomes();
                    let total: f64 = outcomes.iter().map(|o| o.1).sum();
                    if outcomes.is_empty() || (total - 1.0).abs() > 1e-9 {
                        return Err(at(&s, format!("chance outcomes sum to {total}")));
                    }
                    seen.chance_events += 1;
                    s.sample_chance(&mut rng)
                }
                Turn::Player(p) => {
                    let legal = s.legal_actions();
                    if legal.is_empty() {
                        return Err(at(&s, format!("player {p} has no legal move")));
                    }
                    if deep {
                        same_as_clone(&s).map_err(|e| at(&s, e))?;
                        let mut skipped = rng.clone();
                        s.skip_determinize(p, &mut skipped);
                        let d = s.determinize(p, &mut rng);
                        if skipped != rng {
                            return Err(at(
                                &s,
                                "skip_determinize draws differently from determinize".into(),
                            ));
                        }
                        if d.observation(p) != s.observation(p) || d.legal_actions() != legal {
                            return Err(at(&s, "determinizing changed what the actor sees".into()));
                        }
                    }
                    seen.moves += 1;
                    let mut listed = rng.clone();
                    let expected = legal[listed.random_range(0..legal.len())];
                    let drawn = s.random_action(&mut rng);
                    if drawn != expected || rng != listed {
                        return Err(at(&s, "random_action disagrees with legal_actions".into()));
                    }
                    drawn
                }
            };
            s.apply(action);
            extra(&s).map_err(|e| at(&s, e))?;
        }
        seen.games += 1;
    }
    Ok(seen)
}

fn same_as_clone<S: State>(s: &S) -> Result<(), String> {
    let c = s.clone();
    let same = c.turn() == s.turn()
        && c.moves_played() == s.moves_played()
        && c.legal_actions() == s.legal_actions()
        && (0..s.num_players()).all(|p| c.observation(p) == s.observation(p));
    if same {
        Ok(())
    } else {
        Err("a clone differs from its original".into())
    }
}

/// What [`check_targets`] saw: player nodes and the moves whose targets it checked, and the
/// target kinds met (`cell`, `piece`, `card`, `zone`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TargetsSeen {
    pub nodes: u64,
    pub moves: u64,
    pub kinds: std::collections::BTreeSet<String>,
}

/// Plays `games` random games and checks, at every player node, where the legal moves act
/// ([`State::targets`]): every legal move names at least one target; no two moves name the
/// same list (clicks map back to exactly one move); every key reads back as its target; and
/// every cell a target or a placed piece names is a cell of the engine's [`State::board`]
/// (for a grid of cards, one of its cells; for a data board, one of `board_cells`).
pub fn check_targets<E: Engine>(
    engine: &E,
    config: &Config,
    games: u64,
    seed: u64,
    board_cells: &[String],
) -> Result<TargetsSeen, String> {
    use super::Target;
    let mut seen = TargetsSeen::default();
    for game in 0..games {
        let mut rng = crate::simulate::game_rng(seed, game);
        let mut s = engine.new_game(config, &mut rng)?;
        loop {
            let at = |s: &E::State, what: String| {
                format!("game {game}, move {}: {what}", s.moves_played())
            };
            match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let a = s.sample_chance(&mut rng);
                    s.apply(a);
                    continue;
                }
                Turn::Player(_) => {}
            }
            let board = s.board();
            let cells: Vec<String> = match &board {
                Some(b) if b.board.is_none() => b.cells.iter().map(|c| c.0.clone()).collect(),
                _ => board_cells.to_vec(),
            };
            let known = |c: &str| cells.is_empty() || cells.iter().any(|x| x == c);
            if let Some(b) = &board {
                for p in &b.pieces {
                    let cell = p.at.as_deref().unwrap_or("");
                    if !known(cell) || p.count == 0 {
                        return Err(at(&s, format!("a piece on no cell of the board: {p:?}")));
                    }
                }
            }
            let legal = s.legal_actions();
            let mut lists = std::collections::HashSet::new();
            for &a in &legal {
                let targets = s.targets(a);
                if targets.is_empty() {
                    return Err(at(&s, format!("`{}` names no target", s.action_name(a))));
                }
                for t in &targets {
                    let key = t.key();
                    if Target::parse(&key).as_ref() != Some(t) {
                        return Err(at(&s, format!("the key `{key}` reads back as another")));
                    }
                    let cell = match t {
                        Target::Cell(c) => Some(c.as_str()),
                        Target::Piece { at, .. } => at.as_deref(),
                        _ => None,
                    };
                    if let Some(c) = cell.filter(|c| !known(c)) {
                        return Err(at(&s, format!("`{key}` names `{c}`, no cell of the board")));
                    }
                    seen.kinds
                        .insert(key.split(':').next().unwrap_or("").to_string());
                }
                let keys: Vec<String> = targets.iter().map(Target::key).collect();
                if !lists.insert(keys.clone()) {
                    return Err(at(
                        &s,
                        format!(
                            "two moves click the same targets {keys:?} (one is `{}`)",
                            s.action_name(a)
                        ),
                    ));
                }
                seen.moves += 1;
            }
            seen.nodes += 1;
            let a = legal[rng.random_range(0..legal.len())];
            s.apply(a);
        }
    }
    Ok(seen)
}
