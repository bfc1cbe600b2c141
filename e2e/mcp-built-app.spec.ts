import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { InboxPage } from "./pages/inbox-page";
import { RequestForm } from "./pages/request-form";

// The built app, through the production entry, as agents outside it meet it: the official MCP
// SDK's client on /api/mcp, and the Python port's wait_for (examples/python/inbox_wait_for.py)
// on /api/v1, killed while it waits and run again.

async function newToken(page: Page, name: string): Promise<string> {
  await page.goto("/settings/tokens");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create token" }).click();
  return (await page.getByTestId("new-token").textContent())!.trim();
}

test("/api/mcp lists its tools to a token, and refuses no token and a GET with a JSON-RPC error", async ({
  signInAs,
  baseURL,
}) => {
  const owner = await signInAs("user", "MCP lister");
  const token = await newToken(owner.page, "inspector");
  const client = new Client({ name: "e2e-inspector", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "ask_human",
      "permission_prompt",
      "request_approval",
    ]);
  } finally {
    await client.close();
  }

  const noToken = await fetch(`${baseURL}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(noToken.status).toBe(401);
  expect((await noToken.json()).error.message).toMatch(/No API token/);
  const get = await fetch(`${baseURL}/api/mcp`, { headers: { authorization: `Bearer ${token}` } });
  expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
  expect((await get.json()).error.data.code).toBe("method_not_allowed:route");
});

function runPython(env: { url: string; token: string }, prompt: string) {
  let output = "";
  const child: ChildProcess = spawn("python3", [path.resolve("examples/python/inbox_wait_for.py"), prompt], {
    env: { ...process.env, TOOLNEXUS_URL: env.url, TOOLNEXUS_TOKEN: env.token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    output: () => output,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

async function apiRequests(origin: string, token: string): Promise<{ id: string; status: string }[]> {
  const response = await fetch(`${origin}/api/v1/requests`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return response.ok ? (await response.json()).requests : [];
}

test("the Python port's wait_for asks once, survives being killed, and returns the inbox's approval", async ({
  signInAs,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await signInAs("user", "Python owner");
  const token = await newToken(owner.page, "python agent");
  const prompt = `Ship build ${randomBytes(2).readUInt16BE()}?`;
  const first = runPython({ url: baseURL!, token }, prompt);
  try {
    await expect.poll(() => apiRequests(baseURL!, token), { timeout: 30_000 }).toHaveLength(1);
  } finally {
    await first.kill();
  }

  const reviewer = await signInAs("reviewer", "Python reviewer");
  const inbox = new InboxPage(reviewer.page);
  await inbox.goto();
  await inbox.open(prompt);
  const form = new RequestForm(reviewer.page.getByRole("main"));
  await form.approve.click();
  await form.expectReadOnly("Approved");

  const second = runPython({ url: baseURL!, token }, prompt);
  try {
    expect(await second.exited).toBe(0);
    expect(JSON.parse(second.output().trim())).toMatchObject({ id: prompt, ok: true });
    expect(await apiRequests(baseURL!, token)).toHaveLength(1);
  } finally {
    await second.kill();
  }
});
