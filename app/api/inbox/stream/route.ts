import { getAppServices } from "@/app/_lib/app-services";
import { openInboxStream } from "@/app/inbox/_lib/open-inbox-stream";
import { requireUser } from "@/lib/auth/guards";
import { toPublicError } from "@/lib/errors";

// Open for as long as the inbox is; never cache or prerender it.
export const dynamic = "force-dynamic";

/**
 * GET: the signed-in viewer's inbox changes as server-sent events. Any signed-in user may
 * follow their own inbox; what it counts is limited to what they may see.
 */
export async function GET(request: Request) {
  try {
    const actor = await requireUser();
    return openInboxStream({ actor, signal: request.signal }, await getAppServices());
  } catch (error) {
    const body = toPublicError(error);
    return Response.json(body, { status: body.status });
  }
}
