import { getAppServices } from "@/app/_lib/app-services";
import { serveA2A } from "./_lib/serve-a2a";

// The app's agent as an A2A server (ADR 0084); see _lib/serve-a2a.ts.
async function handle(request: Request): Promise<Response> {
  const { db, engine } = await getAppServices();
  return serveA2A(request, { db, engine });
}

export const dynamic = "force-dynamic";

export const POST = handle;
export const GET = handle;
export const DELETE = handle;
export const PUT = handle;
export const PATCH = handle;
