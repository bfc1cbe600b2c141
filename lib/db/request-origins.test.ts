import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOrigin } from "@/lib/domain/request-origin";
import { createApiRequest } from "./api-requests";
import { createApiToken } from "./api-tokens";
import type { DbClient } from "./db-types";
import { listInboxRequests } from "./inbox-requests";
import { listRequestOriginsByIds } from "./request-origins";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

// Who asked, as the inbox lists it: an API request names its owner and token, a tool's request
// its owner's chat. The token's name is what its owner typed, so it comes out quoted.

describe.each<TestProvider>(["sqlite", "postgres"])("request origins on %s", (provider) => {
  let database: TestDatabase;
  let db: DbClient;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    db = database.db;
    await db.user.create({ data: { id: "u-alice", name: "Alice", email: "alice@example.test" } });
    await db.user.create({
      data: { id: "u-rita", name: "Rita", role: "reviewer", email: "rita@example.test" },
    });
  });
  afterAll(async () => {
    await database?.drop();
  });

  const apiRequest = async (tokenName: string, prompt: string) => {
    const token = await createApiToken({
      db,
      userId: "u-alice",
      name: tokenName,
      tokenHash: `hash-${prompt}`,
      prefix: "tnx_abc",
      scopes: ["requests:write"],
      expiresAt: null,
      limit: 20,
    });
    if (token.status !== "created") throw new Error("no token");
    const created = await createApiRequest({
      db,
      input: {
        ownerId: "u-alice",
        apiTokenId: token.row.id,
        audience: "reviewers",
        request: { kind: "approval", prompt },
        idempotencyKey: null,
        createHash: prompt,
      },
    });
    if (created.status !== "created") throw new Error("no request");
    return { requestId: created.request.id, tokenId: token.row.id };
  };

  it("names the owner and the API token for an API request, and the owner's chat for a tool's", async () => {
    const { requestId, tokenId } = await apiRequest("ci", "Ship build 812?");
    const quoted = await apiRequest("it's <b>\u202Eevil", "Ship build 813?");
    await insertInboxRequest({
      db,
      row: {
        id: "chat-req",
        ownerId: "u-alice",
        kind: "approval",
        audience: "reviewers",
        prompt: "Deploy",
        minutesAgo: 1,
      },
    });
    const { rows } = await listInboxRequests({
      db,
      query: {
        viewer: { id: "u-rita", role: "reviewer" },
        status: "open",
        sort: "newest",
        page: 1,
        pageSize: 10,
      },
    });
    const label = (id: string) => describeOrigin(rows.find((row) => row.id === id)!.origin);
    expect(label(requestId)).toBe("Alice via API token 'ci'");
    expect(label("chat-req")).toBe("Alice's chat");
    // Quotes escaped, bidi override gone; markup stays text for the page to escape.
    expect(label(quoted.requestId)).toBe("Alice via API token 'it\\'s <b> evil'");
    // The owner sees their own the same way.
    const own = await listInboxRequests({
      db,
      query: {
        viewer: { id: "u-alice", role: "user" },
        status: "open",
        sort: "newest",
        page: 1,
        pageSize: 10,
      },
    });
    expect(describeOrigin(own.rows.find((row) => row.id === requestId)!.origin, true)).toBe(
      "you via API token 'ci'",
    );

    await db.apiToken.delete({ where: { id: tokenId } });
    const origins = await listRequestOriginsByIds({ db, ids: [requestId, "chat-req", "unknown"] });
    expect(origins.get(requestId)).toEqual({ via: "api", ownerName: "Alice", tokenName: null });
    expect(describeOrigin(origins.get(requestId)!)).toBe("Alice via an API token deleted since");
    expect(origins.get("chat-req")).toEqual({ via: "chat", ownerName: "Alice" });
    expect(origins.has("unknown")).toBe(false);
  });
});
