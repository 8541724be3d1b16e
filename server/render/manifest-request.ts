import { DIAGNOSTICS_PATH } from '../pages/diagnostics.ts';

// React Router's route discovery (its lazy `/__manifest?paths=…`) names the routes each path
// matches, diagnostics among them, and asks every cache to keep the answer for a year. The
// diagnostic routes exist only for a request carrying the token (server/pages/diagnostics.ts):
// without it their paths are left out of the question, and an answer asked about them is kept
// nowhere (a cache keyed by the URL alone would hand one request's answer to the other).

const isDiagnostics = (path: string) => path === DIAGNOSTICS_PATH || path.startsWith(`${DIAGNOSTICS_PATH}/`);

/**
 * For a manifest request's query (`?…`): whether it names diagnostic paths, and the query React
 * Router should see (without them unless `allowed`).
 */
export function manifestQuery(query: string, allowed: boolean): { diagnostics: boolean; query: string } {
  const params = new URLSearchParams(query);
  const paths = params.get('paths');
  if (paths === null) return { diagnostics: false, query };
  const asked = paths.split(',');
  const kept = asked.filter((path) => !isDiagnostics(path.startsWith('/') ? path : `/${path}`));
  if (kept.length === asked.length) return { diagnostics: false, query };
  if (allowed) return { diagnostics: true, query };
  params.set('paths', kept.join(','));
  return { diagnostics: true, query: `?${params.toString()}` };
}
