//! Provenance: where a value in the data comes from.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where a value comes from. Written in the data as a one-key table, for example
/// `source = { printed = "Setup" }` or `source = { reconstructed = "why we chose it" }`.
/// A game that names no source rulebook is an original design: its values need no source,
/// and a value without one is the designer's own (`original`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Source {
    /// Stated in the rulebook; the text names the rulebook section.
    Printed(String),
    /// Follows from printed facts; the text says from which.
    Inferred(String),
    /// Our playable choice where the rulebook is silent; the text says why.
    Reconstructed(String),
    /// The designer's own value in an original game (the default when no source is given).
    Original(String),
}

impl Default for Source {
    fn default() -> Self {
        Source::Original(String::new())
    }
}

impl Source {
    /// `printed`, `inferred` or `reconstructed`.
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Printed(_) => "printed",
            Source::Inferred(_) => "inferred",
            Source::Reconstructed(_) => "reconstructed",
            Source::Original(_) => "original",
        }
    }

    /// The section or reason the data gives.
    pub fn reason(&self) -> &str {
        match self {
            Source::Printed(s)
            | Source::Inferred(s)
            | Source::Reconstructed(s)
            | Source::Original(s) => s,
        }
    }

    /// True for values the rulebook does not state (an original design has no rulebook).
    pub fn is_unprinted(&self) -> bool {
        matches!(self, Source::Inferred(_) | Source::Reconstructed(_))
    }

    /// True when the data gave no source (or called the value the designer's own).
    pub fn is_original(&self) -> bool {
        matches!(self, Source::Original(_))
    }

    pub fn is_reconstructed(&self) -> bool {
        matches!(self, Source::Reconstructed(_))
    }
}
