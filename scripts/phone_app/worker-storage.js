
// Companion (appended by scripts/build_phone_app.py): the saved games live in a folder
// that Python mounts on IndexedDB (companion/store/browser_storage.py). After each commit
// Python calls flet_js.saveToBrowserStorage(); every message to the page that follows
// waits until IndexedDB holds the change, so a save the screen confirms is already kept.
let companionStorageSaved = Promise.resolve();

self.flet_js.saveToBrowserStorage = function () {
    companionStorageSaved = companionStorageSaved.then(() => new Promise((resolve) => {
        self.pyodide.FS.syncfs(false, (error) => {
            if (error) {
                console.error("Companion: the saved games could not be written to the browser's storage:", error);
            }
            resolve();
        });
    }));
};

self.receiveCallback = (message) => {
    const bytes = message.toJs();  // now: the Python bytes behind the proxy are not kept
    companionStorageSaved.then(() => self.postMessage(bytes, [bytes.buffer]));
};
self.flet_js.receive_callback = self.receiveCallback;
