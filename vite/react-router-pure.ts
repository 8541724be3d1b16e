// Lets the browser build drop the parts of React Router that nothing calls
// (docs/performance.md, "First-load JavaScript"). React Router's production modules
// (node_modules/react-router/dist/production/lib/) declare their components as
// `const Link = React$1.forwardRef(...)` and then set `Link.displayName = "Link"`: a call the
// bundler cannot know is pure and a property write it must keep. So every component of
// dom/lib.js stays in the bundle whether the app renders it or not, and with <Link> its
// framework-mode prefetching (`<PrefetchPageLinks>`, single fetch): 3.2 KB gzip on every page.
// Marking the calls pure and leaving the names out (they are for React's developer tools, and
// this is the production build) makes them what they are: declarations, dropped when unused.
import type { Plugin } from 'vite';

/** React Router's production modules, on any platform's path separator. */
const ROUTER_PRODUCTION = /node_modules[\\/]react-router[\\/]dist[\\/]production[\\/]/;
/** `const X = React$1.forwardRef(` and its kin at a module's top level: the value only wraps a function. */
const COMPONENT_WRAPPER = /^((?:const|let|var) [\w$]+ = )(React\$1\.(?:forwardRef|memo|createContext)\()/gm;
/** `X.displayName = "X";` on a line of its own, at a module's top level. */
const DISPLAY_NAME = /^[\w$]+\.displayName = "[^"\n]*";$/gm;

export function reactRouterPure(): Plugin {
  return {
    name: 'react-ssr-host:react-router-pure',
    apply: 'build',
    transform(code, id) {
      if (!ROUTER_PRODUCTION.test(id)) return undefined;
      const pure = code.replace(COMPONENT_WRAPPER, '$1/* @__PURE__ */ $2').replace(DISPLAY_NAME, '');
      return pure === code ? undefined : { code: pure, map: null };
    },
  };
}
