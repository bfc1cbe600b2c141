import { defineRoute } from "@/app/_lib/define-route";
import { openInboxStream } from "@/app/inbox/_lib/open-inbox-stream";

// Open for as long as the inbox is; never cache or prerender it.
export const dynamic = "force-dynamic";

/**
 * GET: the signed-in viewer's inbox changes as server-sent events. Any signed-in user may
 * follow their own inbox; what it counts is limited to what they may see.
 */
export const GET = defineRoute(async ({ actor, request }, services) =>
  openInboxStream({ actor, signal: request.signal }, services),
);
