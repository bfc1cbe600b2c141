// Child process for the concurrent role-change test: connects, reports "ready", then for every
// line `<actorId> <userId> <role>` on stdin changes that role and prints the outcome as JSON.
// Run with: node --conditions=react-server --import tsx lib/db/testing/change-role-in-child.ts <url>
import { createInterface } from "node:readline";
import { isRole } from "@/lib/domain/roles";
import { createDb } from "../sql/client";
import { updateUserRoleById } from "../user-roles";

const [url] = process.argv.slice(2);
if (!url) throw new Error("usage: change-role-in-child.ts <database url>");

const db = createDb({ url, poolMax: 2 });
// Opens the connection now, so the first change does not also pay for connecting.
await db.user.count();
process.stdout.write("ready\n");

for await (const line of createInterface({ input: process.stdin })) {
  const [actorId, userId, role] = line.trim().split(" ");
  if (!actorId || !userId) continue;
  if (!isRole(role)) throw new Error(`unknown role: ${role}`);
  const outcome = await updateUserRoleById({ db, userId, actorId, role });
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
}
await db.$disconnect();
