import { Link } from '../../router/Link.tsx';

/** Twelve links at once: prefetching them must stay within its limit of requests in flight. */
const LINK_COUNT = 12;
/** Each target's loader takes this long, so prefetches overlap. */
const TARGET_MS = 400;

export default function Links() {
  return (
    <>
      <h1>Diagnostic: links</h1>
      <ul>
        {Array.from({ length: LINK_COUNT }, (_, i) => (
          <li key={i}>
            <Link to={`/_diag/slow-loader?ms=${TARGET_MS}&n=${i + 1}`}>{`Slow page ${i + 1}`}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}
