/** The site's main navigation: the header shows it on every page, and around a failure too. */
export const NAV = [
  { to: '/', label: 'Home' },
  { to: '/guide', label: 'Guide' },
  { to: '/guestbook', label: 'Guestbook' },
] as const;
