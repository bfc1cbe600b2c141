import { defineStreamRoute } from "@/app/_lib/define-stream-route";
import { STREAM_ROUTES } from "@/app/_lib/stream-routes";

// Open for as long as the inbox is; never cache or prerender it.
export const dynamic = "force-dynamic";

/** See `STREAM_ROUTES.inbox`; in production server.mjs serves it beside Next (ADR 0041). */
export const GET = defineStreamRoute(STREAM_ROUTES.inbox);
