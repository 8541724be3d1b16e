import { Suspense, use } from 'react';
import type { Route } from './+types/throws';

// A page that throws whatever JavaScript can throw, where an app's code can throw it: `/throws/:kind`
// throws the value named by kind (its query shapes it: `?code=`, `?orderId=`, `?text=`) while
// the page renders before the shell (the default), `?in=suspense` inside a Suspense boundary after
// the shell, `?in=loader` in its loader. tests/failures/thrown-values.test.tsx reads what the host
// made of each: the status, the digest, one bounded line.

function nullPrototype(fields: Record<string, unknown>): object {
  return Object.assign(Object.create(null) as object, fields);
}

function cyclicCause(): Error {
  const a = new Error('outer failure');
  const b = new Error('inner failure', { cause: a });
  (a as { cause?: unknown }).cause = b;
  return a;
}

const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('get trap');
    },
    ownKeys() {
      throw new Error('ownKeys trap');
    },
    getPrototypeOf() {
      throw new Error('getPrototypeOf trap');
    },
    has() {
      throw new Error('has trap');
    },
  },
);

/** Renders so far: a number in the messages of `ids`, new each time. */
let occurrences = 1000;

/** A message with per-occurrence values in it: a counter, a UUID, a timestamp, a long hex id. */
function withIds(template: string | null): Error {
  const n = occurrences++;
  if (template === 'order') return new Error(`Order ${n} not found`);
  const time = new Date(Date.now() + n * 1000).toISOString();
  const hex = (0xabc000 + n).toString(16).padStart(16, 'f0');
  return new Error(`User ${n} not found (request ${crypto.randomUUID()}, at ${time}, session ${hex})`);
}

const VALUES: Record<string, (query: URLSearchParams) => unknown> = {
  'null-prototype': (query) => nullPrototype({ code: query.get('code') ?? 'EDB' }),
  object: (query) => ({
    code: query.get('code') ?? 'EPAY',
    ...(query.has('orderId') ? { orderId: Number(query.get('orderId')) } : { retry: false }),
  }),
  string: (query) => query.get('text') ?? 'payment service said no',
  number: () => 42,
  undefined: () => undefined,
  null: () => null,
  symbol: (query) => Symbol(query.get('text') ?? 'checkout'),
  'throwing-getter': () => ({
    get code(): string {
      throw new Error('getter');
    },
  }),
  'throwing-to-string': () => ({
    toString() {
      throw new Error('toString');
    },
    id: 'X',
  }),
  'throwing-message': () =>
    Object.defineProperty(new TypeError('x'), 'message', {
      get() {
        throw new Error('message getter');
      },
    }),
  'hostile-proxy': () => hostile,
  'cyclic-cause': cyclicCause,
  'long-string': () => 'x'.repeat(100_000),
  ids: (query) => withIds(query.get('template')),
};

function thrownValue(kind: string, query: URLSearchParams): unknown {
  const make = VALUES[kind];
  if (make === undefined) throw new Error(`No thrown value named ${kind}`);
  return make(query);
}

export function loader({ params, request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  if (query.get('in') === 'loader') throw thrownValue(params.kind, query);
  return { kind: params.kind, search: query.toString(), later: query.get('in') === 'suspense' };
}

export function meta() {
  return [{ title: 'Thrower' }];
}

function Throws({ kind, search }: { kind: string; search: string }): never {
  throw thrownValue(kind, new URLSearchParams(search));
}

/** Throws once a moment has passed: after the shell was sent. */
function ThrowsLater({ kind, search }: { kind: string; search: string }) {
  use(
    new Promise((resolve) => setTimeout(resolve, 10)).then(() => {
      throw thrownValue(kind, new URLSearchParams(search));
    }),
  );
  return null;
}

export default function ThrowsPage({ loaderData }: Route.ComponentProps) {
  const { kind, search, later } = loaderData;
  if (!later) return <Throws kind={kind} search={search} />;
  return (
    <Suspense fallback={<p>loading</p>}>
      <ThrowsLater kind={kind} search={search} />
    </Suspense>
  );
}
