
// Companion (appended by scripts/build_phone_app.py): Python starts loading as soon as the
// page creates this worker, which python.js does at once (page-early.js), so that it loads
// while the Flutter client does instead of after it. The runtime is the folder's own.
self.pyodideStarting = import("./pyodide/pyodide.mjs").then((module) => module.loadPyodide({
    stdout: (text) => self.sendPythonOutput(text, false),
    stderr: (text) => self.sendPythonOutput(text, true),
}));
self.pyodideStarting.catch(() => {});  // reported when the app's start awaits it
