//! What a seat must never receive at a table: shared by the HTTP/WebSocket test
//! (`tests/table.rs`) and the browser test (`tests/table_browser.rs`).

use std::path::Path;

use printplay::engine::view::Observer;
use printplay::play::Transcript;

/// What `observer` must never receive at a table whose full game is `t` (of the game in
/// `data`): at every point, the other seats' private views (a hand, the cards a seat knows on
/// its pile) where the observer's own view does not show the same line, and each move or
/// chance event as the onlooker who sees every hand words it, wherever the observer is told
/// less. Lines of a dozen characters or fewer (an empty hand) are left out: they name nothing.
pub fn hidden_lines(data: &Path, t: &Transcript, observer: Observer) -> Vec<String> {
    let (games, problems) = printplay::pipeline::load_games(data, std::slice::from_ref(&t.game));
    assert!(problems.is_empty(), "{problems:?}");
    let live = printplay::serve::live::open(&games[0], t.clone()).unwrap();
    let mut out = Vec::new();
    let full = live.view(Observer::Omniscient, None).unwrap();
    let mine = live.view(observer, None).unwrap();
    for (all, seen) in full["log"]
        .as_array()
        .unwrap()
        .iter()
        .zip(mine["log"].as_array().unwrap())
    {
        if all["action"] != seen["action"] {
            out.push(all["action"].as_str().unwrap().to_string());
        }
        for (a, b) in all["events"]
            .as_array()
            .unwrap()
            .iter()
            .zip(seen["events"].as_array().unwrap())
        {
            if a != b {
                out.push(a.as_str().unwrap().to_string());
            }
        }
    }
    for k in 0..=t.moves.len() {
        // What the observer itself sees at this point is no secret from it (an engine
        // without a public view shows the shared table inside each seat's observation).
        let own = live.view(observer, Some(k)).unwrap();
        let mut known: Vec<&str> = own["view"]["public"].as_str().unwrap().lines().collect();
        for hand in own["view"]["hands"].as_array().unwrap() {
            known.extend(hand["text"].as_str().unwrap().lines());
        }
        for seat in (0..t.players).filter(|&s| Observer::Seat(s) != observer) {
            let v = live.view(Observer::Seat(seat), Some(k)).unwrap();
            for hand in v["view"]["hands"].as_array().unwrap() {
                out.extend(
                    hand["text"]
                        .as_str()
                        .unwrap()
                        .lines()
                        .filter(|l| l.len() > 12 && !known.contains(l))
                        .map(str::to_string),
                );
            }
        }
    }
    out.sort();
    out.dedup();
    out
}
