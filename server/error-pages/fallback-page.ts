import { DIGEST_LABEL, serverErrorMessage } from '../../shared/messages.ts';
import { escapeHtml } from './escape-html.ts';

// Sent when rendering the React error page itself fails: fixed markup that cannot throw,
// with the same message and digest.

export function fallbackErrorPage(hostname: string, digest: string | undefined, statusText: string): string {
  const message = digest === undefined ? statusText : serverErrorMessage(hostname);
  const digestLine = digest === undefined ? '' : `<p>${DIGEST_LABEL}: <code style="user-select:all">${escapeHtml(digest)}</code></p>`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Application error</title></head><body style="font-family:system-ui,sans-serif;font-size:14px;line-height:28px;display:flex;flex-direction:column;align-items:center;justify-content:center;height:100vh;margin:0;text-align:center"><h2 style="font-weight:400;font-size:14px;margin:0">${escapeHtml(message)}</h2>${digestLine}<a href="">Reload</a></body></html>`;
}
