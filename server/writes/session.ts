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
import type { SessionRecord, SessionStore } from './session-store.ts';

export interface Sessions {
  /**
   * The request's session; a missing, tampered, garbled or oversized cookie is an empty one, as is
   * an id whose record is gone (signed out, ended) or that is not one of ours.
   * `secure`: the request is https or the site is (requestIsSecure in request-origin.ts).
   */
  read(cookieHeader: string | undefined, secure: boolean): Promise<HostSession>;
  /**
   * Keeps what its loaders or action changed, and returns the Set-Cookie header for it, or nothing;
   * for one signed out (or left with nothing of the app's), the header that expires the cookie.
   * Throws a 503 when the store cannot keep it (./session-store.ts).
   */
  commit(session: HostSession): Promise<string | undefined>;
  /** Whether commit() would write: what a render without a client (a stored page's regeneration) must not do. */
  changed(session: HostSession): boolean;
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
const HOST_KEY = 'host:';
const USER_KEY = `${HOST_KEY}user`;
const STARTED_KEY = `${HOST_KEY}started`;
const USED_KEY = `${HOST_KEY}used`;
/** A session's random id: 192 bits (OWASP's session management cheat sheet asks at least 64), 32 characters of base64url. */
const ID_BYTES = 24;
const ID = /^[\w-]{32}$/;
/**
 * A session's data at most, as JSON: four times what a browser kept of a cookie (RFC 6265 §6.1)
 * when the data was in it. More is an app keeping in the session what belongs in the database.
 */
export const MAX_SESSION_BYTES = 16 * 1024;

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

/**
 * One of our ids: a cookie from before sessions were held on the server carries its data where
 * the id now goes (signed with the same SESSION_SECRET), and must never be used as a key.
 */
const isSessionId = (id: unknown): id is string => typeof id === 'string' && ID.test(id);

function recordOf(data: Record<string, unknown>): SessionRecord {
  if (JSON.stringify(data).length > MAX_SESSION_BYTES) {
    throw new Error(`a session's data is over ${MAX_SESSION_BYTES} bytes: keep it in the database, and its id in the session`);
  }
  return { data, user: typeof data[USER_KEY] === 'string' ? data[USER_KEY] : undefined };
}

/** React Router's storage of ids in `name`'s cookie, the data in `store`. */
function jar(name: string, secure: boolean, secrets: readonly string[], store: SessionStore, idleMs: number): Jar {
  const storage = createSessionStorage({
    cookie: { name, httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: idleMs / 1000, secrets: [...secrets] },
    async createData(data) {
      const id = randomBytes(ID_BYTES).toString('base64url');
      await store.create(id, recordOf(data), idleMs);
      return id;
    },
    readData: async (id) => (isSessionId(id) ? ((await store.read(id))?.data ?? null) : null),
    updateData: (id, data) => store.update(id, recordOf(data), idleMs),
    deleteData: (id) => (isSessionId(id) ? store.remove(id) : Promise.resolve()),
  });
  return { name, storage };
}

/** `secrets`: the signing keys, newest first (config.sessionSecrets, or ./session-secret.ts's). */
export function createSessions(config: Config, store: SessionStore, secrets: readonly string[], now: () => number = Date.now): Sessions {
  const idleMs = config.session.idleTimeoutS * 1000;
  const absoluteMs = config.session.absoluteTimeoutS * 1000;
  const plain = jar(SESSION_COOKIE, false, secrets, store, idleMs);
  const secure = jar(SECURE_SESSION_COOKIE, true, secrets, store, idleMs);
  // Loaders and actions get a watching proxy; the host's own reads go to the session behind it.
  const watched = new WeakMap<HostSession, Watched>();

  /** The session under the cookie, or a new one when there is none to use. */
  async function stored(cookieJar: Jar, cookieHeader: string | undefined): Promise<Session> {
    const ours = cookieHeader !== undefined && cookieHeader.length <= MAX_COOKIE_HEADER_BYTES && cookieHeader.includes(cookieJar.name);
    // A cookie that fails its signature is an empty session by React Router's design; one it cannot
    // parse, or a store that cannot answer (reads fail open: ./session-store.ts), too.
    const session = ours ? await cookieJar.storage.getSession(cookieHeader).catch(() => createSession()) : createSession();
    if (session.id === '') return session;
    // Every record the host keeps has its own keys: an id with no data names nothing (a sign-out, an end, or never ours).
    if (!isSessionId(session.id) || Object.keys(session.data).length === 0) return createSession();
    const started: unknown = session.get(STARTED_KEY);
    if (typeof started === 'number' && now() - started > absoluteMs) {
      await store.remove(session.id).catch(() => undefined); // past its absolute time; its record ends on its own anyway
      return createSession();
    }
    return session;
  }

  const changed = (state: Watched) =>
    state.destroyed || state.renewed || state.everywhere !== undefined || JSON.stringify(state.session.data) !== state.initial;

  return {
    async read(cookieHeader, https) {
      const cookieJar = https ? secure : plain;
      const session = await stored(cookieJar, cookieHeader);
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
      // would cost the store a write a request; so a session ends between half its idle time and
      // all of it after its last use.
      const used: unknown = session.get(USED_KEY);
      if (typeof used === 'number' && now() - used > idleMs / 2) session.set(USED_KEY, now());
      const clear = () => {
        state.destroyed = true;
        for (const key of Object.keys(session.data)) session.unset(key);
      };
      const methods: Record<PropertyKey, unknown> = {
        destroy: clear,
        signIn(user: unknown) {
          if (typeof user !== 'string' || user === '')
            throw new TypeError('session.signIn(user): user is the id of whom the session is now, a non-empty string');
          // Another user's session: nothing of theirs comes along. A visitor's own values (say a cart) do.
          const previous: unknown = session.get(USER_KEY);
          if (previous !== undefined && previous !== user) for (const key of Object.keys(session.data)) session.unset(key);
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
      // The proxy answers the host's sign-in and sign-outs, which React Router's Session lacks: the one cast of the host's session.
      const hostSession = proxy as HostSession;
      watched.set(hostSession, state);
      return hostSession;
    },
    async commit(proxy) {
      const state = watched.get(proxy);
      if (state === undefined || !changed(state)) return undefined;
      const { session, jar: cookieJar } = state;
      if (state.everywhere !== undefined) await store.removeUser(state.everywhere);
      // Nothing of the app's and no one signed in (a sign-out, a flash read and gone): no record is
      // kept for it, and the browser drops its cookie (Expires in the past).
      const kept = typeof session.get(USER_KEY) === 'string' || Object.keys(session.data).some((key) => !key.startsWith(HOST_KEY));
      if (!kept) return session.id === '' ? undefined : cookieJar.storage.destroySession(session);
      // Signed in, or signed out and then given values (a flash): the old id's data goes, the data gets a new id.
      if ((state.renewed || state.destroyed) && session.id !== '') {
        await store.remove(session.id);
        state.session = createSession(session.data);
      }
      if (state.renewed || state.session.get(STARTED_KEY) === undefined) state.session.set(STARTED_KEY, now());
      state.session.set(USED_KEY, now());
      return cookieJar.storage.commitSession(state.session);
    },
    changed(proxy) {
      const state = watched.get(proxy);
      return state !== undefined && changed(state);
    },
    isPerUser(proxy) {
      const state = watched.get(proxy);
      // A session the host did not hand out is treated as read: never shared by mistake.
      return state === undefined || state.read || state.initial !== '{}';
    },
    kind: store.kind,
  };
}
