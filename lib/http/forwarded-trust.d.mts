import type { BlockList } from "node:net";

export function parseTrustedProxies(env?: Record<string, string | undefined>): BlockList;
export function normaliseAddress(address: string): string;
export function isTrustedProxy(address: string, trusted: BlockList): boolean;
export function applyForwardedTrust(
  req: { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } },
  trusted: BlockList,
): void;
