import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.resolve(import.meta.dirname)}/` },
      { find: /^toolnexus$/, replacement: path.resolve(import.meta.dirname, "lib/toolnexus/index.ts") },
      {
        find: /^toolnexus\/backoff$/,
        replacement: path.resolve(import.meta.dirname, "lib/toolnexus/backoff.ts"),
      },
      {
        find: /^toolnexus\/testing$/,
        replacement: path.resolve(import.meta.dirname, "lib/toolnexus/testing/index.ts"),
      },
      // Tests run outside React's server environment; this is what the package resolves to there.
      {
        find: /^server-only$/,
        replacement: path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
      },
    ],
  },
  test: {
    include: ["{lib,app,components,scripts,bench,prisma}/**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**", ".next/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // next-auth imports `next/server` without an extension, which only a bundler resolves.
    server: { deps: { inline: ["next-auth"] } },
  },
});
