import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Request, Response } from 'express';
import type { Config } from '../config/config.ts';
import type { FailureRecorder } from '../failures/recorder.ts';
import type { Sessions } from '../writes/session.ts';
import { detachedDeadline } from '../edge/request-deadline.ts';
import { fetchHeaders } from './react-router-handler.ts';
import type { PageRenderer } from './page-renderer.ts';
import { isBot } from '../edge/is-bot.ts';
import { collectBody } from '../pages/cache-capture.ts';
import type { LookupKey, PageCache } from '../pages/page-cache.ts';

// A stale page rendered anew with no client waiting (docs/caching.md, "Reuse"): from the request
// that found it stale, without its cookies (the page must not depend on them: one that reads the
// session is not stored anyway), under a deadline of its own. Its failures are recorded once each,
// marked as a revalidation's; the stale page stays.

interface RegenerationDeps {
  config: Config;
  failures: FailureRecorder;
  sessions: Sessions;
  cache: PageCache;
  renderer: PageRenderer;
}

const COOKIE_HEADERS = new Set(['cookie', 'authorization']);

export function createRegeneration(deps: RegenerationDeps) {
  const { sessions, cache, renderer } = deps;
  return async function regenerate(key: LookupKey, req: Request, res: Response): Promise<boolean> {
    const deadline = detachedDeadline(deps.config.streamTimeoutMs);
    // Its failures are its own: recorded under the request that found the page stale (its id is
    // the line's), never onto that answer (its access line, its digest, its headers sent).
    const own = Object.defineProperties(Object.create(res) as Response, {
      locals: { value: { route: res.locals.route } },
      headersSent: { value: false },
    });
    try {
      // As it renders below: without the diagnostic routes.
      const { table } = await renderer.prepare(false);
      const url = new URL(key.target);
      const matched = table.match(key.path, url.searchParams.has('index'));
      const policy = matched && deps.cache.policyOf(matched.leaf.id, matched.leaf.module.cache, key.path);
      // The page is gone, or asks to be stored no more: the stale one must not be answered for ever.
      if (matched === undefined || policy === undefined) return (await cache.forget(key, req), true);
      // Markers of its own: the request that found the page stale was answered with the stored one.
      const spec = cache.specOf({ ...key, routeId: matched.leaf.id, policy });
      const session = await sessions.read(undefined, false);
      const headerReads = new Set<string>();
      const response = await renderer.render(
        {
          req,
          res: own,
          url,
          method: 'GET',
          headers: fetchHeaders(req, COOKIE_HEADERS),
          session,
          deadline,
          values: cache.markersOf(spec),
          bot: isBot(req.get('user-agent')),
          kind: 'revalidation',
          headerReads,
          bodyLimits: deps.config.body,
          diagnostics: false,
        },
        matched.leaf.id,
      );
      // Moved now: the stale page must not be answered for ever.
      if (response.status >= 300 && response.status < 400) return (await cache.forget(spec, req), true);
      const body = response.body === null ? '' : await collectBody(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>));
      if (body === undefined) return false;
      const facts = {
        status: response.status,
        headers: Object.fromEntries([...response.headers].filter(([name]) => name !== 'set-cookie')),
        perUser: sessions.isPerUser(session),
        setCookie: response.headers.has('set-cookie') || sessions.changed(session),
        failed: (own.locals.failures?.size ?? 0) > 0 || deadline.renderSignal.aborted,
        reads: headerReads,
      };
      return await cache.keep(spec, req, body, facts, true);
    } catch (error) {
      deps.failures.record(error, req, own, 'revalidation');
      return false;
    } finally {
      deadline.done();
    }
  };
}
