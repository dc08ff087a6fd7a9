//! Subscripts in templates (`card.fields[key]`, `symbols[value]`, `x["Kenttä"]`) looked up by
//! value, never through a path of text.
//!
//! tera 1 evaluates `a[b]` by pasting the value of `b` into a path (`a."<value>"`) and parsing
//! that path again. Its path parser counts characters where it slices bytes, so a value with a
//! character outside ASCII before a delimiter panics inside tera (`5 €`, `Kenttä`, a field
//! named `Määrä`), and a value holding a quote, a bracket or a dot finds the wrong entry or
//! none. A card's field names and values and a symbol's id are the designer's data, and
//! templates subscript by them all the time (`basic-card` does), so every parsed template has
//! each subscripted name rewritten into calls of [`LOOKUP`], which indexes the value itself:
//! whatever a value holds, it is a key, never syntax. What tera did with a name it could not
//! find is kept: an error where a value is needed, false in a condition (and `not` of it
//! true), the `default` filter's value where one is given.
//!
//! A test on a subscripted name (`x[k] is defined`) keeps its name as text in tera's syntax
//! tree and cannot be rewritten; such a template is refused when it is parsed, with the way
//! to write it instead.

use std::collections::HashMap;

use serde_json::Value;
use tera::ast::{Expr, ExprVal, FunctionCall, LogicOperator, Node};

/// The function a subscript becomes: `base[key]`, with `strict`, `path` (the name as the
/// template wrote it, for errors) and an optional `default`.
pub const LOOKUP: &str = "__printplay_subscript";
/// Truthiness of a value, as tera's conditions judge it, for a subscript in a condition.
pub const TRUTHY: &str = "__printplay_truthy";

/// What a template holds that cannot be drawn safely: the text to point at (empty: none),
/// what is wrong and what to write instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub needle: String,
    pub message: String,
    pub help: String,
}

/// Registers the functions the rewritten templates call.
pub fn register(tera: &mut tera::Tera) {
    tera.register_function(LOOKUP, lookup);
    tera.register_function(TRUTHY, |a: &HashMap<String, Value>| {
        Ok(Value::Bool(a.get("value").is_some_and(truthy)))
    });
}

/// Rewrites every subscripted name of a parsed template (its body, blocks and macros);
/// refuses a test on a subscript, which cannot be rewritten, and a number tera cannot hold.
pub fn rewrite(template: &mut tera::Template) -> Result<(), Refusal> {
    nodes(&mut template.ast)?;
    for block in template.blocks.values_mut() {
        nodes(&mut block.body)?;
    }
    for def in template.macros.values_mut() {
        macro_definition(def)?;
    }
    Ok(())
}

fn macro_definition(def: &mut tera::ast::MacroDefinition) -> Result<(), Refusal> {
    for default in def.args.values_mut().flatten() {
        value(default)?;
    }
    nodes(&mut def.body)
}

fn nodes(list: &mut [Node]) -> Result<(), Refusal> {
    for node in list {
        match node {
            Node::VariableBlock(_, e) => value(e)?,
            Node::MacroDefinition(_, def, _) => macro_definition(def)?,
            Node::Set(_, set) => value(&mut set.value)?,
            Node::FilterSection(_, section, _) => {
                call_args(&mut section.filter)?;
                nodes(&mut section.body)?;
            }
            Node::Block(_, block, _) => nodes(&mut block.body)?,
            Node::Forloop(_, each, _) => {
                value(&mut each.container)?;
                nodes(&mut each.body)?;
                if let Some(body) = &mut each.empty_body {
                    nodes(body)?;
                }
            }
            Node::If(branches, _) => {
                for (_, condition, body) in &mut branches.conditions {
                    condition_expr(condition)?;
                    nodes(body)?;
                }
                if let Some((_, body)) = &mut branches.otherwise {
                    nodes(body)?;
                }
            }
            Node::Super
            | Node::Text(_)
            | Node::Extends(..)
            | Node::Include(..)
            | Node::ImportMacro(..)
            | Node::Raw(..)
            | Node::Break(_)
            | Node::Continue(_)
            | Node::Comment(..) => {}
        }
    }
    Ok(())
}

fn call_args(call: &mut FunctionCall) -> Result<(), Refusal> {
    for arg in call.args.values_mut() {
        value(arg)?;
    }
    Ok(())
}

fn subscripted(name: &str) -> bool {
    name.contains('[')
}

/// An expression whose value is used (printed, assigned, passed, compared).
fn value(e: &mut Expr) -> Result<(), Refusal> {
    for filter in &mut e.filters {
        call_args(filter)?;
    }
    if let ExprVal::Ident(name) = &e.val
        && subscripted(name)
    {
        let name = name.clone();
        let default = take_default(e)?;
        // `not x[k]` of a missing entry is true in tera, not an error.
        let strict = !e.negated && default.is_none();
        e.val = lookup_expr(&name, strict, default)?;
        return Ok(());
    }
    inner(&mut e.val)
}

/// An expression judged true or false (an `if`, `and`, `or`): a missing name is false.
fn condition_expr(e: &mut Expr) -> Result<(), Refusal> {
    match &mut e.val {
        ExprVal::Ident(name) if subscripted(name) => {
            let name = name.clone();
            let default = take_default(e)?;
            let mut probe = Expr {
                val: lookup_expr(&name, false, default)?,
                negated: false,
                filters: std::mem::take(&mut e.filters),
            };
            for filter in &mut probe.filters {
                call_args(filter)?;
            }
            e.val = ExprVal::FunctionCall(FunctionCall {
                name: TRUTHY.to_string(),
                args: HashMap::from([("value".to_string(), probe)]),
            });
            Ok(())
        }
        ExprVal::Logic(logic)
            if matches!(logic.operator, LogicOperator::And | LogicOperator::Or) =>
        {
            condition_expr(&mut logic.lhs)?;
            condition_expr(&mut logic.rhs)?;
            for filter in &mut e.filters {
                call_args(filter)?;
            }
            Ok(())
        }
        _ => value(e),
    }
}

/// The parts of an expression that are not its own name.
fn inner(val: &mut ExprVal) -> Result<(), Refusal> {
    match val {
        ExprVal::Math(m) => {
            value(&mut m.lhs)?;
            value(&mut m.rhs)
        }
        ExprVal::Logic(l) => {
            if matches!(l.operator, LogicOperator::And | LogicOperator::Or) {
                condition_expr(&mut l.lhs)?;
                condition_expr(&mut l.rhs)
            } else {
                value(&mut l.lhs)?;
                value(&mut l.rhs)
            }
        }
        ExprVal::Test(test) => {
            if subscripted(&test.ident) {
                return Err(Refusal {
                    needle: test.ident.clone(),
                    message: format!(
                        "`{} is ...` tests a subscripted name, which templates cannot do",
                        test.ident
                    ),
                    help: format!(
                        "look it up first and test that: `{{% set v = {} | default(value=\"\") %}}`, \
                         or test the key: `key in map`",
                        test.ident
                    ),
                });
            }
            test.args.iter_mut().try_for_each(value)
        }
        ExprVal::MacroCall(call) => call.args.values_mut().try_for_each(value),
        ExprVal::FunctionCall(call) => call_args(call),
        ExprVal::Array(items) => items.iter_mut().try_for_each(value),
        ExprVal::StringConcat(concat) => {
            for part in &mut concat.values {
                if let ExprVal::Ident(name) = part
                    && subscripted(name)
                {
                    *part = lookup_expr(&name.clone(), true, None)?;
                }
            }
            Ok(())
        }
        ExprVal::In(test) => {
            value(&mut test.lhs)?;
            value(&mut test.rhs)
        }
        // tera panics on a number it cannot hold (a literal past f64's range reads as infinity).
        ExprVal::Float(f) if !f.is_finite() => Err(Refusal {
            needle: String::new(),
            message: "a number written in the template is too large to compute with".to_string(),
            help: "numbers in templates must be within ±1.7e308".to_string(),
        }),
        ExprVal::String(_)
        | ExprVal::Int(_)
        | ExprVal::Float(_)
        | ExprVal::Bool(_)
        | ExprVal::Ident(_) => Ok(()),
    }
}

/// Removes a leading `default(value=...)` filter (tera honours only a first one) and returns
/// its value.
fn take_default(e: &mut Expr) -> Result<Option<Expr>, Refusal> {
    if e.filters.first().is_none_or(|f| f.name != "default") {
        return Ok(None);
    }
    let mut filter = e.filters.remove(0);
    let Some(mut default) = filter.args.remove("value") else {
        // tera's own error (`default` needs a `value`) stays.
        e.filters.insert(0, filter);
        return Ok(None);
    };
    // A default that is itself a subscript is looked up by value too.
    value(&mut default)?;
    Ok(Some(default))
}

/// One step of a subscripted name: `.name`, `[literal]` or `[name]`.
enum Step {
    Key(String),
    Index(i64),
    Name(String),
}

/// Splits `a.b[c].d["e"][f[g]]` into its static head (`a.b`) and the steps after it.
fn split(name: &str) -> Option<(String, Vec<Step>)> {
    let head_end = name.find('[')?;
    let head = name[..head_end].to_string();
    let mut steps = Vec::new();
    let mut rest = &name[head_end..];
    while let Some(c) = rest.chars().next() {
        match c {
            '.' => {
                let end = rest[1..].find(['.', '[']).map_or(rest.len(), |i| i + 1);
                steps.push(Step::Key(rest[1..end].to_string()));
                rest = &rest[end..];
            }
            '[' => {
                let body = &rest[1..];
                let (step, used) = match body.chars().next()? {
                    q @ ('"' | '\'' | '`') => {
                        let close = body[1..].find(q)? + 1;
                        let after = body[close + 1..].strip_prefix(']')?;
                        let used = body.len() - after.len();
                        (Step::Key(body[1..close].to_string()), used)
                    }
                    _ => {
                        // Up to the bracket that closes this one.
                        let mut depth = 0usize;
                        let close = body.char_indices().find_map(|(i, c)| match c {
                            '[' => {
                                depth += 1;
                                None
                            }
                            ']' if depth == 0 => Some(i),
                            ']' => {
                                depth -= 1;
                                None
                            }
                            _ => None,
                        })?;
                        let inside = &body[..close];
                        let step = match inside.parse::<i64>() {
                            Ok(n) => Step::Index(n),
                            Err(_) => Step::Name(inside.to_string()),
                        };
                        (step, close + 1)
                    }
                };
                steps.push(step);
                rest = &body[used..];
            }
            _ => return None,
        }
    }
    Some((head, steps))
}

fn lenient(name: &str) -> Expr {
    // tera's `default` turns a name it cannot find into the given value: `false` here, which
    // has no entries, so the lookup after it finds nothing either.
    Expr::with_filters(
        ExprVal::Ident(name.to_string()),
        vec![FunctionCall {
            name: "default".to_string(),
            args: HashMap::from([("value".to_string(), Expr::new(ExprVal::Bool(false)))]),
        }],
    )
}

/// The calls of [`LOOKUP`] that evaluate a subscripted name.
fn lookup_expr(name: &str, strict: bool, default: Option<Expr>) -> Result<ExprVal, Refusal> {
    let (head, steps) = split(name).ok_or_else(|| Refusal {
        needle: name.to_string(),
        message: format!("cannot read the name `{name}`"),
        help: "write a name as `a.b`, `a[key]` or `a[\"text\"]`".to_string(),
    })?;
    let mut current = if strict {
        Expr::new(ExprVal::Ident(head))
    } else {
        lenient(&head)
    };
    let count = steps.len();
    for (i, step) in steps.into_iter().enumerate() {
        let key = match step {
            Step::Key(k) => Expr::new(ExprVal::String(k)),
            Step::Index(n) => Expr::new(ExprVal::Int(n)),
            Step::Name(inner) if subscripted(&inner) => {
                Expr::new(lookup_expr(&inner, strict, None)?)
            }
            Step::Name(inner) if strict => Expr::new(ExprVal::Ident(inner)),
            Step::Name(inner) => lenient(&inner),
        };
        let mut args = HashMap::from([
            ("base".to_string(), current),
            ("key".to_string(), key),
            ("strict".to_string(), Expr::new(ExprVal::Bool(strict))),
            (
                "path".to_string(),
                Expr::new(ExprVal::String(name.to_string())),
            ),
        ]);
        if i + 1 == count
            && let Some(d) = &default
        {
            args.insert("default".to_string(), d.clone());
        }
        current = Expr::new(ExprVal::FunctionCall(FunctionCall {
            name: LOOKUP.to_string(),
            args,
        }));
    }
    Ok(current.val)
}

/// `base[key]`: an object's entry by name, a list's by position.
fn lookup(a: &HashMap<String, Value>) -> tera::Result<Value> {
    let strict = a.get("strict").and_then(Value::as_bool).unwrap_or(true);
    let path = a.get("path").and_then(Value::as_str).unwrap_or("?");
    let default = a.get("default");
    let missing = |why: String| match default {
        Some(d) => Ok(d.clone()),
        None if strict => Err(tera::Error::msg(why)),
        None => Ok(Value::Null),
    };
    let key = match a.get("key") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        other => {
            return missing(format!(
                "`{path}`: only a text or a number can be a subscript, found {}",
                other.unwrap_or(&Value::Null)
            ));
        }
    };
    let found = match a.get("base") {
        Some(Value::Object(map)) => map.get(&key),
        Some(Value::Array(list)) => index(&key).and_then(|i| list.get(i)),
        _ => None,
    };
    match found {
        Some(Value::Null) if default.is_some() => Ok(default.cloned().unwrap_or(Value::Null)),
        Some(v) => Ok(v.clone()),
        None => missing(format!("`{path}` not found: there is no `{key}`")),
    }
}

/// A list position as tera reads one: digits, no sign, no leading zero.
fn index(s: &str) -> Option<usize> {
    if s.starts_with('+') || (s.starts_with('0') && s.len() != 1) {
        return None;
    }
    s.parse().ok()
}

/// Whether tera's conditions take a value for true.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Renders `body` as tera parses it, or rewritten.
    fn render(body: &str, ctx: &Value, rewritten: bool) -> Result<String, String> {
        let ctx = tera::Context::from_value(ctx.clone()).unwrap();
        let mut t = tera::Template::new("t", None, body).map_err(|e| e.to_string())?;
        if rewritten {
            rewrite(&mut t).map_err(|r| r.message)?;
        }
        let mut tera = tera::Tera::default();
        tera.autoescape_on(vec!["t"]);
        register(&mut tera);
        tera.templates.insert("t".to_string(), t);
        tera.build_inheritance_chains().map_err(|e| e.to_string())?;
        tera.render("t", &ctx).map_err(|e| {
            let mut cause: &dyn std::error::Error = &e;
            while let Some(next) = cause.source() {
                cause = next;
            }
            cause.to_string()
        })
    }

    fn both(body: &str, ctx: &Value) -> (Result<String, String>, Result<String, String>) {
        (render(body, ctx, false), render(body, ctx, true))
    }

    fn same(body: &str, ctx: Value) -> String {
        let (tera, ours) = both(body, &ctx);
        assert_eq!(tera, ours, "{body}");
        ours.unwrap()
    }

    #[test]
    fn ascii_subscripts_render_as_tera_renders_them() {
        let ctx = json!({
            "m": {"a": 1, "b": "x<y", "n": null, "o": {"deep": [10, 20, 30]}, "e": ""},
            "k": "a", "kb": "b", "kn": "n", "ko": "o", "i": 1, "list": ["p", "q"],
            "keys": {"first": "a"}
        });
        let cases = [
            ("{{ m[k] }}", "1"),
            ("{{ m[kb] }}", "x&lt;y"),
            ("{{ m[kb] | safe }}", "x<y"),
            ("{{ m[\"a\"] }}", "1"),
            ("{{ m['b'] | upper }}", "X&lt;Y"),
            ("{{ m[ko].deep[i] }}", "20"),
            ("{{ m.o.deep[2] }}", "30"),
            ("{{ list[i] }}", "q"),
            ("{{ m[keys.first] }}", "1"),
            ("{{ m[keys[\"first\"]] }}", "1"),
            ("{% if m[k] %}yes{% endif %}", "yes"),
            ("{% if m.zz[k] %}yes{% else %}no{% endif %}", "no"),
            ("{% if m[\"zz\"] %}yes{% else %}no{% endif %}", "no"),
            ("{% if not m[\"zz\"] %}yes{% endif %}", "yes"),
            ("{% if m[\"e\"] or m[k] %}yes{% endif %}", "yes"),
            ("{% if m[\"e\"] and m[k] %}yes{% else %}no{% endif %}", "no"),
            ("{% if m[k] == 1 %}one{% endif %}", "one"),
            ("{% if m[k] > 0 %}pos{% endif %}", "pos"),
            ("{{ m[\"zz\"] | default(value=\"d\") }}", "d"),
            ("{{ m[kn] | default(value=\"d\") }}", "d"),
            ("{% set v = m[kb] %}{{ v }}", "x&lt;y"),
            ("{% for x in m[ko].deep %}{{ x }},{% endfor %}", "10,20,30,"),
            ("{{ m[k] + 2 }}", "3"),
            ("{% if k in m %}in{% endif %}", "in"),
            ("{{ not m[\"zz\"] }}", "true"),
        ];
        for (body, want) in cases {
            assert_eq!(same(body, ctx.clone()), want, "{body}");
        }
        // One difference: tera leaves a concatenation of names unescaped; a subscript in one
        // is escaped like any printed value, which is what an SVG needs.
        let ours = render("{{ \"v\" ~ m[k] ~ m[kb] }}", &ctx, true);
        assert_eq!(ours.unwrap(), "v1x&lt;y");
    }

    #[test]
    fn a_missing_subscript_is_an_error_naming_it() {
        let (tera, ours) = both("{{ m[k] }}", &json!({"m": {}, "k": "zz"}));
        assert!(tera.is_err());
        let e = ours.unwrap_err();
        assert!(e.contains("`m[k]`") && e.contains("`zz`"), "{e}");
    }

    #[test]
    fn any_text_is_a_key_by_value() {
        for key in [
            "5 €",
            "Kenttä",
            "ä",
            "a\"b",
            "a'b",
            "a.b",
            "a]b",
            "[x]",
            "a/b",
            "~0",
            "日本語",
            "",
            "\u{0}",
            "{{",
            "e\u{301}",
            "שלום",
            "👍🏽",
        ] {
            let ctx = json!({"m": {key: "found", "a": "wrong"}, "k": key});
            let ours = render("{{ m[k] }}|{% if m[k] %}t{% endif %}", &ctx, true);
            assert_eq!(ours.unwrap(), "found|t", "{key:?}");
            let missing = json!({"m": {}, "k": key});
            let ours = render("{% if m[k] %}t{% else %}f{% endif %}", &missing, true);
            assert_eq!(ours.unwrap(), "f", "{key:?}");
        }
        // A literal key outside ASCII, as a template may write it.
        let ours = render("{{ m[\"Kenttä\"] }}", &json!({"m": {"Kenttä": 3}}), true);
        assert_eq!(ours.unwrap(), "3");
    }

    #[test]
    fn a_test_on_a_subscript_is_refused() {
        let mut t = tera::Template::new("t", None, "{% if m[k] is defined %}x{% endif %}").unwrap();
        assert_eq!(rewrite(&mut t).unwrap_err().needle, "m[k]");
        // tera writes no exponent: 1 and 400 zeros reads as infinity.
        let huge = format!("{{{{ 2 * 1{}.0 }}}}", "0".repeat(400));
        let mut t = tera::Template::new("t", None, &huge).unwrap();
        assert!(rewrite(&mut t).unwrap_err().message.contains("too large"));
    }

    #[test]
    fn macros_and_blocks_are_rewritten() {
        let body = "{% macro f(m, k) %}{{ m[k] }}{% endmacro f %}{% block b %}{{ self::f(m=m, k=k) }}{% endblock b %}";
        let ctx = json!({"m": {"Kenttä": "ok"}, "k": "Kenttä"});
        assert_eq!(render(body, &ctx, true).unwrap(), "ok");
    }
}
