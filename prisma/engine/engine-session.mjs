// One schema-engine session: the WebAssembly engine bound to one datasource, answering the
// JSON-RPC methods of the native `schema-engine` binary by their native names.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  createPostgresAdapterFactory,
  createSqliteAdapterFactory,
  providerOfUrl,
} from "./create-adapter-factory.mjs";
import { createDatabase } from "./database-admin.mjs";
import { loadSchemaEngine } from "./load-schema-engine.mjs";

const require = createRequire(import.meta.url);
const { bindMigrationAwareSqlAdapterFactory } = require("@prisma/driver-adapter-utils");

const MIGRATIONS_TABLE_MISSING = /_prisma_migrations/;

export class EngineSession {
  /**
   * @param {{ datasource: { url: string, shadowDatabaseUrl?: string },
   *           datamodelPaths?: string[], log?: (line: string) => void }} options
   */
  constructor({ datasource, datamodelPaths = [], log = () => {} }) {
    this.datasource = datasource;
    this.datamodelPaths = datamodelPaths;
    this.log = log;
    this.provider = providerOfUrl(datasource.url);
    this.engine = null;
    this.mainAdapters = [];
  }

  async ensureEngine() {
    if (this.engine) return this.engine;
    const { SchemaEngine } = await loadSchemaEngine();
    const track = (adapter) => this.mainAdapters.push(adapter);
    const factory =
      this.provider === "sqlite"
        ? createSqliteAdapterFactory(this.datasource, track)
        : createPostgresAdapterFactory(this.datasource, track);
    const datamodels = this.datamodelPaths.map((file) => [file, readFileSync(file, "utf8")]);
    this.engine = await SchemaEngine.new(
      { datamodels: datamodels.length > 0 ? datamodels : undefined },
      (line) => this.log(line),
      bindMigrationAwareSqlAdapterFactory(factory),
    );
    return this.engine;
  }

  /** Dispatches one JSON-RPC method; resolves with its result or rejects with the engine error. */
  async call(method, params) {
    switch (method) {
      case "createDatabase":
        return {
          databaseName: await createDatabase(urlOfDatasourceParam(params?.datasource, this.datasource)),
        };
      case "getDatabaseVersion":
        return (await this.ensureEngine()).version();
      case "reset":
        return this.reset(params);
      case "devDiagnostic":
      case "diagnoseMigrationHistory":
        return this.withMigrationsTable(method, params);
      case "evaluateDataLoss":
      case "createMigration":
        await this.warmMigrationSchemaCache(params);
        return (await this.ensureEngine())[method](params);
      default: {
        const engine = await this.ensureEngine();
        if (typeof engine[method] !== "function" || method === "free" || method === "constructor") {
          throw Object.assign(new Error(`Method not found: ${method}`), { rpcCode: -32601 });
        }
        return engine[method](params);
      }
    }
  }

  // On a SQLite database that was never migrated the engine queries `_prisma_migrations` anyway
  // and fails (P1014) where the native engine reports "no history". `diagnoseMigrationHistory`
  // (used by the read-only `migrate status`) gets the native answer without touching the database;
  // for `devDiagnostic` (migrate dev, which creates the table next anyway) the engine's own
  // bootstrap (an empty applyMigrations) creates the table and the question is asked again.
  async withMigrationsTable(method, params) {
    const engine = await this.ensureEngine();
    try {
      return await engine[method](params);
    } catch (error) {
      if (!MIGRATIONS_TABLE_MISSING.test(String(error?.message))) throw error;
      if (method === "diagnoseMigrationHistory") {
        const names = (params.migrationsList?.migrationDirectories ?? []).map((dir) => dir.path);
        return {
          editedMigrationNames: [],
          failedMigrationNames: [],
          hasMigrationsTable: false,
          history:
            names.length > 0 ? { diagnostic: "databaseIsBehind", unappliedMigrationNames: names } : null,
        };
      }
      await engine.applyMigrations({
        migrationsList: { ...params.migrationsList, migrationDirectories: [] },
        filters: params.filters ?? { externalTables: [], externalEnums: [] },
      });
      return engine[method](params);
    }
  }

  // These two commands replay the migration history on a shadow database, but the WebAssembly
  // engine does not hand them the adapter factory that can create one (only devDiagnostic and
  // diagnoseMigrationHistory get it); they do consult a schema cache keyed by the history, so
  // computing the history's schema first through devDiagnostic lets them proceed.
  async warmMigrationSchemaCache(params) {
    if (!params?.migrationsList) return;
    try {
      await this.withMigrationsTable("devDiagnostic", {
        migrationsList: params.migrationsList,
        filters: params.filters ?? { externalTables: [], externalEnums: [] },
      });
    } catch {
      // The command itself will report whatever is wrong with the history.
    }
  }

  async reset(params) {
    const engine = await this.ensureEngine();
    if (this.provider !== "sqlite") {
      await engine.reset(params);
      return {};
    }
    // The engine's SQLite reset cannot delete the file it is connected to, and its fallback
    // (dropping objects one by one) fails on views and foreign keys. Empty the database on the
    // engine's own connection first (it may hold an exclusive lock); the engine's reset then
    // only has its own bookkeeping left, and whatever it reports is checked against the result.
    await this.dropSqliteObjects();
    try {
      await engine.reset(params);
    } catch (error) {
      if ((await this.listSqliteObjects()).length > 0) throw error;
    }
    return {};
  }

  async listSqliteObjects() {
    const adapter = this.mainAdapters.at(-1);
    if (!adapter) return [];
    const result = await adapter.queryRaw({
      sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND type IN ('table','view','trigger')",
      args: [],
      argTypes: [],
    });
    return result.rows.map(([type, name]) => ({ type: String(type), name: String(name) }));
  }

  async dropSqliteObjects() {
    const objects = await this.listSqliteObjects();
    if (objects.length === 0) return;
    // Views and triggers first: they would otherwise point at tables that no longer exist.
    const order = { trigger: 0, view: 1, table: 2 };
    const drops = objects
      .sort((a, b) => order[a.type] - order[b.type])
      .map(({ type, name }) => `DROP ${type.toUpperCase()} IF EXISTS "${name.replaceAll('"', '""')}";`);
    const adapter = this.mainAdapters.at(-1);
    await adapter.executeScript(
      ["PRAGMA foreign_keys = OFF;", ...drops, "PRAGMA foreign_keys = ON;"].join("\n"),
    );
  }

  async close() {
    const engine = this.engine;
    this.engine = null;
    if (engine) engine.free();
    await Promise.allSettled(this.mainAdapters.map((adapter) => adapter.dispose()));
    this.mainAdapters = [];
  }
}

function urlOfDatasourceParam(param, fallback) {
  if (param?.tag === "ConnectionString" && param.url) return param.url;
  return fallback.url;
}
