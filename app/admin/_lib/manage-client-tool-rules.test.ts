import { describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { saveToolRules, tryToolRules } from "./manage-tool-rules";

// An admin gives rules to a tool an MCP client names in its permission prompts (`Bash`), which
// is none of the app's tools: the name is checked as a client may send it, and "try it" judges
// the rules as a prompt would, with tool.source "mcp-client".

const mcp = { tools: async () => [] };

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: { code: string; issues: unknown }) => ({ code: error.code, issues: error.issues }),
  );
}

function suite(provider: TestProvider) {
  let db: Db;
  withTestEngine((started) => ({ db } = started), provider);

  const onlyForClients = [
    { condition: 'tool.source == "mcp-client" && args.command == "ls"', outcome: { kind: "free" } },
    { condition: 'args.command.startsWith("rm")', outcome: { kind: "blocked" } },
  ] as const;

  it("saves rules for a client's tool name and audits the change", async () => {
    const admin = await newUser(db, "admin");
    const saved = await saveToolRules(
      { actor: admin, input: { toolName: "Bash", expected: [], rules: [...onlyForClients] } },
      { db, mcp },
    );
    expect(saved).toEqual({ toolName: "Bash", changed: true });
    const stored = await db.toolRule.findMany({ where: { toolName: "Bash" }, orderBy: { position: "asc" } });
    expect(stored.map((rule) => rule.condition)).toEqual(onlyForClients.map((rule) => rule.condition));
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "tool.rules_changed" } });
    expect(entry).toMatchObject({ actorId: admin.id, targetType: "tool", targetId: "Bash" });
  });

  it("refuses a name no client may send, on /toolName, and changes nothing", async () => {
    const admin = await newUser(db, "admin");
    const [rulesBefore, auditBefore] = [
      await db.toolRule.count(),
      await db.auditLog.count({ where: { action: "tool.rules_changed" } }),
    ];
    for (const toolName of ["Bash tool", "x".repeat(65), "rm;ls", ""]) {
      const refused = await refusal(
        saveToolRules(
          { actor: admin, input: { toolName, expected: [], rules: [...onlyForClients] } },
          { db, mcp },
        ),
      );
      expect(refused).toMatchObject({ code: "bad_request:input", issues: [{ path: "/toolName" }] });
    }
    expect(
      await refusal(
        tryToolRules({ actor: admin, input: { toolName: "a/b", rules: [], args: "{}" } }, { db, mcp }),
      ),
    ).toMatchObject({ issues: [{ path: "/toolName" }] });
    expect(await db.toolRule.count()).toBe(rulesBefore);
    expect(await db.auditLog.count({ where: { action: "tool.rules_changed" } })).toBe(auditBefore);
  });

  it("tries a client tool's rules as a prompt is judged, with tool.source mcp-client", async () => {
    const admin = await newUser(db, "admin");
    const trial = (toolName: string, command: string) =>
      tryToolRules(
        {
          actor: admin,
          input: { toolName, rules: [...onlyForClients], args: JSON.stringify({ command }) },
        },
        { db, mcp },
      );
    expect(await trial("Bash", "ls")).toEqual({
      status: "matched",
      position: 0,
      outcome: { kind: "free" },
      passed: [],
    });
    expect(await trial("mcp__files__read_file", "rm -rf /")).toMatchObject({
      status: "matched",
      position: 1,
    });
    // An app tool of the same rules reads its own source, so the client-only rule passes it by.
    expect(
      await tryToolRules(
        {
          actor: admin,
          input: { toolName: "refund", rules: [...onlyForClients], args: '{"command": "ls"}' },
        },
        { db, mcp },
      ),
    ).toEqual({ status: "no_match", passed: [0, 1] });
  });
}

for (const provider of ["sqlite", "postgres"] as const) {
  describe(`rules for an MCP client's tool on ${provider}`, () => suite(provider));
}
