import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appBuild, clientDir } from '../support/test-app.ts';

/** The text of every file in `dir` and its folders (compressed copies read as text hold no marker in the clear). */
const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => join(dir, file))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'));

describe('the browser build', () => {
  it('contains no loader code: a marker string of a loader and of a .server module is absent from the client files', () => {
    // A route module's loader (client/router/diagnostics/loader-error.tsx), which React Router
    // takes out of the browser's build, and a .server.ts module's (tests/apps/host/app/writes.server.ts).
    const markers = ['Diagnostic loader error: the loader threw', 'The writes fixture failed on purpose'];
    const files = filesIn(join(clientDir(), 'assets'));
    expect(files.length).toBeGreaterThan(0);
    for (const marker of markers) expect(files.some((text) => text.includes(marker))).toBe(false);
    // The server build has them: each marker is a real string of real server code.
    const server = filesIn(join(appBuild().dir, 'server'));
    for (const marker of markers) expect(server.some((text) => text.includes(marker))).toBe(true);
  });
});
