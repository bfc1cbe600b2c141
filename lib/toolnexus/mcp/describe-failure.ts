/**
 * What a host may show about a failed connection (an admin page's "last error"): a status code
 * or a short class of failure. Never the server's reply, which could be an internal service's
 * error page or an OAuth server's description, nor a URL, which could carry credentials. An
 * error marked `expose: true` (the http-errors convention) was written to be shown and is kept:
 * the library's own timeout, or a host's refusal to connect at all.
 */
export function describeFailure(error: unknown): string {
  const chain: unknown[] = [];
  for (let current = error; current && chain.length < 8; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
  }
  for (const cause of chain) {
    const { expose, message } = cause as { expose?: unknown; message?: unknown };
    if (expose === true && typeof message === "string") return message.split("\n")[0]!.slice(0, 200);
  }
  for (const cause of chain) {
    const code = (cause as { code?: unknown }).code;
    // The SDK's HTTP errors carry the status apart from their text.
    if (typeof code === "number" && code >= 100 && code < 600) return `The server answered HTTP ${code}`;
  }
  // The SDK's mark for an answer in another content type than MCP's (a sign-in or error page).
  if (chain.some((cause) => (cause as { code?: unknown }).code === -1)) {
    return "The server did not answer like an MCP server";
  }
  for (const cause of chain) {
    const code = (cause as { code?: unknown }).code;
    // Node's and undici's error codes: ECONNREFUSED, ENOTFOUND, ENOENT (a command), UND_ERR_SOCKET.
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]{2,40}$/.test(code)) return `Could not connect (${code})`;
  }
  const kind = error instanceof Error ? error.constructor.name : "";
  return /^[A-Za-z]{1,60}$/.test(kind) && kind !== "Error"
    ? `The connection failed (${kind})`
    : "The connection failed";
}
