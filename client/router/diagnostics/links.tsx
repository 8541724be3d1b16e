import { Link, useLocation } from 'react-router';

/** Twelve links by default: prefetching them must stay within its limit of requests in flight. */
const DEFAULT_COUNT = 12;
const MAX_COUNT = 50;
/** Each target's loader takes this long by default, so prefetches overlap. */
const DEFAULT_TARGET_MS = 400;

function bounded(raw: string | null, fallback: number, max: number): number {
  const value = Number(raw ?? fallback);
  return Number.isInteger(value) && value >= 0 ? Math.min(value, max) : fallback;
}

/** `?count=N&ms=M`: N links to pages whose loader takes M ms; `&prefetch=viewport` prefetches their data in view. */
export default function Links() {
  // Not React Router's useSearchParams: its module is in every page's first load, this one page
  // only reads the query (docs/performance.md, "First-load JavaScript").
  const search = new URLSearchParams(useLocation().search);
  const count = bounded(search.get('count'), DEFAULT_COUNT, MAX_COUNT);
  const ms = bounded(search.get('ms'), DEFAULT_TARGET_MS, 30_000);
  const prefetch = search.get('prefetch') === 'viewport' ? 'viewport' : undefined;
  return (
    <>
      <h1>Diagnostic: links</h1>
      <ul>
        {Array.from({ length: count }, (_, i) => (
          <li key={i}>
            <Link to={`/_diag/slow-loader?ms=${ms}&n=${i + 1}`} prefetch={prefetch}>{`Slow page ${i + 1}`}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}
