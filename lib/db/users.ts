import type { Role } from "@/lib/domain/roles";
import { parseRole } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";

export interface StoredUser {
  id: string;
  email: string | null;
  name: string | null;
  role: Role;
  passwordHash: string | null;
  /** Session tokens carrying an older value are refused (signed out everywhere). */
  sessionVersion: number;
}

function toStoredUser(row: {
  id: string;
  email: string | null;
  name: string | null;
  role: string;
  passwordHash: string | null;
  sessionVersion: number;
}): StoredUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: parseRole(row.role),
    passwordHash: row.passwordHash,
    sessionVersion: row.sessionVersion,
  };
}

const USER_FIELDS = {
  id: true,
  email: true,
  name: true,
  role: true,
  passwordHash: true,
  sessionVersion: true,
} as const;

/** Emails are stored lower-case, so sign-in is case-insensitive on both databases. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function getUserByEmail({
  db,
  email,
}: {
  db: DbClient;
  email: string;
}): Promise<StoredUser | null> {
  const row = await db.user.findUnique({ where: { email: normaliseEmail(email) }, select: USER_FIELDS });
  return row ? toStoredUser(row) : null;
}

export async function getUserById({
  db,
  userId,
}: {
  db: DbClient;
  userId: string;
}): Promise<StoredUser | null> {
  const row = await db.user.findUnique({ where: { id: userId }, select: USER_FIELDS });
  return row ? toStoredUser(row) : null;
}

/**
 * Creates the account or brings name, role and password back to the given values; running it
 * twice changes nothing, which keeps the demo seed idempotent.
 */
export async function upsertUserByEmail({
  db,
  email,
  name,
  role,
  passwordHash,
}: {
  db: DbClient;
  email: string;
  name: string;
  role: Role;
  passwordHash: string | null;
}): Promise<StoredUser> {
  const key = normaliseEmail(email);
  const row = await db.user.upsert({
    where: { email: key },
    create: { email: key, name, role, passwordHash },
    update: { name, role, passwordHash },
    select: USER_FIELDS,
  });
  return toStoredUser(row);
}
