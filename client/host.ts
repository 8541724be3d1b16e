// What an app imports from the host, in one module whose path stays put however the host's own
// files move (docs/pages.md, "Add a page"): the arguments and data types of loaders and actions,
// the route table's helper, the <Link> that prefetches, the failures a loader may throw, what an
// ErrorBoundary may show of one, a delay that honours the request's signal, an action's form
// with its files held to their limit, the session's data an app declares
// (client/session-data.ts) and the database's types (docs/data.md).
export type { ActionData, BodyLimits, LoaderData, RequestContext, RouteEntry, RouteMeta } from './router/both/route-entry.ts';
export type {
  ActionArgs,
  HostContext,
  LoaderArgs,
  MetaArgs,
  Middleware,
  PageModule,
  ParamsOf,
  ServerModule,
} from './router/both/route-module.ts';
export type { SessionData, SessionFlashData, HostSession } from '../shared/session-data.ts';
export type { Database, Migration } from '../shared/database.ts';
export { defineRoutes } from './router/both/route-entry.ts';
export { Link } from './router/both/Link.tsx';
export { CONTENT_ID } from './router/both/HostRoot.tsx';
export { badRequest, notFound } from './router/both/route-failure.ts';
export { abortableDelay } from './router/both/abortable-delay.ts';
export { DefaultRouteError, useRouteFailure, type ShownFailure } from './router/both/RouteErrorBoundary.tsx';
export { parseFormData, type FormFile, type OversizedFile, type ParsedForm } from './router/server/form-data.ts';
export type { FailureEvent, FailureWork, OnFailure } from '../shared/failure-event.ts';
