// PLACEHOLDER until the sessions branch lands: a signed-cookie session, React Router's
// createCookieSessionStorage, with a per-process random secret.
import { randomBytes } from 'node:crypto';
import { createCookieSessionStorage, createSession, type Session } from 'react-router';

export interface Sessions {
  /** The request's session; a missing, tampered or garbled cookie is an empty one. */
  read(cookieHeader: string | undefined): Promise<Session>;
  /** The Set-Cookie header for a session its loaders or action changed, or nothing. */
  commit(session: Session): Promise<string | undefined>;
}

export const SESSION_COOKIE = '__session';

export function createSessions(): Sessions {
  const storage = createCookieSessionStorage({
    cookie: { name: SESSION_COOKIE, httpOnly: true, sameSite: 'lax', path: '/', secrets: [randomBytes(32).toString('hex')] },
  });
  const initial = new WeakMap<Session, string>();
  return {
    async read(cookieHeader) {
      const session = cookieHeader?.includes(SESSION_COOKIE)
        ? await storage.getSession(cookieHeader).catch(() => createSession())
        : createSession();
      initial.set(session, JSON.stringify(session.data));
      return session;
    },
    async commit(session) {
      if (JSON.stringify(session.data) === initial.get(session)) return undefined;
      return storage.commitSession(session);
    },
  };
}
