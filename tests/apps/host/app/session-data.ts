// The fixture app's session keys, declared as an app declares its own (docs/forms.md, "Sessions").
export {};

declare module '../../../../shared/host.ts' {
  interface SessionData {
    /** Who is signed in to the cached page (./routes/cached.tsx). */
    user: string;
    /** The writes page's visits by this session (the session round trip, ./writes.server.ts). */
    visits: number;
  }
  interface SessionFlashData {
    /** The name of who just posted on the board: shown once, on the page after the post. */
    posted: string;
  }
}
