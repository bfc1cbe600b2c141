import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** Validates untrusted input at a boundary, turning zod's complaints into field issues. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new AppError("bad_request:input", {
    issues: parsed.error.issues.map((issue) => ({
      path: `/${issue.path.map(String).join("/")}`,
      message: issue.message,
    })),
  });
}
