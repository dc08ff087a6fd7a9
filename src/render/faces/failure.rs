//! Why a template failed to render: tera's error in words, and, for `check`, the typed cause
//! when it is a word `labels.NAME` the face's language does not give (said once, at that
//! language's rules file, not again as the template's failure).

use tera::{Context, Tera};

use crate::diag::Cause;

/// The innermost cause of a rendering error: what went wrong, without tera's framing.
pub(super) fn deepest_cause(e: &tera::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

pub(super) fn error_chain(e: &tera::Error) -> String {
    let mut out = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}

/// The cause of template `file` (`text`) failing with `ctx`, when it is a word it prints
/// from `labels` that `ctx` lacks: the first such word, when the template renders once every
/// one is given. `None` when it prints no missing word, or fails without them too (that
/// failure is then its own cause). Decided by rendering, never by reading tera's words.
pub(super) fn missing_label(tera: &Tera, file: &str, ctx: &Context, text: &str) -> Option<Cause> {
    let labels = ctx.get("labels")?.as_object()?;
    let missing: Vec<String> = crate::render::sheets::boards::label_names(text)
        .into_iter()
        .filter(|w| !labels.contains_key(w))
        .collect();
    let first = missing.first()?.clone();
    let mut given = labels.clone();
    for word in missing {
        given.insert(word.clone(), word.into());
    }
    let mut ctx = ctx.clone();
    ctx.insert("labels", &given);
    super::budget::start_face();
    let mut out = super::budget::Capped::default();
    let rendered = tera.render_to(file, &ctx, &mut out);
    (rendered.is_ok() && !out.over).then_some(Cause::MissingLabel(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(text: &str, labels: &[(&str, &str)]) -> Option<Cause> {
        let mut tera = Tera::default();
        tera.add_raw_template("t.svg", text).unwrap();
        let mut ctx = Context::new();
        let labels: std::collections::BTreeMap<_, _> = labels.iter().copied().collect();
        ctx.insert("labels", &labels);
        assert!(tera.render("t.svg", &ctx).is_err(), "{text} renders");
        missing_label(&tera, "t.svg", &ctx, text)
    }

    #[test]
    fn a_label_the_language_lacks_is_the_cause_only_when_it_is_the_whole_failure() {
        let cause = |w: &str| Some(Cause::MissingLabel(w.into()));
        // Two words missing: the first by name, the failure is theirs.
        let text = "<t>{{ labels.turn }} {{ labels.beats }} {{ labels.given }}</t>";
        assert_eq!(failed(text, &[("given", "x")]), cause("beats"));
        // A word missing, but the template fails without it too: not the label's failure.
        let text = "<t>{{ labels.turn }} {{ nothing_of_the_sort }}</t>";
        assert_eq!(failed(text, &[]), None);
        // No word missing: another failure.
        let text = "<t>{{ labels.given }} {{ other }}</t>";
        assert_eq!(failed(text, &[("given", "x")]), None);
    }
}
