// Route data as the browser receives it (../both/transported.ts is its type): the server's render must
// read the same values, or what it writes would not match what the browser hydrates (a `Date`
// rendered on the server, its string in the browser). One JSON round trip per route's data.

function roundTrip(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    // A value JSON cannot carry (a BigInt, a cycle) fails where it is serialized for the page.
    return value;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Each route's data as JSON carries it; a top-level promise settles to its value's round trip. */
export function asTransported<T extends Record<string, unknown> | null | undefined>(byRoute: T): T {
  if (byRoute == null) return byRoute;
  const view: Record<string, unknown> = {};
  for (const [routeId, data] of Object.entries(byRoute)) {
    if (typeof data !== 'object' || data === null || Array.isArray(data) || data instanceof Date) {
      view[routeId] = roundTrip(data);
      continue;
    }
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      if (!isThenable(value)) fields[key] = roundTrip(value);
      else {
        const settled = Promise.resolve(value).then(roundTrip);
        settled.catch(() => {}); // its rejection is the section's failure, recorded by splitDeferred
        fields[key] = settled;
      }
    }
    view[routeId] = fields;
  }
  return view as T;
}
