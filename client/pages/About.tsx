import { useLoaderData } from 'react-router';
import type { LoaderData } from '../host.ts';
import type { loader } from './about.server.ts';

export default function About() {
  const { servedAt } = useLoaderData<LoaderData<typeof loader>>();
  return (
    <>
      <h1>About</h1>
      <p>This site is served by react-ssr-host.</p>
      <p className="muted">{`Served at ${servedAt}.`}</p>
    </>
  );
}
