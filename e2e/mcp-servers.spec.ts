import { randomBytes } from "node:crypto";
import {
  closedPortUrl,
  type RunningServer,
  startReferenceHttpServer,
} from "@/lib/agent/mcp/testing/reference-server";
import { expect, test } from "./fixtures";
import { McpServersPage } from "./pages/mcp-servers-page";

// The protocol's reference server over Streamable HTTP, on a port of its own for this file.
let reference: RunningServer;
test.beforeAll(async () => {
  reference = await startReferenceHttpServer();
});
test.afterAll(async () => {
  await reference?.stop();
});

const unique = (prefix: string) => `${prefix}-${randomBytes(3).toString("hex")}`;

test("an admin adds a remote server, sees it connected with its tools, disables and removes it; the key is never shown", async ({
  signInAs,
}) => {
  const admin = await signInAs("admin");
  const servers = new McpServersPage(admin.page);
  await admin.shell.link("Admin").click();
  await admin.page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Tools" }).click();
  await expect(servers.table).toBeVisible();
  // The bundled ticket tracker comes from the config file, and cannot be changed here.
  await expect(servers.row("tickets")).toContainText("Config file");
  await expect(servers.row("tickets")).toContainText("Connected");

  const name = unique("everything");
  const secret = `sk-${randomBytes(8).toString("hex")}`;
  await servers.addServer(name, reference.url, [{ name: "X-Api-Key", value: secret }]);
  await expect(servers.formStatus).toHaveText(`Added ${name}.`);
  const row = servers.row(name);
  await expect(row).toContainText("Added here");
  await expect(row).toContainText("Connected");
  await expect(row).toContainText("X-Api-Key (values hidden)");
  const tools = Number(await row.getByRole("cell").nth(2).textContent());
  expect(tools).toBeGreaterThan(5);
  // The key went into the form once and is nowhere on the page now, nor after a reload.
  await admin.page.reload();
  await expect(servers.row(name)).toContainText("Connected");
  expect(await admin.page.content()).not.toContain(secret);

  await servers
    .row(name)
    .getByRole("button", { name: `Disable ${name}` })
    .click();
  await expect(servers.row(name)).toContainText("Disabled");
  await expect(servers.row(name).getByRole("cell").nth(2)).toHaveText("—");
  await servers
    .row(name)
    .getByRole("button", { name: `Enable ${name}` })
    .click();
  await expect(servers.row(name)).toContainText("Connected");

  admin.page.once("dialog", (dialog) => void dialog.accept());
  await servers
    .row(name)
    .getByRole("button", { name: `Remove ${name}` })
    .click();
  await expect(servers.row(name)).toHaveCount(0);
});

test("an unreachable server shows as failed with its last error; bad input is refused with the field named", async ({
  signInAs,
}) => {
  const admin = await signInAs("admin");
  const servers = new McpServersPage(admin.page);
  await servers.goto();

  await servers.addServer("has spaces", reference.url);
  await expect(servers.formAlert).toContainText("Name:");
  await servers.addServer(unique("local"), "file:///etc/passwd");
  await expect(servers.formAlert).toContainText("URL:");
  await servers.addServer("tickets", reference.url);
  await expect(servers.formAlert).toContainText("A server with this name already exists");
  await expect(servers.row("has spaces")).toHaveCount(0);

  const name = unique("down");
  await servers.addServer(name, await closedPortUrl());
  await expect(servers.row(name)).toContainText("Failed");
  await expect(servers.row(name).getByRole("cell").nth(3)).not.toHaveText("—");

  admin.page.once("dialog", (dialog) => void dialog.accept());
  await servers
    .row(name)
    .getByRole("button", { name: `Remove ${name}` })
    .click();
  await expect(servers.row(name)).toHaveCount(0);
});

test("only admins reach the tools page", async ({ signInAs }) => {
  const reviewer = await signInAs("reviewer");
  expect((await reviewer.page.goto("/admin/tools"))?.status()).toBe(403);
});
