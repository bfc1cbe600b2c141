import "server-only";
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
let counter = 0;

/**
 * A row id for statements written without Prisma's typed client, which otherwise fills in
 * `@default(cuid())`: the same shape (25 lowercase base-36 characters starting with "c", time
 * first), so rows of both kinds look and sort alike. Unique by 12 random characters (62 bits)
 * on top of the millisecond and a per-process counter.
 */
export function newRowId(): string {
  counter = (counter + 1) % 36 ** 4;
  const bytes = randomBytes(12);
  let random = "";
  for (const byte of bytes) random += ALPHABET[byte % 36];
  return `c${Date.now().toString(36).padStart(8, "0")}${counter.toString(36).padStart(4, "0")}${random}`;
}
