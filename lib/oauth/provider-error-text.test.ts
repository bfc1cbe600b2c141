import { InvalidClientError, ServerError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { afterAll, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { mcpFlowFailure } from "./begin-mcp-authorization";
import type { McpSignInServer } from "./mcp-client-provider";
import { isOAuthError } from "./oauth-error";
import { loggableProviderText, providerErrorWords } from "./provider-error";
import { mcpSignInSteps } from "./testing/mcp-sign-in-env";
import { type OAuthTestEnv, withOAuthTestEnv } from "./testing/oauth-test-env";
import { withAuthorizationFlow } from "./testing/with-authorization-flow";

// A provider's own error text is chosen by a remote party; people read fixed words chosen by
// its RFC 6749 code, and the text reaches no page, answer or event.

const hostile = "Your account is locked. Call +1-555-0100 now to restore access";
const marker = "555-0100";

async function refusal(work: Promise<unknown>): Promise<Error> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isOAuthError(error, "provider:error"))
    throw new Error(`expected provider:error, got ${String(error)}`);
  return error;
}

describe("the words for a provider's error", () => {
  it("are fixed per RFC 6749 code, and generic for any other code", () => {
    expect(providerErrorWords("Demo", "access_denied")).toBe(
      "You declined the sign-in at Demo, so nothing was connected.",
    );
    expect(providerErrorWords("Demo Bank", "temporarily_unavailable")).toContain(
      "Try again in a few minutes",
    );
    expect(providerErrorWords("Demo", "invalid_scope")).toContain("administrator");
    const generic = "Demo could not complete the sign-in. Try again from your chat.";
    expect(providerErrorWords("Demo", hostile)).toBe(generic);
    expect(providerErrorWords("Demo", "__proto__")).toBe(generic);
    expect(providerErrorWords("Demo", undefined)).toBe(generic);
  });

  it("keep the provider's text for the log only cleaned, without tokens and cut short", () => {
    const forged = `denied\r\n{"level":"info","msg":"forged"}\u202Etxt\u0000 token=${"a".repeat(40)}`;
    const logged = loggableProviderText(forged);
    for (const character of ["\r", "\n", "\u0000", "\u202E"]) expect(logged).not.toContain(character);
    expect(logged).not.toContain("a".repeat(40));
    expect(logged).toContain("[redacted]");
    expect(loggableProviderText("x ".repeat(1000)).length).toBeLessThanOrEqual(301);
  });

  it("an MCP server's SDK error is told by its code, never by its description", () => {
    for (const error of [new ServerError(hostile), new InvalidClientError(hostile), new Error(hostile)]) {
      const failure = mcpFlowFailure("bank", error);
      expect(failure.code).toBe("provider:error");
      expect(failure.message).not.toContain(marker);
      expect(failure.cause).toBeUndefined();
    }
    expect(mcpFlowFailure("bank", new InvalidClientError(hostile)).message).toBe(
      providerErrorWords("bank", "invalid_client"),
    );
  });
});

describe.each<TestProvider>(["sqlite", "postgres"])(
  "a tool's sign-in callback with an error on %s",
  (provider) => {
    let db: DbClient;
    const { parked, callbackFor, complete, snapshot } = withAuthorizationFlow(provider, (ready) => {
      db = ready.db;
    });

    /** A callback carrying the flow's real state and the provider's error instead of a code. */
    async function errorCallback(error: string) {
      const fixture = await parked();
      const state = (await callbackFor(fixture, "allow")).searchParams.get("state")!;
      const params = new URLSearchParams({ state, error, error_description: hostile });
      return { fixture, params };
    }

    const eventsOf = async (threadId: string) =>
      JSON.stringify(await db.event.findMany({ where: { threadId } }));

    it("shows fixed words for the code, leaves the request open and records nothing of the text", async () => {
      const { fixture, params } = await errorCallback("temporarily_unavailable");
      const error = await refusal(complete(fixture, params));
      expect(error.message).toBe(providerErrorWords("Demo Bank", "temporarily_unavailable"));
      expect((await snapshot(fixture.request.id)).status).toBe("open");
      expect(await eventsOf(fixture.request.threadId)).not.toContain(marker);
    });

    it("shows the generic words for a code no RFC defines, whatever it says", async () => {
      const { fixture, params } = await errorCallback(hostile);
      const error = await refusal(complete(fixture, params));
      expect(error.message).not.toContain(marker);
      expect(error.message).toBe(providerErrorWords("Demo Bank", undefined));
    });

    it("declines on access_denied with nothing of the provider's description in the answer or events", async () => {
      const { fixture, params } = await errorCallback("access_denied");
      expect((await complete(fixture, params)).status).toBe("declined");
      const after = await snapshot(fixture.request.id);
      expect(after.status).toBe("answered");
      expect(JSON.stringify(after.answer)).not.toContain(marker);
      expect(await eventsOf(fixture.request.threadId)).not.toContain(marker);
    });
  },
);

describe("an MCP server's sign-in callback with an error", () => {
  let env: OAuthTestEnv;
  let db: DbClient;
  let server: McpSignInServer;
  withOAuthTestEnv((ready) => {
    env = ready.env;
    db = ready.db;
    server = { name: "bank", url: `${env.server.issuer}/mcp`, oauth: {} };
  });
  const steps = mcpSignInSteps(() => ({ db, runtime: env.runtime, server }));
  afterAll(() => steps.closeAll());

  it("shows fixed words for the code and records nothing of the server's text", async () => {
    const user = await steps.parkedUser();
    const callback = await steps.consent(await steps.begin(user.user.id, user.wireId));
    const state = callback.searchParams.get("state")!;
    const params = new URLSearchParams({ state, error: "server_error", error_description: hostile });
    const error = await refusal(steps.complete(user.actor, params));
    expect(error.message).toBe(providerErrorWords("bank", "server_error"));
    const request = await db.request.findUniqueOrThrow({ where: { id: user.request.id } });
    expect(request.status).toBe("open");
    const events = await db.event.findMany({ where: { threadId: user.request.threadId } });
    expect(JSON.stringify(events)).not.toContain(marker);
  });
});
