// What an app imports from the host, in one module whose path stays put however the host's own
// files move (docs/pages.md): the context its loaders and actions get (`context.get(hostContext)`),
// what an ErrorBoundary may show of a failure, the session's data it declares
// (client/session-data.ts), the database's types (docs/data.md), a stored page's policy
// (docs/caching.md), the failure hook's event (docs/operating.md), a delay that honours a signal,
// and the announcer of client navigations an app's layout renders.
export { hostContext, hostOf, type HostContext, type LimitRule, type RevalidateTarget } from './host-context.ts';
export { NavigationAnnouncer } from './NavigationAnnouncer.tsx';
export { HostErrorBoundary, failureOf, useFailure, useHostname, type FailureData, type ShownFailure } from './host-boundary.tsx';
export type { SessionData, SessionFlashData, HostSession } from './session-data.ts';
export type { Database, DatabaseEngine, Migration } from './database.ts';
export type { CachePolicy } from './cache-policy.ts';
export type { FailureEvent, FailureWork, OnFailure } from './failure-event.ts';
export { abortableDelay } from './abortable-delay.ts';
export type { BodyLimits } from './body-limits.ts';
export type { FormFile, OversizedFile, ParsedForm, ParseFormOptions } from './form-upload.ts';
