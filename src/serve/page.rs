//! The pages' files, compiled into the binary: no build step and nothing fetched at run time.
//! Scripts and styles are separate files (the policy allows no inline script or style), and
//! every text from the game reaches the page through `textContent`, never as HTML.

pub const HOME: &str = include_str!("page/home.html");
pub const TABLE: &str = include_str!("page/table.html");
pub const FORBIDDEN: &str = include_str!("page/forbidden.html");

/// A script or style by its name, with its content type.
pub fn asset(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "table.js" => (
            "text/javascript; charset=utf-8",
            include_str!("page/table.js"),
        ),
        "home.js" => (
            "text/javascript; charset=utf-8",
            include_str!("page/home.js"),
        ),
        "table.css" => ("text/css; charset=utf-8", include_str!("page/table.css")),
        // The free table's view, drawn after table.js renders a view (`printplay:render`).
        "free.js" => (
            "text/javascript; charset=utf-8",
            include_str!("page/free.js"),
        ),
        // Dragging at the free table (pointer events), told to free.js as events.
        "free-drag.js" => (
            "text/javascript; charset=utf-8",
            include_str!("page/free-drag.js"),
        ),
        "free.css" => ("text/css; charset=utf-8", include_str!("page/free.css")),
        // Chat, notes, presence and the turn told in the title and icon, drawn after table.js
        // renders a view (`printplay:render`).
        "voices.js" => (
            "text/javascript; charset=utf-8",
            include_str!("page/voices.js"),
        ),
        "voices.css" => ("text/css; charset=utf-8", include_str!("page/voices.css")),
        "icon.svg" => ("image/svg+xml", include_str!("page/icon.svg")),
        "icon-turn.svg" => ("image/svg+xml", include_str!("page/icon-turn.svg")),
        _ => return None,
    })
}
