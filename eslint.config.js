// ESLint: typescript-eslint's recommended rules with type information, and React's hooks
// rules for the app. Formatting is Prettier's job (.prettierrc.json), so no style rules here.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * server/'s rooms from the ground up (docs/architecture.md, "The rooms"): a module imports its own
 * room and those below, never one above nor the entry and app on top. tests/house/import-graph.test.ts
 * holds the same order against the whole graph.
 */
const SERVER_ROOMS = [
  'observe',
  'failures',
  'config',
  'edge',
  'writes',
  'data',
  'fleet',
  'assets',
  'telemetry',
  'pages',
  'render',
  'error-pages',
];
const TOP = {
  regex: '^\\.\\./(app|index|instrument)\\.ts$',
  message: 'server/index.ts, app.ts and instrument.ts stand on top: no room imports them.',
};
const roomRules = SERVER_ROOMS.map((room, at) => {
  const above = SERVER_ROOMS.slice(at + 1);
  const patterns = [TOP];
  if (above.length > 0) {
    const message = `server/${room}/ imports its own room and those below it, never ${above.join(', ')}.`;
    patterns.push({ regex: `(^|/)(${above.join('|')})/`, message });
  }
  return { files: [`server/${room}/**`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
});

export default tseslint.config(
  // The tests' apps are apps, not the host (each type-checked in a program of its own: npm run typecheck:apps).
  // The app in client/ is the app's own (the demo's, or any app that replaces it: docs/upgrading.md):
  // lint is the host's, for its own files, client/router/ among them.
  {
    ignores: [
      'dist/',
      'artifacts/',
      'coverage/',
      'node_modules/',
      'tests/apps/',
      'tools/bench/app/',
      '.react-router/',
      'client/*',
      '!client/router',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `_name` marks a parameter a signature requires but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // React Router's loaders throw Responses (redirect(), data()) by design, and a caught or
      // aborted value (`signal.reason`) is rethrown as it is: whatever was thrown stays what it was.
      '@typescript-eslint/only-throw-error': [
        'error',
        {
          allow: [
            { from: 'lib', name: 'Response' },
            { from: 'package', package: 'react-router', name: 'DataWithResponseInit' },
          ],
          allowThrowingAny: true,
          allowThrowingUnknown: true,
        },
      ],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // The host's objects are factories' closures, never classes that use `this`: passing their
      // functions around unbound is the style (e.g. createApp(config, deps) in server/app.ts).
      '@typescript-eslint/unbound-method': 'off',
      // pino-http types the request id as string | number | object; ours is always a string
      // (access-log.ts's genReqId makes it).
      '@typescript-eslint/no-base-to-string': ['error', { ignoredTypeNames: ['ReqId'] }],
      // One job per file (the house style, docs/architecture.md "Rules that check themselves"): a file past 250
      // lines is doing two. Lines as written, comments included: they are read too.
      'max-lines': ['error', { max: 250 }],
    },
  },
  { files: ['client/**/*.tsx', 'shared/**/*.tsx', 'tests/**/*.tsx'], ...reactHooks.configs.flat.recommended },
  // The boundaries of the layout (README, "Where things are"): the app never reaches into the
  // host, and what both sides share depends on neither.
  {
    files: ['client/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Up and out into the host's server/ (client/router/server/ is the router's own server side, imported downward).
              regex: '^(\\.\\./)+server/',
              message: 'client/ never imports the host (server/): what both sides share is in shared/ (an app imports shared/host.ts).',
            },
          ],
        },
      ],
    },
  },
  ...roomRules,
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(server|client)/', message: 'shared/ imports neither side: it is what both agree on.' }] },
      ],
    },
  },
  {
    // supertest's `res.body` and vitest's asymmetric matchers (`expect.any(String)`) are typed
    // `any` by their libraries: tests read them as the very values under test.
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  // Plain JS files (the build check, this config) run on Node, outside the TypeScript project:
  // no type information, and Node's globals declared here (TypeScript knows them elsewhere).
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
);
