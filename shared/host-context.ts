import { createContext, type RouterContextProvider } from 'react-router';
import type { Logger } from 'pino';
import type { Database } from './database.ts';
import type { HostSession } from './session-data.ts';
import type { BodyLimits } from './body-limits.ts';
import type { FileStorage } from '@remix-run/file-storage';
import type { ParsedForm, ParseFormOptions } from './form-upload.ts';

// What the host gives every middleware, loader and action of the app, through React Router's own
// context (https://reactrouter.com/api/utils/createContext): `context.get(hostContext)`.
//
//   export async function loader({ context }: Route.LoaderArgs) {
//     const { db, session } = context.get(hostContext);
//
// The host sets it for each request before React Router runs (server/render/request-context.ts).

/** Which stored pages to drop: every variant of a path, or every page of a tag (docs/caching.md). */
export type RevalidateTarget = { path: string } | { tag: string };

/** A per-client rate limit: at most `limit` calls a `windowMs` (docs/forms.md, "Rate limits"). */
export interface LimitRule {
  limit: number;
  windowMs: number;
}

export interface HostContext {
  /** The visitor's session (React Router's Session, typed by the app's SessionData: docs/forms.md). */
  session: HostSession;
  /** The process's database (docs/data.md). */
  db: Database;
  /** A logger bound to the request id: what it writes is a line of the request's. */
  readonly log: Logger;
  /** The request id: the access line's and the failure line's. */
  id: string;
  /**
   * Takes one call of this client's `name` limit; resolves with the seconds to wait when the
   * limit is spent (answer 429 with Retry-After), or undefined when the call may go on.
   */
  limit(name: string, rule: LimitRule): Promise<number | undefined>;
  /** Drops stored pages, on every replica; resolves with how many (docs/caching.md, "Dropping entries"). */
  revalidate(target: RevalidateTarget): Promise<number>;
  /** The limits this request's body was held to: its route's `bodyLimits`, else the host's (docs/forms.md). */
  bodyLimits: BodyLimits;
  /**
   * The action's form, read once as it arrives: text fields, files on disk within `bodyLimits`
   * (removed when the answer ends unless kept in `files`), and files over their limit marked
   * (docs/forms.md, "Files and their limits"). Call it instead of `request.formData()`.
   */
  parseForm(request: Request, options?: ParseFormOptions): Promise<ParsedForm>;
  /** Where an action keeps a file past its request: `await files.set(key, file)` (FILES_DIR; docs/forms.md). */
  files: FileStorage;
  /**
   * This answer's CSP nonce: an app with an entry.server of its own gives it to
   * `<ServerRouter nonce>` and React's stream, as the host's (server/render/document.tsx) does.
   */
  nonce: string;
  /** Whether this request may see the host's diagnostic routes (DIAGNOSTICS_TOKEN configured and sent: client/router/diagnostics/). */
  diagnostics: boolean;
}

/**
 * The key, one for the process. In development the host's own modules and the app's are loaded
 * by two module loaders (Node's and Vite's, server/assets/frontend.ts), so this module runs
 * twice: the key is kept on globalThis, or the app would ask for a key the host never set.
 */
const KEY = Symbol.for('react-ssr-host:host-context');
const global = globalThis as { [KEY]?: ReturnType<typeof createContext<HostContext>> };
export const hostContext = (global[KEY] ??= createContext<HostContext>());

/** What the host put in this request's context. */
export const hostOf = (context: Readonly<RouterContextProvider>): HostContext => context.get(hostContext);
