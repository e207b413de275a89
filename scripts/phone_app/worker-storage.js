
// Companion (appended by scripts/build_phone_app.py): the saved games live in a folder
// that Python mounts on IndexedDB (companion/store/browser_storage.py). After each commit
// Python calls flet_js.saveToBrowserStorage(); every message to the page that follows
// waits until IndexedDB holds the change, so a save the screen confirms is already kept.
let companionSaving = 0;
let companionStorageSaved = Promise.resolve();

self.flet_js.saveToBrowserStorage = function () {
    companionSaving += 1;
    companionStorageSaved = companionStorageSaved.then(() => new Promise((resolve) => {
        self.pyodide.FS.syncfs(false, (error) => {
            if (error) {
                console.error("Companion: the saved games could not be written to the browser's storage:", error);
            }
            companionSaving -= 1;
            resolve();
        });
    }));
};

self.receiveCallback = (message) => {
    const bytes = message.toJs();  // now: the Python bytes behind the proxy are not kept
    if (companionSaving === 0) {
        self.postMessage(bytes, [bytes.buffer]);
    } else {  // after the writing, in order with the messages already waiting for it
        companionStorageSaved.then(() => self.postMessage(bytes, [bytes.buffer]));
    }
};
self.flet_js.receive_callback = self.receiveCallback;
