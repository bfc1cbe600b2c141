import { defineStreamRoute } from "@/app/_lib/define-stream-route";
import { openWaitingCountStream } from "@/app/inbox/_lib/open-waiting-count-stream";

// Open for as long as a page is; never cache or prerender it.
export const dynamic = "force-dynamic";

/** GET: how many requests wait for the signed-in viewer, as server-sent events. */
export const GET = defineStreamRoute(async ({ actor, signal }, services) =>
  openWaitingCountStream({ actor, signal }, services),
);
