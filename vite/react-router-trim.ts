// Lets the browser build leave out the React Router code the host never runs
// (docs/performance.md, "First-load JavaScript"); its production modules are
// node_modules/react-router/dist/production/lib/.
//
// - Components nothing renders. They are declared as `const Link = React$1.forwardRef(...)` and
//   then given `Link.displayName = "Link"`: a call the bundler cannot know is pure, and a property
//   write it must keep. So every component of dom/lib.js stayed in the bundle whether a page
//   rendered it or not, and with <Link> its framework-mode prefetching (`<PrefetchPageLinks>`,
//   single fetch). Marked pure, and without the names (for React's developer tools; this is the
//   production build), they are declarations again, dropped when unused.
// - Client instrumentation (router/instrumentation.js), which createRouter() wraps the router in
//   when given `instrumentations`. The browser's one router is React Router's
//   HydratedRouter (client/router/entry.client.tsx), given none: the branch is dead, and so is the module.
import type { Plugin } from 'vite';

/** React Router's production modules, on any platform's path separator. */
const ROUTER_PRODUCTION = /node_modules[\\/]react-router[\\/]dist[\\/]production[\\/]/;
/** `const X = React$1.forwardRef(` and its kin at a module's top level: the value only wraps a function. */
const COMPONENT_WRAPPER = /^((?:const|let|var) [\w$]+ = )(React\$1\.(?:forwardRef|memo|createContext)\()/gm;
/** `X.displayName = "X";` on a line of its own, at a module's top level. */
const DISPLAY_NAME = /^[\w$]+\.displayName = "[^"\n]*";$/gm;
/** createRouter()'s two tests of its `instrumentations` option (router/router.js). */
const INSTRUMENTED = /\bif \(init\.instrumentations\)/g;

export function reactRouterTrim(): Plugin {
  return {
    name: 'react-ssr-host:react-router-trim',
    apply: 'build',
    transform(code, id) {
      if (!ROUTER_PRODUCTION.test(id)) return undefined;
      const trimmed = code.replace(COMPONENT_WRAPPER, '$1/* @__PURE__ */ $2').replace(DISPLAY_NAME, '').replace(INSTRUMENTED, 'if (false)');
      return trimmed === code ? undefined : { code: trimmed, map: null };
    },
  };
}
