import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** How long a refused client is read after its 413 before its connection is destroyed. */
export const LINGER_MS: number;
/** How many bytes past its 413 a refused client is read before its connection is destroyed. */
export const LINGER_BYTES: number;

export function createBodyLimitedServer(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options?: { limit?: number },
): Server;
