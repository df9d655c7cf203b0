// ESLint flat config: typescript-eslint type-checked rules, zero warnings allowed (npm run lint).
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'scripts/**', '*.mjs', '*.js', 'test/jest.config.js', 'test/*.js', 'sdk/typescript/src/schema.ts', 'sdk/typescript/dist/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // One query layer per context (style.md "Data access", "One resource, one small set of files"): every SQL
    // statement and query builder of a context lives in its `<resource>.queries.ts` classes, called with the
    // caller's EntityManager; services hold rules and transactions.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.queries.ts', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query']",
          message: 'SQL belongs in a *.queries.ts class of this context (query layer).',
        },
        {
          selector: "CallExpression[callee.property.name='createQueryBuilder']",
          message: 'Query builders belong in a *.queries.ts class of this context (query layer).',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
