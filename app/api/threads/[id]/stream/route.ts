import { getAppServices } from "@/app/_lib/app-services";
import { openRunStream } from "@/app/chat/_lib/open-run-stream";
import { requireUser } from "@/lib/auth/guards";
import { toPublicError } from "@/lib/errors";

// The stream follows a run for as long as it lasts; never cache or prerender it.
export const dynamic = "force-dynamic";

/** GET ?run=<id>: one run's UI message stream; without `run`, the thread's active run or 204. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const actor = await requireUser();
    const { id } = await params;
    const run = new URL(request.url).searchParams.get("run");
    return await openRunStream(
      { actor, input: { threadId: id, ...(run !== null ? { runId: run } : {}) }, signal: request.signal },
      await getAppServices(),
    );
  } catch (error) {
    const body = toPublicError(error);
    return Response.json(body, { status: body.status });
  }
}
