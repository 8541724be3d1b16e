import { abortableDelay, type LoaderArgs } from '../host.ts';

/** Stands in for a slow data source, so the page shows streaming at work. */
const FEATURES_DELAY_MS = 300;

const FEATURES = [
  'The document shell streams as soon as React has it; slow sections follow in the same response.',
  'Every failure gets a digest that is on the error page, in one log line and in Sentry.',
  'Links load the next page’s code and data ahead of a click; navigation needs no document load.',
];

export function loader({ request, signal }: LoaderArgs) {
  return {
    renderedAt: new Date().toISOString(),
    // Shows that a loader sees the request (this page is rendered per request; one that reads a
    // header cannot be prerendered: docs/caching.md). Only echoed back, escaped by React.
    language: (request.headers.get('accept-language') ?? 'en').split(',')[0]!.slice(0, 16),
    // A promise: the shell is sent without it, and the list streams in when it resolves.
    features: abortableDelay(FEATURES_DELAY_MS, signal).then(() => FEATURES),
  };
}

export type HomeData = ReturnType<typeof loader>;
