import type { Request, Response } from 'express';
import type { MatchedRoute, OnError, PageRequest } from '../../shared/page-seam.ts';
import type { FailureRecorder } from '../failures/recorder.ts';
import { ClientAbortError } from '../failures/errors.ts';
import { isInstance } from '../failures/thrown-value.ts';
import type { Sessions } from '../writes/session.ts';
import type { Config } from '../config/config.ts';
import { collectBody, type RenderFacts } from './cache-capture.ts';
import type { CacheSpec, PageCache } from './page-cache.ts';
import { answerHeaders } from './page-response.ts';
import { detachedDeadline, type Deadline } from './request-deadline.ts';

// A stale page rendered anew with no client waiting (docs/caching.md, "Reuse"): from the request
// that found it stale, without its cookies (the page must not depend on them: one that reads the
// session is not stored anyway), under a deadline of its own. Its failures are recorded once each,
// marked as a revalidation's; the stale page stays.

/** The headers the routes set, less cookies (never stored). */
export function routeHeadersOf(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => name !== 'set-cookie'));
}

/** What the host saw of a render, but the session (read once the body ended). */
export function renderFacts(
  res: Response,
  request: PageRequest,
  status: number,
  headers: Record<string, string>,
): Omit<RenderFacts, 'perUser'> {
  return {
    status,
    headers,
    setCookie: res.hasHeader('Set-Cookie'),
    failed: (res.locals.failures?.size ?? 0) > 0 || request.renderSignal.aborted,
    reads: request.headerReads ?? new Set(),
  };
}

interface RegenerationDeps {
  config: Config;
  failures: FailureRecorder;
  sessions: Sessions;
  cache: PageCache;
  pageRequest(req: Request, res: Response, url: URL, deadline: Deadline, body: null): Promise<PageRequest>;
}

const COOKIE_HEADERS = new Set(['cookie', 'authorization']);

export function createRegeneration(deps: RegenerationDeps) {
  const { failures, sessions, cache } = deps;
  return async function regenerate(req: Request, res: Response, route: MatchedRoute, url: URL, spec: CacheSpec, routeIds?: string[]) {
    const deadline = detachedDeadline(deps.config.streamTimeoutMs);
    // Its failures are its own: recorded under the request that found the page stale (its id is
    // the line's), never onto that answer (its access line, its digest, its headers sent).
    const own = Object.defineProperties(Object.create(res) as Response, {
      locals: { value: { route: res.locals.route } },
      headersSent: { value: false },
    });
    let failed = false;
    const record = (error: unknown) => {
      failed = true;
      return failures.record(error, req, own, 'revalidation');
    };
    const onError: OnError = (error, where) => {
      if (isInstance(error, ClientAbortError)) return { status: 499, digest: undefined };
      const recorded = record(where === 'loader' && deadline.signal.aborted ? deadline.signal.reason : error);
      return where === 'render' ? { ...recorded, pageDigest: failures.pageDigest(recorded, req) } : recorded;
    };
    try {
      const live = await deps.pageRequest(req, res, url, deadline, null);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !COOKIE_HEADERS.has(name)));
      const session = await sessions.read(undefined, false);
      // Markers of its own: the request that found the page stale was answered with the stored one.
      const anew = cache.specOf(spec);
      const request = cache.asTemplate({ ...live, headers, context: { ...live.context, session } }, anew);
      const response =
        spec.kind === 'document' ? await route.document(request, onError) : await route.data(request, routeIds ?? [], onError);
      if (response.type === 'failed') record(response.error);
      // The page is gone or moved now: the stale one must not be answered for ever.
      if (response.type === 'not-found' || response.type === 'redirect') return (await cache.forget(spec, req), true);
      if (response.type !== spec.kind) return false;
      const body = await collectBody(response.body);
      const setCookie = response.headers.has('set-cookie') || (await sessions.commit(session)) !== undefined;
      if (body === undefined || failed) return false;
      const perUser = sessions.isPerUser(session);
      const has = (name: string) => response.headers.has(name);
      const sent = { ...routeHeadersOf(response.headers), ...answerHeaders(spec.kind, response.status, perUser, has) };
      const facts = {
        status: response.status,
        headers: sent,
        perUser,
        setCookie,
        failed: request.renderSignal.aborted,
        reads: request.headerReads!,
      };
      return await cache.keep(anew, req, body, facts, true);
    } catch (error) {
      record(error);
      return false;
    } finally {
      deadline.done();
    }
  };
}
