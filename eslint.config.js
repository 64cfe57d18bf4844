// Lint rules: typescript-eslint's type-aware recommended set, plus the promise and unused-code rules that
// catch real bugs in an event-loop service. Formatting is prettier's job, not the linter's.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['node_modules/', '.tap/', 'bench/results/', 'deploy/devnet/out/', 'client/dist/', 'dist/', '**/*.mjs', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // one TypeScript program for the whole tree (the root tsconfig includes client/); the project service would
    // build a second for client/tsconfig.json, about a fifth more CPU for the same findings
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'off',
      // Our interfaces declare `stop(): Promise<void>` in method syntax while every implementation is a closure
      // that never reads `this`, so passing `running.stop` along is safe; the rule cannot see that.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Tests read JSON bodies and frames as `any` and assert their shape field by field; tap's `t.test`
    // returns a promise the runner awaits itself.
    files: ['**/test/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // fixtures write the indexed source's 18-decimal integers as they appear on the wire
      'no-loss-of-precision': 'off',
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafePromises: [{ from: 'package', name: 'PromiseWithSubtest', package: '@tapjs/core' }] },
      ],
    },
  },
)
