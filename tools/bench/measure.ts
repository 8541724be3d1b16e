// The numbers beside the throughput table: streaming timings, cold start, first-load JS.
import { startAppServer } from './app-server.ts';
import { fetchOnce } from '../harness/http.ts';

export interface StreamTiming {
  path: string;
  samples: number;
  /** Medians, ms: request sent → first body chunk (the shell), and → end of the body. */
  firstChunkMs: number;
  totalMs: number;
}

/** Sequential requests on an idle server: what one visitor sees, not what a crowd sees. */
export async function streamTiming(base: string, path: string, headers: Record<string, string>, samples: number): Promise<StreamTiming> {
  const first: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < samples; i++) {
    const response = await fetchOnce(base + path, { headers });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status} while timing the stream`);
    first.push(response.firstChunkMs);
    total.push(response.totalMs);
  }
  return { path, samples, firstChunkMs: median(first), totalMs: median(total) };
}

/** Spawn → first 200 from /healthz, median of `samples` starts. */
export async function coldStartMs(samples: number, logLevel: string): Promise<{ medianMs: number; runsMs: number[] }> {
  const runsMs: number[] = [];
  for (let i = 0; i < samples; i++) {
    const server = await startAppServer({ logLevel, readyOn: 'healthz' });
    runsMs.push(server.readyAt - server.spawnedAt);
    await server.stop();
  }
  return { medianMs: median(runsMs), runsMs };
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, name, value] of tag.matchAll(/([\w-]+)="([^"]*)"/g)) found[name!.toLowerCase()] = value!;
  return found;
}

interface ModuleRef {
  url: string;
  kind: 'script' | 'modulepreload';
}

/** Module scripts and modulepreload links, in document order. */
function moduleRefs(html: string): ModuleRef[] {
  const refs: ModuleRef[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const attrs = attributes(tag);
    if (tag.startsWith('<script') && attrs.type === 'module' && attrs.src) refs.push({ url: attrs.src, kind: 'script' });
    if (tag.startsWith('<link') && attrs.rel === 'modulepreload' && attrs.href) refs.push({ url: attrs.href, kind: 'modulepreload' });
  }
  return refs;
}

/** The JavaScript a first visit loads, each file once. */
export function firstLoadScripts(html: string): string[] {
  return [...new Set(moduleRefs(html).map((ref) => ref.url))];
}

/**
 * The client entry: the `<script type="module" src>` the page boots from, or where there is none
 * the first modulepreload: React Router's <Scripts> preloads the entry first and imports it from
 * an inline module script.
 */
export function entryScript(html: string): string {
  const refs = moduleRefs(html);
  const entry = refs.find((ref) => ref.kind === 'script') ?? refs[0];
  if (entry === undefined) throw new Error('the page has no <script type="module" src> and no modulepreload');
  return entry.url;
}

export interface FirstLoadJs {
  files: { path: string; bytes: number; gzipBytes: number }[];
  gzipBytes: number;
}

/** Each file as the server sends it to a browser that accepts gzip (the build's own .gz: vite/precompress-assets.ts), and its size unencoded. */
export async function firstLoadJs(base: string, html: string): Promise<FirstLoadJs> {
  const files = [];
  for (const path of firstLoadScripts(html)) {
    const plain = await fetchOnce(new URL(path, base).href);
    const sent = await fetchOnce(new URL(path, base).href, { headers: { 'accept-encoding': 'gzip' } });
    if (plain.status !== 200 || sent.status !== 200) throw new Error(`${path} answered ${plain.status}, ${sent.status} with gzip`);
    files.push({ path, bytes: plain.bytes.length, gzipBytes: sent.bytes.length });
  }
  return { files, gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
