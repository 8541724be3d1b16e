import { Suspense } from 'react';
import { Await, data, Link, redirect } from 'react-router';
import { abortableDelay } from '../../shared/host.ts';
import type { Route } from './+types/guide';

// A stand-in for a content store. The related topics come from a slower source: they stream
// into the page after its shell. Each topic's page is prerendered at build (react-router.config.ts).

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

export function loader({ params, request }: Route.LoaderArgs) {
  if (params.topic === undefined) throw redirect(`/guide/${TOPICS[0]!.slug}`);
  const topic = TOPICS.find((t) => t.slug === params.topic);
  if (topic === undefined) throw data('No such topic', { status: 404 });
  return {
    topic,
    topics: TOPICS.map(({ slug, title }) => ({ slug, title })),
    related: abortableDelay(RELATED_DELAY_MS, request.signal).then(() =>
      TOPICS.filter((t) => t !== topic).map(({ slug, summary }) => ({ slug, summary })),
    ),
  };
}

/** The title names the topic: made from the loader's data. */
export function meta({ loaderData }: Route.MetaArgs) {
  if (loaderData === undefined) return [{ title: 'Guide' }];
  return [{ title: `${loaderData.topic.title} · Guide` }, { name: 'description', content: loaderData.topic.summary }];
}

export default function Guide({ loaderData }: Route.ComponentProps) {
  const { topic, topics, related } = loaderData;
  return (
    <article>
      <nav aria-label="Guide topics" className="tabs">
        {topics.map((t) => (
          <Link key={t.slug} to={`/guide/${t.slug}`} prefetch="intent" aria-current={t.slug === topic.slug ? 'page' : undefined}>
            {t.title}
          </Link>
        ))}
      </nav>
      <h1>{topic.title}</h1>
      {topic.body.map((paragraph, i) => (
        <p key={paragraph} className={i === 0 ? 'lead' : undefined}>
          {paragraph}
        </p>
      ))}
      <section>
        <h2>Related</h2>
        <Suspense fallback={<p data-testid="related-fallback">Loading related topics…</p>}>
          <Await resolve={related}>
            {(items) => (
              <ul data-testid="related">
                {items.map((item) => (
                  <li key={item.slug}>
                    <Link to={`/guide/${item.slug}`} prefetch="intent">
                      {item.slug}
                    </Link>
                    : {item.summary}
                  </li>
                ))}
              </ul>
            )}
          </Await>
        </Suspense>
      </section>
    </article>
  );
}
