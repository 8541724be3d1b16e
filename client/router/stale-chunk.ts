// After a deploy, a page loaded from the previous release may ask for a chunk that no longer
// exists. Vite emits `vite:preloadError` then; one reload fetches the new release instead of
// ending on the error page. The timestamp stops a reload loop when the chunk is really broken.

const STORAGE_KEY = 'react-ssr-host:stale-chunk-reload';
/** Long enough to cover the reload itself; short enough that a later deploy reloads again. */
const RELOAD_WINDOW_MS = 10_000;

export function reloadOnStaleChunk(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const last = Number(sessionStorage.getItem(STORAGE_KEY) ?? 0);
    if (Date.now() - last < RELOAD_WINDOW_MS) return;
    sessionStorage.setItem(STORAGE_KEY, String(Date.now()));
    event.preventDefault();
    window.location.reload();
  });
}
