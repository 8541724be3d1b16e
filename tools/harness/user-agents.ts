// The two kinds of client the host tells apart (server/edge/is-bot.ts, with isbot).

/** A current desktop Chrome: people get the streamed shell first. */
export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
/** Crawlers get the complete page at once (onAllReady). */
export const CRAWLER_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
