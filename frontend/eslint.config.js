// ESLint for the frontend: `npm --prefix frontend run lint` (make lint runs it
// with --max-warnings=0). docs/architecture.md, "Frontend", explains the
// folders and the import rules below.
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Where code may import from. The shared places are src/types (the API's
// shapes), src/lib (helpers, the API client, hooks that know no feature) and
// src/components (UI that knows no feature): any folder may import them, and
// they import no feature. src/app is the composition root (router,
// providers, page layout) and may import anything.
//
// A feature may import another feature only along the arrows of this table,
// which has no cycle: lower features never import higher ones. Something two
// features need that is neither a feature's page nor its own component goes
// to a shared place instead of a new arrow.
const featureDeps = {
  auth: [],
  transcripts: [],
  attempts: ['transcripts'],
  test: ['attempts', 'auth', 'transcripts'],
  account: ['auth'],
  carreras: ['account', 'attempts', 'auth', 'test'],
  home: ['auth'],
  admin: ['attempts', 'auth', 'transcripts'],
}

const features = Object.keys(featureDeps)
const featureZones = features.map((feature) => ({
  target: `./src/features/${feature}`,
  from: features.filter((other) => other !== feature && !featureDeps[feature].includes(other)).map((other) => `./src/features/${other}`),
  message: `features/${feature} may import only ${featureDeps[feature].map((d) => `features/${d}`).join(', ') || 'no other feature'} (eslint.config.js, featureDeps); move what both need to src/types, src/lib or src/components.`,
}))

const sharedZones = ['components', 'lib', 'types'].map((shared) => ({
  target: `./src/${shared}`,
  from: ['./src/features', './src/app'],
  message: `src/${shared} is a shared place: it must not import a feature or the app.`,
}))

export default defineConfig([
  globalIgnores(['dist/', 'playwright-report/', 'test-results/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/no-restricted-paths': ['error', { zones: [...sharedZones, ...featureZones] }],
      // A variable a closure reads before its one assignment (a timer the
      // callback clears) stays let.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    // Node scripts, the Vite and Playwright configs, and the e2e specs run
    // outside the browser.
    files: ['scripts/**', 'e2e/**', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node } },
    // Playwright reads a fixture's first parameter and needs it destructured,
    // even when the fixture uses no other fixture: async ({}, use) => ….
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
])
