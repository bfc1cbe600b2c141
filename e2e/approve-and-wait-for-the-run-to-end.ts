import type { Db } from "@/lib/db/sql/client";
import { expect, type SignedIn } from "./fixtures";
import { RequestPage } from "./pages/request-page";

/** The reviewer approves the thread's parked request, then the run is left to finish. */
export async function approveAndWaitForTheRunToEnd(
  reviewer: SignedIn,
  db: Db,
  threadId: string,
): Promise<void> {
  const row = await db.request.findFirstOrThrow({ where: { threadId } });
  const request = new RequestPage(reviewer.page);
  await request.goto(row.id);
  await request.form.approve.click();
  await request.form.expectReadOnly("Approved");
  await expect.poll(async () => (await db.run.findFirstOrThrow({ where: { threadId } })).status).toBe("done");
}
