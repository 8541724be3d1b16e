import { createContext, redirect } from 'react-router';
import type { Middleware, RequestContext } from '../../host.ts';

// Who is signed in to the guestbook, kept in the session: a name, and the writer id their
// entries carry (an anonymous writer gets one at their first entry, guestbook.server.ts).

/** The session's key for the signed-in name. */
export const USER = 'user';
/** The session's key for the writer id: a random id, never sent to the browser. */
export const OWNER = 'owner';

/** What the guard hands the routes below it through React Router's context. */
export const signedInUser = createContext<{ name: string; owner: string }>();

export function sessionValue(context: RequestContext, key: string): string | undefined {
  const value = context.session.get(key) as unknown;
  return typeof value === 'string' ? value : undefined;
}

/** Middleware: only a signed-in session goes on; anyone else is sent to sign in, and no loader or action below runs. */
export const requireSignIn: Middleware = ({ context }) => {
  const name = sessionValue(context, USER);
  const owner = sessionValue(context, OWNER);
  if (name === undefined || owner === undefined) throw redirect('/guestbook/sign-in');
  context.set(signedInUser, { name, owner });
};
