import type { IncomingMessage, ServerResponse } from "node:http";

export type DirectHandler = (req: IncomingMessage, res: ServerResponse) => boolean;
export function publishDirectRoutes(handler: DirectHandler): void;
export function serveDirectly(req: IncomingMessage, res: ServerResponse): boolean;
