import "server-only";
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARS = 12;
let counter = 0;
// Random bytes drawn in bulk: one draw per id cost more than the id's statement (ADR 0045).
let pool = Buffer.alloc(0);
let used = 0;

function randomChars(): string {
  if (used + RANDOM_CHARS > pool.length) {
    pool = randomBytes(RANDOM_CHARS * 256);
    used = 0;
  }
  let chars = "";
  for (let i = 0; i < RANDOM_CHARS; i++) chars += ALPHABET[pool[used + i]! % 36];
  used += RANDOM_CHARS;
  return chars;
}

/**
 * A row id for statements written without Prisma's typed client, which otherwise fills in
 * `@default(cuid())`: the same shape (25 lowercase base-36 characters starting with "c", time
 * first), so rows of both kinds look and sort alike. Unique by 12 random characters (62 bits)
 * on top of the millisecond and a per-process counter.
 */
export function newRowId(): string {
  counter = (counter + 1) % 36 ** 4;
  return `c${Date.now().toString(36).padStart(8, "0")}${counter.toString(36).padStart(4, "0")}${randomChars()}`;
}
