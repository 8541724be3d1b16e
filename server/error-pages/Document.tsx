import type { ReactNode } from 'react';

interface DocumentProps {
  title: string;
  /** Inline CSS: the host's own pages must not depend on any asset. */
  inlineCss: string;
  nonce: string;
  /** The host's pages are never indexed. */
  robots: string;
  /** The host's own pages (the error pages) declare theirs; an app's document is the app's (its root route's Layout). */
  colorScheme: string;
  children: ReactNode;
}

/** The <html> shell of the host's own pages (server/error-pages/render-error-page.tsx): no script, no asset. */
export function Document({ title, inlineCss, nonce, robots, colorScheme, children }: DocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={colorScheme} />
        <title>{title}</title>
        <meta name="robots" content={robots} />
        {/* No favicon: an empty data URL stops the browser asking for /favicon.ico (a 404). */}
        <link rel="icon" href="data:," />
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: inlineCss }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
