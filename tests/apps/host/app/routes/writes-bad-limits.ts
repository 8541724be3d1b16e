// The writes fixture (../writes.server.ts) on a route whose limits are past the host's ceiling
// (server/config/body-limits.ts): the route's bug, found the first time it posts.
export { action, loader } from '../writes.server.ts';

export const bodyLimits = { maxBytes: 1_000_000_000 };
