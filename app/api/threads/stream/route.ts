import { defineRoute } from "@/app/_lib/define-route";
import { openThreadsStream } from "@/app/chat/_lib/open-threads-stream";

// Open for as long as a chat page is; never cache or prerender it.
export const dynamic = "force-dynamic";

/** GET: changes to the signed-in user's chat sidebar, as server-sent events. */
export const GET = defineRoute(async ({ actor, request }, services) =>
  openThreadsStream({ actor, signal: request.signal }, services),
);
