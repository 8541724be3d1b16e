// The browser's entry: its stylesheets, then the page's hydration. The code is in
// hydrate-page.tsx so it can share the first load's one file with React and React Router, while
// the stylesheets stay this entry's own: in the shared file they would count as every page
// chunk's (docs/performance.md, "First-load JavaScript"). A function, not top-level awaits
// there: the shared file waiting on the page chunks that import it would never finish.
import '@vitejs/plugin-react/preamble';
import './styles.css';
// After the app's styles: an error inside a page keeps the error pages' look.
import '../shared/error-page.css';
import { hydratePage } from './hydrate-page.tsx';

await hydratePage();
