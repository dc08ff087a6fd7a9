//! Aether's logical invariants: the board is playable at every player count and setup.

use std::collections::{BTreeMap, BTreeSet};

use super::rules::{
    AETHER_TILE, Budget, ELEMENT_GROUP, ELEMENT_TILE, ELEMENTAL, PLAYER_GROUP, Rules, Setup,
    beats_pairs, neighbour_table, param_strs, team_seats, the_board,
};
use crate::diag::Problem;
use crate::diag::place::{in_components, rule_problem};
use crate::model::{Board, Game};

const RULE_BAG: &str = "The bag holds enough element tiles for the setup fill, every starting hand, \
     one tile for every empty hex and one more hand for a swap (rulebook: Alkuvalmistelut \
     (Setup), Pelivuoro (Turn), Laattojen vaihtaminen (Swapping tiles))";
const RULE_AETHER_ONCE: &str = "Each aether tile sits once on the board, on an aether position \
     (rulebook: Alkuvalmistelut (Setup) 3)";
const RULE_CONNECTED: &str = "The board is one connected area of hexes (rulebook: Elementaalit (Elementals), touching tiles)";
const RULE_AETHER_REACHABLE: &str = "Every aether tile borders a hex that starts empty, so an \
     elemental can stand beside it (rulebook: Aether-laatat (Aether tiles))";
const RULE_ELEMENTALS: &str = "Each player takes 14/11/9 elementals of one colour for 2/3/4 \
     players (rulebook: Alkuvalmistelut (Setup) 2)";
const RULE_BEATS: &str = "Every element has exactly one opposing element that weakens it, and \
     each element weakens exactly one other (rulebook: Vastaelementit (Opposing elements))";
const RULE_TEAMS: &str = "In the team variant the first and third player play against the \
     second and fourth: the teams split the seats (rulebook: Joukkuemuunnelma (Team variant))";
const RULE_FILL: &str = "The setups fill grey hexes (normal game) or light-grey hexes (long \
     game) with random tiles (rulebook: Alkuvalmistelut (Setup) 4)";
const RULE_HAND: &str =
    "Each player holds four element tiles behind the screen (rulebook: Alkuvalmistelut (Setup) 2)";

/// Every logical problem with Aether's data; empty when the game is playable.
pub fn check(game: &Game) -> Vec<Problem> {
    let board = match the_board(game) {
        Ok(b) => b,
        Err(e) => return vec![rule_problem(game, RULE_BAG, Some("board"), e)],
    };
    let mut out = Vec::new();
    out.extend(check_params(game, board));
    out.extend(check_aether_tiles(game, board));
    out.extend(check_connected(game, board));
    if !out.is_empty() {
        return out;
    }
    match Rules::from_model(game) {
        Ok(rules) => {
            out.extend(check_reachable(game, board, &rules));
            out.extend(check_budget(game, &rules));
            out.extend(check_elementals(game, &rules));
        }
        Err(e) => out.push(Problem::data(e).in_file(&game.game_file)),
    }
    out
}

/// Parameters the rules read are well formed and name things that exist.
fn check_params(game: &Game, board: &Board) -> Vec<Problem> {
    let mut out = Vec::new();
    match game.param_int("hand_size") {
        Ok(n) if n >= 1 => {}
        Ok(n) => out.push(rule_problem(
            game,
            RULE_HAND,
            Some("hand_size"),
            format!("`hand_size` is {n}; a player needs at least one tile"),
        )),
        Err(e) => out.push(rule_problem(game, RULE_HAND, Some("hand_size"), e)),
    }
    let counts =
        usize::from(game.info.players.max).saturating_sub(usize::from(game.info.players.min)) + 1;
    match game.param_ints("elementals_per_player") {
        Ok(list) if list.len() == counts && list.iter().all(|n| (0..255).contains(n)) => {}
        Ok(list) => out.push(rule_problem(
            game,
            RULE_ELEMENTALS,
            Some("elementals_per_player"),
            format!(
                "`elementals_per_player` lists {list:?}: one count from 0 to 254 for each of {} to {} players",
                game.info.players.min, game.info.players.max
            ),
        )),
        Err(e) => out.push(rule_problem(game, RULE_ELEMENTALS, Some("elementals_per_player"), e)),
    }
    out.extend(check_beats(game));
    out.extend(check_teams(game));
    out.extend(check_fill(game, board));
    out
}

fn check_beats(game: &Game) -> Vec<Problem> {
    let problem = |msg: String| rule_problem(game, RULE_BEATS, Some("beats"), msg);
    let pairs = match beats_pairs(game) {
        Ok(p) => p,
        Err(e) => return vec![problem(e)],
    };
    let elements: BTreeSet<String> = game
        .symbols_in(ELEMENT_GROUP)
        .map(|s| s.id.get_ref().clone())
        .collect();
    let mut out = Vec::new();
    for id in pairs.iter().flat_map(|(w, l)| [w, l]) {
        if !elements.contains(id) {
            out.push(problem(format!(
                "`{id}` is not an element (group `{ELEMENT_GROUP}`)"
            )));
        }
    }
    let winners: Vec<&String> = pairs.iter().map(|(w, _)| w).collect();
    let losers: Vec<&String> = pairs.iter().map(|(_, l)| l).collect();
    for e in &elements {
        let beats = winners.iter().filter(|w| **w == e).count();
        let beaten = losers.iter().filter(|l| **l == e).count();
        if beats != 1 || beaten != 1 {
            out.push(problem(format!(
                "`{e}` weakens {beats} element(s) and is weakened by {beaten}; both must be 1"
            )));
        }
    }
    out
}

fn check_teams(game: &Game) -> Vec<Problem> {
    let problem = |msg: String| rule_problem(game, RULE_TEAMS, Some("teams"), msg);
    let seats = match (team_seats(game), game.param_int("team_players")) {
        (Ok(s), Ok(n)) => (s, n),
        (Err(e), _) | (_, Err(e)) => return vec![problem(e)],
    };
    let (teams, players) = seats;
    if players < i64::from(game.info.players.min) || players > i64::from(game.info.players.max) {
        return vec![problem(format!(
            "the team variant is for {players} players, outside {}..{}",
            game.info.players.min, game.info.players.max
        ))];
    }
    let mut listed: Vec<i64> = teams.iter().flatten().copied().collect();
    listed.sort();
    let wanted: Vec<i64> = (1..=players).collect();
    if listed != wanted || teams.len() < 2 {
        return vec![problem(format!(
            "teams {teams:?} must split seats 1 to {players} into at least two teams, each seat once"
        ))];
    }
    Vec::new()
}

fn check_fill(game: &Game, board: &Board) -> Vec<Problem> {
    let mut out = Vec::new();
    let kinds: BTreeSet<&str> = game
        .symbols_in(board.cell_group().unwrap_or_default())
        .map(|s| s.id.get_ref().as_str())
        .collect();
    for setup in Setup::ALL {
        let param = setup.fill_param();
        match param_strs(game, param) {
            Ok(fill) => {
                for k in fill.iter().filter(|k| !kinds.contains(k.as_str())) {
                    out.push(rule_problem(
                        game,
                        RULE_FILL,
                        Some(param),
                        format!(
                            "`{k}` is not a cell kind of group `{}`",
                            board.cell_group().unwrap_or_default()
                        ),
                    ));
                }
            }
            Err(e) => out.push(rule_problem(game, RULE_FILL, Some(param), e)),
        }
    }
    match game.param_str("aether_cell") {
        Ok(k) if kinds.contains(k) => {}
        Ok(k) => out.push(rule_problem(
            game,
            RULE_AETHER_ONCE,
            Some("aether_cell"),
            format!(
                "`{k}` is not a cell kind of group `{}`",
                board.cell_group().unwrap_or_default()
            ),
        )),
        Err(e) => out.push(rule_problem(game, RULE_AETHER_ONCE, Some("aether_cell"), e)),
    }
    out
}

/// Every aether tile is on the board exactly once, on an aether position with a value.
fn check_aether_tiles(game: &Game, board: &Board) -> Vec<Problem> {
    let Ok(aether_kind) = game.param_str("aether_cell") else {
        return Vec::new(); // reported by check_fill
    };
    let mut out = Vec::new();
    let mut placed: BTreeMap<&str, usize> = BTreeMap::new();
    for cell in board.hex_cells() {
        let here = |msg: String| {
            in_components(game, cell.kind.span(), msg).rule(RULE_AETHER_ONCE.to_string())
        };
        let is_aether = cell.kind.get_ref() == aether_kind;
        let tile = cell
            .piece
            .as_deref()
            .and_then(|id| game.piece(id))
            .filter(|p| p.kind == AETHER_TILE);
        match (is_aether, &cell.piece, tile) {
            (true, None, _) => out.push(here(format!(
                "aether position q={}, r={} holds no aether tile",
                cell.q, cell.r
            ))),
            (true, Some(id), None) => out.push(here(format!(
                "aether position q={}, r={} holds `{id}`, which is not an `{AETHER_TILE}` piece",
                cell.q, cell.r
            ))),
            (false, Some(id), _) => out.push(here(format!(
                "hex q={}, r={} is `{}` but holds `{id}`; only aether positions hold a piece",
                cell.q,
                cell.r,
                cell.kind.get_ref()
            ))),
            (true, Some(id), Some(_)) => *placed.entry(id.as_str()).or_default() += 1,
            (false, None, _) => {}
        }
    }
    for piece in game.pieces_of_kind(AETHER_TILE) {
        let id = piece.id.get_ref().as_str();
        let times = placed.get(id).copied().unwrap_or(0);
        let on_board = usize::try_from(piece.count.0).unwrap_or(usize::MAX);
        if times != on_board {
            out.push(
                in_components(
                    game,
                    piece.id.span(),
                    format!(
                        "aether tile `{id}` (count {on_board}) sits on the board {times} time(s)"
                    ),
                )
                .rule(RULE_AETHER_ONCE),
            );
        }
        if piece.int("value").is_none_or(|v| v < 0) {
            out.push(
                in_components(
                    game,
                    piece.id.span(),
                    format!("aether tile `{id}` needs a `value` of 0 or more points"),
                )
                .rule("Every aether tile shows its point value (rulebook: Aether-laatat (Aether tiles))"),
            );
        }
    }
    out
}

fn check_connected(game: &Game, board: &Board) -> Vec<Problem> {
    if board.hex_cells().is_empty() {
        return vec![
            in_components(game, board.id.span(), "the board has no hexes").rule(RULE_CONNECTED),
        ];
    }
    let neighbours = neighbour_table(board);
    let mut seen = vec![false; board.hex_cells().len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(c) = stack.pop() {
        for &n in &neighbours[c] {
            if !seen[n] {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    let cut_off: Vec<String> = board
        .hex_cells()
        .iter()
        .zip(&seen)
        .filter(|(_, s)| !**s)
        .map(|(c, _)| format!("q={}, r={}", c.q, c.r))
        .collect();
    if cut_off.is_empty() {
        return Vec::new();
    }
    let first = seen.iter().position(|s| !s).unwrap_or(0);
    vec![
        in_components(
            game,
            board.hex_cells()[first].kind.span(),
            format!(
                "{} hex(es) are cut off from the rest of the board: {}",
                cut_off.len(),
                cut_off.join("; ")
            ),
        )
        .rule(RULE_CONNECTED),
    ]
}

/// Each aether tile has a neighbour that starts empty in every setup.
fn check_reachable(game: &Game, board: &Board, rules: &Rules) -> Vec<Problem> {
    let mut out = Vec::new();
    for setup in Setup::ALL {
        let tables = rules.board(setup);
        for tile in &tables.aether {
            let open = tables
                .neighbours_of(tile.cell as usize)
                .any(|n| tables.roles[n] == super::rules::CellRole::Playable);
            if !open {
                let cell = &board.hex_cells()[tile.cell as usize];
                out.push(
                    in_components(
                        game,
                        cell.kind.span(),
                        format!(
                            "in the {} game, aether tile `{}` at q={}, r={} has no empty neighbour: nobody can ever win it",
                            setup.name(),
                            tile.piece,
                            cell.q,
                            cell.r
                        ),
                    )
                    .rule(RULE_AETHER_REACHABLE),
                );
            }
        }
    }
    out
}

/// The bag suffices at every player count in both setups.
fn check_budget(game: &Game, rules: &Rules) -> Vec<Problem> {
    let total = rules.total_tiles();
    let mut out = Vec::new();
    for setup in Setup::ALL {
        let tables = rules.board(setup);
        for players in rules.min_players..=rules.max_players {
            let budget = Budget::of(
                tables.count(super::rules::CellRole::Filled),
                tables.count(super::rules::CellRole::Playable),
                players,
                usize::from(rules.hand_size),
            );
            if budget.needed() > total {
                out.push(rule_problem(
                    game,
                    RULE_BAG,
                    Some("hand_size"),
                    format!(
                        "{} game, {players} players: {} tiles needed ({} setup fill + {} in hands + {} empty hexes + {} for a swap) but the game has {total}",
                        setup.name(),
                        budget.needed(),
                        budget.fill,
                        budget.hands,
                        budget.empties,
                        budget.swap
                    ),
                ));
            }
        }
    }
    out
}

/// Every player count has an elemental count, and each colour has that many pieces.
fn check_elementals(game: &Game, rules: &Rules) -> Vec<Problem> {
    let mut out = Vec::new();
    let problem =
        |msg: String| rule_problem(game, RULE_ELEMENTALS, Some("elementals_per_player"), msg);
    if rules.colours.len() < rules.max_players {
        out.push(problem(format!(
            "{} player colours (group `{PLAYER_GROUP}`) for up to {} players",
            rules.colours.len(),
            rules.max_players
        )));
    }
    for players in rules.min_players..=rules.max_players {
        let Some(need) = rules.elementals_for(players) else {
            out.push(problem(format!("no elemental count for {players} players")));
            continue;
        };
        for (colour, &have) in rules.colours.iter().zip(&rules.elementals_in_box) {
            if u32::from(need) > have {
                out.push(problem(format!(
                    "{players} players take {need} elementals each, but colour `{colour}` has {have} `{ELEMENTAL}` pieces"
                )));
            }
        }
    }
    if rules.total_tiles() == 0 {
        out.push(problem(format!("the game has no `{ELEMENT_TILE}` pieces")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::aether::tests::{load, load_with};

    fn messages(game: &Game) -> Vec<String> {
        check(game).iter().map(|p| p.to_string()).collect()
    }

    fn assert_fails(game: &Game, rule_part: &str, msg_part: &str) {
        let problems = check(game);
        assert!(
            problems.iter().any(|p| p.message.contains(msg_part)
                && p.rule.as_deref().is_some_and(|r| r.contains(rule_part))),
            "expected a problem with rule containing {rule_part:?} and message {msg_part:?}; got {:#?}",
            messages(game)
        );
    }

    #[test]
    fn shipped_data_is_playable() {
        assert_eq!(messages(&load()), Vec::<String>::new());
    }

    #[test]
    fn small_bag_fails_for_the_long_four_player_game() {
        // 92 tiles become 4 x 16 = 64: the long game at 4 players needs 91.
        let g = load_with(&[("count = 23", "count = 16")]);
        assert_fails(
            &g,
            "Laattojen vaihtaminen",
            "long game, 4 players: 91 tiles needed",
        );
    }

    #[test]
    fn large_hand_fails_the_budget() {
        let g = load_with(&[(
            "[params.hand_size]\nvalue = 4",
            "[params.hand_size]\nvalue = 10",
        )]);
        assert_fails(
            &g,
            "Alkuvalmistelut",
            "long game, 4 players: 121 tiles needed",
        );
    }

    #[test]
    fn zero_hand_fails() {
        let g = load_with(&[(
            "[params.hand_size]\nvalue = 4",
            "[params.hand_size]\nvalue = 0",
        )]);
        assert_fails(&g, "four element tiles", "at least one tile");
    }

    #[test]
    fn aether_tile_missing_from_board() {
        let g = load_with(&[(r#"piece = "aether-14""#, r#"piece = "aether-13""#)]);
        assert_fails(
            &g,
            "Alkuvalmistelut (Setup) 3",
            "`aether-14` (count 1) sits on the board 0 time(s)",
        );
        assert_fails(
            &g,
            "Alkuvalmistelut (Setup) 3",
            "`aether-13` (count 1) sits on the board 2 time(s)",
        );
    }

    #[test]
    fn aether_position_without_tile() {
        let g = load_with(&[(r#", piece = "aether-14""#, "")]);
        assert_fails(&g, "Alkuvalmistelut (Setup) 3", "holds no aether tile");
    }

    #[test]
    fn piece_on_a_plain_hex() {
        let g = load_with(&[(
            r#"{ q = 1, r = -4, kind = "empty" }"#,
            r#"{ q = 1, r = -4, kind = "empty", piece = "aether-1" }"#,
        )]);
        assert_fails(
            &g,
            "Alkuvalmistelut (Setup) 3",
            "only aether positions hold a piece",
        );
    }

    #[test]
    fn disconnected_board() {
        let g = load_with(&[(
            r#"{ q = 1, r = -4, kind = "empty" }"#,
            r#"{ q = 9, r = -9, kind = "empty" }"#,
        )]);
        assert_fails(
            &g,
            "connected",
            "cut off from the rest of the board: q=9, r=-9",
        );
    }

    #[test]
    fn walled_in_aether_tile() {
        // aether-1 at (0,-4) touches the empty (1,-4), (-1,-4) and (-1,-3): make all grey.
        let g = load_with(&[
            (
                r#"{ q = 1, r = -4, kind = "empty" }"#,
                r#"{ q = 1, r = -4, kind = "light-grey" }"#,
            ),
            (
                r#"{ q = -1, r = -4, kind = "empty" }"#,
                r#"{ q = -1, r = -4, kind = "light-grey" }"#,
            ),
            (
                r#"{ q = -1, r = -3, kind = "empty" }"#,
                r#"{ q = -1, r = -3, kind = "light-grey" }"#,
            ),
        ]);
        assert_fails(
            &g,
            "Aether-laatat",
            "aether tile `aether-1` at q=0, r=-4 has no empty neighbour",
        );
    }

    #[test]
    fn too_few_elementals_of_a_colour() {
        let g = load_with(&[("value = [14, 11, 9]", "value = [15, 11, 9]")]);
        assert_fails(
            &g,
            "14/11/9",
            "2 players take 15 elementals each, but colour `yellow` has 14",
        );
    }

    #[test]
    fn elemental_counts_for_every_player_count() {
        let g = load_with(&[("value = [14, 11, 9]", "value = [14, 11]")]);
        assert_fails(
            &g,
            "14/11/9",
            "lists [14, 11]: one count from 0 to 254 for each of 2 to 4 players",
        );
    }

    #[test]
    fn broken_element_cycle() {
        let g = load_with(&[(r#"["air", "water"]"#, r#"["air", "fire"]"#)]);
        assert_fails(
            &g,
            "Vastaelementit",
            "`water` weakens 1 element(s) and is weakened by 0",
        );
        assert_fails(
            &g,
            "Vastaelementit",
            "`fire` weakens 1 element(s) and is weakened by 2",
        );
    }

    #[test]
    fn unknown_element_in_cycle() {
        let g = load_with(&[(r#"["air", "water"]"#, r#"["aether", "water"]"#)]);
        assert_fails(&g, "Vastaelementit", "`aether` is not an element");
    }

    #[test]
    fn teams_must_split_the_seats() {
        let g = load_with(&[("value = [[1, 3], [2, 4]]", "value = [[1, 3], [3, 4]]")]);
        assert_fails(&g, "Joukkuemuunnelma", "each seat once");
    }

    #[test]
    fn the_filled_hexes_are_the_two_greys_the_book_names() {
        // Alkuvalmistelut 4 names only "harmaiden kuusikulmioiden" (normal game: every grey
        // hex) and "vaaleanharmaiden kuusikulmioiden" (long game: only the light-grey ones).
        let game = load();
        assert_eq!(
            param_strs(&game, "normal_fill").unwrap(),
            ["grey", "light-grey"]
        );
        assert_eq!(param_strs(&game, "long_fill").unwrap(), ["light-grey"]);
        let grey = game.symbol("grey").expect("grey hexes");
        assert_eq!(
            grey.names.get("fi").map(String::as_str),
            Some("harmaa kuusikulmio")
        );
        // Which grey hexes are not light grey is our reading, not printed.
        assert_ne!(grey.source.as_ref().map(|s| s.kind()), Some("printed"));
        assert!(game.symbol("dark-grey").is_none());
    }

    #[test]
    fn fill_names_cell_kinds() {
        let g = load_with(&[(r#"value = ["light-grey"]"#, r#"value = ["pale-grey"]"#)]);
        assert_fails(
            &g,
            "Alkuvalmistelut (Setup) 4",
            "`pale-grey` is not a cell kind",
        );
    }
}
