import { defineStreamRoute } from "@/app/_lib/define-stream-route";
import { STREAM_ROUTES } from "@/app/_lib/stream-routes";

// The stream follows a run for as long as it lasts; never cache or prerender it.
export const dynamic = "force-dynamic";

/** See `STREAM_ROUTES.threadRun`; in production server.mjs serves it beside Next (ADR 0041). */
export const GET = defineStreamRoute(STREAM_ROUTES.threadRun);
