import type { RuntimeConfig } from '../../shared/runtime.ts';

/** What the server wrote into a page for the browser (shared/runtime.ts). */
export function pageConfig(html: string): RuntimeConfig {
  const json = /window\.__REACT_SSR_HOST__=(\{.*?\})<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error('no runtime config in the page');
  return JSON.parse(json) as RuntimeConfig;
}
