// Companion's service worker (scripts/build_phone_app.py fills in the two constants): it
// keeps every file of the app in the browser's cache at the first visit and answers from
// there, so the app opens with no network afterwards. A new build has a new cache name:
// the browser installs it beside the old one, which is deleted once the new one is active.
'use strict';

const CACHE = "__CACHE_NAME__";
const FILES = __FILES__;

self.addEventListener("install", (event) => {
    event.waitUntil((async () => {
        const cache = await caches.open(CACHE);
        await cache.addAll(FILES.map((file) => new Request(file, { cache: "reload" })));
        await self.skipWaiting();
    })());
});

self.addEventListener("activate", (event) => {
    event.waitUntil((async () => {
        for (const name of await caches.keys()) {
            if (name !== CACHE) {
                await caches.delete(name);
            }
        }
        await self.clients.claim();
    })());
});

self.addEventListener("fetch", (event) => {
    const request = event.request;
    if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
        return;
    }
    event.respondWith((async () => {
        const cache = await caches.open(CACHE);
        // Any page of the app is the one page (the screens live after the '#').
        const cached = request.mode === "navigate"
            ? await cache.match("./")
            : await cache.match(request, { ignoreSearch: true });
        return cached || fetch(request);
    })());
});
