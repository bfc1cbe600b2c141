// Creates (or restores) the demo accounts shown on the sign-in page, the approver group finance
// and the refund tool's demo rules. Safe to run any number of times: accounts are matched by
// email and brought back to their demo name, role and password.
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "@/lib/auth/demo-accounts";
import { hashPassword } from "@/lib/auth/verify-credentials";
import { ensureDemoApprovals } from "@/lib/db/demo-approvals";
import { createDb } from "@/lib/db/sql/client";
import { upsertUserByEmail } from "@/lib/db/users";

const db = createDb();
try {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const account of DEMO_ACCOUNTS) {
    await upsertUserByEmail({ db, ...account, passwordHash });
    console.log(`demo account ready: ${account.email} (${account.role})`);
  }
  // Refunds above $1,000 need two of finance (Rita and Sam); above $100 still one reviewer.
  await ensureDemoApprovals({
    db,
    group: { slug: "finance", name: "Finance", memberEmails: ["rita@example.com", "sam@example.com"] },
    rules: {
      toolName: "refund",
      rules: [
        { condition: "args.amount > 1000", outcome: { kind: "group", group: "finance", required: 2 } },
        { condition: "args.amount > 100", outcome: { kind: "reviewers" } },
      ],
    },
  });
  console.log("demo approver group ready: finance (rita, sam), with the refund tool's rules");
} finally {
  await db.$disconnect();
}
