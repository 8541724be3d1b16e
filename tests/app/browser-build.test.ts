import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_DIR } from '../support/test-app.ts';

describe('the browser build', () => {
  it('contains no loader code: a marker string of a loader is absent from dist/client', () => {
    // 'Diagnostic loader error' and the guide's topics live only in *.server.ts files.
    const markers = ['Diagnostic loader error: the loader threw', 'What a user sees and what an operator finds when something breaks.'];
    const files = readdirSync(join(CLIENT_DIR, 'assets')).map((file) => readFileSync(join(CLIENT_DIR, 'assets', file), 'utf8'));
    expect(files.length).toBeGreaterThan(0);
    for (const marker of markers) expect(files.some((text) => text.includes(marker))).toBe(false);
    // The server build has them: the marker is a real string of a real loader.
    const server = readdirSync(join(CLIENT_DIR, '../server/assets')).map((file) =>
      readFileSync(join(CLIENT_DIR, '../server/assets', file), 'utf8'),
    );
    expect(server.some((text) => text.includes(markers[0]!))).toBe(true);
  });
});
