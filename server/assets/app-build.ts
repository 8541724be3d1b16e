import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import type { Migration } from '../../shared/database.ts';

// The app the host serves, as built (`npm run build`, vite.config.ts and vite/react-router-host.ts):
// React Router's server build (server/react-router.js), the app's browser files (client/), and
// the app's own server modules the host runs beside it: its database migrations
// (server/app-migrations.js, from <app>/migrations.server.ts) and its failure hook
// (server/app-instrumentation.js, from <app>/instrumentation.server.ts). Whatever app is built
// there: the demo's by default, another with APP_BUILD (docs/configuration.md).

export interface AppBuild {
  serverBuild: ServerBuild;
  /** The app's browser files: assets, public files. */
  clientDir: string;
  migrations: readonly Migration[];
  /** The app's instrumentation module (its `onFailure`), unchecked: server/failures/failure-hook.ts checks it. */
  instrumentation: unknown;
  /** Where it was loaded from, for the lines that name it. */
  dir: string;
}

const load = (path: string): Promise<unknown> => import(pathToFileURL(path).href);

/** The app built into `dir` (a build's root: its client/ and server/ folders). */
export async function loadAppBuild(dir: string): Promise<AppBuild> {
  const server = join(dir, 'server');
  const optional = (file: string) => (existsSync(join(server, file)) ? load(join(server, file)) : Promise.resolve(undefined));
  const [serverBuild, migrationsModule, instrumentation] = await Promise.all([
    load(join(server, 'react-router.js')),
    optional('app-migrations.js'),
    optional('app-instrumentation.js'),
  ]);
  return {
    serverBuild: serverBuild as ServerBuild,
    clientDir: join(dir, 'client'),
    migrations: (migrationsModule as { migrations?: readonly Migration[] } | undefined)?.migrations ?? [],
    instrumentation,
    dir,
  };
}
