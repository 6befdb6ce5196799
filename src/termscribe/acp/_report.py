"""The standalone HTML session report: one section per terminal.

Every string from the log is escaped after `display_text`; transcripts come
from the core HTML renderer (`TerminalState.html`).  Element ids are
generated (``terminal-3``), never taken from the log.  A
Content-Security-Policy forbids scripts, frames, images, fonts and
connections, so a report opened from disk cannot act.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from typing import Final

from termscribe import HTML_STYLESHEET

from ._export import IN_MEMORY, TranscriptSource, display_text, exit_summary, tool_call_label
from ._log import SessionLog
from ._terminal import TerminalState

__all__ = ["CSP", "export_html", "iter_html"]

# The core renderer's policy: inline styles (the stylesheet and validated
# #rrggbb colours) and nothing else, no scripts, fetches, forms or <base>.
CSP: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)

_STYLE: Final = """
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e;
  --panel: #f6f8fa; --line: #d1d9e0; --ok: #1a7f37; --fail: #cf222e; --warn: #9a6700; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1;
  --panel: #151b23; --line: #3d444d; --ok: #3fb950; --fail: #f85149; --warn: #d29922; } }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; color: var(--fg);
  background: var(--bg); font: 15px/1.5 system-ui, sans-serif; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
.summary, .facts dt, footer { color: var(--muted); }
nav ol { padding-left: 1.5rem; }
nav a { color: inherit; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
section.terminal { border: 1px solid var(--line); border-radius: 8px; margin: 1.25rem 0;
  overflow: hidden; }
section.terminal h2 { font-size: 1rem; margin: 0; padding: .6rem .9rem; background: var(--panel);
  border-bottom: 1px solid var(--line); display: flex; gap: .6rem; align-items: baseline; }
h2 .command { white-space: pre-wrap; word-break: break-all; flex: 1; }
.prompt { color: var(--muted); }
.badge { font-size: .8rem; font-weight: 600; border-radius: 1rem; padding: .05rem .6rem;
  border: 1px solid currentColor; white-space: nowrap; }
.badge.ok { color: var(--ok); } .badge.fail, .badge.signal { color: var(--fail); }
.badge.exited, .badge.running { color: var(--warn); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem;
  margin: 0; padding: .6rem .9rem; }
.facts dd { margin: 0; word-break: break-all; }
.facts ul { margin: 0; padding: 0; list-style: none; }
.transcript .termscribe { border-radius: 0; border-top: 1px solid var(--line); }
.errors li { font-family: ui-monospace, monospace; word-break: break-all; }
"""


def _e(value: str) -> str:
    return escape(display_text(value), quote=True)


def badge(terminal: TerminalState) -> tuple[str, str]:
    """(css class, label) of the exit badge."""
    status = terminal.exit_status
    if status is None:
        return "running", "no exit status"
    if status.exit_code is not None:
        return ("ok" if status.exit_code == 0 else "fail"), exit_summary(terminal)
    if status.signal is not None:
        return "signal", exit_summary(terminal)
    return "exited", "exited"


def export_html(
    log: SessionLog, terminal_id: str | None = None, *, title: str = "ACP session report"
) -> str:
    """A standalone HTML document reporting the log (call `log.finish()` first)."""
    return "".join(iter_html(log, terminal_id, title=title))


def iter_html(
    log: SessionLog,
    terminal_id: str | None = None,
    source: TranscriptSource = IN_MEMORY,
    *,
    title: str = "ACP session report",
) -> Iterator[str]:
    """`export_html` in pieces, transcripts read from `source`."""
    terminals = log.select(terminal_id)
    sessions = {t.session_id for t in log.store.terminals()}
    yield (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n<style>{_STYLE}{HTML_STYLESHEET}</style>\n"
        "</head>\n<body>\n"
        f'<header>\n<h1>{_e(title)}</h1>\n<p class="summary">{_summary(terminals, sessions)}'
        "</p>\n</header>\n"
    )
    if len(terminals) > 1:
        yield "<nav>\n<ol>\n"
        for number, terminal in enumerate(terminals, 1):
            css, label = badge(terminal)
            yield (
                f'<li><a href="#terminal-{number}">{_command_html(terminal)}</a> '
                f'<span class="badge {css}">{escape(label)}</span></li>\n'
            )
        yield "</ol>\n</nav>\n"
    yield "<main>\n"
    for number, terminal in enumerate(terminals, 1):
        yield _section_head(log, terminal, number, show_session=len(sessions) > 1)
        yield '<div class="transcript">'
        yield from source.html(terminal)
        yield "</div>\n</section>\n"
    yield "</main>\n"
    errors = log.errors_for(terminal_id)
    if errors:
        yield '<section class="errors">\n<h2>Rejected lines</h2>\n<ul>\n'
        for error in errors:
            yield f"<li>line {error.line}: {_e(error.message)}</li>\n"
        yield "</ul>\n</section>\n"
    yield (
        "<footer>Generated by termscribe. Terminal output is untrusted: escape sequences "
        "were interpreted into a transcript, never passed through.</footer>\n"
        "</body>\n</html>\n"
    )


def _summary(terminals: tuple[TerminalState, ...], sessions: set[str | None]) -> str:
    exited = sum(1 for t in terminals if t.exited)
    noun = "terminal" if len(terminals) == 1 else "terminals"
    text = f"{len(terminals)} {noun}, {exited} exited"
    if len(sessions) > 1:
        text += f", {len(sessions)} sessions"
    return text


def _command_html(terminal: TerminalState, css_class: str | None = None) -> str:
    if terminal.command is None:
        return "<em>command not reported</em>"
    attribute = f' class="{css_class}"' if css_class else ""
    return f"<code{attribute}>{escape(display_text(terminal.command, multiline=True))}</code>"


def _section_head(
    log: SessionLog, terminal: TerminalState, number: int, *, show_session: bool
) -> str:
    css, label = badge(terminal)
    facts = [
        ("cwd", "<em>unknown</em>" if terminal.cwd is None else f"<code>{_e(terminal.cwd)}</code>"),
        ("terminal", f"<code>{_e(terminal.terminal_id)}</code>"),
    ]
    if show_session and terminal.session_id is not None:
        facts.append(("session", f"<code>{_e(terminal.session_id)}</code>"))
    if terminal.tool_call_ids:
        items = "".join(
            f"<li>{escape(tool_call_label(log.store, terminal, t))}</li>"
            for t in terminal.tool_call_ids
        )
        facts.append(("tool calls", f"<ul>{items}</ul>"))
    for permission in log.store.permissions_for(terminal):
        subject = permission.subject
        title = _e(permission.title) if permission.title else "permission requested"
        facts.append(
            (
                "permission",
                f"{title}: <code>{escape(display_text(subject.command, multiline=True))}</code>"
                f" in <code>{_e(subject.cwd)}</code>",
            )
        )
    dl = "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in facts)
    return (
        f'<section class="terminal" id="terminal-{number}">\n'
        f'<h2><span class="prompt">$</span> {_command_html(terminal, css_class="command")} '
        f'<span class="badge {css}">{escape(label)}</span></h2>\n'
        f'<dl class="facts">{dl}</dl>\n'
    )
