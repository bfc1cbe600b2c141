import type { DbClient } from "@/lib/db/db-types";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { beginAuthorization } from "../begin-authorization";
import { completeAuthorization } from "../complete-authorization";
import type { OAuthRuntime } from "../oauth-runtime";
import { completeDemoConsent } from "./demo-consent-driver";
import { createParkedAuthorization } from "./oauth-fixtures";
import { claimingAnswerer, TEST_APP_URL, withOAuthTestEnv } from "./oauth-test-env";

export type ParkedAuthorization = Awaited<ReturnType<typeof createParkedAuthorization>> & {
  actor: { id: string; role: "user" };
};

/**
 * For one `describe` block: a demo provider and a fresh database on `provider`, with the steps
 * of the sign-in flow as its tests take them; `onReady` hands the database and runtime to the
 * block's own variables.
 */
export function withAuthorizationFlow(
  provider: TestProvider,
  onReady: (ready: { db: DbClient; runtime: OAuthRuntime }) => void,
) {
  let db: DbClient;
  let runtime: OAuthRuntime;
  let counter = 0;
  withOAuthTestEnv(
    (ready) => {
      db = ready.db;
      runtime = ready.env.runtime;
      onReady({ db, runtime });
    },
    { provider },
  );

  const callbackPrefix = `${TEST_APP_URL}/oauth/demo/callback`;

  async function parked(extra: { expiresAt?: Date } = {}): Promise<ParkedAuthorization> {
    counter += 1;
    const fixture = await createParkedAuthorization(db, { wireId: `auth-${counter}`, ...extra });
    const user = { id: fixture.user.id, role: "user" as const };
    return { ...fixture, actor: user };
  }

  /** Starts the sign-in for a parked request as its owner would, from the request's link. */
  function beginFor(fixture: ParkedAuthorization, now?: Date) {
    return beginAuthorization({
      db,
      runtime,
      userId: fixture.user.id,
      provider: "demo",
      wireRequestId: fixture.request.requestId,
      ...(now ? { now } : {}),
    });
  }

  async function callbackFor(fixture: ParkedAuthorization, decision: "allow" | "deny") {
    const url = await beginFor(fixture);
    return completeDemoConsent({
      authorizationUrl: url.toString(),
      redirectPrefix: callbackPrefix,
      decision,
    });
  }

  function complete(fixture: { actor: { id: string; role: "user" } }, params: URLSearchParams, now?: Date) {
    return completeAuthorization({
      db,
      runtime,
      user: fixture.actor,
      provider: "demo",
      params,
      answerRequest: claimingAnswerer(db),
      ...(now ? { now } : {}),
    });
  }

  async function snapshot(requestRowId: string) {
    const request = await db.request.findUniqueOrThrow({
      where: { id: requestRowId },
      include: { answer: true },
    });
    const states = await db.oAuthState.findMany({ where: { requestRowId }, orderBy: { createdAt: "asc" } });
    return { status: request.status, answer: request.answer, usedAt: states.map((s) => s.usedAt) };
  }

  return { callbackPrefix, parked, beginFor, callbackFor, complete, snapshot };
}
