// Driver-adapter factories handed to the WebAssembly schema engine. They wrap the stock Prisma
// adapters to work around the places where the engine's expectations and the adapters disagree
// (see docs/decisions for the list and the reasons).
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const pg = require("pg");
const { PrismaPg } = require("@prisma/adapter-pg");
const { PrismaBetterSqlite3 } = require("@prisma/adapter-better-sqlite3");

/** @param {string} url */
export function providerOfUrl(url) {
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgres";
  if (/^file:/i.test(url)) return "sqlite";
  throw new Error(`Unsupported datasource URL (expected file: or postgres://): ${redactUrl(url)}`);
}

/** @param {string} url */
export function redactUrl(url) {
  return url.replace(/\/\/([^@/]*)@/, "//***@");
}

/** Absolute filesystem path of a `file:` URL; relative paths are taken from the working directory. */
export function sqlitePathOfUrl(url) {
  const raw = url.replace(/^file:/i, "").replace(/\?.*$/, "");
  if (raw === ":memory:") return raw;
  return path.resolve(raw);
}

// better-sqlite3 prepares one statement at a time, but the engine sends whole migration scripts
// through queryRaw/executeRaw when it replays history on the shadow database.
function isMultiStatementError(error) {
  const text = `${error?.message ?? ""} ${error?.cause?.originalMessage ?? ""} ${error?.cause?.message ?? ""}`;
  return text.includes("more than one statement");
}

function withScriptFallback(adapter) {
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.queryRaw = async (query) => {
    try {
      return await queryRaw(query);
    } catch (error) {
      if (query.args.length > 0 || !isMultiStatementError(error)) throw error;
      await adapter.executeScript(query.sql);
      return { columnNames: [], columnTypes: [], rows: [] };
    }
  };
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      if (query.args.length > 0 || !isMultiStatementError(error)) throw error;
      await adapter.executeScript(query.sql);
      return 0;
    }
  };
  return adapter;
}

/**
 * @param {{ url: string, shadowDatabaseUrl?: string }} datasource
 * @param {(adapter: object) => void} onConnect receives every main-database connection
 */
export function createSqliteAdapterFactory(datasource, onConnect) {
  const file = sqlitePathOfUrl(datasource.url);
  const shadowFile = datasource.shadowDatabaseUrl
    ? sqlitePathOfUrl(datasource.shadowDatabaseUrl)
    : ":memory:";
  const main = new PrismaBetterSqlite3({ url: file });
  const shadow = new PrismaBetterSqlite3({ url: shadowFile });
  return {
    provider: "sqlite",
    adapterName: "@prisma/adapter-better-sqlite3",
    async connect() {
      const adapter = withScriptFallback(await main.connect());
      onConnect(adapter);
      return adapter;
    },
    async connectToShadowDb() {
      return withScriptFallback(await shadow.connect());
    },
  };
}

// The engine's introspection reads catalog columns of the internal type "char" (OID 18), which
// the pg adapter refuses to map. Its values arrive as plain strings, so report them as TEXT.
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

function reportCharAsText(res) {
  for (const field of res?.fields ?? []) {
    if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  }
  return res;
}

class CatalogFriendlyClient extends pg.Client {
  query(...args) {
    // pg-pool calls with a trailing callback; direct users get a promise.
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (error, res) => last(error, error ? res : reportCharAsText(res));
      return super.query(...args);
    }
    const result = super.query(...args);
    return result && typeof result.then === "function" ? result.then(reportCharAsText) : result;
  }
}

/** Splits `?schema=` off a PostgreSQL URL: pg does not know it, the Prisma adapter does. */
export function parsePostgresUrl(url) {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? undefined;
  parsed.searchParams.delete("schema");
  return { connectionString: parsed.toString(), schema };
}

function databaseNameOf(connectionString) {
  return decodeURIComponent(new URL(connectionString).pathname.replace(/^\//, ""));
}

/** A URL for the same server pointing at its maintenance database. */
export function maintenanceUrlOf(connectionString) {
  const parsed = new URL(connectionString);
  parsed.pathname = "/postgres";
  return parsed.toString();
}

function quoteIdent(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * @param {{ url: string, shadowDatabaseUrl?: string }} datasource
 * @param {(adapter: object) => void} onConnect receives every main-database connection
 */
export function createPostgresAdapterFactory(datasource, onConnect) {
  const { connectionString, schema } = parsePostgresUrl(datasource.url);
  const options = schema ? { schema } : undefined;
  const main = new PrismaPg({ connectionString, Client: CatalogFriendlyClient, max: 4 }, options);
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    async connect() {
      const adapter = await main.connect();
      onConnect(adapter);
      return adapter;
    },
    async connectToShadowDb() {
      if (datasource.shadowDatabaseUrl) {
        const shadow = parsePostgresUrl(datasource.shadowDatabaseUrl);
        const factory = new PrismaPg({
          connectionString: shadow.connectionString,
          Client: CatalogFriendlyClient,
        });
        return factory.connect();
      }
      // A throwaway database created and dropped over its own admin connection: dropping it
      // from a connection that lives inside it (what the stock adapter does) can never succeed.
      const name =
        `prisma_shadow_${databaseNameOf(connectionString)}_${process.pid}_${Date.now().toString(36)}`
          .toLowerCase()
          .replace(/[^a-z0-9_]/g, "_")
          .slice(0, 63);
      const admin = new pg.Client({ connectionString: maintenanceUrlOf(connectionString) });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
      const shadowUrl = new URL(connectionString);
      shadowUrl.pathname = `/${name}`;
      const pool = new pg.Pool({
        connectionString: shadowUrl.toString(),
        Client: CatalogFriendlyClient,
        max: 2,
      });
      // Dropping the database terminates whatever connection the engine still holds open;
      // that is expected and must not crash the process.
      const ignore = () => {};
      pool.on("error", ignore);
      pool.on("connect", (client) => client.on("error", ignore));
      const adapter = await new PrismaPg(pool).connect();
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await pool.end();
        try {
          await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
        } finally {
          await admin.end();
        }
      };
      return adapter;
    },
  };
}
