/** The form's limits: the browser's input checks and the action's validation use the same. */
export const MAX_NAME_LENGTH = 80;
export const MAX_MESSAGE_LENGTH = 500;
