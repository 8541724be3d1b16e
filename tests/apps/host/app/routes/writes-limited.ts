import type { BodyLimits } from '../../../../../shared/host.ts';

// The writes fixture (../writes.server.ts) on a route with limits of its own: a larger whole body
// than the host's default, a smaller file, fewer fields.
export { action, loader } from '../writes.server.ts';

export const bodyLimits = { maxBytes: 2 * 1_048_576, maxFileBytes: 1_024, maxFields: 3 } satisfies Partial<BodyLimits>;
