import { Suspense } from 'react';
import { Await, useLoaderData } from 'react-router';
import { Link, type MetaArgs } from '../host.ts';
import type { GuideData } from './guide.server.ts';

/** The title names the topic: made from the loader's data (React Router's `meta` export). */
export function meta({ data }: MetaArgs<GuideData>) {
  return [{ title: `${data.topic.title} · Guide` }, { name: 'description', content: data.topic.summary }];
}

export default function Guide() {
  const { topic, topics, related } = useLoaderData<GuideData>();
  return (
    <article>
      <nav aria-label="Guide topics" className="tabs">
        {topics.map((t) => (
          <Link key={t.slug} to={`/guide/${t.slug}`} aria-current={t.slug === topic.slug ? 'page' : undefined}>
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
            {(items: Awaited<GuideData['related']>) => (
              <ul data-testid="related">
                {items.map((item) => (
                  <li key={item.slug}>
                    <Link to={`/guide/${item.slug}`}>{item.slug}</Link>: {item.summary}
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
