"""Which OSC 8 hyperlink targets may be shown as links, and in what form.

A program chooses its link targets freely, so a target is untrusted text. It
becomes a link only if, after normalisation, it is an absolute ``http`` or
``https`` URL with a plain host (or a bare ``mailto:`` address). Anything else
keeps its text and loses its link.

The result is *rebuilt* from the parts that were checked, never passed on as
received: the scheme and host lower-cased, the host in IDNA (``xn--``) form,
every other character outside a small ASCII set percent-encoded. So the href a
browser or terminal sees is exactly the URL that was validated, is pure
printable ASCII, and can serve as the visible "real target" of a link (an IDN
homograph shows up as ``xn--``, a bidi control as ``%E2%80%AE``).

Normalisation follows the WHATWG URL parser where it is lenient, so no
disguise gets past the check: leading and trailing C0 controls and spaces are
stripped and ASCII tab and newline are removed everywhere (``java\\tscript:``
is ``javascript:``); a backslash ends the authority as ``/`` does.

Rejected on purpose:

* every scheme but http, https and mailto (javascript:, vbscript:, data:,
  file:, custom app schemes), and relative or scheme-relative (``//host``)
  targets, which would resolve against wherever the transcript is shown;
* ``https:host`` and ``https:/host``, which browsers repair but no program
  emits;
* userinfo (``https://github.com@evil.example/``): its only use in a link
  is to make a host look like another;
* any control character, and hosts that are not plain DNS names, IPv4 or
  bracketed IPv6 addresses.
"""

from __future__ import annotations

import re
from urllib.parse import quote

__all__ = ["MAX_URL_CHARS", "safe_url"]

#: Longest target accepted. The parser already caps OSC payloads (8192); this
#: bounds the work for Links built directly through the API.
MAX_URL_CHARS = 8192

# WHATWG "C0 control or space" stripped from both ends, tab/newline anywhere.
_STRIP = "".join(map(chr, range(0x21)))
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_LABEL = r"[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
_IPV6 = re.compile(r"\[[0-9a-f:.]+\]")
_PORT = re.compile(r"[0-9]{1,5}")
_MAILBOX = re.compile(r"[A-Za-z0-9.!#$&'*+/=?^_`{|}~\-]+@([^@]+)")
_LONE_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
# Kept as is in path, query and fragment (RFC 3986 unreserved, sub-delims but
# the apostrophe, and ":@/?#%"); all else is percent-encoded, which removes
# every character that could matter in HTML, a shell or a terminal (quotes,
# <>, backtick, backslash, space).
_SAFE_IN_PATH = "-._~!$&()*+,;=:@/?#%"


def safe_url(uri: str) -> str | None:
    """The normalised URL to show for an OSC 8 target, or None if it must
    not be a link.

    A pure function of ``uri``: no cache is shared between callers (the
    renderers remember results per call, where distinct targets are few).
    """
    return _normalise(uri)


def _normalise(uri: str) -> str | None:
    if len(uri) > MAX_URL_CHARS:
        return None
    uri = uri.strip(_STRIP).replace("\t", "").replace("\n", "").replace("\r", "")
    if _CONTROL.search(uri):
        return None
    match = _SCHEME.match(uri)
    if match is None:
        return None
    scheme = match.group(1).lower()
    rest = uri[match.end() :]
    if scheme == "mailto":
        return _mailto(rest)
    if scheme not in ("http", "https") or not rest.startswith("//"):
        return None
    rest = rest[2:]
    end = len(rest)
    for stop in "/?#\\":
        index = rest.find(stop)
        if index != -1 and index < end:
            end = index
    authority, tail = rest[:end], rest[end:]
    if tail.startswith("\\"):
        # WHATWG reads it as "/"; a percent-encoded backslash would let the
        # host absorb what follows ("https://evil\\@github.com").
        tail = "/" + tail[1:]
    if "@" in authority:
        return None
    host, port = _split_port(authority)
    if port is None:
        return None
    ascii_host = _host(host)
    if ascii_host is None:
        return None
    return f"{scheme}://{ascii_host}{port}{_encode(tail) if tail else '/'}"


def _split_port(authority: str) -> tuple[str, str | None]:
    """(host, ":port" or "") or (_, None) if the port is malformed."""
    colon = authority.rfind(":")
    if colon == -1 or authority.endswith("]"):
        return authority, ""
    port = authority[colon + 1 :]
    if not port:
        return authority[:colon], ""
    if not _PORT.fullmatch(port) or int(port) > 65535:
        return authority, None
    return authority[:colon], ":" + str(int(port))


def _host(host: str) -> str | None:
    """The host lower-cased and in ASCII (IDNA) form, or None."""
    host = host.lower()
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            return None
    if _HOST.fullmatch(host) or _IPV6.fullmatch(host):
        return host
    return None


def _encode(text: str) -> str:
    return quote(_LONE_PERCENT.sub("%25", text), safe=_SAFE_IN_PATH)


def _mailto(address: str) -> str | None:
    match = _MAILBOX.fullmatch(address)
    if match is None:
        return None
    host = _host(match.group(1))
    if host is None:
        return None
    local = address[: match.start(1) - 1]
    return f"mailto:{_encode(local)}@{host}"
