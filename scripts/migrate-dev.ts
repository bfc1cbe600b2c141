// `npm run db:migrate:dev -- --name <change>`: turns an edit of prisma/schema.prisma into one
// committed migration per provider, both under the same folder name.
//   1. re-derives prisma/postgres/schema.prisma;
//   2. runs `prisma migrate dev` on the SQLite dev database (creates + applies the SQLite migration);
//   3. diffs the PostgreSQL migration history against the PostgreSQL schema (on a throwaway shadow
//      database of the server in DATABASE_URL, or MIGRATE_POSTGRES_URL, or 127.0.0.1:5432) and
//      writes that script as the PostgreSQL migration;
//   4. applies it when DATABASE_URL is PostgreSQL, and regenerates both clients.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_SQLITE_URL, resolveDatabaseUrl } from "../lib/db/sql/database-url";

const root = path.resolve(import.meta.dirname, "..");
const prismaBin = path.join(root, "node_modules/.bin/prisma");
const sqliteMigrations = path.join(root, "prisma/migrations");
const postgresMigrations = path.join(root, "prisma/postgres/migrations");

function run(command: string, args: string[], env: Record<string, string>, capture = false): string {
  const result = spawnSync(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: capture ? ["inherit", "pipe", "inherit"] : "inherit",
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`${path.basename(command)} ${args.join(" ")} failed with exit code ${result.status}`);
  }
  return capture ? result.stdout : "";
}

function migrationFolders(dir: string): Set<string> {
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  );
}

function hasStatements(script: string): boolean {
  return script.split("\n").some((line) => line.trim() !== "" && !line.trim().startsWith("--"));
}

function timestampedName(name: string): string {
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return `${stamp}_${name.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

function parseArgs(argv: string[]): { name: string; createOnly: boolean } {
  const nameIndex = argv.findIndex((arg) => arg === "--name" || arg === "-n");
  const name = nameIndex >= 0 ? argv[nameIndex + 1] : undefined;
  if (!name) throw new Error("usage: npm run db:migrate:dev -- --name <change_name> [--create-only]");
  return { name, createOnly: argv.includes("--create-only") };
}

function postgresServerUrl(): string {
  const configured = resolveDatabaseUrl(process.env.DATABASE_URL);
  const base =
    configured.provider === "postgres"
      ? configured.url
      : (process.env.MIGRATE_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  // The diff only needs a reachable database to connect to; the server's maintenance database
  // always exists, unlike a dev database that may not have been created yet.
  const url = new URL(base);
  url.pathname = "/postgres";
  return url.toString();
}

function main(): void {
  const { name, createOnly } = parseArgs(process.argv.slice(2));
  run("npx", ["tsx", "scripts/derive-postgres-schema.ts"], {});

  const configured = resolveDatabaseUrl(process.env.DATABASE_URL);
  const sqliteUrl =
    configured.provider === "sqlite" ? configured.url : resolveDatabaseUrl(DEFAULT_SQLITE_URL).url;
  const before = migrationFolders(sqliteMigrations);
  run(prismaBin, ["migrate", "dev", "--name", name, ...(createOnly ? ["--create-only"] : [])], {
    DATABASE_URL: sqliteUrl,
  });
  const created = [...migrationFolders(sqliteMigrations)].filter((folder) => !before.has(folder));

  const script = run(
    prismaBin,
    [
      "migrate",
      "diff",
      "--from-migrations",
      postgresMigrations,
      "--to-schema",
      path.join(root, "prisma/postgres/schema.prisma"),
      "--script",
    ],
    { DATABASE_URL: postgresServerUrl() },
    true,
  );
  if (hasStatements(script)) {
    const folder = created[0] ?? timestampedName(name);
    mkdirSync(path.join(postgresMigrations, folder), { recursive: true });
    writeFileSync(
      path.join(postgresMigrations, folder, "migration.sql"),
      script.endsWith("\n") ? script : `${script}\n`,
    );
    console.log(`PostgreSQL migration written to prisma/postgres/migrations/${folder}/migration.sql`);
    if (configured.provider === "postgres" && !createOnly) {
      run(prismaBin, ["migrate", "deploy"], { DATABASE_URL: configured.url });
    }
  } else {
    console.log("PostgreSQL migrations already match the schema.");
  }
  run("npm", ["run", "--silent", "db:generate"], {});
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
