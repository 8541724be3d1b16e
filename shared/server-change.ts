// Development only: what the dev server tells the browser when a module only the server runs
// changed (a loader, an action, a store they import), so the open page reloads its data and
// not the page (server/assets/server-change-events.ts sends it, client/hydrate-page.tsx hears it).

/** The custom HMR event's name, prefixed as Vite asks of plugins' own events. */
export const SERVER_CHANGE_EVENT = 'react-ssr-host:server-change';

export interface ServerChange {
  /** The changed file, relative to the project root. */
  readonly file: string;
}
