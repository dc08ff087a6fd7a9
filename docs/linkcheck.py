#!/usr/bin/env python3
"""Checks every internal link of the built book: each relative href or src names a file that
exists, and each #fragment an id of its page. External links are not fetched (CI has no
network to them). Usage: python3 docs/linkcheck.py docs/book"""
import html.parser
import os
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name == "name" and tag == "a" and value:
                self.ids.add(value)
            if name in ("href", "src") and value is not None:
                self.links.append(value)


def parse(path, cache={}):
    if path not in cache:
        p = Page()
        with open(path, encoding="utf-8") as f:
            p.feed(f.read())
        cache[path] = p
    return cache[path]


def main(root):
    problems, checked = [], 0
    for dirpath, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".html") or name in ("print.html", "404.html"):
                continue
            path = os.path.join(dirpath, name)
            for link in parse(path).links:
                url = urllib.parse.urlsplit(link)
                if url.scheme or link.startswith("//") or link.startswith("mailto:"):
                    continue
                target = path
                if url.path:
                    target = os.path.normpath(
                        os.path.join(dirpath, urllib.parse.unquote(url.path))
                    )
                    if os.path.isdir(target):
                        target = os.path.join(target, "index.html")
                checked += 1
                if not os.path.exists(target):
                    problems.append(f"{path}: {link}: no such file")
                    continue
                if url.fragment and target.endswith(".html"):
                    if urllib.parse.unquote(url.fragment) not in parse(target).ids:
                        problems.append(f"{path}: {link}: no id #{url.fragment}")
    for p in problems:
        print(p)
    print(f"{checked} internal links checked, {len(problems)} broken")
    if checked < 50:
        print("too few links: is this the built book?")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/book"))
