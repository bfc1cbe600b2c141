import type { DbClient } from "@/lib/db/db-types";
import type { Request } from "@/lib/toolnexus/types";

/** A user with a thread and a run parked on one authorization request. */
export async function createParkedAuthorization(
  db: DbClient,
  options: { wireId: string; provider?: string; email?: string; expiresAt?: Date },
) {
  const user = await db.user.create({
    data: { email: options.email ?? `${options.wireId}@example.test`, name: "Test User" },
  });
  const thread = await db.thread.create({ data: { userId: user.id, title: "balance" } });
  const run = await db.run.create({
    data: { threadId: thread.id, userId: user.id, status: "pending", model: "test", openRequests: 1 },
  });
  const payload: Request = {
    id: options.wireId,
    kind: "authorization",
    prompt: "Sign in to Demo Bank so I can read your balance.",
    url: `http://localhost:3000/oauth/demo/start?request=${options.wireId}`,
    data: { provider: options.provider ?? "demo" },
    ...(options.expiresAt ? { expiresAt: options.expiresAt.toISOString() } : {}),
  };
  const request = await db.request.create({
    data: {
      requestId: options.wireId,
      runId: run.id,
      threadId: thread.id,
      ownerId: user.id,
      toolCallId: `call-${options.wireId}`,
      toolName: "get_balance",
      args: {},
      kind: "authorization",
      prompt: payload.prompt,
      url: payload.url ?? null,
      data: (payload.data ?? {}) as object,
      expiresAt: options.expiresAt ?? null,
      payload: payload as object,
      audience: "owner",
    },
  });
  return { user, thread, run, request };
}
