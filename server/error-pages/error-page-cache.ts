import { Writable } from 'node:stream';
import { renderErrorPage, type ServerErrorPageProps } from './render-error-page.tsx';
import { ErrorPageTimeoutError } from '../failures/errors.ts';
import { escapeHtml } from './escape-html.ts';

// In production an error page is the same markup every time except for the nonce, the host
// name and the digest. React renders each kind once, with placeholders, cut at them; a request
// then joins the pieces with its own values instead of rendering (a render was most of a
// 404's CPU time) or scanning the page for placeholders.

const NONCE = '__REACT_SSR_HOST_NONCE__';
const HOSTNAME = '__REACT_SSR_HOST_HOSTNAME__';
const DIGEST = '__REACT_SSR_HOST_DIGEST__';
const SLOTS = new RegExp(`(${NONCE}|${HOSTNAME}|${DIGEST})`);

/** Markup and slot names, alternating: even indexes are markup, odd ones name a value. */
type Pieces = string[];
/** Status messages are ours and few; the cap bounds memory if one ever carried client input. */
const MAX_TEMPLATES = 64;

/**
 * The error page is static markup that renders in milliseconds; one that has not finished after
 * this has hung (a component that suspends forever, say), and the static fallback is sent.
 */
export const ERROR_PAGE_TIMEOUT_MS = 1_000;

/** What renders an error page: the host's own (./render-error-page.tsx); a test passes a broken one. */
export type RenderErrorPage = typeof renderErrorPage;

/** The complete HTML of a render, once everything is ready; rejects on an error or the timeout. */
export function renderToText(
  props: ServerErrorPageProps,
  nonce: string,
  timeoutMs = ERROR_PAGE_TIMEOUT_MS,
  render: RenderErrorPage = renderErrorPage,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    // Set once the stream exists (a render that throws at once must leave no timer behind);
    // fail() may run before that.
    // eslint-disable-next-line prefer-const
    let timer: NodeJS.Timeout | undefined;
    const fail = (error: unknown) => {
      clearTimeout(timer);
      reject(error);
    };
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString('utf8');
        done();
      },
      final(done) {
        clearTimeout(timer);
        resolve(html);
        done();
      },
    });
    const stream = render(props, { nonce, onAllReady: () => stream.pipe(sink), onShellError: fail, onError: fail });
    timer = setTimeout(() => {
      const timeout = new ErrorPageTimeoutError(timeoutMs);
      reject(timeout);
      stream.abort(timeout);
    }, timeoutMs);
  });
}

export interface ErrorPageValues {
  nonce: string;
  hostname: string;
  digest: string | undefined;
}

function fill(pieces: Pieces, values: ErrorPageValues): string {
  const escaped: Record<string, string> = {
    [NONCE]: escapeHtml(values.nonce),
    [HOSTNAME]: escapeHtml(values.hostname),
    [DIGEST]: escapeHtml(values.digest ?? ''),
  };
  let html = pieces[0]!;
  for (let i = 1; i < pieces.length; i += 2) html += escaped[pieces[i]!]! + pieces[i + 1]!;
  return html;
}

export function createErrorPageCache(timeoutMs = ERROR_PAGE_TIMEOUT_MS, render: RenderErrorPage = renderErrorPage) {
  const templates = new Map<string, Promise<Pieces>>();

  function template(props: ServerErrorPageProps): Promise<Pieces> {
    const key = props.side === 'http' ? `${props.status} ${props.message}` : 'server';
    const cached = templates.get(key);
    if (cached) return cached;
    const placeheld: ServerErrorPageProps = props.side === 'http' ? props : { side: 'server', hostname: HOSTNAME, digest: DIGEST };
    const rendering = renderToText(placeheld, NONCE, timeoutMs, render).then((html) => html.split(SLOTS));
    if (templates.size < MAX_TEMPLATES) {
      templates.set(key, rendering);
      rendering.catch(() => templates.delete(key)); // a failed render is retried next time
    }
    return rendering;
  }

  /** The page for these props, with this request's values filled in, escaped. */
  return async (props: ServerErrorPageProps, values: ErrorPageValues): Promise<string> => fill(await template(props), values);
}
