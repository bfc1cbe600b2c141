// `npm run db:studio [-- --port 5555]`: Prisma Studio on the configured database. Studio only
// recognizes SQLite URLs written as file://<path>, while the rest of the toolchain uses file:<path>.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { resolveDatabaseUrl, sqliteFileOf } from "../lib/db/sql/database-url";

const root = path.resolve(import.meta.dirname, "..");
const resolved = resolveDatabaseUrl(process.env.DATABASE_URL);
const url = resolved.provider === "sqlite" ? `file://${sqliteFileOf(resolved.url)}` : resolved.url;
const result = spawnSync(
  path.join(root, "node_modules/.bin/prisma"),
  ["studio", "--url", url, ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit" },
);
process.exit(result.status ?? 1);
