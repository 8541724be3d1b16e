/**
 * The app's server modules the host loads beside its build, by their file in the app directory
 * (docs/data.md, docs/operating.md): its database migrations and its failure hook. The build
 * makes each an entry of its own (vite/react-router-host.ts: `app-migrations.js`,
 * `app-instrumentation.js`), so the host's process loads whatever app it serves (./app-build.ts),
 * never a file of the demo's; development loads them through Vite (./frontend.ts).
 */
export const APP_MODULES = { 'app-migrations': 'migrations.server.ts', 'app-instrumentation': 'instrumentation.server.ts' };
