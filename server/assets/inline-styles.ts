import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The build's stylesheets small enough to write into every document (server/render/document-head.ts
// writes them in place of their links, so the first paint waits for no request), read once at
// start-up. What a document carries written in, every document carries; a linked file is fetched once.

/** The stylesheets by the URL a page links them at. */
export type InlineStyles = ReadonlyMap<string, string>;

/** Of stylesheets written into one document: past it the rest stay links. */
export const MAX_INLINE_STYLE_BYTES = 16 * 1024;

/** A stylesheet whose text could end the <style> element it is written into stays a link. */
const ENDS_STYLE = /<\/style/i;

/** The stylesheets of `assetsDir`, served at `urlPrefix`, that one document could carry. */
export function inlineStylesOf(assetsDir: string, urlPrefix: string): InlineStyles {
  const styles = new Map<string, string>();
  for (const name of existsSync(assetsDir) ? readdirSync(assetsDir) : []) {
    const file = join(assetsDir, name);
    if (!name.endsWith('.css') || statSync(file).size > MAX_INLINE_STYLE_BYTES) continue;
    const css = readFileSync(file, 'utf8');
    if (!ENDS_STYLE.test(css)) styles.set(`${urlPrefix}/${name}`, css);
  }
  return styles;
}
