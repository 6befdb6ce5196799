"""The renderers: lines of styled runs as text, HTML and safe ANSI.

``_text`` renders plain text; ``_html`` HTML, with its colours and stylesheet
in ``_theme``; ``_ansi`` safe ANSI. What the HTML and ANSI renderers share:
``_urls`` (which link targets are shown, and in what form) and ``_contrast``
(the foreground that keeps text readable on its background).

This file imports nothing, so that rendering text loads neither the HTML nor
the ANSI renderer: callers import the submodule they need. It holds the names
of the HTML themes, which the command line offers without building the
stylesheet.
"""

#: Page themes: "auto" follows the viewer's ``prefers-color-scheme``;
#: "light" and "dark" fix one (for recordings made on a dark terminal, say).
THEMES = ("auto", "light", "dark")
