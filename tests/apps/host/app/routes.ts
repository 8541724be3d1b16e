import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';
import { diagnosticRoutes } from '../../../../client/router/diagnostics/routes.ts';

// Each route stands for something the host must do for any app (tests/apps/host/app/routes/*).
export default [
  layout('routes/site.tsx', [
    index('routes/home.tsx'),
    route('fixture/:name?', 'routes/fixture.tsx'),
    route('writes', 'routes/writes.tsx'),
    route('guarded', 'routes/guarded-layout.tsx', [index('routes/guarded.tsx')]),
    route('cached', 'routes/cached.tsx'),
    route('cached/items/:id', 'routes/cached.tsx', { id: 'cached-item' }),
    route('exports', 'routes/exports.tsx'),
    route('prerendered/:case', 'routes/prerendered.tsx'),
    route('board', 'routes/board.tsx'),
    // Forms, a route's own stylesheet and a session's guard in a browser (tests/e2e/).
    route('notes', 'routes/notes.tsx'),
    route('notes/:id', 'routes/note.tsx'),
    route('members/sign-in', 'routes/members-sign-in.tsx'),
    route('members', 'routes/members-guard.tsx', [index('routes/members.tsx')]),
    // Whatever JavaScript can throw, thrown by a page or its loader (tests/failures/thrown-values.test.tsx).
    route('throws/:kind', 'routes/throws.tsx'),
  ]),
  route('members/sign-out', 'routes/members-sign-out.ts'),
  route('api/writes', 'routes/writes-api.ts'),
  route('api/writes/limited', 'routes/writes-limited.ts'),
  route('api/writes/bad-limits', 'routes/writes-bad-limits.ts'),
  route('catching', 'routes/catching.ts'),
  route('api/readonly', 'routes/readonly-api.ts'),
  ...diagnosticRoutes(import.meta.dirname),
] satisfies RouteConfig;
