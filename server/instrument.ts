// Loaded with `node --import` before the app, so Sentry can instrument modules as they load.
// Without SENTRY_DSN nothing of Sentry is started.
export {};
