import { createContext, type RouterContextProvider } from 'react-router';
import type { Recorded } from '../failures/recorder.ts';
import type { Deadline } from '../edge/request-deadline.ts';
import type { DocumentHead } from './document-head.ts';

// What the host's wrappers of the app's build (./host-build.ts) and its document entry
// (./document.tsx) need of the request they run for: set by the Express adapter
// (./react-router-handler.ts) in React Router's context beside the app's `hostContext`, read
// with `context.get(renderContext)`. Never the app's: the app gets shared/host-context.ts.

export interface RenderContext {
  /** The CSP nonce of this answer (server/edge/security-headers.ts): on every script React and React Router write. */
  nonce: string;
  /** The host name error texts name (server/edge/request-origin.ts). */
  hostname: string;
  /** The loaders' signal and the render's (../edge/request-deadline.ts). */
  deadline: Deadline;
  /** Records a failure once (server/failures/recorder.ts): its status, and for a 5xx its digest and the proof written into pages. */
  record(error: unknown, where: 'loader' | 'render'): Recorded;
  /** Notes why a 4xx the app threw on purpose refused the request: its access line says so (server/observe/access-log.ts). */
  rejected(reason: string): void;
  /** The failure a redirect to `location` is when a browser would follow it off this site (server/render/redirect-target.ts), else undefined. */
  refusedRedirect(location: string): Error | undefined;
  /** A crawler gets the whole page at once; a browser, the shell first (React's onAllReady and onShellReady). */
  bot: boolean;
  /** What the host writes into the document's head (./document-head.ts): the runtime script, the inlined stylesheets. */
  head: DocumentHead;
  /** Where the names of the request headers the app's loaders read go, for a page that may be stored (server/pages/cache-capture.ts). */
  headerReads?: Set<string>;
  /**
   * The failure the page would show in React Router's own root boundary, set when the app's root
   * route has none (./host-build.ts): the host answers it with its own error page instead.
   */
  unhandled?: unknown;
  /** The first failure recorded for this request, as it was thrown (what the terminal middleware meets again, recorded once). */
  failure?: unknown;
  /**
   * Records, once, that the loaders did not settle by the deadline (a LoaderTimeoutError, 504)
   * and returns it: the host answers it in place of React Router's (./page-renderer.ts).
   */
  loadersTimedOut(): Error;
  /**
   * Set once React Router hands the document to the entry (./host-build.ts): the loaders are done,
   * and a deadline met after it is the render's (the entry aborts it, ./document.tsx), not theirs.
   */
  documentStarted?: boolean;
}

/**
 * The key, one for the process: in development the host's modules and the app's build are loaded
 * by two module loaders (Node's and Vite's), so this module may run twice (shared/host-context.ts).
 */
const KEY = Symbol.for('react-ssr-host:render-context');
const global = globalThis as { [KEY]?: ReturnType<typeof createContext<RenderContext>> };
export const renderContext = (global[KEY] ??= createContext<RenderContext>());

/** This request's, or undefined where the host did not set one (a build run by another handler). */
export function renderOf(context: Readonly<RouterContextProvider> | undefined): RenderContext | undefined {
  try {
    return context?.get(renderContext);
  } catch {
    return undefined;
  }
}
