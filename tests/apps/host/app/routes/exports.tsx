import { useMatches } from 'react-router';

// A page with React Router's head exports: its links go into the head, its handle reaches
// useMatches(), its meta titles the page.

export function links() {
  return [
    { rel: 'stylesheet', href: '/fixture-exports.css' },
    { rel: 'preconnect', href: 'https://cdn.example' },
  ];
}

export const handle = { crumb: 'Exports crumb', resource: 'not the host’s' };

export function meta() {
  return [{ title: 'Exports · Fixture' }, { name: 'description', content: 'A page of exports' }];
}

export default function Exports() {
  const crumbs = useMatches().map((match) => (match.handle as { crumb?: string } | undefined)?.crumb);
  return <p data-testid="crumbs">{crumbs.filter(Boolean).join(' / ')}</p>;
}
