// Lint: typescript-eslint's recommended rules over our own code.
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      ".next-*/",
      "client/dist/",
      "next-env.d.ts",
      "db/migrations/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      eqeqeq: ["error", "always"],
      "no-console": "off",
    },
  },
  {
    // The core is async (db/client.ts): a promise left unawaited is a write outside its transaction or an error lost.
    files: ["server/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "db/**/*.ts", "bench/**/*.ts", "e2e/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["test", "describe", "it", "before", "after", "beforeEach", "afterEach"] },
          ],
        },
      ],
      "@typescript-eslint/await-thenable": "error",
      // `return promise` inside try would leave its rejection to the caller, past the catch meant for it.
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
    },
  },
  {
    // PostgreSQL's query builders have no .get(), .all() or .run(): queries are awaited (db/store.ts).
    files: ["server/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "bench/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[arguments.length=0] > MemberExpression.callee[property.name=/^(get|all|run)$/]",
          message: "Await the query instead: PostgreSQL has no .get(), .all() or .run()",
        },
      ],
    },
  },
  {
    // One settings module (#21): Owo reads its environment through environment.ts, where each variable is declared with
    // its rule and default, and nowhere else. Test files and the test kit (server/testing/) may, as bench/ and e2e/ (not
    // listed here): they start Owo, in process or as child processes, and hand it the environment it then reads
    // (DATABASE_URL, PORT, …); the bench's own processes take their parameters that way too.
    files: ["server/**", "db/**", "app/**"],
    ignores: ["**/*.test.ts", "server/testing/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read the environment through environment.ts (declare the variable there)" },
      ],
    },
  },
  {
    // The floors: db/ sits below the domain (server/ imports db/, never the other way round).
    files: ["db/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/server/**", "@/server/**"], message: "db/ must not import server/: hand db what it needs instead" }] },
      ],
    },
  },
  {
    // Providers translate; payments decide (DESIGN.md): a connector turns the provider's words into readings, and all
    // that reads or writes a payment, a refund or the ledger lives in server/payments/ and server/books/, which may call
    // providers, never the reverse. Tests drive whole journeys through them all.
    files: ["server/providers/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/payments/*", "@/server/payments/*", "**/books/*", "@/server/books/*"],
              message: "server/providers/ must not import server/payments/ or server/books/: return a reading and let them act on it",
            },
          ],
        },
      ],
    },
  },
);
