import { once } from 'node:events';
import type { Request } from 'express';
import type { Logger } from 'pino';
import { RouterContextProvider } from 'react-router';
import { hostContext, type HostContext, type RevalidateTarget } from '../../shared/host-context.ts';
import type { Database } from '../../shared/database.ts';
import type { HostSession } from '../../shared/session-data.ts';
import type { BodyLimits } from '../../shared/body-limits.ts';
import { checkTarget } from '../pages/cache-policy.ts';
import type { Invalidated } from '../pages/cache-store.ts';
import { clientKey, type ClientLimits } from '../writes/client-limits.ts';
import { renderContext, type RenderContext } from './render-context.ts';
import type { FileStorage } from '@remix-run/file-storage';
import { formUploads, type FormUploads } from '../writes/form-uploads.ts';

// The context of one request, in React Router's RouterContextProvider (its `getLoadContext`):
// what the app's middleware, loaders and actions get (`context.get(hostContext)`,
// shared/host-context.ts) and what the host's own wrappers read (./render-context.ts).

export interface RequestContextDeps {
  logger: Logger;
  db: Database;
  limits: ClientLimits;
  /** Drops stored pages (server/pages/page-cache.ts). */
  revalidate?: (target: RevalidateTarget) => Promise<Invalidated>;
  /** Where an upload's files are written while its request lasts (UPLOAD_DIR). */
  uploadDir: string;
  /** Where an action keeps files (`context.files`). */
  files: FileStorage;
}

/** What the request brings beside the session: its id as loaders see it (a stored page's marker for it, server/pages/page-template.ts), its body's limits, its diagnostics. */
export interface RequestFacts {
  id: string;
  bodyLimits: BodyLimits;
  diagnostics: boolean;
  /** Settles when React Router has answered: its actions are done with the upload's files. */
  handled: Promise<unknown>;
}

export function requestContext(
  deps: RequestContextDeps,
  req: Request,
  session: HostSession,
  render: RenderContext,
  { id, bodyLimits, diagnostics, handled }: RequestFacts,
): RouterContextProvider {
  let log: Logger | undefined;
  let uploads: FormUploads | undefined;
  const host: HostContext = {
    session,
    id,
    bodyLimits,
    diagnostics,
    nonce: render.nonce,
    db: deps.db,
    files: deps.files,
    parseForm(request, options) {
      if (uploads === undefined) {
        const made = (uploads = formUploads(deps.uploadDir));
        // Files not kept go once the action is done with them and the answer has ended, whatever
        // it was: a client that leaves mid-action does not take them from under it.
        const closed = req.res!.closed ? Promise.resolve() : once(req.res!, 'close');
        void Promise.all([handled.catch(() => undefined), closed])
          .then(() => made.clear())
          .catch((error: unknown) => host.log.warn({ err: error }, 'an upload folder could not be removed'));
      }
      return uploads.parse(request, bodyLimits, options);
    },
    limit: (name, rule) => deps.limits.take(name, clientKey(req), rule),
    revalidate(target) {
      const checked = checkTarget(target);
      // The app's own mistake, as a bad argument is: thrown where it was made.
      if (typeof checked === 'string') throw new TypeError(`revalidate: ${checked}`);
      // How many were dropped; one the shared store did not confirm is retried by the host (revalidation-retries.ts).
      return deps.revalidate?.(checked).then(({ dropped }) => dropped) ?? Promise.resolve(0);
    },
    // Made only if a loader or action logs.
    get log() {
      return (log ??= deps.logger.child({ reqId: String(req.id) }));
    },
  };
  const context = new RouterContextProvider();
  context.set(hostContext, host);
  context.set(renderContext, render);
  return context;
}
