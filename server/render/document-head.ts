import { Transform } from 'node:stream';
import type { RuntimeConfig } from '../../shared/runtime.ts';
import { RUNTIME_GLOBAL, serializeForScript } from '../../shared/runtime.ts';
import { MAX_INLINE_STYLE_BYTES, type InlineStyles } from '../assets/inline-styles.ts';

// What the host writes into a document's <head>, whatever entry rendered it. The app owns the
// document (its root route's Layout), so the host edits the stream React renders, once the head
// is whole (React writes it in the shell's first bytes):
// - the runtime script (shared/runtime.ts: the host name the error texts name, the request id
//   its reports send back, the release, Sentry's settings), right after the opening <head> tag,
//   before any script of the app's can read it, with the trace's meta tags (Sentry's);
// - in production, the build's small stylesheets written in as <style> where their <link> is,
//   so the first paint waits for no request; the <link> stays (React hydrates it) as
//   `media="print"`, which the browser fetches without holding the paint;
// - `fetchpriority="low"` on React Router's module preloads: the scripts run after the first
//   paint, and at their default high priority they share the phone's link with the document.
// Lighthouse's mobile run of the demo's `/`: first contentful paint 1.9 s with the links, 0.67 s
// with both changes (docs/performance.md, "Browser benchmark").

export interface DocumentHead {
  /** The runtime script (and trace meta tags), with this answer's nonce. */
  script: string;
  /** The answer's CSP nonce, for the <style> elements written in. */
  nonce: string;
  /** The build's (../assets/inline-styles.ts); undefined in development, where Vite serves the stylesheets. */
  styles: InlineStyles | undefined;
}

/** An attribute value's text: nothing in it can end the attribute or start a tag. */
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The script for `runtime`, with this answer's nonce; with a trace, its meta tags too: the
 * `traceparent` OpenTelemetry's browser document-load instrumentation reads ("Send a trace parent
 * from your server": https://www.npmjs.com/package/@opentelemetry/instrumentation-document-load),
 * which the host's own failure reports send back (client/router/error-hooks.tsx), and with Sentry the
 * two its browser tracing reads to make the page load a span of the server request's trace
 * (https://docs.sentry.io/platforms/javascript/tracing/distributed-tracing/custom-instrumentation/#inject-tracing-information-into-rendered-html).
 */
export function runtimeScript(runtime: RuntimeConfig, nonce: string): string {
  const { trace } = runtime;
  const meta = (name: string, value: string | undefined) =>
    value === undefined ? '' : `<meta name="${name}" content="${attribute(value)}">`;
  const tags =
    trace === undefined
      ? ''
      : meta('traceparent', trace.traceparent) + meta('sentry-trace', trace.sentryTrace) + meta('baggage', trace.baggage);
  return `${tags}<script nonce="${nonce}">window.${RUNTIME_GLOBAL}=${serializeForScript(runtime)}</script>`;
}

/** How far into the document the head's end is looked for; a document without one gets the script first and nothing else. */
const MAX_HEAD_OFFSET = 64 * 1024;
const HEAD_TAG = /<head(?:\s[^>]*)?>/i;
const HEAD_END = /<\/head\s*>/i;
/** React writes every attribute value double-quoted, `&` `"` `<` `>` escaped. */
const LINK_TAG = /<link\b([^>]*?)(\/?)>/gi;
const ATTRIBUTES = {
  rel: /\srel="([^"]*)"/i,
  href: /\shref="([^"]*)"/i,
  media: /\smedia="([^"]*)"/i,
  fetchpriority: /\sfetchpriority="([^"]*)"/i,
};
const attributeOf = (attributes: string, name: keyof typeof ATTRIBUTES) => ATTRIBUTES[name].exec(attributes)?.[1];

/** The head's links, as this answer writes them. */
function editLinks(head: string, { nonce, styles }: DocumentHead): string {
  if (styles === undefined) return head;
  let budget = MAX_INLINE_STYLE_BYTES;
  return head.replace(LINK_TAG, (tag, attributes: string, close: string) => {
    const rel = attributeOf(attributes, 'rel')?.toLowerCase();
    if (rel === 'modulepreload' && attributeOf(attributes, 'fetchpriority') === undefined)
      return `<link${attributes} fetchpriority="low"${close}>`;
    if (rel !== 'stylesheet' || attributeOf(attributes, 'media') !== undefined) return tag;
    const css = styles.get(attributeOf(attributes, 'href') ?? '');
    const bytes = css === undefined ? Infinity : Buffer.byteLength(css);
    if (bytes > budget) return tag;
    budget -= bytes;
    return `<style nonce="${nonce}">${css}</style><link${attributes} media="print"${close}>`;
  });
}

/** The document's first text with the host's additions; undefined while the head may still be coming. */
function withHead(text: string, head: DocumentHead, final: boolean): string | undefined {
  const end = HEAD_END.exec(text);
  if (end === null && !final && text.length < MAX_HEAD_OFFSET) return undefined;
  const open = HEAD_TAG.exec(text);
  const at = open === null ? 0 : open.index + open[0].length;
  if (end === null || end.index < at) return text.slice(0, at) + head.script + text.slice(at);
  return text.slice(0, at) + head.script + editLinks(text.slice(at, end.index), head) + text.slice(end.index);
}

/**
 * The host's own entry's stream with the head's additions (server/render/document.tsx pipes
 * React into it): placed in Node's stream React writes, where an app's own entry's answer needs
 * the web stream below, a third of the host's streaming cost on a small page (docs/performance.md).
 */
export function documentHeadStream(head: DocumentHead): Transform {
  let held = '';
  let placed = false;
  const place = (stream: Transform, final: boolean) => {
    const text = withHead(held, head, final);
    if (text === undefined) return;
    stream.push(text);
    [held, placed] = ['', true];
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (placed) return done(null, chunk);
      held += chunk.toString('utf8');
      place(this, false);
      done();
    },
    flush(done) {
      if (!placed) place(this, true);
      done();
    },
  });
}

/** An app's own entry's answer with the head's additions. */
export function withDocumentHead(response: Response, head: DocumentHead): Response {
  if (response.body === null) return response;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let held = '';
  let placed = false;
  const place = (controller: TransformStreamDefaultController<Uint8Array>, text: string, final: boolean) => {
    const written = withHead(text, head, final);
    if (written === undefined) return void (held = text);
    controller.enqueue(encoder.encode(written));
    placed = true;
    held = '';
  };
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (placed) return controller.enqueue(chunk);
        place(controller, held + decoder.decode(chunk, { stream: true }), false);
      },
      flush(controller) {
        if (!placed) place(controller, held + decoder.decode(), true);
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
