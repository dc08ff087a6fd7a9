#!/usr/bin/env python3
"""Renders each Markdown file named on the command line with two real CommonMark
implementations, in their most permissive settings (raw HTML passed through, every link
target allowed), so that whatever the file itself lets through shows up in the HTML:
cmark-gfm (GitHub's C implementation, through cmarkgfm) and markdown-it (through
markdown-it-py, the port of the JavaScript markdown-it). Prints one JSON object:
{file: {"cmark-gfm": html, "markdown-it": html}}. Exit 3 when a renderer is missing."""
import json
import sys

try:
    import cmarkgfm
    from cmarkgfm.cmark import Options
    from markdown_it import MarkdownIt
except ImportError as e:  # the test skips
    print(f"missing renderer: {e}", file=sys.stderr)
    sys.exit(3)

md = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")
md.validateLink = lambda url: True

out = {}
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out[path] = {
        # GitHub's tables and strikethrough, without its tag filter (which would hide a leak).
        "cmark-gfm": cmarkgfm.markdown_to_html_with_extensions(
            text, options=Options.CMARK_OPT_UNSAFE, extensions=["table", "strikethrough", "autolink"]
        ),
        "markdown-it": md.render(text),
    }
json.dump(out, sys.stdout)
