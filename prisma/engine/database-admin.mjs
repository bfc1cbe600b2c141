// Database-level operations the CLI asks of the engine outside a migration session
// (`can-connect-to-database`, `create-database`, `drop-database`), done with the plain drivers.
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  maintenanceUrlOf,
  parsePostgresUrl,
  providerOfUrl,
  sqlitePathOfUrl,
} from "./create-adapter-factory.mjs";

const require = createRequire(import.meta.url);
const pg = require("pg");
const Database = require("better-sqlite3");

/** An error carrying a Prisma user-facing error code, e.g. P1003 "database does not exist". */
export class EngineUserError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function postgresDatabaseName(connectionString) {
  return decodeURIComponent(new URL(connectionString).pathname.replace(/^\//, "")) || "postgres";
}

function quoteIdent(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** @param {string} url */
export async function canConnect(url) {
  if (providerOfUrl(url) === "sqlite") {
    const file = sqlitePathOfUrl(url);
    if (file !== ":memory:" && !existsSync(file)) {
      throw new EngineUserError(
        "P1003",
        `Database \`${path.basename(file)}\` does not exist at \`${path.dirname(file)}\``,
      );
    }
    return;
  }
  const { connectionString } = parsePostgresUrl(url);
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
  } catch (error) {
    if (error?.code === "3D000") {
      const name = postgresDatabaseName(connectionString);
      const { hostname, port } = new URL(connectionString);
      throw new EngineUserError(
        "P1003",
        `Database \`${name}\` does not exist on the database server at \`${hostname}:${port || 5432}\`.`,
      );
    }
    throw new EngineUserError("P1001", `Can't reach database server: ${error?.message ?? error}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** @param {string} url @returns {Promise<string>} the database name */
export async function createDatabase(url) {
  if (providerOfUrl(url) === "sqlite") {
    const file = sqlitePathOfUrl(url);
    mkdirSync(path.dirname(file), { recursive: true });
    new Database(file).close();
    return path.basename(file);
  }
  const { connectionString } = parsePostgresUrl(url);
  const name = postgresDatabaseName(connectionString);
  const admin = new pg.Client({ connectionString: maintenanceUrlOf(connectionString) });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  } catch (error) {
    // 42P04: already exists; another process won the race, which is what we wanted anyway.
    if (error?.code !== "42P04") throw error;
  } finally {
    await admin.end();
  }
  return name;
}

/** @param {string} url */
export async function dropDatabase(url) {
  if (providerOfUrl(url) === "sqlite") {
    const file = sqlitePathOfUrl(url);
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${file}${suffix}`, { force: true });
    return;
  }
  const { connectionString } = parsePostgresUrl(url);
  const admin = new pg.Client({ connectionString: maintenanceUrlOf(connectionString) });
  await admin.connect();
  try {
    await admin.query(
      `DROP DATABASE IF EXISTS ${quoteIdent(postgresDatabaseName(connectionString))} WITH (FORCE)`,
    );
  } finally {
    await admin.end();
  }
}
