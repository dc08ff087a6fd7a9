//! printplay: one TOML description of a tabletop game, checked, simulated, printed and explained.
//!
//! The data flows one way: [`model`] loads a game's folder, [`check`] proves it obeys its own
//! rules, and the same model goes on to the later stages.

pub mod assets;
pub mod check;
pub mod cli;
pub mod diag;
pub mod diff;
pub mod edits;
pub mod engine;
pub mod games;
pub mod limits;
pub mod messages;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod play;
pub mod reference;
pub mod render;
pub mod rules;
pub mod scaffold;
pub mod schema;
pub mod serve;
pub mod simulate;
pub mod translate;
pub mod watch;
