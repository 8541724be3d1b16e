// The session loaders and actions share (context.session): React Router's signed-cookie
// session storage (createCookieSessionStorage: the data in the cookie, signed with HMAC-SHA-256
// by its cookie helper), so it needs no store and works across replicas that share the secret.
import { randomBytes } from 'node:crypto';
import { createCookieSessionStorage, createSession, type Session, type SessionStorage } from 'react-router';
import type { Config } from '../config/config.ts';
import { MIN_SESSION_SECRET_BYTES } from '../config/config-values.ts';
import type { HostSession } from '../../shared/session-data.ts';

export interface Sessions {
  /**
   * The request's session; a missing, tampered, garbled or oversized cookie is an empty one.
   * `secure`: the request is https or the site is (requestIsSecure in request-origin.ts).
   */
  read(cookieHeader: string | undefined, secure: boolean): Promise<HostSession>;
  /**
   * The Set-Cookie header for a session its loaders or action changed, or nothing; for one they
   * destroyed and left empty, the header that expires the cookie.
   */
  commit(session: HostSession): Promise<string | undefined>;
  /**
   * Whether an answer that had this session is one user's: it held data, or a loader or action
   * read it (even an empty one: "signed out" is an answer about this visitor too).
   */
  isPerUser(session: HostSession): boolean;
}

/** What the host keeps of each session it handed out: the session itself, unwatched, and what it saw. */
interface Watched {
  readonly session: Session;
  /** Its data as read from the cookie, to tell a change. */
  readonly initial: string;
  read: boolean;
  /** destroy() was called: the cookie is expired unless values were set after it. */
  destroyed: boolean;
  /** The cookie it came in, and goes back in. */
  readonly jar: Jar;
}

/** The members of a Session that read it (React Router's createSession). */
const READS = new Set<PropertyKey>(['get', 'has', 'data', 'id']);

/** Over plain http (development, tests, the http compose file): a browser keeps no Secure cookie there. */
export const SESSION_COOKIE = '__session';
/**
 * Over https. A browser accepts a `__Host-` cookie only with Secure, Path=/ and no Domain, from
 * a secure page of this very host (RFC 6265bis §4.1.3.2), so a sibling subdomain cannot plant
 * one, as it can a plain-named cookie with `Domain=` the parent; and the plain name is not read.
 */
export const SECURE_SESSION_COOKIE = '__Host-session';
/** A session lives two weeks from its last change (Rails' and Django's defaults are close). */
const SESSION_MAX_AGE_S = 14 * 24 * 60 * 60;
/** Browsers keep cookies up to 4096 bytes (RFC 6265 §6.1): a longer one was not ours. */
const MAX_COOKIE_HEADER_BYTES = 16_384;

interface Jar {
  name: string;
  storage: SessionStorage;
}

function jar(name: string, secure: boolean, secrets: readonly string[]): Jar {
  const storage = createCookieSessionStorage({
    cookie: { name, httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: SESSION_MAX_AGE_S, secrets: [...secrets] },
  });
  return { name, storage };
}

export function createSessions(config: Config): Sessions {
  // Unset, each process signs with its own secret (index.ts warns once): sessions then hold
  // on one replica and end at a restart, which is what `npm start` on a laptop needs.
  const secrets = config.sessionSecrets ?? [randomBytes(MIN_SESSION_SECRET_BYTES).toString('base64url')];
  const plain = jar(SESSION_COOKIE, false, secrets);
  const secure = jar(SECURE_SESSION_COOKIE, true, secrets);
  // Loaders and actions get a watching proxy; the host's own reads go to the session behind it.
  const watched = new WeakMap<HostSession, Watched>();
  return {
    async read(cookieHeader, https) {
      const cookieJar = https ? secure : plain;
      const ours = cookieHeader !== undefined && cookieHeader.length <= MAX_COOKIE_HEADER_BYTES && cookieHeader.includes(cookieJar.name);
      // A cookie that fails its signature is an empty session by React Router's design; one it cannot even parse, too.
      const session = ours ? await cookieJar.storage.getSession(cookieHeader).catch(() => createSession()) : createSession();
      const state: Watched = { session, initial: JSON.stringify(session.data), read: false, destroyed: false, jar: cookieJar };
      const destroy = () => {
        state.destroyed = true;
        for (const key of Object.keys(session.data)) session.unset(key);
      };
      const proxy = new Proxy(session, {
        get(target, key) {
          if (key === 'destroy') return destroy;
          if (READS.has(key)) state.read = true;
          return Reflect.get(target, key) as unknown;
        },
      });
      // The proxy answers `destroy`, which React Router's Session lacks: the one cast of the host's session.
      const hostSession = proxy as HostSession;
      watched.set(hostSession, state);
      return hostSession;
    },
    async commit(proxy) {
      const state = watched.get(proxy);
      if (state === undefined) return undefined;
      const { session, jar: cookieJar } = state;
      // Signed out and nothing set since: the browser drops its cookie (Expires in the past).
      if (state.destroyed && Object.keys(session.data).length === 0) return cookieJar.storage.destroySession(session);
      if (JSON.stringify(session.data) === state.initial) return undefined;
      return cookieJar.storage.commitSession(session);
    },
    isPerUser(proxy) {
      const state = watched.get(proxy);
      // A session the host did not hand out is treated as read: never shared by mistake.
      return state === undefined || state.read || state.initial !== '{}';
    },
  };
}
