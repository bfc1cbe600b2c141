import { getAppServices } from "@/app/_lib/app-services";
import { checkReadiness } from "@/app/_lib/check-readiness";
import { resolveDatabaseUrl } from "@/lib/db/sql/database-url";

// Readiness: database reachable, migrations applied, engine running. Unauthenticated and cheap
// (one query); the body carries no internals.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const { provider } = resolveDatabaseUrl(process.env.DATABASE_URL);
  const services = await getAppServices().catch((error: unknown) => {
    console.error("[ready] the app's services could not start", error);
    return null;
  });
  return checkReadiness({ services, provider });
}
