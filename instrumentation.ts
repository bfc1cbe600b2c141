// Runs once when a Next.js server process starts: bring the database up to the committed
// migrations before the first request (the embedded SQLite file is created here on first run).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { migrateDatabase } = await import("@/lib/db/migrate-database");
  const { applied } = await migrateDatabase();
  if (applied.length > 0) console.log(`Database migrated: ${applied.join(", ")}`);
}
