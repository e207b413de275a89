"""Random addresses and random frames never get anything but a clear refusal or a success
(issue 13): whatever the path, Host and Origin of a request, and whatever a page sends over
its websocket, the server answers with the app, or with one sentence, never an error page
or a traceback. The requests go to the real web app (Flet's, behind the guard) in the
server's own event loop; the frames over a real websocket on 127.0.0.1."""

from __future__ import annotations

import asyncio

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.share import guard
from tests.share.web import SESSION_CRASHED, FletClient

pytestmark = pytest.mark.usefixtures("not_shared")  # every test starts and ends with the app not shared

SENTENCE = b"Companion does not answer at this address. Open the address Companion shows."
CRASH_SENTENCE = "Something went wrong on this page. Reload the page to go on."
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

OWN_NAMES = ["localhost", "127.0.0.1", "[::1]", "LocalHost"]
FOREIGN_NAMES = ["evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "192.0.2.66", "[::2]", "companion"]


@pytest.fixture(autouse=True)
def quick_linger(monkeypatch):
    """A websocket the fuzz leaves at once: the app gets no long grace to tidy up."""
    monkeypatch.setattr(guard, "LINGER_SECONDS", 0.05)


async def ask(app, scope) -> list[dict]:
    """Send one request (an HTTP GET, or a websocket that opens and leaves) to an ASGI app; what it sent back."""
    sent: list[dict] = []
    answered = asyncio.Event()
    inbox = [{"type": "http.request", "body": b"", "more_body": False}] if scope["type"] == "http" else [{"type": "websocket.connect"}]

    async def receive():
        if inbox:
            return inbox.pop(0)
        await answered.wait()  # a client waits for the answer to its request (a websocket's handshake)
        if scope["type"] == "websocket":
            return {"type": "websocket.disconnect", "code": 1000}
        await asyncio.Event().wait()  # an HTTP client that stays until answered

    async def send(message):
        sent.append(message)
        answered.set()

    await asyncio.wait_for(app(scope, receive, send), 10)
    return sent


def request(kind: str, path: str, host: str | None, origin: str | None, port: int) -> dict:
    headers = []
    if host is not None:
        headers.append((b"host", host.encode("utf-8", "surrogatepass")))
    if origin is not None:
        headers.append((b"origin", origin.encode("utf-8", "surrogatepass")))
    return {
        "type": kind,
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http" if kind == "http" else "ws",
        "path": path,
        "raw_path": path.encode("utf-8", "surrogatepass"),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "server": ("127.0.0.1", port),
        "client": ("127.0.0.1", 50000),
        "subprotocols": [],
    }


paths = st.one_of(
    st.sampled_from(["/", "/ws", "/docs", "/openapi.json", "/redoc", "/oauth_callback", "/game/1", "/table?code=X", "/favicon.png"]),
    st.text(st.characters(codec="utf-8"), max_size=40).map(lambda text: "/" + text),
)
names = st.one_of(st.sampled_from(OWN_NAMES + FOREIGN_NAMES), st.text(max_size=30))
ports = st.sampled_from(["", ":8550", ":1", ":99999", ":x"])
origins = st.one_of(st.none(), st.just("null"), st.text(max_size=30), st.builds(lambda s, n, p: f"{s}://{n}{p}", st.sampled_from(["http", "https", "ws", "file"]), names, ports))


def answer(sent: list[dict]) -> tuple[str, int | None, bytes]:
    """('http', status, body), or ('websocket', accepted?, b'')."""
    if sent[0]["type"] == "http.response.start":
        return "http", sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])
    return "websocket", int(sent[0]["type"] == "websocket.accept"), b""


@FUZZ
@given(kind=st.sampled_from(["http", "websocket"]), path=paths, name=names, port=ports, origin=origins, with_host=st.booleans())
def test_any_address_gets_the_app_or_one_sentence(served, kind, path, name, port, origin, with_host):
    host = f"{name}{port}" if with_host else None
    sent = served.run(ask(served.guard, request(kind, path, host, origin, served.port)))
    what, status, body = answer(sent)
    if what == "http":
        assert status in (200, 304, 307, 403, 404, 405), status  # 307: a folder asked without its slash
        assert (status == 403) == (body == SENTENCE)
        assert b"Traceback" not in body
    foreign_origin = origin is not None and (origin == "null" or origin.startswith("file:") or any(f"//{n}" in origin for n in FOREIGN_NAMES))
    if not with_host or name in FOREIGN_NAMES or foreign_origin:
        assert (status == 403) if what == "http" else not status  # refused


@FUZZ
@given(host=st.sampled_from(OWN_NAMES), foreign=st.sampled_from(FOREIGN_NAMES), path=paths)
def test_a_page_of_the_apps_own_address_is_served_and_a_foreign_one_refused(served, host, foreign, path):
    own = f"{host}:{served.port}"
    what, status, body = answer(served.run(ask(served.guard, request("http", path, own, f"http://{own}", served.port))))
    assert status in (200, 304, 307, 404) and b"Traceback" not in body
    what, status, body = answer(served.run(ask(served.guard, request("http", path, own, f"http://{foreign}", served.port))))
    assert (status, body) == (403, SENTENCE)


ints = st.integers(-(2**63), 2**64 - 1)
"""What msgpack can carry."""
frames = st.one_of(
    st.binary(max_size=64),
    st.builds(
        lambda action, body: b"\x00" + msgpack.packb([action, body]),
        st.integers(-2, 9),
        st.one_of(
            st.none(),
            ints,
            st.text(max_size=10),
            st.dictionaries(
                st.sampled_from(["target", "name", "data", "id", "props", "control_id", "call_id", "result", "error", "session_id", "page"]),
                st.one_of(st.none(), ints, st.text(max_size=8), st.lists(ints, max_size=3), st.dictionaries(st.text(max_size=5), ints, max_size=3)),
                max_size=5,
            ),
        ),
    ),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sequence=st.lists(frames, min_size=1, max_size=4), registered=st.booleans())
def test_whatever_a_page_sends_it_never_gets_a_traceback(served, sequence, registered):
    page = FletClient(served)
    if registered:
        page.register("/")
    for frame in sequence:
        try:
            page.send_raw(frame)
        except Exception:  # the server closed the connection: a refusal too
            break
    page.drain(0.15)  # what it answers
    page.close()
    for message in page.received:
        assert b"Traceback" not in msgpack.packb(message, default=repr)
        if message[0] == SESSION_CRASHED:
            assert message[1] == {"message": CRASH_SENTENCE}
    FletClient(served).close()  # and the server still takes the next page
