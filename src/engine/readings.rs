//! The registry of reading points: each place where an engine branches on an interpretation
//! of its rulebook, with the variant whose value picks the branch.
//!
//! An engine lists its points in [`crate::engine::Engine::reading_points`] and reads each
//! variant through [`crate::engine::Config::variant`], which [`variants_read`] can watch. The
//! tests in `tests/readings.rs` hold every engine to it: each point names a variant the engine
//! declares and the rules reference explains, each variant an engine reads has a point, and
//! each variant's values play differently in a few seeded games.

use std::cell::RefCell;
use std::collections::BTreeSet;

/// A place where an engine branches on how the rulebook is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadingPoint {
    /// The variant whose value picks the branch.
    pub variant: &'static str,
    /// Where the engine branches: its file and function.
    pub at: &'static str,
    /// What the branch decides, in a phrase.
    pub decides: &'static str,
}

thread_local! {
    /// The variants read on this thread since [`variants_read`] started watching.
    static READ: RefCell<Option<BTreeSet<&'static str>>> = const { RefCell::new(None) };
}

/// Notes that the variant `name` was read (only while [`variants_read`] watches).
pub(crate) fn note_read(name: &'static str) {
    READ.with(|read| {
        if let Some(names) = read.borrow_mut().as_mut() {
            names.insert(name);
        }
    });
}

/// Runs `f` and gives its result with the names of every variant it read on this thread
/// through [`crate::engine::Config::variant`].
pub fn variants_read<T>(f: impl FnOnce() -> T) -> (T, BTreeSet<&'static str>) {
    let outer = READ.with(|read| read.borrow_mut().replace(BTreeSet::new()));
    let out = f();
    let names = READ.with(|read| std::mem::replace(&mut *read.borrow_mut(), outer));
    (out, names.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Config, Variant};

    const V: Variant = Variant {
        name: "v",
        values: &["a", "b"],
        doc: "",
    };

    #[test]
    fn only_the_variants_read_while_watched_are_noted() {
        let config = Config::with_variants(2, &[]);
        config.variant(&V);
        let ((), read) = variants_read(|| {});
        assert!(read.is_empty());
        let (value, read) = variants_read(|| config.variant(&V).to_string());
        assert_eq!(value, "a");
        assert_eq!(read, BTreeSet::from(["v"]));
    }
}
