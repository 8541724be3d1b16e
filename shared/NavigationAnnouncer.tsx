import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

// After a client navigation a screen reader hears nothing and focus stays on the link that was
// clicked: React Router leaves both to the app. An app renders this once in its layout: after each client navigation (never the
// first load) it moves focus to the new content, the element of id `contentId`, without scrolling
// (<ScrollRestoration> scrolls), and announces the page's title in a live region. The region is
// visually hidden by the stylesheet every page of the host links (shared/error-page-css.ts).

export function NavigationAnnouncer({ contentId = 'content' }: { contentId?: string }) {
  const location = useLocation();
  // The location this page was loaded or last announced at: effects may run twice (StrictMode).
  const announced = useRef(location.key);
  const region = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (announced.current === location.key) return;
    announced.current = location.key;
    // React has committed the new page's <title> (React Router's <Meta />) before effects run.
    if (region.current) region.current.textContent = document.title;
    document.getElementById(contentId)?.focus({ preventScroll: true });
    // The key changes on every navigation, even to the same URL.
  }, [location.key, contentId]);
  return <p ref={region} className="rsh-visually-hidden" aria-live="assertive" aria-atomic="true" data-testid="route-announcer" />;
}
