/** How often the cached page's loader ran, and whether it fails now: what the cache tests count and switch (./routes/cached.tsx). */
export const cachedFixture = { renders: 0, fail: false, gone: false };
