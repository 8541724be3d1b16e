// The host's <Link>: an anchor whose click the router handles, plus prefetching
// (client/router/browser/prefetch.ts): the target's routes, code and stylesheets load when the
// link comes into view, its loader data on intent (hover, focus, touch). Built on React Router's
// `useHref` and `useLinkClickHandler` rather than on its <Link>, whose framework-mode prefetching
// (`<PrefetchPageLinks>`, single fetch) data mode never runs but every page would download
// (docs/performance.md, "First-load JavaScript"). Clicks with a modifier key, another button, a
// `target` or `download` are left to the browser, as React Router's <Link> leaves them.
import { createContext, use, useEffect, useRef, type AnchorHTMLAttributes, type MouseEvent, type Ref } from 'react';
import { useHref, useLinkClickHandler, useLocation, type LinkProps as RouterLinkProps } from 'react-router';
import type { Prefetcher } from '../browser/prefetch.ts';

/** Set in the browser only: the server renders links without prefetching. */
export const PrefetchContext = createContext<Prefetcher | null>(null);

/** React Router's test for a URL with a scheme or a protocol-relative one (its ABSOLUTE_URL_REGEX). */
const ABSOLUTE_URL = /^(?:[a-z][a-z0-9+.-]*:|[\\/]{2})/i;

type RouterOptions = 'to' | 'replace' | 'state' | 'preventScrollReset' | 'relative' | 'viewTransition' | 'reloadDocument';

export interface LinkProps extends Pick<RouterLinkProps, RouterOptions>, Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /**
   * Unset: code on view, data on intent. `viewport`: the data too when the link comes into view
   * (a link the reader is all but sure to follow). `none`: nothing ahead of a click (a target
   * whose loader should run only when asked, such as the diagnostic routes).
   */
  prefetch?: 'viewport' | 'none';
  ref?: Ref<HTMLAnchorElement>;
}

/**
 * An absolute URL of this origin navigates as its path does; another origin's is left to the
 * browser (React Router's `parseToInfo`). On the server every absolute URL is rendered as written.
 */
function sameOriginPath(to: RouterLinkProps['to']): { to: RouterLinkProps['to']; external: boolean } {
  if (typeof to !== 'string' || !ABSOLUTE_URL.test(to)) return { to, external: false };
  if (typeof window === 'undefined') return { to, external: true };
  try {
    const target = new URL(to, window.location.href);
    if (target.origin === window.location.origin) return { to: target.pathname + target.search + target.hash, external: false };
  } catch {
    // Not a URL the browser can parse: it is the browser's to handle.
  }
  return { to, external: true };
}

export function Link({
  to: written,
  prefetch,
  reloadDocument,
  replace,
  state,
  preventScrollReset,
  relative,
  viewTransition,
  onClick,
  onMouseEnter,
  onTouchStart,
  onFocus,
  target,
  ref: forwardedRef,
  ...props
}: LinkProps) {
  const prefetcher = use(PrefetchContext);
  const { to, external } = sameOriginPath(written);
  const href = useHref(to, { relative });
  const ref = useRef<HTMLAnchorElement>(null);
  // A download is the server's: load it as a document. So is a path the server has no page
  // for, which the router finds out on the click (client/router/browser/route-discovery.ts).
  const documentLoad = external || reloadDocument === true || props.download !== undefined;
  const enabled = prefetch !== 'none' && prefetcher !== null && !documentLoad;
  const dataOnView = prefetch === 'viewport';
  // A link that stays on screen (in a layout) is looked at again after each navigation: its
  // target may have been the page it was on.
  const { key } = useLocation();
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, state, target, preventScrollReset, relative, viewTransition });

  useEffect(() => {
    if (!enabled || ref.current === null) return;
    return prefetcher.observe(ref.current, href, dataOnView);
  }, [enabled, prefetcher, href, key, dataOnView]);

  const setRef = (element: HTMLAnchorElement | null) => {
    ref.current = element;
    if (typeof forwardedRef === 'function') return forwardedRef(element);
    if (forwardedRef) forwardedRef.current = element;
  };
  const intent = <Event,>(handler: ((event: Event) => void) | undefined) => {
    return (event: Event) => {
      handler?.(event);
      if (enabled) prefetcher.prefetch(href);
    };
  };
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented && !documentLoad) navigate(event);
  };
  return (
    <a
      {...props}
      ref={setRef}
      href={external ? (written as string) : href}
      target={target}
      onClick={click}
      onMouseEnter={intent(onMouseEnter)}
      onFocus={intent(onFocus)}
      onTouchStart={intent(onTouchStart)}
    />
  );
}
