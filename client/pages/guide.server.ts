import { redirect } from 'react-router';
import { abortableDelay, notFound, type LoaderArgs } from '../host.ts';

// A stand-in for a content store. The related topics come from a slower source: they stream
// into the page after its shell.

interface Topic {
  slug: string;
  title: string;
  summary: string;
  body: string[];
}

const TOPICS: Topic[] = [
  {
    slug: 'streaming',
    title: 'Streaming',
    summary: 'How a page reaches the browser before all of its data is ready.',
    body: [
      'A loader returns its data; a value that is still a promise is left out of the shell and streams into the same response when it settles.',
      'The browser hydrates the shell at once and fills the streamed part in when its script arrives.',
    ],
  },
  {
    slug: 'failures',
    title: 'Failures',
    summary: 'What a user sees and what an operator finds when something breaks.',
    body: [
      'A failed loader or render shows the nearest route boundary with a digest; the layouts above it stay.',
      'The same digest is on one log line and on one Sentry event.',
    ],
  },
  {
    slug: 'navigation',
    title: 'Navigation',
    summary: 'How links move between pages without loading a new document.',
    body: [
      'Links prefetch the next page’s code and data when they come into view or are hovered, a few at a time.',
      'A navigation that takes too long gives up and lets the browser load the document instead.',
    ],
  },
];

/** Stands in for a slower source; long enough to see the fallback first. */
const RELATED_DELAY_MS = 150;

// eslint-disable-next-line @typescript-eslint/require-await -- async by contract: what a loader throws is its rejection
export async function loader({ params, signal }: LoaderArgs) {
  if (params.topic === undefined) throw redirect(`/guide/${TOPICS[0]!.slug}`);
  const topic = TOPICS.find((t) => t.slug === params.topic);
  if (topic === undefined) notFound();
  return {
    topic,
    topics: TOPICS.map(({ slug, title }) => ({ slug, title })),
    related: abortableDelay(RELATED_DELAY_MS, signal).then(() =>
      TOPICS.filter((t) => t !== topic).map(({ slug, summary }) => ({ slug, summary })),
    ),
  };
}

/**
 * Each topic's page is rendered at build and served as a file (docs/caching.md, "Prerendered
 * pages"); `/guide` itself only redirects, so it is not listed.
 */
export function prerender(): string[] {
  return TOPICS.map((topic) => `/guide/${topic.slug}`);
}

export type GuideData = Awaited<ReturnType<typeof loader>>;
