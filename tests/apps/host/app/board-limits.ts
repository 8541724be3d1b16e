/** Posts one client may make on the board a minute (./routes/board.tsx; the host's limit: shared/host-context.ts). In a module of its own: the host's tests read it without the route's generated types. */
export const POSTS_PER_MINUTE = 10;
