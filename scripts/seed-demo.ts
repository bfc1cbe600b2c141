// Creates (or restores) the demo accounts shown on the sign-in page. Safe to run any number of
// times: accounts are matched by email and brought back to their demo name, role and password.
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "@/lib/auth/demo-accounts";
import { hashPassword } from "@/lib/auth/verify-credentials";
import { createDb } from "@/lib/db/sql/client";
import { upsertUserByEmail } from "@/lib/db/users";

const db = createDb();
try {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const account of DEMO_ACCOUNTS) {
    await upsertUserByEmail({ db, ...account, passwordHash });
    console.log(`demo account ready: ${account.email} (${account.role})`);
  }
} finally {
  await db.$disconnect();
}
