import { defineStreamRoute } from "@/app/_lib/define-stream-route";
import { openRunStream } from "@/app/chat/_lib/open-run-stream";

// The stream follows a run for as long as it lasts; never cache or prerender it.
export const dynamic = "force-dynamic";

/** GET ?run=<id>: one run's UI message stream; without `run`, the thread's active run or 204. */
export const GET = defineStreamRoute<{ params: Promise<{ id: string }> }>(
  async ({ actor, request, context, signal }, services) => {
    const { id } = await context.params;
    const run = new URL(request.url).searchParams.get("run");
    return openRunStream(
      { actor, input: { threadId: id, ...(run !== null ? { runId: run } : {}) }, signal },
      services,
    );
  },
);
