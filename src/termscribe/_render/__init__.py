"""The renderers: lines of styled runs as text, HTML and safe ANSI.

``_text`` renders plain text; ``_html`` HTML, with its colours and stylesheet
in ``_theme``; ``_ansi`` safe ANSI. What the HTML and ANSI renderers share:
``_urls`` (which link targets are shown, and in what form) and ``_contrast``
(the foreground that keeps text readable on its background).

This file imports nothing, so that rendering text loads neither the HTML nor
the ANSI renderer: callers import the submodule they need.
"""
