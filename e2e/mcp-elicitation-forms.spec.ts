import { randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { startOddFormsServer } from "./odd-forms-server";
import { ChatPage } from "./pages/chat-page";
import { RequestForm } from "./pages/request-form";

let server: Awaited<ReturnType<typeof startOddFormsServer>>;
const name = `odd${randomBytes(3).toString("hex")}`;

test.beforeAll(async () => {
  server = await startOddFormsServer();
});
test.afterAll(async () => {
  await server?.close();
});

test("a server's form that asks for a key carries a warning, and is declined or answered like any form", async ({
  signInAs,
  db,
}) => {
  const { createMcpServer } = await import("@/lib/db/mcp-servers");
  await createMcpServer({
    db,
    server: { name, url: server.url, headerNames: [], headersEnc: null },
    actorId: "e2e",
  });
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();

  await chat.say(`call ${name}_ask_key`);
  const keyCard = chat.requestCard("input", "Connect your billing account");
  await expect(keyCard.getByRole("note")).toContainText("“API key”", { timeout: 30_000 });
  await expect(keyCard.getByRole("note")).toContainText("must not ask for secrets");
  await new RequestForm(keyCard).decline.click();
  await expect(chat.toolCard(`${name}_ask_key`)).toContainText("decline: {}");

  await chat.say(`call ${name}_ask_key`);
  const again = chat
    .requestCard("input", "Connect your billing account")
    .and(user.page.locator(".pending-card-open"));
  const form = new RequestForm(again);
  await form.field("Account").fill("acme");
  await form.submit.click();
  await expect(chat.toolCard(`${name}_ask_key`).last()).toContainText('accept: {"account":"acme"}');
});
