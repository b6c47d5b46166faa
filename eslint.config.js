// Lint: ESLint's recommended rules plus typescript-eslint's (syntax-only, fast).
// Biome was tried first; its platform packages are not all on the registry, which breaks `npm ci`.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "packages/*/dist/", "coverage/", ".venv/", ".venvs/", ".bench/", ".tools/", "src/guardrail/", "fixtures/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
);
