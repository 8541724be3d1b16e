import { index, route, type RouteConfig } from '@react-router/dev/routes';

// One route per case the bench measures (tools/bench/cases.ts names them), and the upload the
// soak sends (tools/soak/uploads.ts); any other path is its 404.
export default [
  index('routes/streamed.tsx'),
  route('boom', 'routes/boom.tsx'),
  route('crash', 'routes/crash.tsx'),
  route('stream-error', 'routes/stream-error.tsx'),
  route('api/error', 'routes/api-error.ts'),
  route('api/upload', 'routes/api-upload.ts'),
] satisfies RouteConfig;
