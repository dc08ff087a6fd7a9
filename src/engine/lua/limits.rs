//! Work done inside the standard library's C functions, which the instruction budget's hook
//! does not see: limits.lua wraps the functions whose work grows with their arguments and
//! charges an estimate of it against the call's budget through [`charge`]; a Lua pattern's
//! worst case is estimated from its [`PatternShape`].

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use mlua::{Function, Lua};

/// What decides a Lua pattern's worst-case work on a subject of `n` characters.
///
/// Lua's matcher backtracks: every variable-length item (`x*`, `x+`, `x-`) that something
/// follows may be retried at each of up to `n + 1` lengths, every optional item (`x?`) in
/// two ways, and a balance (`%b()`) or back-reference (`%1`) scans up to `n` characters at
/// each try. One attempt is therefore bounded by `(items + n + 1) · (n + 1)^degree ·
/// 2^optional`, and an unanchored search makes up to `n + 1` attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PatternShape {
    /// The pattern starts with `^`.
    pub anchored: bool,
    /// Items whose work or retries grow with the subject: variable-length items other
    /// than the last, balances and back-references.
    pub degree: u32,
    /// `?` items.
    pub optional: u32,
    /// Single items of the pattern.
    pub items: u32,
}

/// Reads a pattern's shape, following the grammar of Lua 5.4's `lstrlib.c`. A malformed
/// pattern gets a shape all the same; the matcher itself then reports what is wrong.
pub fn pattern_shape(pattern: &[u8]) -> PatternShape {
    let mut shape = PatternShape::default();
    let mut i = 0;
    if pattern.first() == Some(&b'^') {
        shape.anchored = true;
        i = 1;
    }
    // Whether the last item seen varies in length (it then costs nothing when it ends the
    // pattern: it matches greedily or lazily and the match is over).
    let mut last_varies = false;
    while i < pattern.len() {
        match (pattern[i], pattern.get(i + 1)) {
            (b'(' | b')', _) => {
                i += 1;
                continue;
            }
            (b'%', Some(b'b')) => {
                i += 4;
                shape.degree += 1;
                last_varies = false;
            }
            (b'%', Some(b'f')) => {
                i = class_end(pattern, i + 2);
                last_varies = false;
            }
            (b'%', Some(d)) if d.is_ascii_digit() => {
                i += 2;
                shape.degree += 1;
                last_varies = false;
            }
            _ => {
                let end = class_end(pattern, i);
                i = end + 1;
                last_varies = false;
                match pattern.get(end) {
                    Some(b'*' | b'+' | b'-') => {
                        shape.degree += 1;
                        last_varies = true;
                    }
                    Some(b'?') => shape.optional += 1,
                    _ => i = end,
                }
            }
        }
        shape.items += 1;
    }
    if last_varies {
        shape.degree -= 1;
    }
    shape
}

/// Where the single-character class starting at `i` ends (`.`, `x`, `%a`, `[set]`).
fn class_end(pattern: &[u8], i: usize) -> usize {
    match pattern.get(i) {
        Some(b'%') => i + 2,
        Some(b'[') => {
            // As lstrlib's classEnd: the first character is a member even when it is `]`.
            let mut p = i + 1;
            if pattern.get(p) == Some(&b'^') {
                p += 1;
            }
            loop {
                let Some(&c) = pattern.get(p) else {
                    return pattern.len();
                };
                p += if c == b'%' { 2 } else { 1 };
                match pattern.get(p) {
                    Some(b']') => return p + 1,
                    None => return pattern.len(),
                    Some(_) => {}
                }
            }
        }
        Some(_) => i + 1,
        None => pattern.len(),
    }
}

/// The host functions limits.lua is given: `charge(cost)` takes `cost` instructions from the
/// call's budget and says whether there were that many left (and how many are left; none
/// once refused: a refusal spends the budget), and
/// `pattern_shape(p)` returns a pattern's anchored, degree, optional and items.
pub fn host_functions(lua: &Lua, budget: Arc<AtomicI64>) -> mlua::Result<(Function, Function)> {
    let charge = lua.create_function(move |_, cost: f64| {
        let left = budget.load(Ordering::Relaxed);
        if cost.is_nan() || cost > left as f64 {
            // A refused charge spends the budget: the call stops however the script catches
            // the refusal (limits.lua's pcall raises it again).
            budget.store(left.min(0), Ordering::Relaxed);
            return Ok((false, left));
        }
        let after = left - cost as i64;
        budget.store(after, Ordering::Relaxed);
        Ok((true, after))
    })?;
    let shape = lua.create_function(|_, pattern: mlua::LuaString| {
        let s = pattern_shape(&pattern.as_bytes());
        Ok((s.anchored, s.degree, s.optional, s.items))
    })?;
    Ok((charge, shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(p: &str) -> (bool, u32, u32, u32) {
        let s = pattern_shape(p.as_bytes());
        (s.anchored, s.degree, s.optional, s.items)
    }

    #[test]
    fn a_final_repetition_costs_nothing_more() {
        assert_eq!(shape("%d+"), (false, 0, 0, 1));
        assert_eq!(shape("^(%w+)=(%w+)$"), (true, 2, 0, 4));
        assert_eq!(shape("[^,]*"), (false, 0, 0, 1));
    }

    #[test]
    fn each_inner_repetition_raises_the_degree() {
        assert_eq!(shape("a*a*a*b"), (false, 3, 0, 4));
        assert_eq!(shape(".-.-x"), (false, 2, 0, 3));
        assert_eq!(shape("a?a?aa"), (false, 0, 2, 4));
    }

    #[test]
    fn sets_escapes_balances_and_back_references_are_single_items() {
        assert_eq!(shape("[]a]*x"), (false, 1, 0, 2));
        assert_eq!(shape("[^]]+"), (false, 0, 0, 1));
        assert_eq!(shape("[%]x]+y"), (false, 1, 0, 2));
        assert_eq!(shape("%%+%a"), (false, 1, 0, 2));
        assert_eq!(shape("%b()x"), (false, 1, 0, 2));
        assert_eq!(shape("(a)%1"), (false, 1, 0, 2));
        assert_eq!(shape("%f[%w]%w+"), (false, 0, 0, 2));
    }

    #[test]
    fn a_malformed_pattern_still_has_a_shape() {
        assert_eq!(shape("[abc"), (false, 0, 0, 1));
        assert_eq!(shape("%"), (false, 0, 0, 1));
    }
}
