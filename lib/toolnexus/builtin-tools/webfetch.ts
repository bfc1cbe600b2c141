import { defineTool } from "../define-tool";
import type { Tool } from "../types";

/**
 * Decides whether webfetch may go to a URL: throws (with the reason the model sees) to refuse.
 * The library has no opinion of its own; a host that serves people passes its outbound-address
 * policy here, the same one its other outbound requests answer to.
 */
export type AddressGuard = (url: URL) => void | Promise<void>;

const DEFAULT_TIMEOUT_S = 30;
const MAX_BODY = 500_000;

/** Text of an HTML page: scripts and styles dropped, tags removed, whitespace folded. */
function pageText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n\n")
    .trim();
}

/**
 * `guard` refuses URLs before they are fetched (every redirect hop too); `fetchFn` is how they
 * are fetched, so a host can pass one that also checks the address each connection really uses
 * (a name can resolve inward after a URL check passed).
 */
export function webfetchTool(guard?: AddressGuard, fetchFn: typeof fetch = globalThis.fetch): Tool {
  return defineTool({
    name: "webfetch",
    description: "Fetch a URL with GET and return its body as text, markdown or html.",
    source: "builtin",
    annotations: { readOnlyHint: true, openWorldHint: true },
    inputSchema: {
      type: "object",
      properties: {
        url: { type: "string", description: "An http(s) URL." },
        format: { type: "string", enum: ["text", "markdown", "html"], description: "Default markdown." },
        timeout: { type: "number", description: "Seconds; default 30." },
      },
      required: ["url"],
    },
    run: async (args, ctx) => {
      if (typeof args.url !== "string" || !URL.canParse(args.url))
        throw new Error("url must be an absolute URL");
      const url = new URL(args.url);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("url must be http(s)");
      await guard?.(url);
      const format = args.format === "text" || args.format === "html" ? args.format : "markdown";
      const seconds = typeof args.timeout === "number" && args.timeout > 0 ? args.timeout : DEFAULT_TIMEOUT_S;
      const signals = [AbortSignal.timeout(seconds * 1000), ...(ctx?.signal ? [ctx.signal] : [])];
      // Redirects are followed by hand so every hop passes the guard.
      let response = await fetchFn(url, {
        signal: AbortSignal.any(signals),
        redirect: guard ? "manual" : "follow",
      });
      for (let hops = 0; guard && response.status >= 300 && response.status < 400 && hops < 5; hops += 1) {
        const next = response.headers.get("location");
        if (!next) break;
        const target = new URL(next, response.url || url);
        await guard(target);
        response = await fetchFn(target, { signal: AbortSignal.any(signals), redirect: "manual" });
      }
      const body = (await response.text()).slice(0, MAX_BODY);
      if (!response.ok) {
        return {
          output: `HTTP ${response.status}: ${body.slice(0, 500)}`,
          isError: true,
          metadata: { status: response.status },
        };
      }
      const output = format === "html" ? body : pageText(body);
      return { output, isError: false, metadata: { status: response.status, format } };
    },
  });
}
