// Type-aware lint for every tsconfig in the repo (root, scenarios/, bench/k6/): projectService
// picks the nearest tsconfig.json for each file, so k6 scripts are checked with k6's types.
// Only rules that catch real faults (dropped promises, unused values): style is left to review.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["node_modules/**", "dist/**", "**/*.d.ts", "out/**", "reports/out/**"] },
  {
    files: ["**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A promise nobody awaits or catches loses its rejection (e.g. `void p.start?.(ctx)`).
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }],
      // An async callback where a void one is expected: its rejection is lost too.
      "@typescript-eslint/no-misused-promises": "error",
      // Awaiting a non-promise is usually a missing call or a wrong type.
      "@typescript-eslint/await-thenable": "error",
      // A value computed and dropped is a bug or dead code.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/no-unused-expressions": "error",
      // A file past 400 lines holds more than one meaning: split it by meaning (tests included).
      "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // Plain JS entry points (bin, scripts, worker): no tsconfig covers them, so no type-aware rules.
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      ...js.configs.recommended.rules,
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
      "no-unused-expressions": "error",
      "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
);
