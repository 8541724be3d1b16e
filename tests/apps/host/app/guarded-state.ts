import { createContext } from 'react-router';

// Not a .server module: the layout exports `calls` for tests, and React Router keeps a route's
// other exports in the browser's build.

/** What the guarded routes' loaders ran (./routes/guarded-layout.tsx, ./routes/guarded.tsx), and the visitor the guard let in. */
export const calls = { layout: 0, page: 0 };
export const visitor = createContext<string>();
