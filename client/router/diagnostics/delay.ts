import { data } from 'react-router';

/** Delays are capped so that a diagnostic page cannot be used to hold sockets open. */
export const MAX_DELAY_MS = 30_000;

/** The `ms` query parameter: 400 unless it is a whole number; at most MAX_DELAY_MS. */
export function delayParam(request: Request, fallback: number): number {
  const raw = new URL(request.url).searchParams.get('ms') ?? String(fallback);
  if (!/^\d{1,9}$/.test(raw)) throw data(`ms must be an integer from 0 to ${MAX_DELAY_MS}`, { status: 400 });
  return Math.min(Number(raw), MAX_DELAY_MS);
}
