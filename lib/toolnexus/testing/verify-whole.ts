import { verifyCheckpoint } from "../checkpoint";
import type { Checkpoint } from "../types";

/** The whole checkpoint `verifyCheckpoint` vouches for, its transcript read if it came apart. */
export async function verifyWhole(value: unknown, key?: string): Promise<Checkpoint> {
  const verified = await verifyCheckpoint(value, key);
  if (verified.status === "verified") return verified.checkpoint;
  return { ...verified.checkpoint, messages: await verified.transcript() };
}
