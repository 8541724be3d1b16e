// The session loaders and actions share (context.session): React Router's session storage over
// a store the server holds (createSessionStorage: the cookie carries the session's id, signed
// with HMAC-SHA-256 by React Router's cookie helper; the data is in ./session-store.ts's store).
// A sign-out deletes the data, so a cookie replayed after it finds nothing; a sign-in moves the
// data to a new id (fixation); "sign out everywhere" drops every session of the user. A session
// lives SESSION_IDLE_TIMEOUT_S past its last use and SESSION_ABSOLUTE_TIMEOUT_S past its start.
import { randomBytes } from 'node:crypto';
import { createSession, createSessionStorage, type Session, type SessionStorage } from 'react-router';
import type { Config } from '../config/config.ts';
import type { HostSession } from '../../shared/session-data.ts';
import type { SessionStore } from './session-store.ts';

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
  /** Where the sessions are kept (said at boot). */
  readonly kind: SessionStore['kind'];
}

/** What the host keeps of each session it handed out: the session itself, unwatched, and what it saw. */
interface Watched {
  session: Session;
  /** Its data as read from the store, to tell a change. */
  readonly initial: string;
  read: boolean;
  /** destroy() was called: the cookie is expired unless values were set after it. */
  destroyed: boolean;
  /** signIn() was called: the data moves to a new id. */
  renewed: boolean;
  /** signOutEverywhere() was called for this user. */
  everywhere: string | undefined;
  /** The cookie it came in, and goes back in. */
  readonly jar: Jar;
}

/** The host's own keys in a session's data: whom it is signed in as, when it began and was last used (ms). */
export const USER_KEY = 'host:user';
const STARTED_KEY = 'host:started';
const USED_KEY = 'host:used';
/** A session's random id: 192 bits, as OWASP's session management guide asks at least 64 of. */
const ID_BYTES = 24;

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
/** Browsers keep cookies up to 4096 bytes (RFC 6265 §6.1): a longer one was not ours. */
const MAX_COOKIE_HEADER_BYTES = 16_384;

interface Jar {
  name: string;
  storage: SessionStorage;
}

/** Where the session's lifetime stands: its data is dropped once idle or absolute time is past. */
interface Lifetimes {
  idleMs: number;
  absoluteMs: number;
}

/** React Router's storage of ids in `name`'s cookie, the data in `store`. */
function jar(name: string, secure: boolean, secrets: readonly string[], store: SessionStore, { idleMs }: Lifetimes): Jar {
  const userOf = (data: Record<string, unknown>) => (typeof data[USER_KEY] === 'string' ? data[USER_KEY] : undefined);
  const storage = createSessionStorage({
    cookie: { name, httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: idleMs / 1000, secrets: [...secrets] },
    async createData(data) {
      const id = randomBytes(ID_BYTES).toString('base64url');
      await store.write(id, { data, user: userOf(data) }, idleMs);
      return id;
    },
    readData: async (id) => (await store.read(id))?.data ?? null,
    updateData: (id, data) => store.write(id, { data, user: userOf(data) }, idleMs),
    deleteData: (id) => store.remove(id),
  });
  return { name, storage };
}

/** `secrets`: the signing keys, newest first (config.sessionSecrets, or one index.ts made: ./session-secret.ts). */
export function createSessions(config: Config, store: SessionStore, secrets: readonly string[], now: () => number = Date.now): Sessions {
  const lifetimes = { idleMs: config.session.idleTimeoutS * 1000, absoluteMs: config.session.absoluteTimeoutS * 1000 };
  const plain = jar(SESSION_COOKIE, false, secrets, store, lifetimes);
  const secure = jar(SECURE_SESSION_COOKIE, true, secrets, store, lifetimes);
  /** A session read from the store whose time is past: dropped, as if it had never been. */
  const expired = (session: Session) => {
    const started: unknown = session.get(STARTED_KEY);
    return typeof started === 'number' && now() - started > lifetimes.absoluteMs;
  };
  // Loaders and actions get a watching proxy; the host's own reads go to the session behind it.
  const watched = new WeakMap<HostSession, Watched>();
  return {
    async read(cookieHeader, https) {
      const cookieJar = https ? secure : plain;
      const ours = cookieHeader !== undefined && cookieHeader.length <= MAX_COOKIE_HEADER_BYTES && cookieHeader.includes(cookieJar.name);
      // A cookie that fails its signature is an empty session by React Router's design; one it cannot even parse, too.
      let session = ours ? await cookieJar.storage.getSession(cookieHeader).catch(() => createSession()) : createSession();
      if (expired(session)) {
        await cookieJar.storage.destroySession(session);
        session = createSession();
      }
      const state: Watched = {
        session,
        initial: JSON.stringify(session.data),
        read: false,
        destroyed: false,
        renewed: false,
        everywhere: undefined,
        jar: cookieJar,
      };
      // Used again past half its idle time: written back with a new end. Not at every use: that
      // would cost the store a write a request.
      const used: unknown = session.get(USED_KEY);
      if (typeof used === 'number' && now() - used > lifetimes.idleMs / 2) session.set(USED_KEY, now());
      const clear = () => {
        state.destroyed = true;
        for (const key of Object.keys(session.data)) session.unset(key);
      };
      const methods: Record<PropertyKey, unknown> = {
        destroy: clear,
        signIn(user: string) {
          state.renewed = true;
          session.set(USER_KEY, user);
        },
        signOutEverywhere() {
          const user: unknown = session.get(USER_KEY);
          if (typeof user === 'string') state.everywhere = user;
          clear();
        },
      };
      const proxy = new Proxy(session, {
        get(target, key) {
          if (Object.hasOwn(methods, key)) return methods[key];
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
      if (state.everywhere !== undefined) await store.removeUser(state.everywhere);
      const empty = Object.keys(session.data).length === 0;
      // Signed out and nothing set since: the data is deleted and the browser drops its cookie (Expires in the past).
      if (state.destroyed && empty) return session.id === '' ? undefined : cookieJar.storage.destroySession(session);
      if (JSON.stringify(session.data) === state.initial && !state.renewed) return undefined;
      // Signed out, then something set (a flash): the old id's data goes, the new data gets a new id.
      if ((state.renewed || state.destroyed) && session.id !== '') {
        await store.remove(session.id);
        state.session = createSession(session.data);
      }
      if (state.session.get(STARTED_KEY) === undefined) state.session.set(STARTED_KEY, now());
      state.session.set(USED_KEY, now());
      return cookieJar.storage.commitSession(state.session);
    },
    isPerUser(proxy) {
      const state = watched.get(proxy);
      // A session the host did not hand out is treated as read: never shared by mistake.
      return state === undefined || state.read || state.initial !== '{}';
    },
    kind: store.kind,
  };
}
