//! The free table in words: each move as its observer may know it, the public table, a
//! seat's hand, and what a move let someone see.

use std::fmt::Write as _;

use super::{Act, Dest, Event, FreeTable, Loc};
use crate::engine::Player;
use crate::engine::view::Observer;

fn card(t: &FreeTable, c: u16) -> &str {
    &t.def.cards[c as usize].name
}

fn deck(t: &FreeTable, d: usize) -> &str {
    &t.def.decks[d].name
}

fn seat(t: &FreeTable, q: usize) -> &str {
    t.def.names.get(q).map_or("?", String::as_str)
}

fn plural(n: usize, one: &str) -> String {
    crate::messages::count_of(n, one, &format!("{one}s"))
}

/// A place a piece can be, in words.
fn place(t: &FreeTable, l: usize) -> String {
    match t.def.locs.get(l) {
        Some(Loc::Supply) | None => "the supply".into(),
        Some(Loc::Table) => "the table".into(),
        Some(Loc::Seat(p)) => format!("in front of {}", seat(t, *p)),
        Some(Loc::Cell(s, c)) => {
            let surface = &t.def.surfaces[*s];
            let cell = &surface.cells[*c];
            let label = if cell.label.is_empty() {
                String::new()
            } else {
                format!(", {}", cell.label)
            };
            format!("{} cell {}{label}", surface.name, cell.key)
        }
    }
}

/// A card on the table area, by its place (counted from 1), as everyone knows it.
fn on_table(t: &FreeTable, i: u16) -> String {
    match t.table.get(i as usize).copied().flatten() {
        Some((c, true)) => format!("{} (table place {})", card(t, c), i + 1),
        Some((c, false)) => format!(
            "the face-down {} card at table place {}",
            deck(t, t.deck_of(c)),
            i + 1
        ),
        None => format!("table place {}", i + 1),
    }
}

/// Whether `observer` sees seat `q`'s hand: its own, the onlooker's, or a hand shown to
/// everyone.
fn sees(t: &FreeTable, observer: Observer, q: Player) -> bool {
    observer.sees_hand(q) || t.shown.get(q).copied().unwrap_or(false)
}

/// A move of the seat to act at `t`, as `observer` may know it: a card from a hidden hand is
/// named only to those who see that hand (and, handed over, to those who see the receiver's).
pub(super) fn move_name(t: &FreeTable, action: Act, observer: Observer) -> String {
    let p = t.turn;
    let knows = sees(t, observer, p);
    match action {
        Act::Shuffle(d) => format!("shuffle the {} pile", deck(t, d as usize)),
        Act::Gather(d) => format!(
            "shuffle the {} discards back into its pile",
            deck(t, d as usize)
        ),
        Act::Deal(d, k) => format!(
            "deal {} from {} to each seat",
            plural(k as usize, "card"),
            deck(t, d as usize)
        ),
        Act::Draw(d) => format!("draw a card from {}", deck(t, d as usize)),
        Act::Reveal(d) => format!(
            "turn the top card of {} face up onto the table",
            deck(t, d as usize)
        ),
        Act::TakeDiscard(d) => {
            let d = d as usize;
            match t.discards[d].last() {
                Some(&c) => format!("take {} from the {} discards", card(t, c), deck(t, d)),
                None => format!("take the top card of the {} discards", deck(t, d)),
            }
        }
        Act::FromHand(c, dest) => {
            let name = card(t, c);
            let d = deck(t, t.deck_of(c));
            match dest {
                Dest::TableUp => format!("play {name} face up onto the table"),
                Dest::Discard => format!("discard {name}"),
                Dest::TableDown if knows => format!("play {name} face down onto the table"),
                Dest::TableDown => format!("play a {d} card face down onto the table"),
                Dest::PileTop if knows => {
                    format!("put {name} from the hand on top of the {d} pile")
                }
                Dest::PileTop => format!("put a card from the hand on top of the {d} pile"),
                Dest::Hand(q) => {
                    let to = seat(t, q as usize);
                    if knows || sees(t, observer, q as usize) {
                        format!("give {name} to {to}")
                    } else {
                        format!("give a card to {to}")
                    }
                }
                Dest::Place(j) => format!("play {name} face up onto table place {}", j + 1),
            }
        }
        Act::FromTable(i, dest) => {
            let what = on_table(t, i);
            match dest {
                Dest::Hand(q) if q as usize == p => format!("take {what} into the hand"),
                Dest::Hand(q) => format!("give {what} to {}", seat(t, q as usize)),
                Dest::Discard => format!("discard {what}"),
                Dest::PileTop => format!("put {what} on top of its pile"),
                Dest::TableUp | Dest::TableDown => format!("move {what}"),
                Dest::Place(j) => format!("move {what} to table place {}", j + 1),
            }
        }
        Act::Flip(i) => match t.table.get(i as usize).copied().flatten() {
            Some((_, true)) => format!("turn {} face down", on_table(t, i)),
            _ => format!("turn {} face up", on_table(t, i)),
        },
        Act::ShowHand(true) => "show the hand to every seat".into(),
        Act::ShowHand(false) => "take the shown hand back up".into(),
        Act::Take(k, l) => format!(
            "pick up a {} from {}",
            t.def.kinds[k as usize].name,
            place(t, l as usize)
        ),
        Act::Put(l) => {
            let what = t
                .held
                .map_or("piece", |(k, _)| t.def.kinds[k as usize].name.as_str());
            let to = match t.def.locs.get(l as usize) {
                Some(Loc::Supply) => "back in the supply".to_string(),
                Some(Loc::Table) => "on the table".to_string(),
                Some(Loc::Cell(..)) => format!("on {}", place(t, l as usize)),
                _ => place(t, l as usize),
            };
            format!("put the {what} {to}")
        }
        Act::Roll if t.def.dice.len() == 1 => "roll the die".into(),
        Act::Roll => format!("roll the {} dice", t.def.dice.len()),
        Act::Pass(q) if t.def.free_turns => format!("pass the turn to {}", seat(t, q as usize)),
        Act::Pass(_) => "end the turn".into(),
        Act::Die(v) => format!("a die shows {v}"),
        Act::End => "close the table (the session ends)".into(),
    }
}

/// What the last move let `observer` see that its name does not say: cards into a hand only
/// to those who see that hand.
pub(super) fn events(t: &FreeTable, observer: Observer) -> Vec<String> {
    let mut out = Vec::new();
    for e in &t.events {
        match e {
            Event::Into(q, cards) => {
                if sees(t, observer, *q) {
                    let names: Vec<&str> = cards.iter().map(|&c| card(t, c)).collect();
                    out.push(format!("{} gets {}", seat(t, *q), names.join(", ")));
                }
            }
            Event::Shown(c) => out.push(format!("it is {}", card(t, *c))),
        }
    }
    out
}

/// Pieces at a place, in words (empty when none).
fn pieces_at(t: &FreeTable, l: usize) -> String {
    t.pieces
        .iter()
        .enumerate()
        .filter(|(_, at)| at[l] > 0)
        .map(|(k, at)| format!("{} x{}", t.def.kinds[k].name, at[l]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What every seat sees: piles, discards, the table area, hands' sizes (and shown hands),
/// pieces, boards, dice, whose turn it is.
pub(super) fn public_view(t: &FreeTable) -> String {
    let mut s = String::new();
    if t.ended {
        let _ = writeln!(s, "The table is closed.");
    } else if t.rolling.is_some() {
        let _ = writeln!(s, "Turn: {} (rolling)", seat(t, t.turn));
    } else {
        let _ = writeln!(s, "Turn: {}", seat(t, t.turn));
    }
    for (d, pile) in t.piles.iter().enumerate() {
        let top = t.discards[d]
            .last()
            .map_or(String::new(), |&c| format!(", top {}", card(t, c)));
        let shuffled = match t.shuffles[d] {
            0 => String::new(),
            n => format!(", shuffled {}", plural(n as usize, "time")),
        };
        let _ = writeln!(
            s,
            "Pile {}: {}{shuffled} (discards: {}{top})",
            deck(t, d),
            plural(pile.len(), "card"),
            t.discards[d].len()
        );
    }
    let table: Vec<String> = (0..t.table.len() as u16)
        .filter(|&i| t.table[i as usize].is_some())
        .map(|i| on_table(t, i))
        .collect();
    let _ = writeln!(
        s,
        "Table: {}",
        if table.is_empty() {
            "no cards".into()
        } else {
            table.join("; ")
        }
    );
    for q in 0..t.n() {
        let mut line = format!(
            "{}: {} in hand",
            seat(t, q),
            plural(t.hands[q].len(), "card")
        );
        if t.shown[q] {
            let names: Vec<&str> = t.hands[q].iter().map(|&c| card(t, c)).collect();
            let _ = write!(line, " (shown: {})", names.join(", "));
        }
        let mine = pieces_at(t, t.def.loc_index(Loc::Seat(q)));
        if !mine.is_empty() {
            let _ = write!(line, "; in front: {mine}");
        }
        if q == t.turn
            && let Some((k, _)) = t.held
        {
            let _ = write!(line, "; holding a {}", t.def.kinds[k as usize].name);
        }
        let _ = writeln!(s, "{line}");
    }
    for (l, what) in [(0, "Supply"), (1, "On the table")] {
        let here = pieces_at(t, l);
        if !here.is_empty() {
            let _ = writeln!(s, "{what}: {here}");
        }
    }
    for (i, surface) in t.def.surfaces.iter().enumerate() {
        let occupied: Vec<String> = (0..surface.cells.len())
            .filter_map(|c| {
                let here = pieces_at(t, t.def.loc_index(Loc::Cell(i, c)));
                (!here.is_empty()).then(|| format!("{}: {here}", surface.cells[c].key))
            })
            .collect();
        let _ = writeln!(
            s,
            "{} ({} cells): {}",
            surface.name,
            surface.cells.len(),
            if occupied.is_empty() {
                "empty".into()
            } else {
                occupied.join("; ")
            }
        );
    }
    if !t.def.dice.is_empty() {
        let dice: Vec<String> = t
            .def
            .dice
            .iter()
            .zip(&t.dice)
            .map(|(sides, v)| {
                if *v == 0 {
                    format!("d{sides} not rolled")
                } else {
                    format!("d{sides} shows {v}")
                }
            })
            .collect();
        let _ = writeln!(s, "Dice: {}", dice.join(", "));
    }
    s.trim_end().to_string()
}

/// A seat's hand in words: what only that seat sees.
pub(super) fn hand_line(t: &FreeTable, q: Player) -> String {
    let names: Vec<&str> = t.hands[q].iter().map(|&c| card(t, c)).collect();
    if names.is_empty() {
        "Hand: empty".into()
    } else {
        format!("Hand: {}", names.join(", "))
    }
}
