// Compile a folder of Python sources to bytecode with the Pyodide the app runs on, so the
// phone's browser loads .pyc files instead of compiling every module at each start.
// Usage: node compile.mjs PYODIDE_DIR FOLDER   (run by scripts/build_phone_app.py)
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, folder] = process.argv.slice(2).map((p) => path.resolve(p));
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
pyodide.FS.mkdirTree("/app");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, "/app");
pyodide.runPython(`
import compileall, sys
# legacy: each module's .pyc beside its .py, where it is found once the .py is gone;
# optimize=2: without docstrings and asserts, as under python -OO (a third smaller)
if not compileall.compile_dir("/app", quiet=1, legacy=True, optimize=2):
    sys.exit("some modules did not compile")
`);
