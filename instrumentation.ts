// Runs once when a Next.js server process starts. Two things must not wait for a first request:
// the database must be at the committed migrations (the embedded SQLite file is created here on
// first run), and the engine must be running, because lease renewal, takeover of runs whose
// process died and request expiry are its timers: a restarted or idle instance that started
// them only on the first page it served left crashed runs stuck and past-due requests open.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerTracing, tracingConfigured } = await import("@/app/_lib/register-tracing");
  if (tracingConfigured(process.env)) await registerTracing(process.env);
  const { migrateDatabase } = await import("@/lib/db/sql/migrate-database");
  const { applied } = await migrateDatabase();
  const { logger } = await import("@/lib/log/logger");
  if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");
  const { productionEntryWarning } = await import("@/lib/http/production-entry");
  const entryWarning = productionEntryWarning(process.env);
  if (entryWarning) logger.warn(entryWarning);
  const { getAppServices } = await import("@/app/_lib/app-services");
  await getAppServices();
  // From now on server.mjs answers the live streams itself, beside Next (ADR 0041).
  const { publishDirectStreams } = await import("@/app/_lib/serve-stream-directly");
  publishDirectStreams();
}
