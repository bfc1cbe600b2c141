import { z } from "zod";
import { ROLES, type Role } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";

/** The signed-in person as every page, action and route sees them. */
export interface SessionUser {
  id: string;
  email: string | null;
  name: string | null;
  role: Role;
}

const sessionSchema = z.object({
  user: z.object({
    id: z.string().min(1),
    email: z.string().nullish(),
    name: z.string().nullish(),
    role: z.enum(ROLES),
  }),
});

/**
 * Reads the user out of a next-auth session, or throws `unauthorized:session`. A session
 * without an id or a known role is treated as no session: it cannot be authorised safely.
 * One that could not be checked because the database is briefly away throws
 * `unavailable:database` (503): its holder is still signed in.
 */
export function userFromSession(session: unknown): SessionUser {
  if ((session as { unavailable?: unknown } | null)?.unavailable === true)
    throw new AppError("unavailable:database");
  const parsed = sessionSchema.safeParse(session);
  if (!parsed.success) throw new AppError("unauthorized:session");
  const { id, email, name, role } = parsed.data.user;
  return { id, email: email ?? null, name: name ?? null, role };
}
