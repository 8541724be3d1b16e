// What an app adds to the host (docs/forms.md, "Sessions"): a session key of its own.
export {};

declare module '../../../../shared/host.ts' {
  interface SessionFlashData {
    /** The note just added: shown once, on the page after the post. */
    noted: string;
  }
}
