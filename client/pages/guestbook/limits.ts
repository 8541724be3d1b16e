/** The form's limits: the browser's input checks and the action's validation use the same. */
export const MAX_NAME_LENGTH = 80;
export const MAX_MESSAGE_LENGTH = 500;
/** An attachment: a larger one is a field error, the typed values kept, up to the route's whole cap (./guestbook.tsx). */
export const MAX_ATTACHMENT_BYTES = 1_048_576;
/** Its name as sent, shown and sent back with the download. */
export const MAX_ATTACHMENT_NAME_LENGTH = 200;
