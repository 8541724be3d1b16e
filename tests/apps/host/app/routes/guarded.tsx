import { data } from 'react-router';
import { hostOf } from '../../../../../shared/host.ts';
import type { Route } from './+types/guarded';
import { calls, visitor } from '../guarded-state.ts';

export function loader({ context }: Route.LoaderArgs) {
  calls.page++;
  return data(
    { visitor: context.get(visitor), id: hostOf(context).id },
    { headers: { 'X-Loader-Only': '1', 'Set-Cookie': 'p=1; Path=/' } },
  );
}

/** React Router's merge: the parent's headers, plus what this route says of its loader's. */
export function headers({ parentHeaders, loaderHeaders }: Route.HeadersArgs) {
  const merged = new Headers(parentHeaders);
  merged.set('X-Page', loaderHeaders.has('X-Loader-Only') ? 'saw-loader' : 'none');
  return merged;
}

export default function Guarded({ loaderData }: Route.ComponentProps) {
  return <p data-testid="visitor">{`${loaderData.visitor} ${loaderData.id}`}</p>;
}
