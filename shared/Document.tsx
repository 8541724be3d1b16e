import type { ReactNode } from 'react';
import { preloadModule, type PreloadModuleOptions } from 'react-dom';
import type { PageAssets, TraceMeta } from './runtime.ts';

/** React writes every option onto the link; its type does not list fetchPriority yet. */
const LOW_PRIORITY = { as: 'script', fetchPriority: 'low' } as PreloadModuleOptions;

interface DocumentProps {
  /** Pages set theirs from the route table (client/router/both/HostRoot.tsx); error pages here. */
  title?: string;
  assets?: PageAssets;
  /** The stylesheets' text when `assets.stylesInline`: given by the server only (the browser's copy is the one in the page). */
  styleText?: Readonly<Record<string, string>>;
  /** Inline CSS for pages that must not depend on any asset (the error pages). */
  inlineCss?: string;
  nonce?: string;
  trace?: TraceMeta;
  /** Error pages are never indexed; pages set theirs from the route table. */
  robots?: string;
  /**
   * The host's own pages (the error pages) declare theirs. An app's document has none from the
   * host: the app's stylesheet says which schemes it is drawn for (the demo's client/styles.css),
   * or a light-only app would get dark form controls and canvas under a dark OS theme.
   */
  colorScheme?: string;
  children: ReactNode;
}

/** The <html> shell. Rendered by the server and hydrated as `document` by the browser. */
export function Document({ title, assets, styleText, inlineCss, nonce, trace, robots, colorScheme, children }: DocumentProps) {
  // React hoists these into <head> as <link rel="modulepreload"> (React 19 resource APIs), at
  // low priority: the first paint needs none of them (the styles are in the page), so on a slow
  // link the document's own bytes come first.
  for (const href of assets?.preloads ?? []) preloadModule(href, LOW_PRIORITY);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {colorScheme !== undefined && <meta name="color-scheme" content={colorScheme} />}
        {title !== undefined && <title>{title}</title>}
        {robots !== undefined && <meta name="robots" content={robots} />}
        {trace && <meta name="sentry-trace" content={trace.sentryTrace} />}
        {trace && <meta name="baggage" content={trace.baggage} />}
        {/* No favicon yet: an empty data URL stops the browser asking for /favicon.ico (a 404). */}
        <link rel="icon" href="data:," />
        {assets?.styles.map((href) =>
          assets.stylesInline ? (
            // A style resource (React 19): written once into <head>, with the CSP nonce; on the
            // browser React finds it by its href, so the text is not sent twice.
            <style key={href} href={href} precedence="default" nonce={nonce}>
              {styleText?.[href] ?? ''}
            </style>
          ) : (
            <link key={href} rel="stylesheet" href={href} precedence="default" />
          ),
        )}
        {inlineCss !== undefined && <style nonce={nonce} dangerouslySetInnerHTML={{ __html: inlineCss }} />}
      </head>
      <body>{children}</body>
    </html>
  );
}
