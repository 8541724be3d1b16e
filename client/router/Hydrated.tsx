import { useEffect, type ReactNode } from 'react';

// In its own module, not in the entry: a module that defines a component becomes a React Fast
// Refresh boundary, and the entry, re-run by an edit anywhere below it, hydrated the document a
// second time (issue 20). Without one, Vite reloads the page instead.

/** Marks the document once React has hydrated it (an effect runs only after hydration). */
export function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return children;
}
