//! What one face's template may cost ([`crate::limits`]): the items of `range(...)` every
//! call of the face makes together, the bytes and elements of SVG it writes, and no macro or
//! include that reaches itself (which would recurse until the stack overflows). A breach is
//! an error at the template's line, never the laptop's memory.

use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use serde_json::Value;

use crate::diag::{Problem, SourceFile};
use crate::limits::{TEMPLATE_ELEMENTS, TEMPLATE_OUTPUT_BYTES, TEMPLATE_RANGE_ITEMS};

thread_local! {
    /// Items `range` may still make for the face being drawn.
    static RANGE_LEFT: Cell<usize> = const { Cell::new(TEMPLATE_RANGE_ITEMS) };
    /// The `end` of the call that went past the budget, if one did.
    static BREACH: Cell<Option<u64>> = const { Cell::new(None) };
}

/// A new face starts with the whole budget.
pub fn start_face() {
    RANGE_LEFT.with(|l| l.set(TEMPLATE_RANGE_ITEMS));
    BREACH.with(|b| b.set(None));
}

/// The `end` of the `range` call that went past this face's budget.
pub fn breach() -> Option<u64> {
    BREACH.with(Cell::get)
}

/// tera's `range(end, start=0, step_by=1)`, drawing its items from the face's budget (tera's
/// own allocates whatever `end` asks and never ends for `step_by=0`).
pub fn range(args: &HashMap<String, Value>) -> tera::Result<Value> {
    let arg = |key: &str, default: Option<u64>| -> tera::Result<u64> {
        match args.get(key) {
            Some(v) => v.as_u64().ok_or_else(|| {
                tera::Error::msg(format!(
                    "`range` takes whole numbers from 0; its `{key}` is {v}"
                ))
            }),
            None => {
                default.ok_or_else(|| tera::Error::msg("`range` needs its `end`: range(end=5)"))
            }
        }
    };
    let (start, end, step) = (
        arg("start", Some(0))?,
        arg("end", None)?,
        arg("step_by", Some(1))?,
    );
    if step == 0 {
        return Err(tera::Error::msg("`range` with `step_by=0` never ends"));
    }
    if start > end {
        return Err(tera::Error::msg(format!(
            "`range` starts at {start}, after its end {end}"
        )));
    }
    let items = (end - start).div_ceil(step);
    let left = RANGE_LEFT.with(Cell::get) as u64;
    if items > left {
        BREACH.with(|b| b.set(Some(end)));
        RANGE_LEFT.with(|l| l.set(0));
        return Err(tera::Error::msg(format!(
            "`range` would make {items} items; the `range` calls of one face make at most \
             {TEMPLATE_RANGE_ITEMS} together"
        )));
    }
    RANGE_LEFT.with(|l| l.set((left - items) as usize));
    let list: Vec<u64> = (start..end).step_by(step as usize).collect();
    Ok(Value::from(list))
}

/// The face's SVG as tera writes it, refused past [`TEMPLATE_OUTPUT_BYTES`].
#[derive(Default)]
pub struct Capped {
    pub bytes: Vec<u8>,
    pub over: bool,
}

impl std::io::Write for Capped {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + data.len() > TEMPLATE_OUTPUT_BYTES {
            self.over = true;
            return Err(std::io::Error::other("the face's SVG is too long"));
        }
        self.bytes.extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The message for a face whose SVG went past its bytes or elements.
pub fn too_much(what: &str, text: &str) -> String {
    let lead = match first_loop(text) {
        Some(span) => format!("`{}` ", &text[span]),
        None => String::new(),
    };
    format!(
        "{lead}writes {what}; a face is at most {} MB and {TEMPLATE_ELEMENTS} elements of SVG",
        TEMPLATE_OUTPUT_BYTES >> 20
    )
}

/// Elements of an SVG text: `<` followed by a name.
pub fn elements(svg: &str) -> usize {
    svg.as_bytes()
        .windows(2)
        .filter(|w| w[0] == b'<' && w[1].is_ascii_alphabetic())
        .count()
}

/// The `range(...)` call of a template whose `end` is `end` (the first call when none
/// writes it as a number), as written.
pub fn range_call(text: &str, end: u64) -> Option<&str> {
    let calls: Vec<Range<usize>> = text
        .match_indices("range(")
        .filter_map(|(at, _)| {
            let close = text[at..].find(')')?;
            Some(at..at + close + 1)
        })
        .collect();
    let written = |r: &Range<usize>| {
        text[r.clone()]
            .split(|c: char| !c.is_ascii_digit())
            .any(|n| n == end.to_string())
    };
    let found = calls.iter().find(|r| written(r)).or(calls.first())?;
    Some(&text[found.clone()])
}

/// The first `{% for ... %}` tag of a template.
fn first_loop(text: &str) -> Option<Range<usize>> {
    tags(text)
        .into_iter()
        .find(|t| keyword(&text[t.clone()]) == "for")
}

/// The spans of every `{% ... %}` tag.
pub(super) fn tags(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("{%").map(|i| from + i) {
        let Some(close) = text[open..].find("%}").map(|i| open + i + 2) else {
            break;
        };
        out.push(open..close);
        from = close;
    }
    out
}

/// A tag's keyword: `for`, `macro`, `include`...
pub(super) fn keyword(tag: &str) -> &str {
    let inner = tag
        .trim_start_matches("{%")
        .trim_start_matches('-')
        .trim_start();
    inner
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or("")
}

/// A macro or include that reaches itself, as a problem at the call that closes the circle.
/// Tera has no bound on its depth: a face would recurse until the stack overflows.
pub fn recursion(sources: &BTreeMap<String, SourceFile>, names: &[String]) -> Option<Problem> {
    // Every edge: (from, to, template, span of the call).
    let mut edges: Vec<(String, String, String, Range<usize>)> = Vec::new();
    for name in names {
        let Some(file) = sources.get(name) else {
            continue;
        };
        let text = &file.text;
        let mut within: Option<String> = None;
        let all = tags(text);
        let mut last = 0;
        for tag in &all {
            if let Some(m) = &within {
                calls(text, last..tag.start, m, name, &mut edges);
            }
            let body = &text[tag.clone()];
            match keyword(body) {
                "macro" => {
                    let after = body.split_once("macro").map_or("", |(_, r)| r).trim_start();
                    let id: String = after
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    within = Some(format!("macro {id}"));
                }
                "endmacro" => within = None,
                "include" => {
                    let from = within.clone().unwrap_or_else(|| format!("template {name}"));
                    for target in quoted(body) {
                        let to = target.trim_end_matches(".svg");
                        edges.push((
                            from.clone(),
                            format!("template {to}"),
                            name.clone(),
                            tag.clone(),
                        ));
                    }
                }
                _ => {
                    if let Some(m) = &within {
                        calls(text, tag.clone(), m, name, &mut edges);
                    }
                }
            }
            last = tag.end;
        }
        // A template's own text (outside macros) reaches the macros it calls.
        let own = format!("template {name}");
        let mut inside = false;
        let mut last = 0;
        for tag in &all {
            if !inside {
                calls(text, last..tag.end, &own, name, &mut edges);
            }
            match keyword(&text[tag.clone()]) {
                "macro" => inside = true,
                "endmacro" => inside = false,
                _ => {}
            }
            last = tag.end;
        }
        if !inside {
            calls(text, last..text.len(), &own, name, &mut edges);
        }
    }
    // A template reaches its own macros' bodies through calls, and a macro the templates
    // that include it: a circle of edges is a recursion.
    let mut next: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, e) in edges.iter().enumerate() {
        next.entry(e.0.as_str()).or_default().push(i);
    }
    for (start, _, _, _) in &edges {
        // Depth-first from `start`, looking for a way back.
        let mut stack: Vec<(&str, usize)> = vec![(start.as_str(), 0)];
        let mut seen: Vec<&str> = vec![start.as_str()];
        while let Some((node, k)) = stack.pop() {
            let outs = next.get(node).map_or(&[][..], |v| &v[..]);
            let Some(&i) = outs.get(k) else { continue };
            stack.push((node, k + 1));
            let to = edges[i].1.as_str();
            if to == start {
                let (_, _, template, span) = &edges[i];
                let file = &sources[template];
                let (what, _) = start.split_once(' ').unwrap_or((start, ""));
                return Some(
                    Problem::data(format!(
                        "template `{template}`: `{}` makes the {what} `{}` reach itself; \
                         templates may not recurse (each call would call another, without end)",
                        file.text[span.clone()].trim(),
                        start.split_once(' ').map_or("", |(_, n)| n)
                    ))
                    .at(file, span.clone(), "here"),
                );
            }
            if !seen.contains(&to) {
                seen.push(to);
                stack.push((to, 0));
            }
        }
    }
    None
}

/// Calls `ns::name(` of macros within `span` of `text`, as edges from `from`.
fn calls(
    text: &str,
    span: Range<usize>,
    from: &str,
    template: &str,
    edges: &mut Vec<(String, String, String, Range<usize>)>,
) {
    let part = &text[span.clone()];
    for (at, _) in part.match_indices("::") {
        let name: String = part[at + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let rest = &part[at + 2 + name.len()..];
        if name.is_empty() || !rest.trim_start().starts_with('(') {
            continue;
        }
        let ns_len = part[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .count();
        let start = span.start + at - ns_len;
        edges.push((
            from.to_string(),
            format!("macro {name}"),
            template.to_string(),
            start..span.start + at + 2 + name.len(),
        ));
    }
}

/// The quoted strings of a tag.
fn quoted(tag: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = tag;
    while let Some(open) = rest.find(['"', '\'']) {
        let q = rest.as_bytes()[open] as char;
        let Some(close) = rest[open + 1..].find(q) else {
            break;
        };
        out.push(&rest[open + 1..open + 1 + close]);
        rest = &rest[open + 1 + close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn args(pairs: &[(&str, i64)]) -> HashMap<String, Value> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), Value::from(*v)))
            .collect()
    }

    #[test]
    fn range_gives_what_teras_gives_within_the_budget_and_refuses_past_it() {
        start_face();
        assert_eq!(
            range(&args(&[("end", 5)])).unwrap(),
            serde_json::json!([0, 1, 2, 3, 4])
        );
        assert_eq!(
            range(&args(&[("start", 2), ("end", 9), ("step_by", 3)])).unwrap(),
            serde_json::json!([2, 5, 8])
        );
        assert!(range(&args(&[("end", 5), ("step_by", 0)])).is_err());
        assert!(range(&args(&[("end", -1)])).is_err());
        assert!(range(&args(&[("end", 100_000_000)])).is_err());
        assert_eq!(breach(), Some(100_000_000));
        // The budget is the face's: spent once, every later call is refused.
        start_face();
        for _ in 0..10 {
            range(&args(&[("end", 1000)])).unwrap();
        }
        assert!(range(&args(&[("end", 1)])).is_err());
        start_face();
        assert!(range(&args(&[("end", 1)])).is_ok());
    }

    #[test]
    fn the_call_past_the_budget_is_found_as_written() {
        let text = "<g>{% for i in range(end=3) %}{% for j in range(end=100000000) %}<rect/>";
        assert_eq!(range_call(text, 100_000_000), Some("range(end=100000000)"));
        assert_eq!(range_call(text, 7), Some("range(end=3)"));
    }

    fn sources(files: &[(&str, &str)]) -> BTreeMap<String, SourceFile> {
        files
            .iter()
            .map(|(n, t)| {
                (
                    n.to_string(),
                    SourceFile::new(format!("templates/{n}.svg"), Arc::from(*t)),
                )
            })
            .collect()
    }

    fn line(p: &Problem) -> String {
        p.location().unwrap_or_default()
    }

    #[test]
    fn a_macro_that_calls_itself_is_refused_at_the_call() {
        let s = sources(&[(
            "card",
            "{% macro f(n) %}\n<g>{{ self::f(n=n+1) }}</g>\n{% endmacro f %}\n{{ self::f(n=0) }}",
        )]);
        let p = recursion(&s, &["card".into()]).expect("refused");
        assert!(line(&p).ends_with("card.svg:2:7"), "{}", line(&p));
        assert!(p.message.contains("self::f"), "{}", p.message);
    }

    #[test]
    fn macros_that_call_each_other_in_a_circle_are_refused() {
        let s = sources(&[(
            "card",
            "{% macro a() %}{{ self::b() }}{% endmacro %}\n{% macro b() %}{{ self::a() }}{% endmacro %}\n{{ self::a() }}",
        )]);
        assert!(recursion(&s, &["card".into()]).is_some());
    }

    #[test]
    fn a_template_that_includes_itself_is_refused() {
        let s = sources(&[
            ("card", "<g/>\n{% include \"part.svg\" %}"),
            ("part", "{% include \"card.svg\" %}"),
        ]);
        assert!(recursion(&s, &["card".into(), "part".into()]).is_some());
    }

    #[test]
    fn macros_calling_other_macros_are_no_recursion() {
        let s = sources(&[
            (
                "card",
                "{% macro a() %}{{ self::b() }}{{ self::b() }}{% endmacro %}\n{% macro b() %}<g/>{% endmacro %}\n{{ self::a() }}{% include \"piece.svg\" %}",
            ),
            ("piece", "<g/>"),
        ]);
        assert!(recursion(&s, &["card".into(), "piece".into()]).is_none());
    }

    #[test]
    fn elements_are_counted() {
        assert_eq!(elements("<g><rect/><!-- x --></g> a < b"), 2);
    }
}
