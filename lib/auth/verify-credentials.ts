import bcrypt from "bcryptjs";
import type { DbClient } from "@/lib/db/db-types";
import { getUserByEmail } from "@/lib/db/users";
import type { SessionUser } from "./session-user";

// Compared against when the email is unknown, so a wrong email costs as much time as a wrong
// password and response times do not reveal which accounts exist.
const DUMMY_HASH = bcrypt.hashSync("toolnexus-no-such-user", 10);

export const PASSWORD_HASH_ROUNDS = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, PASSWORD_HASH_ROUNDS);
}

export async function verifyCredentials({
  db,
  email,
  password,
}: {
  db: DbClient;
  email: string;
  password: string;
}): Promise<SessionUser | null> {
  const user = await getUserByEmail({ db, email });
  const matches = await bcrypt.compare(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user?.passwordHash || !matches) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}
