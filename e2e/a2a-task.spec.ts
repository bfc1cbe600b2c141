import { randomUUID } from "node:crypto";
import { type Message, Role, type StreamResponse, TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { expect, test } from "./fixtures";
import { InboxPage } from "./pages/inbox-page";
import { RequestPage } from "./pages/request-page";

// Another agent gives the built app a task over A2A with the official SDK's client: the task
// parks input-required, a reviewer approves it in the inbox, and the client's stream ends completed.

const PROMPT = "Approve deploying web v1.4 to production?";

function send(value: string) {
  const message: Message = {
    messageId: randomUUID(),
    contextId: "",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [
      { content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

/** A token with the `a2a` scope, made in the settings page as a person would. */
async function a2aToken(page: import("@playwright/test").Page) {
  await page.goto("/settings/tokens");
  await page.getByLabel("Name").fill("other agent");
  await page.getByRole("checkbox", { name: /^a2a —/ }).check();
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!.trim();
  return { serviceParameters: { Authorization: `Bearer ${token}` } };
}

test("an A2A task parks, a reviewer approves it in the inbox, and the A2A client sees it completed", async ({
  signInAs,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await signInAs("user", "Agent owner");
  const auth = await a2aToken(owner.page);

  const client = await new ClientFactory().createFromUrl(baseURL!);
  expect((await client.getAgentCard()).skills.map((skill) => skill.id)).toContain("deploy");
  const parked = await client.sendMessage(send("deploy v1.4 to production"), auth);
  expect("status" in parked && parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const taskId = (parked as { id: string }).id;

  const states: TaskState[] = [];
  const following = (async () => {
    for await (const { payload } of client.resubscribeTask(
      { id: taskId, tenant: "" },
      auth,
    ) as AsyncGenerator<StreamResponse>) {
      if (payload?.$case === "task" || payload?.$case === "statusUpdate")
        states.push(payload.value.status!.state);
    }
  })();

  const reviewer = await signInAs("reviewer");
  const inbox = new InboxPage(reviewer.page);
  await inbox.goto();
  await inbox.open(PROMPT);
  const request = new RequestPage(reviewer.page);
  await request.form.approve.click();
  await request.form.expectReadOnly("Approved");

  await following;
  expect(states[0]).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
  const done = await client.getTask({ id: taskId, tenant: "" }, auth);
  const answer = done.artifacts[0]?.parts[0]?.content;
  expect(answer).toMatchObject({
    $case: "text",
    value: expect.stringMatching(/Deployed web v1\.4 to production/),
  });

  // The task is a chat of the token's owner, in the app like any other.
  await owner.page.goto(`/chat/${done.contextId}`);
  await expect(owner.page.getByText(/Deployed web v1\.4 to production/).first()).toBeVisible();
});

test("a task whose run needs a sign-in is auth-required, with the provider's sign-in address", async ({
  signInAs,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await signInAs("user", "Agent owner");
  const auth = await a2aToken(owner.page);
  const client = await new ClientFactory().createFromUrl(baseURL!);
  const parked = await client.sendMessage(send("what's my balance?"), auth);
  expect("status" in parked && parked.status?.state).toBe(TaskState.TASK_STATE_AUTH_REQUIRED);
  const [prompt, request] = (parked as { status: { message: Message } }).status.message.parts;
  expect(prompt?.content).toMatchObject({ $case: "text", value: expect.stringMatching(/Sign in: http/) });
  expect(request?.content).toMatchObject({
    $case: "data",
    value: { request: { kind: "authorization", url: expect.stringMatching(/^http/) } },
  });
  // Cancelled again, so no sign-in is left waiting for later journeys.
  await client.cancelTask({ id: (parked as { id: string }).id, tenant: "", metadata: undefined }, auth);
});
