/** The site's main navigation: the header shows it on every page, and around a failure too. */
export const NAV = [
  { to: '/', label: 'Home' },
  { to: '/guide', label: 'Guide' },
  { to: '/guestbook', label: 'Guestbook' },
] as const;

/** Where focus goes after a client navigation: the new content, not the link that was clicked. */
export const CONTENT_ID = 'content';
