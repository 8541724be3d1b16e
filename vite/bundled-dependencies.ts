// Packages written into the server build (dist/server) rather than loaded from node_modules at
// boot: a boot spent most of its time resolving and loading modules one by one, Kysely's alone 255
// files (docs/performance.md, "Boot"). Used at build only (../vite.config.ts): in development the
// app's modules run through Vite, where a CommonJS package bundled so fails (`require is not defined`).
//
// A package may be listed when:
// - nothing instruments it by its module's name: Sentry and OpenTelemetry patch Express, `http`,
//   pg and Redis as they load, so those stay in node_modules;
// - it reads no files of its own by path at run time (pino's worker files, say);
// - it is not shared with an app built apart by identity: React Router's contexts must be the
//   app's own objects, so React and React Router stay in node_modules;
// - every dependency of its that is not listed resolves from dist/server to the copy it was
//   installed with: an import left out of the bundle is resolved from there, where a nested copy
//   of another version (compression's negotiator 0.6, beside Express's 1.x) is not found
//   (tests/house/bundled-dependencies.test.ts).
//
// An app built in the same `npm run build` shares the host's copy; one built apart (APP_BUILD)
// loads node_modules' copy beside it, so an `instanceof` across the two (Kysely's NoResultError,
// say) would not hold.
export const BUNDLED_DEPENDENCIES = [
  'kysely',
  '@fastify/busboy',
  '@remix-run/file-storage',
  '@remix-run/fs',
  '@remix-run/lazy-file',
  '@remix-run/mime',
  'express-rate-limit',
  'helmet',
  'isbot',
];
