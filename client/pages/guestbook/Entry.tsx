import { useLoaderData } from 'react-router';
import { DefaultRouteError, Link, useRouteFailure, type LoaderData, type MetaArgs } from '../../host.ts';
import type { loader } from './entry.server.ts';

type Data = LoaderData<typeof loader>;

export function meta({ data }: MetaArgs<Data>) {
  return [{ title: `${data.entry.name} · Guestbook` }, { name: 'description', content: data.entry.message.slice(0, 160) }];
}

export default function Entry() {
  const { entry } = useLoaderData<Data>();
  return (
    <article>
      <p>
        <Link to="/guestbook">← The guestbook</Link>
      </p>
      <h1>{entry.name}</h1>
      <p>
        <time dateTime={entry.createdAt}>{entry.createdAt.slice(0, 10)}</time>
      </p>
      <p data-testid="entry-message">{entry.message}</p>
    </article>
  );
}

/** The route's own failure page: a deleted or unknown entry says so; anything else is the host's page. */
export function ErrorBoundary() {
  const failure = useRouteFailure();
  if (failure.status !== 404) return <DefaultRouteError />;
  return (
    <section role="alert" data-testid="entry-missing">
      <h1>{failure.message ?? 'No such entry'}</h1>
      <p>It may have been deleted by the person who wrote it.</p>
      <p>
        <Link to="/guestbook">Back to the guestbook</Link>
      </p>
    </section>
  );
}
