import { getAppServices } from "@/app/_lib/app-services";
import { openThreadsStream } from "@/app/chat/_lib/open-threads-stream";
import { requireUser } from "@/lib/auth/guards";
import { toPublicError } from "@/lib/errors";

// Open for as long as a chat page is; never cache or prerender it.
export const dynamic = "force-dynamic";

/** GET: changes to the signed-in user's chat sidebar, as server-sent events. */
export async function GET(request: Request) {
  try {
    const actor = await requireUser();
    return openThreadsStream({ actor, signal: request.signal }, await getAppServices());
  } catch (error) {
    const body = toPublicError(error);
    return Response.json(body, { status: body.status });
  }
}
