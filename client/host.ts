// What an app imports from the host, in one module whose path stays put however the host's own
// files move (docs/pages.md, "Add a page"): the arguments and data types of loaders and actions,
// the route table's helper, the <Link> that prefetches, the failures a loader may throw, and a
// delay that honours the request's signal.
export type { ActionArgs, ActionData, LoaderArgs, LoaderData, RequestContext, RouteEntry, RouteMeta } from './router/both/route-entry.ts';
export { defineRoutes } from './router/both/route-entry.ts';
export { Link } from './router/both/Link.tsx';
export { CONTENT_ID } from './router/both/HostRoot.tsx';
export { badRequest, notFound } from './router/both/route-failure.ts';
export { abortableDelay } from './router/both/abortable-delay.ts';
export type { FailureEvent, FailureWork, OnFailure } from '../shared/failure-event.ts';
