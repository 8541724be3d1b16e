// The host's virtual modules (vite/*.ts), for TypeScript.
declare module 'virtual:react-ssr-host/error-page.css';
declare module 'virtual:react-router/server-build' {
  import type { ServerBuild } from 'react-router';
  const build: ServerBuild;
  export = build;
}
