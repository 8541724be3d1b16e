import type { ReactNode } from 'react';
import { preloadModule } from 'react-dom';
import type { PageAssets, TraceMeta } from './runtime.ts';

interface DocumentProps {
  /** Pages set theirs from the route table (client/router/HostRoot.tsx); error pages here. */
  title?: string;
  assets?: PageAssets;
  /** Inline CSS for pages that must not depend on any asset (the error pages). */
  inlineCss?: string;
  nonce?: string;
  trace?: TraceMeta;
  /** Error pages are never indexed; pages set theirs from the route table. */
  robots?: string;
  children: ReactNode;
}

/** The <html> shell. Rendered by the server and hydrated as `document` by the browser. */
export function Document({ title, assets, inlineCss, nonce, trace, robots, children }: DocumentProps) {
  // React hoists these into <head> as <link rel="modulepreload"> (React 19 resource APIs).
  for (const href of assets?.preloads ?? []) preloadModule(href);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {title !== undefined && <title>{title}</title>}
        {robots !== undefined && <meta name="robots" content={robots} />}
        {trace && <meta name="sentry-trace" content={trace.sentryTrace} />}
        {trace && <meta name="baggage" content={trace.baggage} />}
        {/* No favicon yet: an empty data URL stops the browser asking for /favicon.ico (a 404). */}
        <link rel="icon" href="data:," />
        {assets?.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} precedence="default" />
        ))}
        {inlineCss !== undefined && <style nonce={nonce} dangerouslySetInnerHTML={{ __html: inlineCss }} />}
      </head>
      <body>{children}</body>
    </html>
  );
}
