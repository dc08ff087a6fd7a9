//! Provenance: where a value in the data comes from.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where a value comes from. Written in the data as a one-key table, for example
/// `source = { printed = "Setup" }` or `source = { reconstructed = "why we chose it" }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Source {
    /// Stated in the rulebook; the text names the rulebook section.
    Printed(String),
    /// Follows from printed facts; the text says from which.
    Inferred(String),
    /// Our playable choice where the rulebook is silent; the text says why.
    Reconstructed(String),
}

impl Source {
    /// `printed`, `inferred` or `reconstructed`.
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Printed(_) => "printed",
            Source::Inferred(_) => "inferred",
            Source::Reconstructed(_) => "reconstructed",
        }
    }

    /// The section or reason the data gives.
    pub fn reason(&self) -> &str {
        match self {
            Source::Printed(s) | Source::Inferred(s) | Source::Reconstructed(s) => s,
        }
    }

    /// True for values the rulebook does not state.
    pub fn is_unprinted(&self) -> bool {
        !matches!(self, Source::Printed(_))
    }

    pub fn is_reconstructed(&self) -> bool {
        matches!(self, Source::Reconstructed(_))
    }
}
