// ESLint for the page (web/) and its tests (tests/browser/): scripts/check-web.sh runs it from the
// checkout's root. The recommended rules, with the globals of each place the code runs.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: ['web/engine/core.mjs', 'web/offline/offline.mjs', '**/node_modules/**', 'build*/**'],
  },
  {
    files: ['web/**/*.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.browser } },
  },
  {
    files: ['web/sw.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2024, sourceType: 'script', globals: { ...globals.serviceworker } },
  },
  {
    files: ['web/offline/worker.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.worker } },
  },
  {
    files: ['tests/browser/**/*.mjs'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
];
