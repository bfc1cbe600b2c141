import "server-only";
import type { DbClient } from "@/lib/db/db-types";
import { type DatabaseReadiness, getDatabaseReadiness } from "@/lib/db/sql/database-readiness";
import type { Engine } from "@/lib/engine/engine-types";

/**
 * Readiness for a load balancer: the database answers, every committed migration is applied,
 * and the engine's timers run (so crashed runs are taken over and requests expire). The body
 * says only "ready" or "not_ready"; which check failed goes to the server log.
 */
export async function checkReadiness({
  services,
  provider,
  root,
}: {
  /** Null when the app's services could not be built (the database was not there at start). */
  services: { db: DbClient; engine: Engine } | null;
  provider: "sqlite" | "postgres";
  root?: string;
}): Promise<Response> {
  let reason: DatabaseReadiness | "engine_stopped" | "not_started" = "not_started";
  if (services) {
    reason = await getDatabaseReadiness({ db: services.db, provider, ...(root ? { root } : {}) });
    if (reason === "ready" && !services.engine.isRunning()) reason = "engine_stopped";
  }
  const ready = reason === "ready";
  if (!ready) console.error(`[ready] not ready: ${reason}`);
  return Response.json(
    { status: ready ? "ready" : "not_ready" },
    { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
