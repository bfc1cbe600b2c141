/**
 * Who asked for a request, as people are shown it: the chat of its owner, or its owner through
 * one of their API tokens (ADR 0059). Names are what people typed, so they are shown as quoted
 * text, never as markup; `tokenName` is null when the token was deleted since.
 */
export type RequestOrigin =
  | { via: "chat"; ownerName: string }
  | { via: "api"; ownerName: string; tokenName: string | null };

/** One line of text: control and format characters (bidi overrides among them) gone, spaces collapsed. */
function plainLine(text: string, max: number): string {
  const flat = text
    .replace(/[\p{Cc}\p{Cf}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A token's name in single quotes, with quotes and backslashes inside it escaped. */
export function quoteTokenName(name: string): string {
  return `'${plainLine(name, 80).replace(/[\\']/g, "\\$&")}'`;
}

/**
 * "Alice via API token 'ci'", "Alice's chat", or with `self` "you via API token 'ci'" and "your
 * chat": what follows "Asked by" in the inbox, on the request's page and in mail.
 */
export function describeOrigin(origin: RequestOrigin, self = false): string {
  const owner = plainLine(origin.ownerName, 120) || "someone";
  if (origin.via === "chat") return self ? "your chat" : `${owner}'s chat`;
  const who = self ? "you" : owner;
  return origin.tokenName === null
    ? `${who} via an API token deleted since`
    : `${who} via API token ${quoteTokenName(origin.tokenName)}`;
}
