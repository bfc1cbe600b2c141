import type { InputJson } from "./db-types";

/** Our JSON values (checkpoints, payloads, answers) as Prisma's Json input type. */
export function toJson(value: unknown): InputJson {
  return value as InputJson;
}
