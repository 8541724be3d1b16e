import { data, Outlet, redirect } from 'react-router';
import type { Route } from './+types/guarded-layout';
import { calls, visitor } from '../guarded-state.ts';

// A layout whose middleware guards the routes below it: without the `x-let-in` header the
// request is a redirect and no loader runs. `calls` counts what ran (../guarded-state.ts).

/** Exported for tests, which reach the host's copy through the build (tests/support/fixture-state.ts). */
export { calls };

export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }) => {
    const name = request.headers.get('x-let-in');
    if (name === null) throw redirect('/fixture/denied');
    context.set(visitor, name);
  },
  async (_args, next) => {
    const response = await next();
    response.headers.set('X-Middleware', 'ran');
    return response;
  },
];

export function loader() {
  calls.layout++;
  return data({ layout: true }, { headers: { 'X-Layout-Loader': 'set' } });
}

export function headers() {
  return { 'X-Layout': 'yes' };
}

export default function GuardedLayout() {
  return <Outlet />;
}
