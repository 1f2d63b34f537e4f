// Lint: typescript-eslint's recommended rules over our own code.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".next-*/", "client/dist/", "next-env.d.ts", "db/migrations/", "test-results/", "playwright-report/", "bench/results/"] },
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
    // The floors: db/ sits below the domain (server/ imports db/, never the other way round).
    files: ["db/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/server/**", "@/server/**"], message: "db/ must not import server/: hand db what it needs instead" }] }],
    },
  },
);
