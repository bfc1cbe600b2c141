import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { RequestForm } from "./pages/request-form";
import { RequestPage } from "./pages/request-page";
import { ToolPoliciesPage } from "./pages/tool-policies-page";

// The demo ticket tracker's read-only tool, which runs freely unless an admin says otherwise.
const LIST = "tickets_list_tickets";
const TICKET_LINE = /#\d+ \[(open|closed)\] \(\w+\) /;

test.describe
  .serial("approval policies", () => {
    test.afterEach(async ({ db }) => {
      // Every other journey expects the tracker's tools under their defaults.
      await db.toolPolicy.deleteMany({ where: { toolName: LIST } });
    });

    test("an admin sets a policy; a user's chat calls the MCP tool; a reviewer approves in the inbox; the result shows live in the chat", async ({
      signInAs,
    }) => {
      // Three people sign in through the real page, and the tracker may still be starting.
      test.setTimeout(180_000);
      const admin = await signInAs("admin");
      const policies = new ToolPoliciesPage(admin.page);
      await policies.gotoWithTool(LIST);
      await expect(policies.row(LIST)).toContainText("mcp:tickets");
      await expect(policies.row(LIST)).toContainText("read-only");
      await expect(policies.row(LIST)).toContainText("Runs freely (default)");
      await policies.setPolicy(LIST, "A reviewer approves");
      await expect(policies.row(LIST)).toContainText("Set by an admin");

      const user = await signInAs("user");
      const chat = new ChatPage(user.page);
      await chat.startNewChat();
      await chat.say("list my tickets");
      const card = chat.requestCard("approval");
      await expect(card).toContainText("A reviewer must act");
      await expect(chat.toolCard(LIST)).toContainText("waiting for an answer");
      const prompt = await chat.requestPrompt(card);
      expect(prompt).toMatch(/^Approve running .+\?$/);

      const reviewer = await signInAs("reviewer");
      const inbox = new InboxPage(reviewer.page);
      await inbox.goto();
      await inbox.open(prompt);
      const request = new RequestPage(reviewer.page);
      await request.expectPrompt(prompt);
      await request.form.approve.click();
      await request.form.expectReadOnly("Approved");

      // The user's tab was never reloaded: the stream carried the approval and the server's result.
      await expect(card).toContainText("Approved");
      await expect(chat.toolCard(LIST)).toContainText(TICKET_LINE);
      await expect(chat.input).toBeEditable();
    });

    test("the owner always allows a tool in one chat, sees it allowed there, and revokes it", async ({
      signInAs,
    }) => {
      // Three people sign in through the real page, and the tracker may still be starting.
      test.setTimeout(180_000);
      const admin = await signInAs("admin");
      const policies = new ToolPoliciesPage(admin.page);
      await policies.gotoWithTool(LIST);
      await policies.setPolicy(LIST, "The chat's owner approves");

      const user = await signInAs("user");
      const chat = new ChatPage(user.page);
      await chat.startNewChat();
      await chat.say("list my tickets");
      const first = chat.requestCard("approval");
      await expect(first).toContainText("You must act");
      await first.getByLabel(`Always allow ${LIST} in this chat`).check();
      await new RequestForm(first).approve.click();
      await expect(chat.toolCard(LIST).first()).toContainText(TICKET_LINE);

      const allowed = user.page.getByRole("region", { name: "Allowed in this chat" });
      await expect(allowed).toContainText(LIST);
      await chat.say("list my tickets");
      await expect(chat.toolCard(LIST)).toHaveCount(2);
      await expect(chat.toolCard(LIST).last()).toContainText(TICKET_LINE);
      await expect(chat.requestCard("approval")).toHaveCount(1);

      await allowed.getByRole("button", { name: `Revoke ${LIST}` }).click();
      await expect(allowed).toHaveCount(0);
      await chat.say("list my tickets");
      await expect(chat.requestCard("approval")).toHaveCount(2);
      await expect(chat.requestCard("approval").last()).toContainText("You must act");
    });
  });
