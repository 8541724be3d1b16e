// What a loader's or action's value becomes on its way to the page. The host carries route data
// as JSON (in the page's runtime script and in /_data answers, shared/route-data.ts), so the type
// a component reads is the value after JSON.stringify and JSON.parse: a `Date` is its ISO string
// (its toJSON), `undefined` and functions vanish from objects, a `Map` or `Set` is `{}`. Top-level
// promises are the one addition: they stream (./deferred.ts) and settle to a transported value.
import type { data } from 'react-router';

type DataWithInit<T> = ReturnType<typeof data<T>>;

/** Values JSON has no place for: dropped from an object, `null` in an array. */
type Unsendable = undefined | symbol | ((...args: never[]) => unknown);

type Json<T> = T extends { toJSON(): infer R }
  ? Json<R>
  : T extends string | number | boolean | null
    ? T
    : T extends bigint
      ? never // JSON.stringify throws: the value fails its response
      : T extends Unsendable
        ? never
        : T extends ReadonlyMap<unknown, unknown> | ReadonlySet<unknown>
          ? Record<string, never>
          : T extends readonly unknown[]
            ? { [K in keyof T]: T[K] extends Unsendable ? null : Json<T[K]> }
            : T extends object
              ? { [K in keyof T as T[K] extends Unsendable ? never : K]: Json<T[K]> }
              : never;

/** A top-level value of route data: a promise streams, anything else goes as JSON. */
type Field<T> = T extends PromiseLike<infer U> ? Promise<Json<U>> : Json<T>;

/** Route data as the page receives it; `data(value, init)` carries `value`, a Response carries nothing. */
export type Transported<T> =
  T extends DataWithInit<infer U>
    ? Transported<U>
    : T extends Response
      ? never
      : T extends readonly unknown[]
        ? Json<T>
        : T extends object
          ? { [K in keyof T as T[K] extends Unsendable ? never : K]: Field<T[K]> }
          : Json<T>;
