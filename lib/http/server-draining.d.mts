import type { Server } from "node:http";

export function drainingSignal(): AbortSignal;
export function untilDraining(signal: AbortSignal): AbortSignal;
export function startDraining(): void;
export function drainOnTerminate(server: Server, options?: { graceMs?: number }): void;
