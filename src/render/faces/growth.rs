//! Values a template builds with `set` stay bounded. tera evaluates `~`, arrays and filters
//! without any hook into its work, so `{% set s = s ~ s %}` in a loop (or written 40 times)
//! doubles a string until the laptop's memory is gone. When a template loads, every `set`
//! and `set_global` (and every `for`'s container) is classed by what its value can hold:
//!
//! - a number, a boolean or a literal (arithmetic, comparisons, `length`...): constant size;
//! - a part of the data (`card.name`, `symbols[side]`, a loop over either): at most the data;
//! - a value built from those (`~`, an array, a filter, a function or macro call): at most the
//!   template's expression times the data, as it may read no other built value;
//! - an accumulator, `s = s ~ ...`, appending values of the kinds above: it grows by a bounded
//!   piece a turn, so at most linearly in the turns of its loops.
//!
//! Anything else, a value built from itself otherwise (`s ~ s`, `[s, s]`, `s | replace(...)`)
//! or from another built value or accumulator, could grow exponentially and is refused at its
//! tag: write the pieces out (`{{ a }}{{ b }}`, whose output is capped) instead.

use std::collections::HashMap;
use std::ops::Range;

use tera::ast::{Expr, ExprVal, Node};

use crate::diag::{Problem, SourceFile};

/// What a value can hold, from the least to the most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// A number, a boolean or a literal.
    Number,
    /// A part of the data a face is drawn from.
    Part,
    /// Built from numbers and parts.
    Built,
    /// Appended to across assignments.
    Growing,
}

/// Filters whose result is a number or a boolean, however large their input.
const NUMERIC: &[&str] = &[
    "length",
    "round",
    "int",
    "float",
    "abs",
    "wordcount",
    "filesizeformat",
];

/// One assignment: a `set` (its value) or a `for` (its container).
struct Assign<'a> {
    names: Vec<&'a str>,
    value: &'a Expr,
    /// Which `set` tag (or `for` tag), counted in the template's order.
    tag: (bool, usize),
}

fn collect<'a>(nodes: &'a [Node], out: &mut Vec<Assign<'a>>, counts: &mut (usize, usize)) {
    for node in nodes {
        match node {
            Node::Set(_, set) => {
                out.push(Assign {
                    names: vec![set.key.as_str()],
                    value: &set.value,
                    tag: (true, counts.0),
                });
                counts.0 += 1;
            }
            Node::Forloop(_, f, _) => {
                let mut names = vec![f.value.as_str()];
                names.extend(f.key.as_deref());
                out.push(Assign {
                    names,
                    value: &f.container,
                    tag: (false, counts.1),
                });
                counts.1 += 1;
                collect(&f.body, out, counts);
                if let Some(empty) = &f.empty_body {
                    collect(empty, out, counts);
                }
            }
            Node::If(i, _) => {
                for (_, _, body) in &i.conditions {
                    collect(body, out, counts);
                }
                if let Some((_, body)) = &i.otherwise {
                    collect(body, out, counts);
                }
            }
            Node::MacroDefinition(_, m, _) => collect(&m.body, out, counts),
            Node::Block(_, b, _) => collect(&b.body, out, counts),
            Node::FilterSection(_, f, _) => collect(&f.body, out, counts),
            _ => {}
        }
    }
}

/// The variable an identifier reads (`a` of `a.b[c]`).
fn root(ident: &str) -> &str {
    ident.split(['.', '[']).next().unwrap_or(ident).trim()
}

/// The variables an expression reads where their size carries into its value (not as numbers,
/// conditions or subscripts), with whether each is read bare (`s`, no filter).
fn reads<'a>(e: &'a Expr, out: &mut Vec<(&'a str, bool)>) {
    if e.negated
        || e.filters
            .first()
            .is_some_and(|f| NUMERIC.contains(&f.name.as_str()))
    {
        return;
    }
    for f in &e.filters {
        for arg in f.args.values() {
            reads(arg, out);
        }
    }
    let bare = e.filters.is_empty();
    val_reads(&e.val, bare, out);
}

fn val_reads<'a>(v: &'a ExprVal, bare: bool, out: &mut Vec<(&'a str, bool)>) {
    match v {
        ExprVal::Ident(i) => out.push((root(i), bare && root(i) == i.trim())),
        ExprVal::StringConcat(c) => {
            for v in &c.values {
                val_reads(v, true, out);
            }
        }
        ExprVal::Array(items) => items.iter().for_each(|e| reads(e, out)),
        ExprVal::FunctionCall(f) => f.args.values().for_each(|e| reads(e, out)),
        ExprVal::MacroCall(m) => m.args.values().for_each(|e| reads(e, out)),
        _ => {}
    }
}

/// Whether `value` appends to `name`: `name ~ ...`, reading `name` once, bare.
fn appends(name: &str, value: &Expr) -> bool {
    let ExprVal::StringConcat(c) = &value.val else {
        return false;
    };
    let mut own = Vec::new();
    reads(value, &mut own);
    value.filters.is_empty()
        && !value.negated
        && c.values
            .iter()
            .any(|v| matches!(v, ExprVal::Ident(i) if i.trim() == name))
        && own.iter().filter(|(r, _)| *r == name).count() == 1
}

/// The class of an expression's value, given the classes of the template's variables (a
/// name no assignment writes is the data's).
fn class(e: &Expr, vars: &HashMap<&str, Class>) -> Class {
    if e.negated {
        return Class::Number;
    }
    if let Some(last) = e.filters.last() {
        return if NUMERIC.contains(&last.name.as_str()) {
            Class::Number
        } else {
            Class::Built
        };
    }
    match &e.val {
        ExprVal::String(_)
        | ExprVal::Int(_)
        | ExprVal::Float(_)
        | ExprVal::Bool(_)
        | ExprVal::Math(_)
        | ExprVal::Logic(_)
        | ExprVal::Test(_)
        | ExprVal::In(_) => Class::Number,
        ExprVal::Ident(i) => vars.get(root(i)).copied().unwrap_or(Class::Part),
        // A list of literals (`["a", "b"]`) is as long as its text.
        ExprVal::Array(items) if items.iter().all(is_literal) => Class::Number,
        ExprVal::StringConcat(_)
        | ExprVal::Array(_)
        | ExprVal::FunctionCall(_)
        | ExprVal::MacroCall(_) => Class::Built,
    }
}

fn is_literal(e: &Expr) -> bool {
    e.filters.is_empty()
        && matches!(
            e.val,
            ExprVal::String(_) | ExprVal::Int(_) | ExprVal::Float(_) | ExprVal::Bool(_)
        )
}

/// The class an assignment gives its names.
fn gives(a: &Assign, vars: &HashMap<&str, Class>) -> Class {
    if a.tag.0 && appends(a.names[0], a.value) {
        return Class::Growing;
    }
    if !a.tag.0 && matches!(&a.value.val, ExprVal::FunctionCall(f) if f.name == "range") {
        // `range` gives numbers, drawn from the face's budget.
        return Class::Number;
    }
    class(a.value, vars)
}

/// Why an assignment could grow without bound, if it could.
fn unbounded(a: &Assign, vars: &HashMap<&str, Class>) -> Option<String> {
    let mut read = Vec::new();
    reads(a.value, &mut read);
    let is_copy = matches!(a.value.val, ExprVal::Ident(_)) && a.value.filters.is_empty();
    let own = a.tag.0.then(|| a.names[0]);
    if let Some(name) = own
        && read.iter().any(|(r, _)| *r == name)
        && !appends(name, a.value)
        && !is_copy
    {
        return Some(format!(
            "builds `{name}` from itself other than by appending to it once \
             (`{name} = {name} ~ ...`), so it could double each time it runs"
        ));
    }
    let builds = class(a.value, vars) >= Class::Built || a.tag.0 && appends(a.names[0], a.value);
    let appending = a.tag.0 && appends(a.names[0], a.value);
    for (r, _) in read.iter().filter(|(r, _)| Some(*r) != own) {
        match vars.get(r) {
            Some(Class::Growing) if !is_copy => {
                return Some(format!(
                    "builds a value from `{r}`, which is appended to elsewhere, so the two \
                     could grow each other without bound"
                ));
            }
            Some(Class::Built) if builds && !appending && !is_copy => {
                return Some(format!(
                    "builds a value from `{r}`, itself built with `~`, an array, a filter or \
                     a call, so a chain of them could double at each step"
                ));
            }
            _ => {}
        }
    }
    None
}

/// The first `set` (or `for`) of a template whose value could grow without bound, as a
/// problem at its tag.
pub fn check(name: &str, file: &SourceFile, ast: &[Node]) -> Result<(), Problem> {
    let mut all = Vec::new();
    collect(ast, &mut all, &mut (0, 0));
    let mut vars: HashMap<&str, Class> = HashMap::new();
    for a in &all {
        for n in &a.names {
            vars.entry(n).or_insert(Class::Number);
        }
    }
    // Classes only rise, through four steps: a fixed point within 4 rounds a variable.
    for _ in 0..=4 * vars.len() {
        let mut changed = false;
        for a in &all {
            let c = gives(a, &vars);
            for n in &a.names {
                let slot = vars.get_mut(n).expect("every name is listed");
                if c > *slot {
                    *slot = c;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    for a in &all {
        if let Some(why) = unbounded(a, &vars) {
            let (is_set, k) = a.tag;
            let span = nth_tag(&file.text, is_set, k);
            let what = if is_set { "`set`" } else { "`for`" };
            let problem = Problem::data(format!("template `{name}`: this {what} {why}")).help(
                "write the pieces out where they are drawn ({{ a }}{{ b }}, whose output \
                     is capped), or append to one value with `s = s ~ piece` from parts of \
                     the data",
            );
            return Err(match span {
                Some(span) => problem.at(file, span, "here"),
                None => problem.in_file(file),
            });
        }
    }
    Ok(())
}

/// The `k`-th `set`/`set_global` tag (or `for` tag) of a template's text.
fn nth_tag(text: &str, set: bool, k: usize) -> Option<Range<usize>> {
    super::budget::tags(text)
        .into_iter()
        .filter(|t| match super::budget::keyword(&text[t.clone()]) {
            "set" | "set_global" => set,
            "for" => !set,
            _ => false,
        })
        .nth(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &str) -> Result<(), String> {
        let file = SourceFile::new("templates/t.svg", text);
        let t = tera::Template::new("t.svg", None, text).unwrap();
        check("t", &file, &t.ast).map_err(|p| {
            let span = p.span.clone().expect("placed");
            format!("{} @ {}", p.message, &text[span])
        })
    }

    #[test]
    fn doubling_is_refused_at_its_tag() {
        for (text, tag) in [
            (
                "{% set s = 'x' %}{% for i in range(end=40) %}{% set s = s ~ s %}{% endfor %}",
                "{% set s = s ~ s %}",
            ),
            (
                "{% set s = 'x' %}{% set s = s ~ s %}{% set s = s ~ s %}",
                "{% set s = s ~ s %}",
            ),
            (
                "{% for i in range(end=40) %}{% set_global a = [a, a] %}{% endfor %}",
                "{% set_global a = [a, a] %}",
            ),
            (
                "{% for i in range(end=40) %}{% set s = s | replace(from='x', to='xx') %}{% endfor %}",
                "{% set s = s | replace(from='x', to='xx') %}",
            ),
            // Through a copy, a second variable, a chain of built values, a loop variable.
            (
                "{% for i in range(end=9) %}{% set t = s %}{% set s = s ~ t %}{% endfor %}",
                "{% set s = s ~ t %}",
            ),
            (
                "{% set b = card.name ~ card.name %}{% set c = b ~ b %}",
                "{% set c = b ~ b %}",
            ),
            (
                "{% for i in range(end=9) %}{% for x in [s, s] %}{% set s = x ~ x %}{% endfor %}{% endfor %}",
                "{% for x in [s, s] %}",
            ),
            (
                "{% set k = 'x' %}{% set c = k ~ k %}{% set d = c ~ c %}",
                "{% set d = c ~ c %}",
            ),
            (
                "{% set a = a ~ 'x' %}{% set b = b ~ a %}",
                "{% set b = b ~ a %}",
            ),
        ] {
            let got = verdict(text).expect_err(text);
            assert!(got.ends_with(&format!("@ {tag}")), "{text}: {got}");
        }
    }

    /// What the shipped templates do: numbers carried across turns, parts of the data, one
    /// value appended to from them, built values drawn where they are made.
    #[test]
    fn bounded_values_pass() {
        for text in [
            "{% set_global row = 0 %}{% for x in card.fields %}{% set_global row = row + 1 %}{% endfor %}",
            "{% set_global beats = '' %}{% for pair in params.beats %}{% set a = symbols[pair.0] %}\
             {% set_global beats = beats ~ '[' ~ pair.0 ~ '] ' ~ a.name ~ '\n' %}{% endfor %}{{ beats }}",
            "{% for k in range(end=3) %}{% set ck = 'colour_' ~ k %}{% set colour = f[ck] %}{% set sym = symbols[colour] %}{% endfor %}",
            "{% set n = f.slots | length %}{% set label = card.name | upper %}{{ label ~ label }}",
            "{% set t = s %}{% set s = t %}",
            "{% for k in ['a', 'b'] %}{% set ck = 'colour_' ~ k %}{% endfor %}",
        ] {
            assert_eq!(verdict(text), Ok(()), "{text}");
        }
    }

    /// Every shipped template passes.
    #[test]
    fn shipped_templates_pass() {
        let mut seen = 0;
        for dir in ["templates", "data"] {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
            let mut stack = vec![root];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).unwrap().flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "svg")
                        && p.components().any(|c| c.as_os_str() == "templates")
                    {
                        let text = std::fs::read_to_string(&p).unwrap();
                        if let Ok(t) = tera::Template::new("t.svg", None, &text) {
                            seen += 1;
                            let file =
                                SourceFile::new(p.clone(), std::sync::Arc::from(text.as_str()));
                            assert!(check("t", &file, &t.ast).is_ok(), "{}", p.display());
                        }
                    }
                }
            }
        }
        assert!(seen > 10, "{seen} templates");
    }
}
