//! The functions card, back, piece and board templates can call, with their arguments: the one
//! list the user's guide's reference is generated from ([`crate::reference`]). A test fails
//! when a function is registered with tera without an entry here.

/// One argument of a template function.
#[derive(Debug, Clone, Copy)]
pub struct Arg {
    pub name: &'static str,
    /// The value used when the call leaves it out; `None`: the call must give it.
    pub default: Option<&'static str>,
    pub doc: &'static str,
}

/// One template function.
#[derive(Debug, Clone, Copy)]
pub struct Function {
    pub name: &'static str,
    pub doc: &'static str,
    pub args: &'static [Arg],
}

const fn req(name: &'static str, doc: &'static str) -> Arg {
    Arg {
        name,
        default: None,
        doc,
    }
}

const fn opt(name: &'static str, default: &'static str, doc: &'static str) -> Arg {
    Arg {
        name,
        default: Some(default),
        doc,
    }
}

const X: Arg = req(
    "x",
    "Left edge of the box, in mm from the trim's left edge.",
);
const Y: Arg = req("y", "Top edge of the box, in mm from the trim's top edge.");
const W: Arg = req("w", "Width of the box, in mm.");
const H: Arg = req("h", "Height of the box, in mm.");
const CX: Arg = req("cx", "Centre, in mm from the trim's left edge.");
const CY: Arg = req("cy", "Centre, in mm from the trim's top edge.");
const R: Arg = req("r", "Radius, in mm.");
const SYMBOL: Arg = req(
    "symbol",
    "A symbol's id from `components.toml` (usually a field: `card.fields.colour`).",
);

/// Every function a template can call.
pub const FUNCTIONS: &[Function] = &[
    Function {
        name: "text",
        doc: "Wraps and shrinks text to fit a box. `[symbol-id]` in the text draws that symbol inline on the baseline; a newline (or `\\n` written in the template) breaks the line. Text that does not fit at `min` makes `check` and `build` fail for that card, naming it.",
        args: &[
            opt("text", "\"\"", "The text (usually a field: `card.text`)."),
            X,
            Y,
            W,
            H,
            req("size", "The type size to start from, in mm."),
            opt(
                "min",
                "0.6 x size",
                "The smallest size it may shrink to, in mm; never below the game's `min_text_pt` (6 pt by default).",
            ),
            opt(
                "face",
                "\"sans\"",
                "`sans`, `bold`, `serif-italic`, or a face of the game's `fonts/` folder by family and style (`\"Family\"`, `\"Family Bold\"`).",
            ),
            opt("align", "\"start\"", "`start`, `middle` or `end`."),
            opt("fill", "\"#1a1a1a\"", "The text's colour."),
            opt("leading", "1.2", "Line height as a multiple of the size."),
            opt(
                "what",
                "\"text\"",
                "What the text is, in the message when it does not fit (`\"the card's rules text\"`).",
            ),
        ],
    },
    Function {
        name: "badge",
        doc: "A disc in the symbol's colour with its mark, so that meaning never rests on colour alone.",
        args: &[SYMBOL, CX, CY, R],
    },
    Function {
        name: "mark",
        doc: "The symbol's mark in the symbol's colour, without the disc.",
        args: &[SYMBOL, CX, CY, R],
    },
    Function {
        name: "texture",
        doc: "The symbol's mark repeated faintly over a field of its colour.",
        args: &[
            SYMBOL,
            X,
            Y,
            W,
            H,
            opt("step", "8", "Distance between the repeated marks, in mm."),
        ],
    },
    Function {
        name: "ink",
        doc: "Black or white, whichever reads on the given colour (for text over a coloured field).",
        args: &[req("colour", "The background colour, `#rrggbb`.")],
    },
    Function {
        name: "cycle",
        doc: "Symbols round a circle with an arrow from each pair's first symbol to its second (an element cycle from a `[[winner, loser], ...]` parameter).",
        args: &[
            req("pairs", "A list of `[winner, loser]` symbol ids."),
            CX,
            CY,
            R,
        ],
    },
    Function {
        name: "image",
        doc: "Art from the game's folder placed in a box. An empty `src` draws nothing; art outside the game's folder, or printed below 200 dpi, is reported by `check`.",
        args: &[
            req(
                "src",
                "A path relative to the game's folder (usually an image field: `card.fields.art`, `piece.image`).",
            ),
            X,
            Y,
            W,
            H,
            opt(
                "fit",
                "\"contain\"",
                "`contain` (the whole image), `cover` (fills the box, cropped) or `stretch`.",
            ),
            opt(
                "anchor",
                "\"center\"",
                "`center`, `top`, `bottom`, `left`, `right`, `top-left`, `top-right`, `bottom-left` or `bottom-right`.",
            ),
        ],
    },
    Function {
        name: "range",
        doc: "The whole numbers from `start` up to (not including) `end`, `step_by` apart, for `{% for i in range(end=3) %}`. It replaces tera's own `range`: all the `range` calls of one face together give at most 10,000 numbers (the limits page says why), and a call past that makes `check` and `build` fail at the template's line.",
        args: &[
            opt("start", "0", "The first number."),
            req("end", "The number to stop before."),
            opt("step_by", "1", "The step between numbers, 1 or more."),
        ],
    },
];

#[cfg(test)]
mod tests {
    use super::FUNCTIONS;

    /// Every `register_function("name", ...)` in the renderer has its entry (the functions
    /// whose names start with `__` are the renderer's own, not the designer's).
    /// The reference states `range`'s bound as the limits module has it.
    #[test]
    fn the_documented_range_bound_is_the_one_enforced() {
        let range = FUNCTIONS.iter().find(|f| f.name == "range").expect("range");
        let n = crate::limits::TEMPLATE_RANGE_ITEMS;
        let written = format!("{},{:03}", n / 1000, n % 1000);
        assert!(
            range.doc.contains(&written),
            "{written} not in {}",
            range.doc
        );
    }

    #[test]
    fn every_registered_function_is_documented() {
        let sources = [
            include_str!("template.rs"),
            include_str!("subscript.rs"),
            include_str!("mod.rs"),
        ];
        let mut registered = Vec::new();
        for src in sources {
            for (at, _) in src.match_indices("register_function(") {
                let rest = src[at + "register_function(".len()..].trim_start();
                if let Some(lit) = rest.strip_prefix('"') {
                    let name = &lit[..lit.find('"').unwrap_or(0)];
                    registered.push(name.to_string());
                }
            }
        }
        assert!(registered.len() >= 7, "found {registered:?}");
        for name in &registered {
            assert!(
                FUNCTIONS.iter().any(|f| f.name == name),
                "template function `{name}` is registered but not documented in render/functions.rs"
            );
        }
        for f in FUNCTIONS {
            assert!(
                registered.iter().any(|r| r == f.name),
                "`{}` is documented but no longer registered",
                f.name
            );
            assert!(!f.doc.trim().is_empty() && f.args.iter().all(|a| !a.doc.is_empty()));
        }
    }
}
