// The error pages' stylesheet: written into the host's own error pages (they must need no asset:
// server/error-pages/render-error-page.tsx) and, as a stylesheet of the browser's entry
// (vite/error-page-styles.ts), part of every page, for the browser's own error page and route
// boundaries. Next.js's layout: a centred column, system-ui, 14px text on 28px lines. One text
// for both, here: the server reads it as a string in development too, where no bundler runs.
// Its last rule hides the navigation announcer's live region (shared/NavigationAnnouncer.tsx) from sight only.
export const ERROR_PAGE_CSS = `.error{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center;padding:0 16px;box-sizing:border-box;font-family:system-ui,"Segoe UI",Roboto,Helvetica,Arial,sans-serif,"Apple Color Emoji","Segoe UI Emoji";color:#000;background:#fff}
.error--inline{min-height:16rem;padding:2rem 16px;border-radius:8px;color:inherit;background:rgba(127,127,127,.08)}
.error h1{font-size:24px;font-weight:500;margin:0 0 8px}
.error h2{font-size:14px;font-weight:400;line-height:28px;margin:0;max-width:40em}
.error p{font-size:14px;line-height:28px;margin:0}
.error code{user-select:all;font-family:ui-monospace,Menlo,Consolas,monospace;padding:0 4px;border-radius:4px;background:rgba(0,0,0,.06)}
.error .button{display:inline-block;text-decoration:none;margin-top:16px;font:inherit;font-size:14px;padding:6px 16px;border-radius:6px;border:1px solid currentColor;background:transparent;color:inherit;cursor:pointer}
.error a:not(.button){color:inherit}
/* A dev stack or code frame scrolls inside its box: a route boundary is narrower than the viewport. */
.error pre{box-sizing:border-box;max-width:100%;overflow:auto;text-align:left;font-size:12px;line-height:18px;margin-top:16px}
body:has(> .error:not(.error--inline)){margin:0}
@media (prefers-color-scheme:dark){.error{color:#ededed;background:#0a0a0a}.error--inline{color:inherit;background:rgba(255,255,255,.06)}.error code{background:rgba(255,255,255,.1)}}
.rsh-visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap;border:0}
`;
