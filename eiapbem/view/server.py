"""The view's local web server: the standard library's HTTP server on 127.0.0.1, one page, a token.

``make_server(view, port)`` binds ``127.0.0.1`` (never another address) and draws a random token
(``secrets.token_urlsafe``); the page's address is ``http://127.0.0.1:PORT/TOKEN/``.  Every request is
refused (403, one sentence) unless

- its path starts with ``/TOKEN/`` (compared in constant time), so another user of the computer or a web page
  open in the browser, which cannot know the token, reads and does nothing through the view;
- its ``Host`` is this address (``127.0.0.1:PORT`` or ``localhost:PORT``): a page that rebinds its own name to
  127.0.0.1 is refused even before the token is looked at;
- a POST (an order) carries JSON (``Content-Type: application/json``), at most ``MAX_BODY`` bytes, and no
  ``Origin`` but this address's.

Answers are JSON (``api/NAME``: a document, ``api/do/OP``: an operation, ``api/changes``: wait for a change) or
the page's own files (``static/``: plain HTML, CSS and JavaScript shipped with the package, no build step),
sent with ``Cache-Control: no-store``, ``Referrer-Policy: no-referrer`` (the token never leaves in a
``Referer``) and a Content Security Policy that allows nothing but this address.  HTTP itself is parsed by
``http.server``; nothing here reads a request line or a header by hand.
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
import threading
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from eiapbem.core.errors import EiaError

from .app import View

#: The largest request body the view reads (an order's form is a few hundred bytes).
MAX_BODY = 64 * 1024
#: The page's files, by the name the page asks for, and their types.
STATIC = {"index.html": "text/html; charset=utf-8", "view.css": "text/css; charset=utf-8",
          "view.js": "text/javascript; charset=utf-8", "map.js": "text/javascript; charset=utf-8",
          "panels.js": "text/javascript; charset=utf-8"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
REFUSED = "this address needs the token 'eiapbem view' printed; open the address it printed"


class ViewServer(ThreadingHTTPServer):
    """The HTTP server of one view: its token, its address, the ``View`` it answers from."""

    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, view: View, port: int = 0, token: str | None = None) -> None:
        self.view = view
        self.token = token or secrets.token_urlsafe(24)
        super().__init__(("127.0.0.1", port), Handler)
        self.port = self.server_address[1]
        self.hosts = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.svg: bytes | None = None
        self._svg_lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.token}/"

    def map_svg(self) -> bytes:
        """The base map (``present/svgmap.render_svg``), drawn once per view."""
        with self._svg_lock:
            if self.svg is None:
                from eiapbem.data.mapdata import load_map
                from eiapbem.present import svgmap

                self.svg = svgmap.render_svg(load_map(), title=f"{self.view.game}").encode("utf-8")
            return self.svg


class Handler(BaseHTTPRequestHandler):
    server: ViewServer
    server_version = "eiapbem-view"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
        """Nothing is logged: a request line holds the token."""

    # ------------------------------------------------------------------ answering

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CSP)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, obj: Any) -> None:
        self._send(status, json.dumps(obj, sort_keys=True, default=_plain).encode("utf-8"), "application/json")

    def _refuse(self, status: int = HTTPStatus.FORBIDDEN, why: str = REFUSED) -> None:
        self._json(status, {"error": why, "hint": None})

    def _route(self) -> tuple[str, dict[str, str]] | None:
        """The path after the token and the query, or None (refused) when the Host or the token is wrong."""
        if self.headers.get("Host", "") not in self.server.hosts:
            return None
        parts = urlsplit(self.path)
        head, _, rest = parts.path.lstrip("/").partition("/")
        if not hmac.compare_digest(head.encode("utf-8", "replace"), self.server.token.encode("ascii")):
            return None
        return rest, dict(parse_qsl(parts.query))

    # ------------------------------------------------------------------ GET and POST

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):  # the page went away while it was answered
            self.close_connection = True

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        route = self._route()
        if route is None:
            return self._refuse()
        path, query = route
        try:
            if path in ("", "index.html"):
                return self._static("index.html")
            if path.startswith("static/") and path[7:] in STATIC:
                return self._static(path[7:])
            if path == "map.svg":
                return self._send(HTTPStatus.OK, self.server.map_svg(), "image/svg+xml")
            if path == "api/changes":
                return self._json(HTTPStatus.OK, self.server.view.changes(query.get("after", "")))
            if path.startswith("api/"):
                return self._json(HTTPStatus.OK, self.server.view.read(path[4:], query))
            return self._refuse(HTTPStatus.NOT_FOUND, f"the view has no page {path!r}")
        except EiaError as err:
            return self._json(HTTPStatus.BAD_REQUEST, {"error": str(err), "hint": err.hint})
        except (BrokenPipeError, ConnectionResetError):
            raise
        except Exception as err:  # a fault of the view itself: said, never a dead page
            return self._fault(err)

    do_HEAD = do_GET

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        route = self._route()
        if route is None:
            return self._refuse()
        path, _ = route
        origin = self.headers.get("Origin")
        if origin is not None and origin not in self.server.origins:
            return self._refuse()
        if self.headers.get_content_type() != "application/json":
            return self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "an order is sent as JSON")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._refuse(HTTPStatus.LENGTH_REQUIRED, "an order needs its length")
        if not 0 <= length <= MAX_BODY:
            return self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"an order is at most {MAX_BODY} bytes")
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return self._refuse(HTTPStatus.BAD_REQUEST, "the order is not JSON")
        if not isinstance(body, dict):
            return self._refuse(HTTPStatus.BAD_REQUEST, "an order is a JSON object")
        if not path.startswith("api/do/"):
            return self._refuse(HTTPStatus.NOT_FOUND, f"the view has no operation {path!r}")
        try:
            return self._json(HTTPStatus.OK, self.server.view.act(path[7:], body))
        except EiaError as err:
            return self._json(HTTPStatus.BAD_REQUEST, {"error": str(err), "hint": err.hint})
        except (BrokenPipeError, ConnectionResetError):
            raise
        except Exception as err:
            return self._fault(err)

    def _static(self, name: str) -> None:
        data = resources.files("eiapbem.view").joinpath("static", name).read_bytes()
        self._send(HTTPStatus.OK, data, STATIC[name])

    def _fault(self, err: Exception) -> None:
        traceback.print_exc(file=sys.stderr)
        self._json(HTTPStatus.INTERNAL_SERVER_ERROR,
                   {"error": f"the view failed ({type(err).__name__}: {err}); nothing was changed by this request",
                    "hint": "the terminal running 'eiapbem view' shows the details; please report them"})


def _plain(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.hex()
    if hasattr(v, "value"):
        return v.value
    return str(v)


def make_server(view: View, port: int = 0) -> ViewServer:
    """A server for ``view`` on 127.0.0.1:``port`` (0: a free port); refused in one sentence when it is taken."""
    try:
        return ViewServer(view, port)
    except OSError as err:
        raise ViewPortTaken(f"cannot listen on 127.0.0.1:{port} ({err.strerror})",
                            hint="choose another --port, or leave it out to take a free one") from err


class ViewPortTaken(EiaError):
    """The port asked for is taken (or not allowed)."""


def serve(view: View, port: int = 0, *, open_browser: bool = True, echo: Any = print) -> None:
    """Serve ``view`` until interrupted (Ctrl-C); print its address and open it in the default browser."""
    server = make_server(view, port)
    echo(f"eiapbem view: {view.power}'s game {view.game} at {server.url}")
    echo("  (the address holds a token: keep it to yourself; Ctrl-C ends the view and forgets the key)")
    if open_browser:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        echo("eiapbem view: ended; the key is forgotten")
    finally:
        server.server_close()
