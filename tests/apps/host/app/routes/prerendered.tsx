import { data, redirect } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import type { Route } from './+types/prerendered';

// Pages whose prerendering goes wrong in every way the build must refuse (tests/pages/prerender-build.test.ts
// gives the build step a server build listing them); the config's own list (`/prerendered/fine`) renders well.

export function loader({ params, request, context }: Route.LoaderArgs) {
  if (params.case === 'loader-throws') throw new Error('The prerender fixture failed at build');
  if (params.case === 'gone') throw data(null, { status: 404 });
  if (params.case === 'moved') throw redirect('/prerendered/fine');
  if (params.case === 'reads-header') return { case: params.case, agent: request.headers.get('user-agent') };
  if (params.case === 'reads-session') return { case: params.case, user: hostOf(context).session.get('user') };
  if (params.case === 'sets-cookie') return data({ case: params.case }, { headers: { 'Set-Cookie': 'seen=1; Path=/' } });
  return { case: params.case };
}

export default function Prerendered({ loaderData }: Route.ComponentProps) {
  if (loaderData.case === 'render-throws') throw new Error('The prerender fixture failed to render at build');
  return <h1>{loaderData.case}</h1>;
}
