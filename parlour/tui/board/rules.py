"""A game's rules for the terminal, read from the rules page the browser shows
(``parlour/web/help/GAME.html``): one text for both, turned here into styled terminal text.

A figure's diagram is drawn by the page's script in the browser; for the terminal the figure holds
a ``<template class="text-diagram">`` (never shown by a browser): the board as the terminal's
board draws it, shown here above the figure's caption."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from importlib import resources

from rich.style import Style
from rich.text import Text

HEADING = Style(bold=True, underline=True)
RULE_ID = Style(dim=True)
DIAGRAM = Style(bold=True)
BLOCKS = {"p", "li", "h1", "h2", "h3", "figcaption", "dt", "dd", "tr"}


def rules_page(name: str) -> str | None:
    """The HTML of the game's rules page, ``None`` when it has none."""
    page = resources.files("parlour") / "web" / "help" / f"{name}.html"
    return page.read_text(encoding="utf-8") if page.is_file() else None


class _Reader(HTMLParser):
    """Collects the page's body (the part after the contents list) as styled paragraphs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text = Text()
        self.inside = False
        self.depth = 0
        self.styles: list[tuple[str, Style | None]] = []
        self.lists: list[list[int]] = []
        self.line = Text()
        self.diagram: list[str] | None = None
        """The text diagram being read, line by line as written."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if "help-body" in classes:
            self.inside = True
        if not self.inside:
            return
        if tag == "template" and "text-diagram" in classes:
            self.flush()
            self.diagram = []
            return
        if tag in ("ol", "ul"):
            self.lists.append([1 if tag == "ol" else 0])
        if tag in BLOCKS:
            self.flush()
        if tag == "li" and self.lists:
            counter = self.lists[-1]
            indent = "  " * (len(self.lists) - 1)
            self.line.append(f"{indent}{counter[0]}. " if counter[0] else f"{indent}• ")
            if counter[0]:
                counter[0] += 1
        elif tag == "figcaption":
            self.line.append("Diagram: ", Style(italic=True))
        elif tag in ("td", "th") and self.line.plain:
            self.line.append("  ")
        style: Style | None = None
        if tag in ("h1", "h2", "h3"):
            style = HEADING
        elif tag in ("strong", "b", "th"):
            style = Style(bold=True)
        elif tag in ("em", "i"):
            style = Style(italic=True)
        elif "rule-id" in classes:
            style = RULE_ID
            self.line.append(" (", RULE_ID)
        self.styles.append((tag, style))

    def handle_endtag(self, tag: str) -> None:
        if not self.inside:
            return
        if tag == "template" and self.diagram is not None:
            lines = "".join(self.diagram).strip("\n").splitlines()
            self.text.append("\n".join(line.rstrip() for line in lines if line.strip()) + "\n\n", DIAGRAM)
            self.diagram = None
            return
        while self.styles:
            opened, style = self.styles.pop()
            if style is RULE_ID:
                self.line.append(")", RULE_ID)
            if opened == tag:
                break
        if tag in ("ol", "ul") and self.lists:
            self.lists.pop()
        if tag in BLOCKS:
            self.flush(gap=tag not in ("li", "tr", "dt"))
        if tag == "main":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if not self.inside:
            return
        if self.diagram is not None:
            self.diagram.append(data)
            return
        words = re.sub(r"\s+", " ", data)
        if not self.line.plain or self.line.plain.endswith((" ", "• ", ". ")):
            words = words.lstrip()
        style = next((s for _, s in reversed(self.styles) if s is not None), None)
        self.line.append(words, style or Style())

    def flush(self, gap: bool = False) -> None:
        line = self.line
        line.rstrip()
        if line.plain:
            self.text.append_text(line)
            self.text.append("\n\n" if gap else "\n")
        self.line = Text()


def rules_text(name: str, title: str) -> Text:
    """The rules of the game ``name`` as terminal text."""
    page = rules_page(name)
    if page is None:
        return Text(f"{title} has no rules page yet.")
    reader = _Reader()
    reader.feed(page)
    reader.flush()
    reader.text.rstrip()
    return reader.text
