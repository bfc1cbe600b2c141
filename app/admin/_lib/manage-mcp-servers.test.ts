import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import { checkServerEntry } from "@/lib/agent/mcp/library-connection";
import { createServerLoader } from "@/lib/agent/mcp/load-desired-servers";
import { openClientSecret, openServerHeaders } from "@/lib/agent/mcp/server-headers";
import { listMcpServerSummaries, listStoredMcpServers } from "@/lib/db/mcp-servers";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { toPublicError } from "@/lib/errors";
import {
  addRemoteServer,
  type McpServerDeps,
  removeRemoteServer,
  setRemoteServerDisabled,
} from "./manage-mcp-servers";

const keys = { encryption: randomBytes(32), state: randomBytes(32) };

describe.each<TestProvider>(["sqlite", "postgres"])("managing remote MCP servers on %s", (provider) => {
  let database: TestDatabase;
  let db: Db;
  let deps: McpServerDeps;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    db = database.db as Db;
    deps = {
      db,
      keys: () => keys,
      configNames: async () => ["tickets"],
      checkEntry: checkServerEntry,
      allowPrivate: false,
    };
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** Everything adding, disabling and removing servers writes. */
  const everything = async () => ({
    servers: await db.mcpServer.findMany({ orderBy: { name: "asc" } }),
    audit: await db.auditLog.findMany({ where: { targetType: "mcp_server" }, orderBy: { createdAt: "asc" } }),
  });

  const refusal = (promise: Promise<unknown>) => promise.then(() => null, toPublicError);

  it("adds a server with its headers sealed: only their names are readable, and the audit says who", async () => {
    const admin = await newUser(db, "admin");
    const added = await addRemoteServer(
      {
        actor: admin,
        input: {
          name: "crm",
          url: "https://crm.example.test/mcp",
          headers: [{ name: "Authorization", value: "Bearer sk-live-123456" }],
        },
      },
      deps,
    );
    const row = await db.mcpServer.findUniqueOrThrow({ where: { id: added.id } });
    expect(row).toMatchObject({
      name: "crm",
      url: "https://crm.example.test/mcp",
      headerNames: ["Authorization"],
      disabled: false,
    });
    expect(row.headersEnc).not.toContain("sk-live");
    expect(openServerHeaders("crm", row.headersEnc, keys)).toEqual({
      Authorization: "Bearer sk-live-123456",
    });
    // Sealed for this server: the same ciphertext under another name does not open.
    expect(() => openServerHeaders("other", row.headersEnc, keys)).toThrow();
    const audit = await db.auditLog.findMany({ where: { targetId: added.id } });
    expect(audit).toMatchObject([
      {
        actorId: admin.id,
        action: "mcp_server.added",
        detail: { name: "crm", headerNames: ["Authorization"] },
      },
    ]);
    expect(JSON.stringify(audit)).not.toContain("sk-live");
  });

  it("adds a server each user signs in to, with the admin's client: the secret sealed, read back only by the pool", async () => {
    const admin = await newUser(db, "admin");
    const added = await addRemoteServer(
      {
        actor: admin,
        input: {
          name: "tracker",
          url: "https://tracker.example.test/mcp",
          oauth: { clientId: "toolnexus-app", clientSecret: "cs-very-secret-42", scope: "issues:read" },
        },
      },
      deps,
    );
    const row = await db.mcpServer.findUniqueOrThrow({ where: { id: added.id } });
    expect(row).toMatchObject({ oauth: true, oauthClientId: "toolnexus-app", oauthScope: "issues:read" });
    expect(row.oauthClientSecretEnc).not.toContain("cs-very-secret");
    const load = createServerLoader({
      listAdminServers: () => listStoredMcpServers({ db }),
      openHeaders: (name, sealed) => openServerHeaders(name, sealed, keys),
      openClientSecret: (name, sealed) => openClientSecret(name, sealed, keys),
    });
    const desired = (await load()).servers.find((server) => server.name === "tracker");
    expect(desired).toMatchObject({
      status: "enabled",
      entry: {
        transport: "http",
        url: "https://tracker.example.test/mcp",
        oauth: { clientId: "toolnexus-app", clientSecret: "cs-very-secret-42", scope: "issues:read" },
      },
    });
    const audit = await db.auditLog.findMany({ where: { targetId: added.id } });
    expect(audit).toMatchObject([
      { detail: { name: "tracker", oauth: true, oauthClientId: "toolnexus-app" } },
    ]);
    expect(JSON.stringify(audit)).not.toContain("cs-very-secret");
    const summaries = await listMcpServerSummaries({ db });
    expect(JSON.stringify(summaries)).not.toContain(row.oauthClientSecretEnc!);
  });

  it.each([
    [
      "a client secret without its client ID",
      { name: "halfclient", url: "https://x.test/mcp", oauth: { clientSecret: "s" } },
      "/oauth/clientSecret",
    ],
    [
      "a command (stdio comes only from the config file)",
      { name: "evil", url: "https://x.test/mcp", command: "rm" },
      "/",
    ],
    ["a URL that is not http(s)", { name: "files", url: "file:///etc/passwd" }, "/url"],
    ["credentials inside the URL", { name: "creds", url: "https://user:pw@x.test/mcp" }, "/url"],
    ["a name with spaces", { name: "my server", url: "https://x.test/mcp" }, "/name"],
    [
      "a header given twice",
      {
        name: "twice",
        url: "https://x.test/mcp",
        headers: [
          { name: "X-Key", value: "a" },
          { name: "x-key", value: "b" },
        ],
      },
      "/headers",
    ],
    [
      "a header value over two lines",
      { name: "split", url: "https://x.test/mcp", headers: [{ name: "X-Key", value: "a\r\nHost: evil" }] },
      "/headers/0/value",
    ],
    [
      "a header without a value",
      { name: "empty", url: "https://x.test/mcp", headers: [{ name: "X-Key", value: "" }] },
      "/headers/0/value",
    ],
  ])("refuses %s and writes nothing", async (_what, input, path) => {
    const admin = await newUser(db, "admin");
    const before = await everything();
    const error = await refusal(addRemoteServer({ actor: admin, input }, deps));
    expect(error).toMatchObject({ code: "bad_request:input" });
    expect(error?.issues.map((issue) => issue.path)).toContain(path);
    expect(await everything()).toEqual(before);
  });

  it("refuses a name the config file or another server already uses", async () => {
    const admin = await newUser(db, "admin");
    await addRemoteServer({ actor: admin, input: { name: "wiki", url: "https://wiki.test/mcp" } }, deps);
    const before = await everything();
    for (const name of ["tickets", "wiki"]) {
      const error = await refusal(
        addRemoteServer({ actor: admin, input: { name, url: "https://other.test/mcp" } }, deps),
      );
      expect(error).toMatchObject({ code: "conflict:mcp_server_name" });
    }
    expect(await everything()).toEqual(before);
  });

  it("lets only admins add, disable and remove", async () => {
    const reviewer = await newUser(db, "reviewer");
    const admin = await newUser(db, "admin");
    const { id } = await addRemoteServer(
      { actor: admin, input: { name: "guarded", url: "https://g.test/mcp" } },
      deps,
    );
    const before = await everything();
    // Each refusal is caught as it is made: they run at once, and any may come first.
    for (const refused of [
      addRemoteServer({ actor: reviewer, input: { name: "mine", url: "https://m.test/mcp" } }, deps),
      setRemoteServerDisabled({ actor: reviewer, input: { id, disabled: true } }, deps),
      removeRemoteServer({ actor: reviewer, input: { id } }, deps),
    ].map(refusal)) {
      expect(await refused).toMatchObject({ code: "forbidden:role" });
    }
    expect(await everything()).toEqual(before);
  });

  it("disables, enables and removes a server, each audited; an unknown id is not found", async () => {
    const admin = await newUser(db, "admin");
    const { id } = await addRemoteServer(
      { actor: admin, input: { name: "toggle", url: "https://t.test/mcp" } },
      deps,
    );
    await expect(
      setRemoteServerDisabled({ actor: admin, input: { id, disabled: true } }, deps),
    ).resolves.toEqual({ id, disabled: true, changed: true });
    await expect(
      setRemoteServerDisabled({ actor: admin, input: { id, disabled: true } }, deps),
    ).resolves.toEqual({ id, disabled: true, changed: false });
    expect((await db.mcpServer.findUniqueOrThrow({ where: { id } })).disabled).toBe(true);
    await setRemoteServerDisabled({ actor: admin, input: { id, disabled: false } }, deps);
    await expect(removeRemoteServer({ actor: admin, input: { id } }, deps)).resolves.toEqual({ id });
    expect(await db.mcpServer.findUnique({ where: { id } })).toBeNull();
    const actions = (
      await db.auditLog.findMany({ where: { targetId: id }, orderBy: { createdAt: "asc" } })
    ).map((entry) => entry.action);
    expect(actions).toEqual([
      "mcp_server.added",
      "mcp_server.disabled",
      "mcp_server.enabled",
      "mcp_server.removed",
    ]);
    const before = await everything();
    for (const refused of [
      removeRemoteServer({ actor: admin, input: { id } }, deps),
      setRemoteServerDisabled({ actor: admin, input: { id, disabled: false } }, deps),
    ].map(refusal)) {
      expect(await refused).toMatchObject({ code: "not_found:mcp_server" });
    }
    expect(await everything()).toEqual(before);
  });
});
