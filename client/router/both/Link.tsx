// React Router's <Link>, plus prefetching (client/router/browser/prefetch.ts): the target's
// routes, code and stylesheets load when the link comes into view, its loader data on intent
// (hover, focus, touch). Clicks with a modifier key, another button, a `target` or `download`
// are left to the browser, as React Router does.
import { createContext, use, useEffect, useRef, type FocusEvent, type MouseEvent, type TouchEvent } from 'react';
import { Link as RouterLink, useHref, useLocation, type LinkProps as RouterLinkProps } from 'react-router';
import type { Prefetcher } from '../browser/prefetch.ts';

/** Set in the browser only: the server renders links without prefetching. */
export const PrefetchContext = createContext<Prefetcher | null>(null);

export interface LinkProps extends Omit<RouterLinkProps, 'prefetch'> {
  /**
   * Unset: code on view, data on intent. `viewport`: the data too when the link comes into view
   * (a link the reader is all but sure to follow). `none`: nothing ahead of a click (a target
   * whose loader should run only when asked, such as the diagnostic routes).
   */
  prefetch?: 'viewport' | 'none';
}

export function Link({ prefetch, reloadDocument, onMouseEnter, onTouchStart, onFocus, ...props }: LinkProps) {
  const prefetcher = use(PrefetchContext);
  const href = useHref(props.to);
  const ref = useRef<HTMLAnchorElement>(null);
  const enabled = prefetch !== 'none' && prefetcher !== null && props.download === undefined && reloadDocument !== true;
  const dataOnView = prefetch === 'viewport';
  // A link that stays on screen (in a layout) is looked at again after each navigation: its
  // target may have been the page it was on.
  const { key } = useLocation();

  useEffect(() => {
    if (!enabled || ref.current === null) return;
    return prefetcher.observe(ref.current, href, dataOnView);
  }, [enabled, prefetcher, href, key, dataOnView]);

  const intent = () => {
    if (enabled) prefetcher.prefetch(href);
  };
  return (
    <RouterLink
      ref={ref}
      {...props}
      // A download is the server's: load it as a document. So is a path the server has no page
      // for, which the router finds out on the click (client/router/browser/route-discovery.ts).
      reloadDocument={reloadDocument || props.download !== undefined}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        onMouseEnter?.(event);
        intent();
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        onFocus?.(event);
        intent();
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        onTouchStart?.(event);
        intent();
      }}
    />
  );
}
