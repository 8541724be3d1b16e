// The page's head from its routes, as React Router framework mode makes it: the deepest route's
// `meta` (a page module's function of its data, else the table's static meta), and every matched
// route's `links`. React 19 hoists <title>, <meta> and <link> into <head>; a stylesheet with a
// `precedence` is loaded before the content that renders it is shown (React's docs, <link>).
import type { LinkDescriptor, Location, MetaDescriptor, UIMatch } from 'react-router';
import { NOT_FOUND_MESSAGE } from '../../../shared/messages.ts';
import type { RouteMeta } from '../../../shared/route-discovery.ts';
import type { RouteHandle } from './route-handle.ts';

/** Used when no matched route sets a title. */
export const DEFAULT_TITLE = 'react-ssr-host';

/** The table's static meta as descriptors. */
function descriptorsOf(meta: RouteMeta): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [{ title: meta.title }];
  if (meta.description !== undefined) tags.push({ name: 'description', content: meta.description });
  if (meta.robots !== undefined) tags.push({ name: 'robots', content: meta.robots });
  return tags;
}

/** The deepest matched route's meta; a page with a failed route is never indexed. */
export function metaOf(
  matches: readonly UIMatch[],
  location: Location,
  failure: { status: number } | undefined,
): readonly MetaDescriptor[] {
  if (failure !== undefined) {
    const title = failure.status === 404 ? `404: ${NOT_FOUND_MESSAGE}` : 'Application error';
    return [{ title }, { name: 'robots', content: 'noindex' }];
  }
  let meta: readonly MetaDescriptor[] = descriptorsOf({ title: DEFAULT_TITLE });
  const args = matches.map((m) => ({ id: m.id, data: m.loaderData, params: m.params, handle: m.handle }));
  for (const match of matches) {
    const handle = match.handle as RouteHandle | undefined;
    if (handle?.meta !== undefined) meta = descriptorsOf(handle.meta);
    const own = handle?.page?.meta?.({ data: match.loaderData as never, params: match.params, location, error: undefined, matches: args });
    if (own !== undefined) meta = own;
  }
  return meta;
}

/** The title among the descriptors, for the navigation announcer. */
export function titleOf(meta: readonly MetaDescriptor[]): string {
  for (const tag of meta) if ('title' in tag && typeof tag.title === 'string') return tag.title;
  return DEFAULT_TITLE;
}

/** Every matched route's links, parents first. */
export function linksOf(matches: readonly UIMatch[]): LinkDescriptor[] {
  return matches.flatMap((m) => [...((m.handle as RouteHandle | undefined)?.page?.links?.() ?? [])]);
}

export function MetaTags({ meta }: { meta: readonly MetaDescriptor[] }) {
  return meta.map((tag, i) => {
    if ('title' in tag) return <title key={i}>{String(tag.title)}</title>;
    if ('script:ld+json' in tag) return null; // a script needs the page's CSP nonce: give it in the page's component instead
    if ('tagName' in tag) {
      const { tagName, ...rest } = tag as { tagName: string } & Record<string, string>;
      return tagName === 'link' ? <link key={i} {...rest} /> : <meta key={i} {...rest} />;
    }
    if ('charSet' in tag) return null; // the document's own (shared/Document.tsx)
    return <meta key={i} {...tag} />;
  });
}

export function LinkTags({ links }: { links: readonly LinkDescriptor[] }) {
  return links.map((link) => {
    const { rel, href } = link as { rel?: string; href?: string };
    // A route's stylesheet blocks its page's reveal (and a client navigation) until it has loaded.
    const precedence = rel === 'stylesheet' ? 'route' : undefined;
    return <link key={`${rel ?? ''} ${href ?? ''}`} {...link} precedence={precedence} />;
  });
}
