import type { IncomingMessage, Server, ServerResponse } from "node:http";

export function createBodyLimitedServer(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options?: { limit?: number },
): Server;
