import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { AppBuild } from '../../server/assets/app-build.ts';
import { NOT_FOUND_MESSAGE, serverErrorMessage } from '../../shared/messages.ts';
import { appBuild, createTestApp, DIAG } from '../support/test-app.ts';
import { pageDigest } from '../../tools/harness/digests.ts';

// An app whose root route has no ErrorBoundary (React Router's templates have one; an app may
// not): where no route of the failing branch has a boundary, the answer is the host's own page
// with the seed's exact texts (server/render/host-build.ts), never React Router's bare default.
// The tests' app with its root's boundary taken out; the diagnostic routes' layout has none.

function withoutRootBoundary(): AppBuild {
  const host = appBuild('host');
  const root = host.serverBuild.routes.root!;
  const module = { ...root.module, ErrorBoundary: undefined };
  return { ...host, serverBuild: { ...host.serverBuild, routes: { ...host.serverBuild.routes, root: { ...root, module } } } };
}

describe('an app whose root has no ErrorBoundary', () => {
  const app = () => createTestApp({}, {}, { build: withoutRootBoundary() });

  it("answers a failure no boundary shows with the host's page: the seed's text and the digest of its one failure line", async () => {
    const { app: served, logs } = app();
    const res = await request(served).get('/_diag/server-error').set(DIAG).expect(500);
    expect(res.text).toContain(serverErrorMessage('127.0.0.1'));
    const failures = logs.failures(String(res.headers['x-request-id']));
    expect(failures).toHaveLength(1);
    expect(pageDigest(res.text)).toBe(failures[0]!.digest);
    expect(res.text).not.toContain('render threw before the shell');
  });

  it("answers a path no route matches with the host's 404 page, and no failure line", async () => {
    const { app: served, logs } = app();
    const res = await request(served).get('/no-such-page').expect(404);
    expect(res.text).toContain(NOT_FOUND_MESSAGE);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(logs.failureCount()).toBe(0);
    expect(logs.access(String(res.headers['x-request-id']))?.reason).toBe(NOT_FOUND_MESSAGE);
  });
});
