"""The steps of ``flet build apk`` / ``ipa`` short of Flutter, and the phone's host around
the app, simulated: what the tests in this folder run the app in.

- ``package`` does what the build's packaging step (serious_python's ``package`` command,
  driven by flet-cli) does to the app folder: copy it without what ``[tool.flet.app]``
  excludes and what flet-cli excludes by default, compile it with ``compileall -b``, and
  delete every ``.py``.
- ``phone_environment`` is what the Flutter host sets before it runs the entry module.
- ``FlutterHost`` talks to the app over the host's Unix socket as the Flutter client does
  (length-prefixed msgpack frames): it registers a page, answers every method call with
  nothing (no stored language, no device info), and collects what the app draws.
"""

from __future__ import annotations

import compileall
import os
import shutil
import socket
import time
from pathlib import Path

import msgpack
from flet_cli.utils.app_excludes import find_default_excludes
from flet_cli.utils.pyproject_toml import load_pyproject_toml

ROOT = Path(__file__).resolve().parents[2]

SERVER_ONLY = ("uvicorn", "flet_web", "psycopg", "babel")
"""Modules a phone does not install (pyproject's ``server`` and ``test`` extras)."""

PHONE_SITE = '''
import sys, threading

for name in {server_only!r}:
    sys.modules[name] = None  # "import uvicorn" now fails, as on a phone without it


def _no_thread(self):
    raise RuntimeError("can't start new thread")  # as in Python in a browser (Pyodide)


threading.Thread.start = _no_thread
'''


def excluded_from_bundle(app: Path = ROOT) -> list[str]:
    """The paths the build leaves out: ``[tool.flet.app].exclude``, ``build``, and flet-cli's
    default excludes (hidden files, virtual environments, ``__pycache__``)."""
    explicit = ["build", *(load_pyproject_toml(app)("tool.flet.app.exclude") or [])]
    return explicit + find_default_excludes(app, [], explicit)


def package(bundle: Path, app: Path = ROOT) -> Path:
    """The app folder as the phone gets it: copied without the excluded paths, compiled with
    ``compileall -b`` (each ``.pyc`` beside its source) and every ``.py`` deleted."""
    excluded = {os.path.normpath(path) for path in excluded_from_bundle(app)}

    def ignore(folder: str, names: list[str]) -> set[str]:
        relative = os.path.relpath(folder, app)
        return {n for n in names if os.path.normpath(os.path.join(relative, n)) in excluded}

    shutil.copytree(app, bundle, ignore=ignore)
    if not compileall.compile_dir(bundle, legacy=True, quiet=1):
        raise AssertionError(f"the bundle in {bundle} does not compile")
    for source in bundle.rglob("*.py"):
        source.unlink()
    return bundle


def phone_environment(storage: Path, uds_path: Path | None = None) -> dict[str, str]:
    """The variables the phone's host sets (FLET.md), with its storage folders under ``storage``
    and, with ``uds_path``, the socket it talks to the app on."""
    folders = {name: storage / name.lower() for name in ("DATA", "CACHE", "TEMP")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLET_", "COMPANION_")) and k != "DISPLAY"}
    env.update({f"FLET_APP_STORAGE_{name}": str(folder) for name, folder in folders.items()})
    env.update(FLET_PLATFORM="android", FLET_ASSETS_DIR=str(ROOT / "assets"))
    if uds_path is not None:
        env["FLET_SERVER_UDS_PATH"] = str(uds_path)
    env.pop("PYTHONPATH", None)
    return env


def block(folder: Path) -> Path:
    """A folder for PYTHONPATH whose ``sitecustomize`` makes the server's packages missing and
    threads impossible (so the app must get by without them, as on a phone or in Pyodide)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(PHONE_SITE.format(server_only=SERVER_ONLY))
    return folder


def with_path(env: dict[str, str], *folders: Path) -> dict[str, str]:
    """``env`` with Python looking in ``folders`` first."""
    return {**env, "PYTHONPATH": os.pathsep.join(str(f) for f in folders)}


REGISTER_CLIENT, PATCH_CONTROL, INVOKE_METHOD, SESSION_CRASHED = 1, 2, 5, 6
"""Flet's message actions (flet.messaging.protocol.MessageAction)."""


class FlutterHost:
    """The Flutter side of a phone app, as far as the Python app can tell: a client on the
    host's Unix socket."""

    def __init__(self, uds_path: Path, timeout: float):
        self.timeout = timeout
        deadline = time.monotonic() + timeout
        while True:  # the socket's file is there from its bind, and takes connections from its listen
            self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.socket.settimeout(timeout)
            try:
                self.socket.connect(str(uds_path))
                return
            except (FileNotFoundError, ConnectionRefusedError):
                self.socket.close()
            if time.monotonic() > deadline:
                raise AssertionError(f"the app took no connection on a socket at {uds_path} in {timeout} s")
            time.sleep(0.05)

    def close(self) -> None:
        self.socket.close()

    def send(self, action: int, body: dict) -> None:
        packet = b"\x00" + msgpack.packb([action, body])
        self.socket.sendall(len(packet).to_bytes(4, "little") + packet)

    def receive(self) -> tuple[int, object]:
        length = int.from_bytes(self._read(4), "little")
        packet = self._read(length)
        assert packet[0] == 0, "a data-channel frame, which this app never sends"
        action, body = msgpack.unpackb(packet[1:], strict_map_key=False)
        return action, body

    def _read(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self.socket.recv(size - len(data))
            if not chunk:
                raise AssertionError("the app closed the connection")
            data += chunk
        return data

    def open_page(self, width: int = 360, height: int = 740) -> None:
        self.send(REGISTER_CLIENT, {"session_id": "", "page_name": "", "page": {"route": "/", "width": width, "height": height, "platform": "android"}})

    def wait_for_control(self, identifier: str) -> None:
        """Receive until the app draws a control with ``identifier`` (``widgets.tagged``),
        answering every method call it makes with nothing."""
        drawn: set[str] = set()
        deadline = time.monotonic() + self.timeout
        try:
            while time.monotonic() < deadline:
                action, body = self.receive()
                if action == SESSION_CRASHED:
                    raise AssertionError(f"the app's main failed: {body}")
                if action == INVOKE_METHOD:
                    self.send(INVOKE_METHOD, {"control_id": body["control_id"], "call_id": body["call_id"], "result": None, "error": None})
                if action in (REGISTER_CLIENT, PATCH_CONTROL):
                    drawn |= _identifiers(body)
                    if identifier in drawn:
                        return
        except TimeoutError:
            pass
        raise AssertionError(f"the app drew no control {identifier!r} in {self.timeout} s (it drew {sorted(drawn)})")


def _identifiers(value) -> set[str]:
    """Every ``identifier`` in a page patch."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("identifier"), str):
                found.add(item["identifier"])
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets process ``pid`` has open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def tcp_inodes() -> set[str]:
    """The inodes of every TCP socket on this machine (IPv4 and IPv6)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        lines = Path(table).read_text().splitlines()[1:]
        inodes.update(line.split()[9] for line in lines)
    return inodes


def unix_socket_paths(inodes: set[str]) -> set[str]:
    """The paths of the Unix sockets among ``inodes``."""
    paths = set()
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 8 and fields[6] in inodes:
            paths.add(fields[7])
    return paths

