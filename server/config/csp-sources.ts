import { ConfigError, type Env } from './config-values.ts';

// Sources an app adds to the host's Content-Security-Policy (server/edge/security-headers.ts). The
// host's policy allows its own origin, nonced scripts and styles, and data: images; an app that
// shows avatars from another host, calls an API on another origin, loads a web font, embeds a
// video or a payment form names those origins here (docs/configuration.md). Each variable is a
// space-separated list of CSP source expressions (CSP Level 3, "source-list"), checked at boot.
// Refused: what would reach past its own directive (`;` ends a directive, `,` a policy, a line
// break the header) and what would undo the nonces (`'unsafe-inline'`, `'unsafe-eval'`, a nonce of
// its own, or any script from a whole scheme).

/**
 * Each variable's sources ride on every response's header. nginx reads a proxied response's whole
 * head into one buffer, a memory page (4 KiB) by default (`proxy_buffer_size`): seven variables
 * at this bound (1.8 KB), the host's own policy (about 300 bytes) and the other headers stay in it.
 */
export const MAX_CSP_SOURCES_LENGTH = 256;

export interface CspSources {
  readonly scriptSrc: readonly string[];
  readonly styleSrc: readonly string[];
  readonly imgSrc: readonly string[];
  readonly connectSrc: readonly string[];
  readonly fontSrc: readonly string[];
  readonly frameSrc: readonly string[];
  readonly mediaSrc: readonly string[];
}

/** Printable ASCII and spaces, without `;` and `,`: a header value that cannot leave its directive. */
const ALLOWED_CHARACTERS = /^[\x20-\x2b\x2d-\x3a\x3c-\x7e]*$/;
const SCHEME = '[A-Za-z][A-Za-z0-9+.-]*';
/** `scheme:` alone: every resource of that scheme (`https:`, `data:`, `blob:`, `wss:`). */
const SCHEME_SOURCE = new RegExp(`^${SCHEME}:$`);
/** `[scheme://]host[:port][/path]`, host `*`, `*.example.com` or a name; a path without quotes. */
const HOST_SOURCE = new RegExp(
  `^(?:${SCHEME}://)?(?:\\*|(?:\\*\\.)?[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.?)(?::(\\d{1,5}|\\*))?(?:/(?!/)[A-Za-z0-9._~%!$&()*+=:@/-]*)?$`,
);
/** TCP's port numbers (a port-part is digits in the grammar, a port only up to this). */
const MAX_PORT = 65_535;
/** The CSP keywords, which only count quoted. */
const KEYWORD = /^(?:self|none|unsafe-inline|unsafe-eval|unsafe-hashes|strict-dynamic|wasm-unsafe-eval|report-sample)$/i;
/** A hash of one inline script or style, as a browser computes it (CSP3 "hash-source"). */
const HASH_SOURCE = /^'sha(?:256|384|512)-[A-Za-z0-9+/_-]+={0,2}'$/;

interface Rules {
  /** Keywords beside 'self' this directive takes. */
  readonly keywords: readonly string[];
  /** Whether hashes of inline code may be listed (script-src and style-src). */
  readonly hashes: boolean;
  /** Whether `*` or a scheme alone may be listed: not where a script could come from anywhere. */
  readonly wide: boolean;
}

const SCRIPTS: Rules = { keywords: ["'wasm-unsafe-eval'"], hashes: true, wide: false };
const STYLES: Rules = { keywords: [], hashes: true, wide: true };
const RESOURCES: Rules = { keywords: [], hashes: false, wide: true };

const EXPECTED = `space-separated CSP sources such as https://cdn.example.com or *.example.com, at most ${MAX_CSP_SOURCES_LENGTH} characters, without ; , or line breaks`;

/** Why `token` is refused under `rules`, or undefined when it is a source this directive may add. */
function refusal(token: string, rules: Rules): string | undefined {
  if (token === "'self'" || rules.keywords.includes(token)) return undefined;
  if (HASH_SOURCE.test(token)) return rules.hashes ? undefined : `${token}: a hash only in CSP_SCRIPT_SRC or CSP_STYLE_SRC`;
  if (token.startsWith("'")) return `${token}: keywords are the host's, whose nonces decide what inline code runs`;
  // Unquoted, a keyword is a host of that name: never what was meant.
  if (KEYWORD.test(token)) return `${token}: a keyword is quoted, as in 'self'`;
  if (SCHEME_SOURCE.test(token) || token === '*' || /^[A-Za-z][A-Za-z0-9+.-]*:\/\/\*$/.test(token))
    return rules.wide ? undefined : `${token}: would allow any script from anywhere; name the hosts`;
  const host = HOST_SOURCE.exec(token);
  return host !== null && !(Number(host[1]) > MAX_PORT) ? undefined : token;
}

function sources(env: Env, name: string, rules: Rules): readonly string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return Object.freeze([]);
  if (raw.length > MAX_CSP_SOURCES_LENGTH || !ALLOWED_CHARACTERS.test(raw)) throw new ConfigError(name, raw, EXPECTED);
  const tokens = raw.split(' ').filter(Boolean);
  for (const token of tokens) {
    const why = refusal(token, rules);
    if (why !== undefined) throw new ConfigError(name, raw, `${EXPECTED} (not ${why})`);
  }
  return Object.freeze([...new Set(tokens)]);
}

/** Every CSP_* variable; unset ones add nothing. */
export function cspSources(env: Env): CspSources {
  return Object.freeze({
    scriptSrc: sources(env, 'CSP_SCRIPT_SRC', SCRIPTS),
    styleSrc: sources(env, 'CSP_STYLE_SRC', STYLES),
    imgSrc: sources(env, 'CSP_IMG_SRC', RESOURCES),
    connectSrc: sources(env, 'CSP_CONNECT_SRC', RESOURCES),
    fontSrc: sources(env, 'CSP_FONT_SRC', RESOURCES),
    frameSrc: sources(env, 'CSP_FRAME_SRC', RESOURCES),
    mediaSrc: sources(env, 'CSP_MEDIA_SRC', RESOURCES),
  });
}
