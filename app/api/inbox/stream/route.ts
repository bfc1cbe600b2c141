import { defineStreamRoute } from "@/app/_lib/define-stream-route";
import { openInboxStream } from "@/app/inbox/_lib/open-inbox-stream";

// Open for as long as the inbox is; never cache or prerender it.
export const dynamic = "force-dynamic";

/**
 * GET: the signed-in viewer's inbox changes as server-sent events. Any signed-in user may
 * follow their own inbox; what it counts is limited to what they may see.
 */
export const GET = defineStreamRoute(async ({ actor, signal }, services) =>
  openInboxStream({ actor, signal }, services),
);
