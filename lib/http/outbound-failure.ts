// What an admin may read about a failed outbound call (a webhook's last result, an MCP server's
// last error): a status code or a short class of failure, never a remote body, and for a refused
// address only that it was refused, so the message cannot be used to probe what lies behind it
// (which port answered, refused or timed out).

/** Raised before any packet is sent to an address the policy refuses. */
export class OutboundAddressRefused extends Error {
  readonly code = "EADDRNOTALLOWED";
  /** Safe to show as it is: it names no address or port (the `expose` convention of http-errors). */
  readonly expose = true;
  constructor() {
    super("The address was refused by the outbound address policy");
    this.name = "OutboundAddressRefused";
  }
}

function* causes(error: unknown): Generator<unknown> {
  let current = error;
  for (let depth = 0; current && depth < 8; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

export function isAddressRefused(error: unknown): boolean {
  for (const cause of causes(error)) if (cause instanceof OutboundAddressRefused) return true;
  return false;
}

/** One short line for a failed call that got no HTTP answer. */
export function describeOutboundFailure(error: unknown): string {
  if (isAddressRefused(error)) return new OutboundAddressRefused().message;
  for (const cause of causes(error)) {
    const name = (cause as { name?: unknown }).name;
    if (name === "TimeoutError" || name === "AbortError") return "No response in time";
    const code = (cause as { code?: unknown }).code;
    // Node's and undici's error codes (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, ...): a class, no detail.
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]{2,40}$/.test(code)) return `Connection failed (${code})`;
  }
  return "The request failed";
}
