//! Every game accounted for: `cards_of` says which plays were for no effect and may name only
//! the data's designs, once a move; `tune` counts games stopped at the move cap by a stated
//! rule and names no best on a budget too small to tell values apart; every run keeps its
//! own report page, listed on an index.

mod common;

use std::path::Path;

use common::Fixture;
use printplay::scaffold::new_game_with_engine;

const SLUG: &str = "tutorial";

/// The tutorial Lua game in a data folder of its own.
fn tutorial() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    new_game_with_engine(dir.path(), SLUG, "lua").expect("scaffold");
    Fixture { dir }
}

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_lua_cards_of_naming_an_unknown_id_or_a_card_twice_is_a_contract_error_at_its_line() {
    for (to, says) in [
        (
            "return { \"no-such-card\" }",
            "\"no-such-card\", which is no design",
        ),
        (
            "return { designs[action].id, { id = designs[action].id, effect = false } }",
            "twice for one move",
        ),
        ("return { 7 }", "gave 7 as card 1"),
    ] {
        let fixture = tutorial();
        let line = fixture.edit(
            SLUG,
            "engine.lua",
            "function game.cards_of(",
            "function game.cards_of(",
        );
        fixture.edit(SLUG, "engine.lua", "return { designs[action].id }", to);
        let run = fixture.run(&["simulate", SLUG, "--games", "4", "--cards", "--no-charts"]);
        assert_eq!(run.code, 1, "{to}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(&format!("engine.lua:{line}")) && run.stderr.contains(says),
            "{to}: {}",
            run.stderr
        );
        assert!(!run.stdout.contains("cards (win rate"), "{}", run.stdout);
    }
    // The new form is accepted: a card discarded for no effect is counted apart.
    let fixture = tutorial();
    fixture.edit(
        SLUG,
        "engine.lua",
        "return { designs[action].id }",
        "if designs[action].fields.value == 1 then return { { id = designs[action].id, effect = false } } end\n  return { designs[action].id }",
    );
    let out = fixture.data().join("run.json");
    let run = fixture.run(&[
        "simulate",
        SLUG,
        "--games",
        "20",
        "--cards",
        "--no-charts",
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&out);
    let rows = v["runs"][0]["cards"].as_array().unwrap();
    let low = rows.iter().find(|r| r["id"] == "sun-low").unwrap();
    assert_eq!(low["times"], 0, "{low}");
    assert!(low["dead"].as_u64().unwrap() > 0, "{low}");
    assert!(
        low["difference"].is_null(),
        "a design never played for its effect compares nothing: {low}"
    );
    assert!(
        run.stdout.contains("discarded a card for no effect"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_searchs_plays_for_no_effect_are_counted_apart() {
    let fixture = Fixture::with_games(&["the-search"]);
    let out = fixture.data().join("run.json");
    let run = fixture.run(&[
        "simulate",
        "the-search",
        "--games",
        "30",
        "--cards",
        "--no-charts",
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&out);
    let run0 = &v["runs"][0];
    let rows = run0["cards"].as_array().unwrap();
    let dead: u64 = rows.iter().map(|r| r["dead"].as_u64().unwrap()).sum();
    // Every play the engine calls "for no effect" is a dead play of some design, and no other.
    let no_effect = run0["stats"]["actions"]["play a card for no effect"]
        .as_u64()
        .unwrap();
    assert!(no_effect > 0);
    assert_eq!(dead, no_effect);
    let plays: u64 = run0["stats"]["actions"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| {
            !matches!(
                k.as_str(),
                "place a pawn" | "move" | "canvass: reorder" | "wound another officer" | "end turn"
            )
        })
        .map(|(_, n)| n.as_u64().unwrap())
        .sum();
    let times: u64 = rows.iter().map(|r| r["times"].as_u64().unwrap()).sum();
    assert_eq!(
        times + dead,
        plays,
        "every card play is counted once, as effect or dead"
    );
    for name in [
        "Take to the Sewers",
        "Call in Reinforcements",
        "One Step Ahead",
    ] {
        let r = rows.iter().find(|r| r["name"] == name).unwrap();
        assert!(r["dead"].as_u64().unwrap() > 0, "{r}");
    }
    assert!(run.stdout.contains("dead"), "{}", run.stdout);
}

/// A game whose length is set by a parameter: after every move a toss ends it with chance
/// `stop`. With a cap of 10 moves, `stop=0.05` stops 63 % of its games at the cap, and its
/// finished games (1 to 9 moves) average 4.66 moves.
fn walk() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = dir.path().join("walk");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(
        game.join("game.toml"),
        r#"[game]
name = "Walk"
summary = "Each move may be the last."
players = { min = 2, max = 2 }
designer = "printplay tests"
engine = "lua"

[params.stop]
type = "number"
min = 0
max = 1
value = 0.5
doc = "The chance that a move ends the game."
"#,
    )
    .unwrap();
    std::fs::write(
        game.join("components.toml"),
        "[[piece]]\nid = \"pawn\"\nname = \"Pawn\"\nkind = \"pawn\"\ncount = 1\nshape = \"circle\"\nsize_mm = 20\n",
    )
    .unwrap();
    std::fs::write(
        game.join("engine.lua"),
        r#"local game = {}
local STOP = model.params.stop.value

function game.setup(config, rng)
  return { players = config.players, current = 1, tossing = false, over = false }
end

function game.current_player(state)
  if state.over then
    return nil
  end
  if state.tossing then
    return "chance"
  end
  return state.current
end

function game.legal_actions(state)
  return { 1 }
end

function game.chance_outcomes(state)
  return { { 1, STOP }, { 2, 1 - STOP } }
end

function game.apply(state, action)
  if not state.tossing then
    state.tossing = true
  elseif action == 1 then
    state.over = true
  else
    state.tossing = false
    state.current = 3 - state.current
  end
end

function game.returns(state)
  return state.current == 1 and { 1, 0 } or { 0, 1 }
end

function game.action_name(state, action)
  return "a step"
end

function game.observation(state, seat)
  return "walking"
end

return game
"#,
    )
    .unwrap();
    Fixture { dir }
}

#[test]
fn tune_leaves_a_value_with_many_games_stopped_at_the_cap_out_of_best() {
    let fixture = walk();
    let out = fixture.data().join("tune.json");
    let run = fixture.run(&[
        "tune",
        "walk",
        "--params",
        "stop=0.05,0.9",
        "--target",
        "length=4.66",
        "--budget",
        "2000",
        "--max-moves",
        "10",
        "--no-report",
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&out);
    let slow = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["values"]["stop"] == "0.05")
        .unwrap();
    // Its mean over the finished games is on target: without the rule it would be named.
    assert_eq!(slow["supported"], true, "{slow}");
    let (games, stopped) = (
        slow["games"].as_u64().unwrap(),
        slow["stopped"].as_u64().unwrap(),
    );
    assert!(stopped * 2 > games, "{slow}");
    assert_eq!(
        slow["rests_on"].as_u64().unwrap(),
        games - stopped,
        "{slow}"
    );
    assert_eq!(slow["eligible"], false, "{slow}");
    assert!(v["best"].is_null(), "{}", run.stdout);
    assert!(
        run.stdout.contains("is not eligible to be named best"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("stopped at the 10-move cap"),
        "{}",
        run.stdout
    );
    assert_eq!(v["played"].as_u64().unwrap(), 2000);
}

#[test]
fn tune_on_a_budget_too_small_names_no_best_and_says_what_would_do() {
    let fixture = Fixture::with_folder(&common::repo().join("tests/fixtures/coin"), "coin");
    let out = fixture.data().join("tune.json");
    let run = fixture.run(&[
        "tune",
        "coin",
        "--params",
        "handicap=0..1:0.1",
        "--budget",
        "1",
        "--no-report",
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&out);
    assert!(v["best"].is_null(), "{}", run.stdout);
    assert!(run.stdout.contains("budget is too small"), "{}", run.stdout);
    let needed = v["budget_needed"].as_u64().expect("a budget that would do");
    assert!(needed > 1000, "{needed}");
    assert!(
        run.stdout.contains(&format!("--budget {needed}")),
        "{}",
        run.stdout
    );
    // The header says the games played (one per value), not the budget.
    assert_eq!(v["played"], 11);
    assert!(
        run.stdout.contains("11 games played (budget 1)"),
        "{}",
        run.stdout
    );
    // The budget it names is enough: a best is named there.
    let run = fixture.run(&[
        "tune",
        "coin",
        "--params",
        "handicap=0..1:0.1",
        "--budget",
        &needed.to_string(),
        "--no-report",
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = json(&out);
    assert!(!v["best"].is_null(), "{}", run.stdout);
}

#[test]
fn every_run_keeps_its_page_and_the_index_lists_them() {
    let fixture = Fixture::with_folder(&common::repo().join("tests/fixtures/coin"), "coin");
    let out = fixture.data().join("out");
    let o = out.to_str().unwrap();
    let sim = out.join("coin").join("sim");
    let simulate = fixture.run(&["simulate", "coin", "--games", "10", "--out", o]);
    assert_eq!(simulate.code, 0, "{}", simulate.stderr);
    let tune = fixture.run(&[
        "tune",
        "coin",
        "--params",
        "handicap=0,1",
        "--budget",
        "20",
        "--out",
        o,
    ]);
    assert_eq!(tune.code, 0, "{}", tune.stderr);
    let refused = fixture.run(&["simulate", "coin", "--games", "0", "--cards", "--out", o]);
    assert_eq!(refused.code, 2);
    let pages: Vec<String> = std::fs::read_dir(&sim)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".html") && n != "index.html" && n != "report.html")
        .collect();
    assert_eq!(pages.len(), 2, "{pages:?}");
    let index = std::fs::read_to_string(sim.join("index.html")).unwrap();
    for p in &pages {
        assert!(index.contains(&format!("href=\"{p}\"")), "{p} in {index}");
    }
    assert!(
        index.contains("printplay simulate coin --games 10"),
        "{index}"
    );
    assert!(index.contains("printplay tune coin"), "{index}");
    // The latest run's page is report.html too.
    let latest = std::fs::read_to_string(sim.join("report.html")).unwrap();
    assert!(
        latest.contains("tuning report"),
        "report.html is the latest run's page"
    );
    // Every run's charts are listed; the charts beside report.html are the latest run's.
    let runs: serde_json::Value = json(&sim.join("runs.json"));
    for run in runs.as_array().unwrap() {
        let id = run["id"].as_str().unwrap();
        for e in std::fs::read_dir(sim.join(id)).into_iter().flatten() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(
                index.contains(&format!("href=\"{id}/{name}\"")),
                "{name} unlisted"
            );
        }
    }
    let simulated = runs
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["command"].as_str().unwrap().contains("simulate"))
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The same run again writes the same page and the same index, byte for byte, and its
    // charts (only its) beside report.html.
    let before = std::fs::read(sim.join("index.html")).unwrap();
    let again = fixture.run(&["simulate", "coin", "--games", "10", "--out", o]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        std::fs::read(sim.join("index.html")).unwrap() == before,
        "the index changed"
    );
    let mut latest: Vec<String> = std::fs::read_dir(&sim)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    latest.sort();
    assert_eq!(latest, ["lengths.svg", "win-rates.svg"]);
    for name in &latest {
        assert!(
            std::fs::read(sim.join(name)).unwrap()
                == std::fs::read(sim.join(&simulated).join(name)).unwrap(),
            "{name} is the latest run's"
        );
    }
    // No page shows a backtick.
    for e in std::fs::read_dir(&sim).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "html") {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(!text.contains('`'), "{}", path.display());
        }
    }
}
