import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { BuiltinToolsPage } from "./pages/builtin-tools-page";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { RequestPage } from "./pages/request-page";
import { ToolPoliciesPage } from "./pages/tool-policies-page";

test.describe
  .serial("built-in tools", () => {
    test.beforeAll(() => {
      // The server's TOOLNEXUS_WORKSPACE (playwright.config.ts): bash starts there.
      mkdirSync(path.join(process.env.E2E_DATA_DIR!, "workspace"), { recursive: true });
    });
    test.afterEach(async ({ db }) => {
      // Every other journey runs with the built-ins off, as a deployment starts.
      await db.builtinTool.deleteMany({});
    });

    test("an admin switches bash on; Alice asks the demo agent to use it; a reviewer approves; the output shows in her chat", async ({
      signInAs,
      db,
    }) => {
      test.setTimeout(180_000);
      const admin = await signInAs("admin");
      const builtins = new BuiltinToolsPage(admin.page);
      await builtins.goto();
      await expect(builtins.row("bash")).toContainText("Off");
      await builtins.switchOn("bash");
      await expect(builtins.row("bash")).toContainText("On");
      // Switched on, it is listed with the other tools under its default: a reviewer approves.
      const policies = new ToolPoliciesPage(admin.page);
      await expect(policies.row("bash")).toContainText("builtin");
      await expect(policies.row("bash")).toContainText("A reviewer approves (default)");
      const audit = await db.auditLog.findMany({
        where: { targetId: "bash" },
        select: { action: true, actorId: true },
      });
      expect(audit).toEqual([{ action: "tool.builtin_enabled", actorId: admin.user.id }]);

      const alice = await signInAs("user", "Alice");
      const chat = new ChatPage(alice.page);
      await chat.startNewChat();
      await chat.say("run `echo built-in says hi from $(basename $PWD)` in the shell");
      const card = chat.requestCard("approval");
      await expect(card).toContainText("A reviewer must act");
      await expect(chat.toolCard("bash")).toContainText("waiting for an answer");
      const prompt = await chat.requestPrompt(card);
      expect(prompt).toContain("Run in a shell on the server: echo built-in says hi");

      const reviewer = await signInAs("reviewer");
      const inbox = new InboxPage(reviewer.page);
      await inbox.goto();
      await inbox.open(prompt);
      const request = new RequestPage(reviewer.page);
      await request.expectPrompt(prompt);
      await request.form.approve.click();
      await request.form.expectReadOnly("Approved");

      // Alice's tab was never reloaded: the stream carried the approval and the command's output,
      // run in the configured workspace.
      await expect(card).toContainText("Approved");
      await expect(chat.toolCard("bash")).toContainText("built-in says hi from workspace");
      await expect(chat.input).toBeEditable();
    });
  });
