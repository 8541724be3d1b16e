import { Transform } from 'node:stream';
import type { RuntimeConfig } from '../../shared/runtime.ts';
import { RUNTIME_GLOBAL, serializeForScript } from '../../shared/runtime.ts';

// What the browser needs of this answer before the app's code runs (shared/runtime.ts: the host
// name the error texts name, the request id its reports send back, the release, Sentry's
// settings) goes into the document's <head> as one inline script carrying the CSP nonce. The
// app owns the document (its root route's Layout), so the host writes it into the stream React
// renders: right after the opening <head> tag, before any script of the app's can read it; the
// trace's meta tags (Sentry's) go with it.

/** An attribute value's text: nothing in it can end the attribute or start a tag. */
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The script for `runtime`, with this answer's nonce; with a trace, its two meta tags too, which
 * Sentry's browser tracing reads to make the page load a span of the server request's trace
 * (https://docs.sentry.io/platforms/javascript/tracing/distributed-tracing/custom-instrumentation/#inject-tracing-information-into-rendered-html).
 */
export function runtimeScript(runtime: RuntimeConfig, nonce: string): string {
  const { trace } = runtime;
  const meta =
    trace === undefined
      ? ''
      : `<meta name="sentry-trace" content="${attribute(trace.sentryTrace)}"><meta name="baggage" content="${attribute(trace.baggage)}">`;
  return `${meta}<script nonce="${nonce}">window.${RUNTIME_GLOBAL}=${serializeForScript(runtime)}</script>`;
}

/**
 * How far into the document the <head> tag is looked for: React writes it in the shell's first
 * bytes; a document without one gets the script first.
 */
const MAX_HEAD_OFFSET = 64 * 1024;
const HEAD_TAG = /<head(?:\s[^>]*)?>/i;

/** Where in the document's first text `script` goes: after its <head> tag, or first; undefined while it may still come. */
function placeIn(text: string, final: boolean): number | undefined {
  const head = HEAD_TAG.exec(text);
  if (head === null && !final && text.length < MAX_HEAD_OFFSET) return undefined;
  return head === null ? 0 : head.index + head[0].length;
}

/**
 * The host's own entry's stream with `script` after the <head> tag (server/render/document.tsx
 * pipes React into it): placed in Node's stream React writes, where an app's own entry's answer
 * needs the web stream below, a third of the host's streaming cost on a small page (docs/performance.md).
 */
export function runtimeScriptStream(script: string): Transform {
  let held = '';
  let placed = false;
  const place = (stream: Transform, final: boolean) => {
    const at = placeIn(held, final);
    if (at === undefined) return;
    stream.push(held.slice(0, at) + script + held.slice(at));
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

/** An app's own entry's answer with `script` after its opening <head> tag. */
export function withRuntimeScript(response: Response, script: string): Response {
  if (response.body === null) return response;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let held = '';
  let placed = false;
  const place = (controller: TransformStreamDefaultController<Uint8Array>, text: string, final: boolean) => {
    const at = placeIn(text, final);
    if (at === undefined) return void (held = text);
    controller.enqueue(encoder.encode(text.slice(0, at) + script + text.slice(at)));
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
