// The production server entry: `node server.mjs` (PORT, default 3000; HOSTNAME, default all
// interfaces). It is `next start` plus three steps Next cannot do by itself. First, deciding, from
// the socket's peer address, whether a request's X-Forwarded-* headers come from a configured
// proxy (TOOLNEXUS_TRUSTED_PROXIES) and may be believed. Next reads those headers for the
// server-action origin check and the app for the client's address; a client that is not a
// trusted proxy could otherwise claim any host or address. See
// docs/decisions/0025-security-headers-sessions-and-forwarded-trust.md. Second, answering the
// live streams beside Next's request pipeline, which holds too much per open response for
// thousands of them (docs/decisions/0041-live-streams-are-served-beside-next.md). Third,
// and before either: keeping every request body within the 1 MB limit by counting it as it
// arrives, before Next buffers any of it (docs/decisions/0057-request-bodies-are-counted-and-json-is-strict.md).
import next from "next";
import { serveDirectly } from "./lib/http/direct-routes.mjs";
import { applyForwardedTrust, parseTrustedProxies } from "./lib/http/forwarded-trust.mjs";
import { createBodyLimitedServer } from "./lib/http/limited-server.mjs";
import { drainOnTerminate } from "./lib/http/server-draining.mjs";

// Marks this process as started by the production entry; the app warns at start when a
// production process lacks the mark (lib/http/production-entry.ts, docs/deploy.md).
process.env.TOOLNEXUS_PRODUCTION_ENTRY = "1";
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || undefined;
const trusted = parseTrustedProxies();

const app = next({ dev: false, dir: import.meta.dirname, port, ...(hostname ? { hostname } : {}) });
const handle = app.getRequestHandler();
await app.prepare();

const server = createBodyLimitedServer((req, res) => {
  applyForwardedTrust(req, trusted);
  // The live streams, once the app has started, are answered beside Next (ADR 0041).
  if (serveDirectly(req, res)) return;
  void handle(req, res);
});
// SIGTERM (a deploy, a scale-down) or Ctrl+C: stop taking connections and end the live streams,
// so clients go to a peer now; see lib/http/server-draining.mjs.
drainOnTerminate(server);
server.listen(port, hostname, () => {
  console.log(`toolnexus listening on http://${hostname ?? "localhost"}:${port}`);
});
