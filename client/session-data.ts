// The session's data, declared once for the whole app: every loader and action reads these keys
// typed (`context.session.get('owner')` is `string | undefined`), and a key not declared here is
// a type error. How the declaration reaches the host: shared/session-data.ts.
export {};

declare module '../shared/host.ts' {
  interface SessionData {
    /** The writer's random id (client/pages/guestbook/guestbook.tsx): never shown. */
    owner: string;
    /** The name signed in with (client/pages/guestbook/sign-in.tsx). */
    user: string;
  }
  interface SessionFlashData {
    /** The name of who just signed the guestbook: the thanks shows once, on the page after the post. */
    thanks: string;
  }
}
