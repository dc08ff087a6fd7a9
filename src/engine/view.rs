//! What an observer may know of a game: the one place that decides it.
//!
//! Every output that shows a game to someone (`printplay play`, `printplay replay` in text and
//! JSON, a saved game replayed with `--moves`, and anything later that shows a game to a seat)
//! names moves, chance outcomes, the events inside a move and the table only through the
//! functions of this module, never through [`State::action_name`], [`State::chance_name`],
//! [`State::hidden_events`] or [`State::observation`] directly. The engines word things per
//! [`Observer`] ([`State::chance_name`], [`State::move_name`], [`State::hidden_events`] take
//! it) and decide what it may know by one function, [`Observer::sees_hand`], which
//! [`table`] also uses to pick the hands it shows. The public is an observer of its own, not
//! the least-told seat: what every seat knows apart (a card handed from one seat to the other
//! of a two-seat game, each seat's own dealt cards) is still hidden from a spectator.
//!
//! `tests/observer.rs` checks the rule over every engine and every observer: what an
//! observer is told (the log's words, the table, the card faces of the table's page) never
//! depends on what it cannot see at the table.

use crate::engine::{BoardView, Placed, Player, State, Turn};

/// Whose eyes a game is shown through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Observer {
    /// One seat (0-based): what that seat sees at the table, its own hand included.
    Seat(Player),
    /// What every seat sees: the shared table and no hand; a move, a chance outcome or an
    /// event without anything only some seats know (a spectator, a screen several people
    /// share).
    Public,
    /// An onlooker who sees every hand and every card drawn.
    Omniscient,
}

impl Observer {
    /// `--observer`: a seat counted from 1 or a seat's name (`police`), among `names`, or
    /// `omniscient`.
    pub fn parse(text: &str, names: &[String]) -> Result<Observer, String> {
        if text.eq_ignore_ascii_case("omniscient") {
            return Ok(Observer::Omniscient);
        }
        let by_number = text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=names.len()).contains(n))
            .map(|n| n - 1);
        let by_name = names.iter().position(|n| n.eq_ignore_ascii_case(text));
        by_number.or(by_name).map(Observer::Seat).ok_or_else(|| {
            format!(
                "--observer takes a seat from 1 to {} or a seat's name ({}), or `omniscient`, not `{text}`",
                names.len(),
                names.join(", ")
            )
        })
    }

    /// Whose eyes a game played by people shows moves through (`people`: the seats a person
    /// plays): the one person's seat; what every seat knows when several people share the
    /// screen; everything when nobody plays.
    pub fn of_people(people: &[Player]) -> Observer {
        match people {
            [one] => Observer::Seat(*one),
            [] => Observer::Omniscient,
            _ => Observer::Public,
        }
    }

    /// Whether the observer sees `seat`'s hand (and what only that seat knows: the cards it
    /// drew, the order it put cards back in, a card handed to it). The one rule of hidden
    /// information: the engines word moves, chance and events by it, and [`table`] shows the
    /// hands by it. The public sees no hand, so it is told nothing only seats know, not even
    /// what every seat knows apart (in a two-seat game, a card one hands to the other).
    pub fn sees_hand(self, seat: Player) -> bool {
        match self {
            Observer::Seat(s) => s == seat,
            Observer::Public => false,
            Observer::Omniscient => true,
        }
    }
}

/// The table at one moment as an observer sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// What every seat sees (empty for an engine without [`State::public_view`]).
    pub public: String,
    /// The hands the observer may see, by seat (0-based), in seat order.
    pub hands: Vec<(Player, String)>,
    /// The same as data ([`State::public_data`]; `Null` where the engine gives only words).
    pub public_data: serde_json::Value,
    /// The hands the observer may see as data ([`State::private_data`]), in seat order.
    pub hands_data: Vec<(Player, serde_json::Value)>,
    /// The board as every seat sees it ([`State::board`]), where the engine draws one.
    pub board: Option<BoardView>,
    /// The pieces of the seats whose hands the observer sees ([`State::hand_pieces`]), in seat
    /// order (a seat without any left out).
    pub supplies: Vec<(Player, Vec<Placed>)>,
}

/// One move or chance outcome as an observer knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    /// The move's number from 1; `None` for a chance outcome (not a move).
    pub number: Option<u32>,
    /// The seat that moved; `None` for chance.
    pub by: Option<Player>,
    /// The move in words.
    pub action: String,
    /// Chance events inside the move (cards discarded at random, reshuffles, draws).
    pub events: Vec<String>,
}

/// The move or chance outcome `action`, about to be taken at `before`, in words as
/// `observer` may know it. A seat's own move is named in full; another seat's move or a
/// chance outcome without what the observer cannot see (a card drawn into a hidden hand, the
/// order cards are put back in).
pub fn action_words<S: State>(before: &S, action: S::Action, observer: Observer) -> String {
    match before.turn() {
        Turn::Chance => before.chance_name(action, observer),
        _ => before.move_name(action, observer),
    }
}

/// The chance events inside the move from `before` to `after`, in words as `observer` may
/// know them.
pub fn events<S: State>(before: &S, after: &S, observer: Observer) -> Vec<String> {
    after.hidden_events(before, observer)
}

/// A move at `before` with the state `after` it, as `observer` knows it.
pub fn seen<S: State>(before: &S, action: S::Action, after: &S, observer: Observer) -> Seen {
    let (number, by) = match before.turn() {
        Turn::Player(p) => (Some(before.moves_played() + 1), Some(p)),
        _ => (None, None),
    };
    Seen {
        number,
        by,
        action: action_words(before, action, observer),
        events: events(before, after, observer),
    }
}

/// The table as `observer` sees it: the public view and the hands it may see. For an engine
/// without a public view, each visible seat's whole observation stands for its hand.
pub fn table<S: State>(state: &S, observer: Observer) -> Table {
    let seen: Vec<Player> = (0..state.num_players())
        .filter(|&p| observer.sees_hand(p))
        .collect();
    Table {
        public: state.public_view(),
        hands: seen.iter().map(|&p| (p, state.private_view(p))).collect(),
        public_data: state.public_data(),
        hands_data: seen.iter().map(|&p| (p, state.private_data(p))).collect(),
        board: state.board(),
        supplies: seen
            .iter()
            .map(|&p| (p, state.hand_pieces(p)))
            .filter(|(_, s)| !s.is_empty())
            .collect(),
    }
}

/// Everything `seat` sees when it is its turn to decide (its observation), as `play` shows it.
pub fn seat_view<S: State>(state: &S, seat: Player) -> String {
    state.observation(seat)
}

/// The moves open to `seat`, the seat to act, in words: its own moves, so named in full.
pub fn choices<S: State>(state: &S, seat: Player) -> Vec<String> {
    state
        .legal_actions()
        .into_iter()
        .map(|a| action_words(state, a, Observer::Seat(seat)))
        .collect()
}

/// A chance outcome as a seat is told it by an engine that does not name chance per seat
/// ([`State::chance_name`]'s default): that something was decided at random, not what.
pub const UNNAMED_CHANCE: &str = "a chance outcome, not shown to this seat";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observers_are_read_and_chosen_by_who_plays() {
        let names = ["criminal".to_string(), "police".to_string()];
        assert_eq!(Observer::parse("2", &names), Ok(Observer::Seat(1)));
        assert_eq!(Observer::parse("Police", &names), Ok(Observer::Seat(1)));
        assert_eq!(
            Observer::parse("omniscient", &names),
            Ok(Observer::Omniscient)
        );
        assert!(Observer::parse("3", &names).unwrap_err().contains("1 to 2"));
        assert_eq!(Observer::of_people(&[1]), Observer::Seat(1));
        assert_eq!(Observer::of_people(&[0, 1]), Observer::Public);
        assert_eq!(Observer::of_people(&[]), Observer::Omniscient);
        assert!(Observer::Seat(1).sees_hand(1) && !Observer::Seat(1).sees_hand(0));
        assert!(!Observer::Public.sees_hand(0) && Observer::Omniscient.sees_hand(0));
    }
}
