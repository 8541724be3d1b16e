import { appBuild } from './test-app.ts';

// The fixture app's switches and counters as the host runs them: a test importing
// tests/apps/host/app/*.server.ts gets a copy of its own, not the one in the built bundle, so
// they are read through the route modules of the build the host serves.

type CachedFixture = { renders: number; fail: boolean; gone: boolean; hold: Promise<void> | undefined };

const moduleOf = (id: string) => appBuild().serverBuild.routes[id]!.module as unknown as Record<string, unknown>;

/** The cached page's render count, failure switches and hold (tests/apps/host/app/routes/cached.tsx). */
export const cachedFixture = moduleOf('routes/cached').cachedFixture as CachedFixture;

/** What the guarded routes' loaders ran (tests/apps/host/app/routes/guarded-layout.tsx). */
export const guardedCalls = moduleOf('routes/guarded-layout').calls as { layout: number; page: number };

/** How often the catching route's second middleware threw (tests/apps/host/app/routes/catching.ts). */
export const catching = moduleOf('routes/catching').catching as { thrown: number };

/** The signals the fixture page's loader was given, newest last (tests/apps/host/app/routes/fixture.tsx). */
export const seenSignals = moduleOf('routes/fixture').seenSignals as AbortSignal[];
