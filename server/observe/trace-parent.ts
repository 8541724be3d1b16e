// The trace a request belongs to, as a W3C `traceparent` header names it
// (https://www.w3.org/TR/trace-context/#traceparent-header), read without an SDK so the access
// and failure lines carry the caller's trace id even with Sentry and export off. Only from a
// proxy TRUST_PROXY trusts (access-log.ts decides): any other client would choose which trace
// its lines join.
import type { TraceContext } from '../../shared/log-line.ts';

/** version-traceid-parentid-flags, lower-case hex; a later version may add fields after a dash. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
/** The spec's invalid version, and the one version whose shape is exactly the four fields. */
const INVALID_VERSION = 'ff';
const VERSION_00 = '00';
const ALL_ZERO = /^0+$/;
/** Far above the 55 characters of version 00: a longer header is not a trace context. */
const MAX_TRACEPARENT_CHARS = 512;

/**
 * A valid value's fields, or undefined: none, several (Node joins repeated headers with ", ",
 * which no valid value holds), not a string, malformed, version ff, an all-zero id.
 */
export function readTraceparent(value: unknown): { traceId: string; parentId: string; flags: string } | undefined {
  if (typeof value !== 'string' || value.length > MAX_TRACEPARENT_CHARS) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (match === null) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === INVALID_VERSION || (version === VERSION_00 && rest !== undefined)) return undefined;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentId)) return undefined;
  return { traceId, parentId, flags };
}

/** A header's trace id and flags, for a request's lines: not its parent id, which is the caller's span, not this request's. */
export function parseTraceparent(header: string | string[] | undefined): TraceContext | undefined {
  const fields = readTraceparent(header);
  return fields && { trace_id: fields.traceId, trace_flags: fields.flags };
}
