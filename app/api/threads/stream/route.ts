import { defineStreamRoute } from "@/app/_lib/define-stream-route";
import { openThreadsStream } from "@/app/chat/_lib/open-threads-stream";

// Open for as long as a chat page is; never cache or prerender it.
export const dynamic = "force-dynamic";

/** GET: changes to the signed-in user's chat sidebar, as server-sent events. */
export const GET = defineStreamRoute(async ({ actor, signal }, services) =>
  openThreadsStream({ actor, signal }, services),
);
