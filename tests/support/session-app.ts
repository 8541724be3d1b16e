import type request from 'supertest';
import { expect } from 'vitest';
import { createTestApp } from './test-app.ts';

// What the session tests share: the fixture app (its /writes loader counts a session's visits,
// tests/apps/host/app/writes.server.ts) under a fixed SESSION_SECRET, and reading its cookies.

export const sessionApp = (env: Record<string, string> = {}) => createTestApp({ SESSION_SECRET: 's'.repeat(32), ...env }).app;
export const setCookies = (res: request.Response) => (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
/** `name=value` of the one cookie an answer set. */
export const pair = (res: request.Response) => {
  expect(setCookies(res)).toHaveLength(1);
  return setCookies(res)[0]!.split(';')[0]!;
};
/** The fixture page's loader counts this session's visits. */
export const visits = (res: request.Response) => Number(/&quot;visits&quot;:(\d+)/.exec(res.text)?.[1]);
