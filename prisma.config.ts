import path from "node:path";
import { defineConfig } from "prisma/config";
import { resolveDatabaseUrl } from "./lib/db/sql/database-url";

// Prisma 7 does not read .env on its own; Node can (a missing file is fine).
try {
  process.loadEnvFile(".env");
} catch {}

const root = typeof __dirname === "string" ? __dirname : process.cwd();

// The native schema engine cannot be downloaded on our machines; the CLI runs this stand-in,
// which drives the WebAssembly build of the same engine (docs/decisions/0007-prisma-schema-engine-on-webassembly.md).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(root, "prisma/engine/schema-engine-bridge.mjs");

const { provider, url } = resolveDatabaseUrl(process.env.DATABASE_URL);
const base = provider === "postgres" ? "prisma/postgres" : "prisma";

export default defineConfig({
  schema: path.join(root, base, "schema.prisma"),
  migrations: { path: path.join(root, base, "migrations") },
  datasource: {
    url,
    ...(process.env.SHADOW_DATABASE_URL ? { shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL } : {}),
  },
});
