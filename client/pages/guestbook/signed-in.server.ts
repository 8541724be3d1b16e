import { createContext, redirect, type MiddlewareFunction } from 'react-router';
import { hostOf, type HostSession, type SessionData } from '../../../shared/host.ts';

// Who is signed in to the guestbook, kept in the session (client/session-data.ts): a name, and
// the writer id their entries carry (an anonymous writer gets one at their first entry,
// ./guestbook.tsx).

/** What the guard hands the routes below it through React Router's context. */
export const signedInUser = createContext<{ name: string; owner: string }>();

/** A session value as text: a cookie signed by us holds what we set, but an older release may have set another type. */
export function sessionValue(session: HostSession, key: keyof SessionData): string | undefined {
  const value: unknown = session.get(key);
  return typeof value === 'string' ? value : undefined;
}

/** Middleware: only a signed-in session goes on; anyone else is sent to sign in, and no loader or action below runs. */
export const requireSignIn: MiddlewareFunction<Response> = ({ context }) => {
  const { session } = hostOf(context);
  const name = sessionValue(session, 'user');
  const owner = sessionValue(session, 'owner');
  if (name === undefined || owner === undefined) throw redirect('/guestbook/sign-in');
  context.set(signedInUser, { name, owner });
};
