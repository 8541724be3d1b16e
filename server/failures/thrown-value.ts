import { stripVTControlCharacters } from 'node:util';
import { cut } from '../observe/log-bound.ts';
import { HostError } from './errors.ts';
// JavaScript can throw anything: Errors, but also strings, numbers, undefined, Symbols,
// null-prototype objects, objects whose getters or toString throw, cyclic cause chains. Every
// reader of a thrown value (status, digest, log line, Sentry) goes through these helpers, which
// never throw and never run unbounded.

/** Keys described of a non-Error object: enough to tell `{code:'EDB'}` from `{code:'EPAY'}`. */
const MAX_KEYS = 20;
/** A described value is cut here; log lines are cut further by the serializer. */
export const MAX_DESCRIPTION = 1024;

/** A property read that cannot throw (getters, proxies) and ignores inherited accessors' failures. */
export function readProperty(value: unknown, key: string): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** A string property, or undefined. */
export function readString(value: unknown, key: string): string | undefined {
  const read = readProperty(value, key);
  return typeof read === 'string' ? read : undefined;
}

/**
 * Error-like: a real Error (of this or another realm), or an object that carries a string
 * stack and message as errors do. Checked without calling anything the value controls.
 */
export function isErrorLike(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  try {
    if (value instanceof Error) return true;
  } catch {
    // a Proxy whose getPrototypeOf trap throws
  }
  return typeof readProperty(value, 'stack') === 'string' && typeof readProperty(value, 'message') === 'string';
}

/** The name a person reads for the value's type: "TypeError", "string", "object", "Symbol"... */
export function typeName(value: unknown): string {
  if (isErrorLike(value)) {
    const name = readString(value, 'name') || constructorName(value as object) || 'Error';
    return cut(name, 256);
  }
  if (value === null) return 'null';
  if (typeof value === 'symbol') return 'Symbol';
  if (typeof value === 'object') return constructorName(value) ?? 'object';
  return typeof value;
}

function constructorName(value: object): string | undefined {
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === null) return 'object (null prototype)';
    const name = readString(readProperty(proto, 'constructor'), 'name');
    return name === 'Object' ? 'object' : name || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text of a thrown value: an error's message; a primitive's own text; for other objects
 * their own enumerable keys and values (sorted, so key order does not matter), never their
 * toString, which may throw or be someone else's code.
 */
export function describeValue(value: unknown): string {
  if (isErrorLike(value)) return cut(readString(value, 'message') ?? '', MAX_DESCRIPTION);
  return cut(describe(value, 0), MAX_DESCRIPTION);
}

function describe(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'symbol':
      return `Symbol(${value.description ?? ''})`;
    case 'function':
      return `[function ${readString(value, 'name') ?? ''}]`;
    case 'object':
      return value === null ? 'null' : depth > 0 ? '[object]' : describeObject(value);
    default:
      return String(value); // number, bigint, boolean, undefined: cannot throw
  }
}

function describeObject(value: object): string {
  let keys: string[];
  try {
    keys = Object.keys(value).sort();
  } catch {
    return '[unreadable object]';
  }
  const shown = keys.slice(0, MAX_KEYS).map((key) => `${key}: ${quote(readProperty(value, key))}`);
  if (keys.length > MAX_KEYS) shown.push(`… ${keys.length - MAX_KEYS} more`);
  return `{ ${shown.join(', ')} }`;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(cut(value, 256)) : describe(value, 1);
}

/** An error's cause, unless reading it throws. */
export function causeOf(value: unknown): unknown {
  return isErrorLike(value) ? readProperty(value, 'cause') : undefined;
}

/** `instanceof` that cannot throw (a Proxy's getPrototypeOf trap may). */
export function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/**
 * Express treats `next(undefined)`, `next(null)`, `next(0)`, `next('')` as "no error" and
 * `next('route')` as a routing command: such a thrown value is carried in this wrapper, and
 * the failure recorder unwraps it, so the digest and the log describe the value itself.
 */
export class ThrownValue extends HostError {
  override name = 'ThrownValue';
  constructor(readonly value: unknown) {
    super(500, 'A value that Express does not treat as an error was thrown', { stackless: true });
  }
}

/** What to pass to `next()` for a thrown value so that Express routes it as an error. */
export function asNextError(value: unknown): unknown {
  return value && value !== 'route' && value !== 'router' ? value : new ThrownValue(value);
}

export function unwrapThrown(value: unknown): unknown {
  return isInstance(value, ThrownValue) ? value.value : value;
}

/**
 * What a development error page shows: the stack (with the message), or a description of the
 * thrown value. Without terminal colour codes: Vite's transform errors (a syntax error in a page)
 * carry their code frame coloured for a terminal, which a page would show as raw escapes.
 */
export function devDetail(thrown: unknown): string {
  const error = unwrapThrown(thrown);
  const detail = isErrorLike(error) ? readString(error, 'stack') : undefined;
  return stripVTControlCharacters(detail ?? `${typeName(error)}: ${describeValue(error)}`);
}
