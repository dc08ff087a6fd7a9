//! Aether Captains: The Search. Criminal against police on a 5 x 4 grid of map cards.
//!
//! - [`rules`] reads the rule numbers and card effects from the model;
//! - [`layout`] is the grid and the random map layout;
//! - [`check`] holds the logical invariants `printplay check` runs;
//! - [`engine`] plays the game through the shared [`crate::engine`] traits;
//! - [`bots`] holds the heuristic players.

pub mod board;
pub mod bots;
pub mod check;
pub mod engine;
pub mod layout;
pub mod rules;
mod views;
mod words;

pub use check::{ENGINE_ID, TheSearch};
pub use engine::{Action, SearchEngine, SearchState};
