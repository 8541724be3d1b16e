import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { servePublicFiles } from '../../server/assets/public-files.ts';
import { createTestApp } from '../support/test-app.ts';

// public/ in production: its files, subfolders included, with a cache that revalidates; never
// a file outside it, through a symlink, hidden (but under .well-known/), or of the build itself.

function folder(): string {
  const root = mkdtempSync(join(tmpdir(), 'public-files-'));
  const outside = mkdtempSync(join(tmpdir(), 'outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'SECRET');
  mkdirSync(join(root, 'docs/deep'), { recursive: true });
  mkdirSync(join(root, '.well-known'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'assets'));
  mkdirSync(join(root, '.vite'));
  writeFileSync(join(root, 'robots.txt'), 'User-agent: *');
  writeFileSync(join(root, 'docs/deep/a b.txt'), 'DEEP');
  writeFileSync(join(root, '.well-known/security.txt'), 'Contact: x');
  writeFileSync(join(root, '.env'), 'SECRET');
  writeFileSync(join(root, '.git/config'), 'SECRET');
  writeFileSync(join(root, 'assets/app.js'), 'BUILD');
  writeFileSync(join(root, '.vite/manifest.json'), 'BUILD');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
  symlinkSync(outside, join(root, 'linked-dir'));
  return root;
}

describe('public files', () => {
  const app = express().use(servePublicFiles(folder()));
  app.use((_req, res) => void res.status(404).end('not here'));

  it('serves its files and subfolders with a cache that revalidates, and HEAD', async () => {
    const robots = await request(app).get('/robots.txt').expect(200);
    expect(robots.text).toBe('User-agent: *');
    expect(robots.headers['cache-control']).toBe('public, max-age=3600');
    expect(robots.headers.etag).toBeDefined();
    await request(app).get('/docs/deep/a%20b.txt').expect(200, 'DEEP');
    await request(app).get('/.well-known/security.txt').expect(200, 'Contact: x');
    const head = await request(app).head('/robots.txt').expect(200);
    expect(head.text).toBeFalsy();
    await request(app).get('/robots.txt').set('If-None-Match', String(robots.headers.etag)).expect(304);
  });

  it.each([
    '/.env',
    '/.git/config',
    '/link.txt',
    '/linked-dir/secret.txt',
    '/assets/app.js',
    '/.vite/manifest.json',
    '/docs/../.env',
    '/docs/%2e%2e/.env',
    '/docs/deep/..%2F..%2F.env',
    '/%2e%2e/outside/secret.txt',
    '/docs',
    '/docs/',
    '/ROBOTS.TXT',
    '/robots.txt/',
    '/robots.txt%00',
  ])('never serves %s', async (path) => {
    const res = await request(app).get(path);
    expect(res.status).toBe(404);
    expect(res.text).not.toMatch(/SECRET|BUILD/);
  });

  it('writes to a public file are not served', async () => {
    await request(app).post('/robots.txt').expect(404);
  });

  // The fixture app's tests/apps/host/public/robots.txt, which its build copies beside its assets.
  it('the app serves its own public files in production', async () => {
    const res = await request(createTestApp().app).get('/robots.txt').expect(200);
    expect(res.text).toContain('User-agent: *');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });
});
