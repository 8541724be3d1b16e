// ESLint: typescript-eslint's recommended rules with type information, and React's hooks
// rules for the app. Formatting is Prettier's job (.prettierrc.json), so no style rules here.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'artifacts/', 'coverage/', 'node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `_name` marks a parameter a signature requires but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  { files: ['client/**/*.tsx', 'shared/**/*.tsx', 'tests/**/*.tsx'], ...reactHooks.configs.flat.recommended },
  // Plain JS files (the build check, this config) run on Node, outside the TypeScript project:
  // no type information, and Node's globals declared here (TypeScript knows them elsewhere).
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
);
