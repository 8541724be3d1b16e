// What a session holds, declared once by the app and read typed everywhere: loaders, actions and
// the host agree on it through declaration merging, as Express's own `Locals` is declared
// (server/edge/locals.ts). An app adds its keys in one module (the demo's is client/session-data.ts):
//
//   declare module './host.ts' {
//     interface SessionData { owner: string }
//   }
//
// and `context.session.get('owner')` is then `string | undefined`, a misspelt key a type error.
import type { Session } from 'react-router';

/** The session's values, by key: the app declares them (above). */
// An interface, not a type: only interfaces merge with the app's declaration.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SessionData {}

/** Values set with `session.flash(key, value)`: read once, on the next request. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SessionFlashData {}

/** Until an app declares any key, any key is allowed and read as unknown. */
type Declared<T> = keyof T extends never ? Record<string, unknown> : T;

/**
 * React Router's session, typed by the declarations above, held on the server (its cookie
 * carries the id only: server/writes/session.ts), with the host's sign-in and sign-outs.
 */
export type HostSession = Session<Declared<SessionData>, Declared<SessionFlashData>> & {
  /**
   * Sign-in as `user` (an id the app gives its user): the session keeps its data under a new id
   * (an id planted before sign-in is worth nothing after it), and is counted as `user`'s for
   * signOutEverywhere().
   */
  signIn(user: string): void;
  /**
   * Sign-out: deletes the session's data on the server, and the response expires its cookie
   * (React Router's destroySession): a copy of the cookie kept from before finds nothing. Values
   * set after it start a new session under a new id.
   */
  destroy(): void;
  /** Sign-out on every device: every session signed in as this session's user is deleted, this one too. */
  signOutEverywhere(): void;
};
