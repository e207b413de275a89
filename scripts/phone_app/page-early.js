
// Companion (appended by scripts/build_phone_app.py): the Python worker starts with the page
// and loads Python while the Flutter client loads; the client's first connection takes it.
let companionEarlyWorker = new Worker("python-worker.js", { type: "module" });

function takeEarlyWorker() {
    const worker = companionEarlyWorker;
    companionEarlyWorker = null;
    return worker;
}
