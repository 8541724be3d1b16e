import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { MAX_CSP_SOURCES_LENGTH } from '../../server/config/csp-sources.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { CSP_EXAMPLE_ENV, CSP_EXAMPLE_SOURCES } from '../support/csp-examples.ts';

// The origins an app adds to the host's Content-Security-Policy (server/config/csp-sources.ts):
// read once at boot like every variable; a value that would reach past its directive or undo the
// nonces stops the boot with one line naming the variable and the value.

const EXPECTED = `space-separated CSP sources such as https://cdn.example.com or *.example.com, at most ${MAX_CSP_SOURCES_LENGTH} characters, without ; , or line breaks`;
const NONCES = "keywords are the host's, whose nonces decide what inline code runs";
const ANYWHERE = 'would allow any script from anywhere; name the hosts';

describe('CSP sources from the environment', () => {
  it('add nothing unset, and what a real app names when set', () => {
    expect(Object.values(loadConfig({}).csp).every((list) => list.length === 0)).toBe(true);
    expect(loadConfig(CSP_EXAMPLE_ENV).csp).toEqual(CSP_EXAMPLE_SOURCES);
  });

  it.each([
    // Past its own directive: a second directive, a second policy, a second header line.
    [{ CSP_IMG_SRC: "https://img.example.com; script-src 'unsafe-inline'" }, EXPECTED],
    [{ CSP_CONNECT_SRC: 'https://a.example.com, https://b.example.com' }, EXPECTED],
    [{ CSP_FONT_SRC: 'https://fonts.example.com\r\nX-Injected: 1' }, EXPECTED],
    [{ CSP_MEDIA_SRC: 'https://media.example.com\thttps://other.example.com' }, EXPECTED],
    [{ CSP_IMG_SRC: 'https://bücher.example' }, EXPECTED],
    [{ CSP_IMG_SRC: `https://${'a'.repeat(MAX_CSP_SOURCES_LENGTH)}.example.com` }, EXPECTED],
    // What would undo the nonces.
    [{ CSP_SCRIPT_SRC: "https://js.example.com 'unsafe-inline'" }, `${EXPECTED} (not 'unsafe-inline': ${NONCES})`],
    [{ CSP_SCRIPT_SRC: "'unsafe-eval'" }, `${EXPECTED} (not 'unsafe-eval': ${NONCES})`],
    [{ CSP_SCRIPT_SRC: "'strict-dynamic'" }, `${EXPECTED} (not 'strict-dynamic': ${NONCES})`],
    [{ CSP_SCRIPT_SRC: "'nonce-abc123'" }, `${EXPECTED} (not 'nonce-abc123': ${NONCES})`],
    [{ CSP_STYLE_SRC: "'unsafe-inline'" }, `${EXPECTED} (not 'unsafe-inline': ${NONCES})`],
    [{ CSP_IMG_SRC: "'none'" }, `${EXPECTED} (not 'none': ${NONCES})`],
    [{ CSP_SCRIPT_SRC: 'https:' }, `${EXPECTED} (not https:: ${ANYWHERE})`],
    [{ CSP_SCRIPT_SRC: 'data:' }, `${EXPECTED} (not data:: ${ANYWHERE})`],
    [{ CSP_SCRIPT_SRC: '*' }, `${EXPECTED} (not *: ${ANYWHERE})`],
    [{ CSP_SCRIPT_SRC: 'https://*' }, `${EXPECTED} (not https://*: ${ANYWHERE})`],
    [
      { CSP_FRAME_SRC: `'sha256-${'A'.repeat(43)}='` },
      `${EXPECTED} (not 'sha256-${'A'.repeat(43)}=': a hash only in CSP_SCRIPT_SRC or CSP_STYLE_SRC)`,
    ],
    // Not a source at all.
    [{ CSP_IMG_SRC: 'https://img.example.com/"onload' }, `${EXPECTED} (not https://img.example.com/"onload)`],
    [{ CSP_CONNECT_SRC: 'self' }, `${EXPECTED} (not self: a keyword is quoted, as in 'self')`],
    [{ CSP_CONNECT_SRC: 'https://' }, `${EXPECTED} (not https://)`],
    [{ CSP_CONNECT_SRC: 'https://api.example.com:99999' }, `${EXPECTED} (not https://api.example.com:99999)`],
  ])('refuses %o, naming the variable and the value', (env, expected) => {
    const [[name, value]] = Object.entries(env) as [[string, string]];
    const thrown = (() => {
      try {
        loadConfig(env);
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(thrown?.name).toBe('ConfigError');
    expect(thrown?.message).toBe(`Invalid ${name}=${JSON.stringify(value)}: expected ${expected}`);
    expect(thrown?.message).not.toContain('\n');
  });

  it('a bad value stops the process before it listens, with exit code 1 and one line', () => {
    const value = "https://js.example.com 'unsafe-inline'";
    const run = spawnSync('node', ['dist/server/index.js'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', CSP_SCRIPT_SRC: value },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`Invalid CSP_SCRIPT_SRC=${JSON.stringify(value)}: expected ${EXPECTED} (not 'unsafe-inline': ${NONCES})\n`);
    expect(run.stdout).not.toContain('listening');
  });
});
