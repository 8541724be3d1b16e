import type { Route } from './+types/catching';

// A resource route whose first middleware swallows what next() throws (a logging middleware, say)
// and whose second one throws: the second must still run once per request.

/** How often the second middleware threw: tests reach the host's copy through the build (tests/support/fixture-state.ts). */
export const catching = { thrown: 0 };

export const middleware: Route.MiddlewareFunction[] = [
  async (_args, next) => {
    try {
      return await next();
    } catch {
      return undefined;
    }
  },
  () => {
    catching.thrown += 1;
    throw new Error('The catching fixture’s middleware failed on purpose');
  },
];

export function loader() {
  return Response.json({ ok: true });
}
