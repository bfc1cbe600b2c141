import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";

// Order numbers of this run only, so requests other tests leave behind never match.
const series = `K${Date.now().toString(36).toUpperCase()}`;
const refund = (n: number) =>
  [`refund order ${series}-${n} for $120`, `Approve a refund of $120.00 for order ${series}-${n}?`] as const;

test("a reviewer triages five requests in at most 10 keys: the pane follows j/k, a and d act and move on, x then Shift+A approves the selection", async ({
  signInAs,
  db,
}) => {
  // Several chats and a reviewer on a shared, slow machine: more than the default minute.
  test.setTimeout(180_000);
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  const asks = [refund(1), refund(2), refund(3), refund(4), refund(5)] as const;
  for (const [message, prompt] of asks) {
    await chat.startNewChat();
    await chat.say(message);
    await expect(chat.requestCard("approval", prompt)).toBeVisible();
  }

  const reviewer = await signInAs("reviewer");
  const { page } = reviewer;
  const inbox = new InboxPage(page);
  await inbox.goto(`?sort=oldest&q=${encodeURIComponent(`order ${series}`)}`);
  await expect(inbox.list.getByRole("listitem")).toHaveCount(5);
  const link = (n: number) => inbox.list.getByRole("link", { name: asks[n]![1] });
  const paneShows = (n: number) => expect(inbox.detailShows(asks[n]![1])).toBeVisible();

  // ? lists the shortcuts; Escape closes the list again. (Not part of the triage.)
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toContainText("Approve the highlighted request and move to the next");
  await expect(help).toContainText("Shift+A");
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  // Every key of the triage goes through here, so the count is of what was really pressed.
  let keys = 0;
  const press = async (key: string) => {
    keys += 1;
    await page.keyboard.press(key);
  };

  // j highlights the first request and the pane follows, without Enter.
  await press("j");
  await expect(link(0)).toBeFocused();
  await paneShows(0);
  await expect(page).toHaveURL(/selected=/);
  // The buttons carry their keys.
  await expect(inbox.detailForm.approve).toContainText("a");

  // a approves what is highlighted and moves on to the next one.
  await press("a");
  await paneShows(1);
  await expect(link(1)).toBeFocused();
  await expect(inbox.row(asks[0][1])).toHaveCount(0);
  await press("a");
  await paneShows(2);

  // d puts the cursor in the reason (the d is not typed); Ctrl+Enter sends it and moves on.
  await press("d");
  await expect(inbox.detailForm.declineReason).toBeFocused();
  await expect(inbox.detailForm.declineReason).toHaveValue("");
  await page.keyboard.type("a duplicate");
  await press("Control+Enter");
  await paneShows(3);
  await expect(inbox.row(asks[2][1])).toHaveCount(0);

  // x selects the highlighted row, j moves (the pane follows), x again, and Shift+A approves both.
  await press("x");
  await expect(inbox.select(asks[3][1])).toBeChecked();
  await press("j");
  await paneShows(4);
  await press("x");
  await expect(page.getByText("2 selected")).toBeVisible();
  await press("Shift+A");
  await expect(inbox.list.getByRole("listitem")).toHaveCount(0);

  expect(keys).toBeLessThanOrEqual(10);
  // Each decision takes effect once its Undo window has passed.
  const answers = async () => {
    const rows = await db.request.findMany({
      where: { prompt: { in: asks.map(([, prompt]) => prompt) } },
      select: { prompt: true, answer: { select: { ok: true, data: true } } },
    });
    const byPrompt = new Map(rows.map((row) => [row.prompt, row.answer]));
    return asks.map(([, prompt]) => byPrompt.get(prompt) ?? null);
  };
  await expect
    .poll(async () => (await answers()).map((answer) => answer?.ok), { timeout: 20_000 })
    .toEqual([true, true, false, true, true]);
  expect((await answers())[2]?.data).toEqual({ reason: "a duplicate" });
});

test("e goes to the field the tool constrains, Esc leaves any field, / searches", async ({ signInAs }) => {
  // Several chats and a reviewer on a shared, slow machine: more than the default minute.
  test.setTimeout(180_000);
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  const version = `v9.${Date.now() % 100_000}`;
  const prompt = `Approve deploying web ${version} to production?`;
  await chat.startNewChat();
  await chat.say(`deploy ${version} to production`);
  await expect(chat.requestCard("approval", prompt)).toBeVisible();

  const reviewer = await signInAs("reviewer");
  const { page } = reviewer;
  const inbox = new InboxPage(page);
  await inbox.goto(`?q=${encodeURIComponent(version)}`);
  const row = inbox.list.getByRole("link", { name: prompt });
  await page.keyboard.press("j");
  await expect(inbox.detailShows(prompt)).toBeVisible();

  // e lands in the version, the argument a reviewer changes; Esc leaves it for the list again.
  await page.keyboard.press("e");
  await expect(inbox.detailForm.field("Version")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(row).toBeFocused();

  // d, some words, then Esc: the cursor is back on the list and the words stay in the reason.
  await page.keyboard.press("d");
  await page.keyboard.type("not yet");
  await page.keyboard.press("Escape");
  await expect(row).toBeFocused();
  await expect(inbox.detailForm.declineReason).toHaveValue("not yet");

  // / goes to the search box, where j, k and x are letters; Esc leaves it.
  await page.keyboard.press("/");
  await expect(inbox.search).toBeFocused();
  await inbox.search.press("End");
  await page.keyboard.type(" jkx");
  await expect(inbox.search).toHaveValue(`${version} jkx`);
  await page.keyboard.press("Escape");
  await expect(inbox.search).not.toBeFocused();
  // Nothing was decided by any of it.
  await expect(inbox.detailForm.approve).toBeEnabled();
});
