// React Router's <Link>, plus prefetching: the target's code and data load when the link comes
// into view or is hovered or touched (client/router/browser/prefetch.ts). Clicks with a modifier key,
// another button, a `target` or `download` are left to the browser, as React Router does.
import { createContext, use, useEffect, useRef, type MouseEvent, type TouchEvent } from 'react';
import { Link as RouterLink, useHref, useLocation, type LinkProps as RouterLinkProps } from 'react-router';
import type { Prefetcher } from '../browser/prefetch.ts';

/** Set in the browser only: the server renders links without prefetching. */
export const PrefetchContext = createContext<Prefetcher | null>(null);

export interface LinkProps extends Omit<RouterLinkProps, 'prefetch'> {
  /** `false` for links whose target should not be loaded ahead of a click. */
  prefetch?: boolean;
}

export function Link({ prefetch = true, reloadDocument, onMouseEnter, onTouchStart, ...props }: LinkProps) {
  const prefetcher = use(PrefetchContext);
  const href = useHref(props.to);
  const ref = useRef<HTMLAnchorElement>(null);
  const enabled = prefetch && prefetcher !== null && props.download === undefined && reloadDocument !== true;
  // A link that stays on screen (in a layout) is looked at again after each navigation: its
  // target may have been the page it was on.
  const { key } = useLocation();

  useEffect(() => {
    if (!enabled || ref.current === null) return;
    return prefetcher.observe(ref.current, href);
  }, [enabled, prefetcher, href, key]);

  return (
    <RouterLink
      ref={ref}
      {...props}
      // A download is the server's: load it as a document. So is a path the server has no page
      // for, which the router finds out on the click (client/router/browser/route-discovery.ts).
      reloadDocument={reloadDocument || props.download !== undefined}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        onMouseEnter?.(event);
        if (enabled) prefetcher.prefetch(href);
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        onTouchStart?.(event);
        if (enabled) prefetcher.prefetch(href);
      }}
    />
  );
}
