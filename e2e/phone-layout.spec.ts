import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { AppShell } from "./pages/app-shell";
import { ChatPage } from "./pages/chat-page";

// Measured at 390 × 844 before the phone layout: with 25 chats the message box of a new chat
// started 1,379 px down a 1,555 px page, the header took 145 px on three rows, and while a run
// waited the box was 195 px wide with its placeholder on three lines. These are the bounds now.
const HEADER_MAX_HEIGHT = 64;
const BOX_MIN_WIDTH = 350;

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not rendered");
  return found;
}

/** The number of lines the textarea's placeholder takes at the box's width and font. */
function placeholderLines(input: Locator): Promise<number> {
  return input.evaluate((element) => {
    const textarea = element as HTMLTextAreaElement;
    const style = getComputedStyle(textarea);
    const mirror = document.createElement("div");
    mirror.textContent = textarea.placeholder;
    Object.assign(mirror.style, {
      position: "absolute",
      visibility: "hidden",
      whiteSpace: "pre-wrap",
      boxSizing: "content-box",
      width: `${textarea.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)}px`,
      font: style.font,
      letterSpacing: style.letterSpacing,
      lineHeight: style.lineHeight,
    });
    document.body.append(mirror);
    const lines = Math.round(mirror.getBoundingClientRect().height / parseFloat(style.lineHeight));
    mirror.remove();
    return lines;
  });
}

test.describe("the phone layout @phone-only", () => {
  test("with many chats, a chat opens on its conversation and box; the list and the header's menu are disclosures", async ({
    signInAs,
  }) => {
    const { page } = await signInAs("user");
    const chat = new ChatPage(page);
    const shell = new AppShell(page);
    for (let n = 0; n < 25; n += 1) {
      await page.goto("/chat");
      await chat.newChat.click();
      await expect(page).toHaveURL(/\/chat\/[^/]+$/);
    }
    const viewport = page.viewportSize()!;

    // The header is one row: the brand and the menu button side by side.
    const header = await box(page.locator(".app-header"));
    expect(header.height).toBeLessThanOrEqual(HEADER_MAX_HEIGHT);
    const brand = await box(shell.nav.getByRole("link", { name: "toolnexus" }));
    const menuButton = await box(shell.menu);
    expect(Math.abs(brand.y + brand.height / 2 - (menuButton.y + menuButton.height / 2))).toBeLessThan(4);
    await expect(shell.link("Inbox")).toBeHidden();

    // The conversation and the message box are on the first screen; the list is folded.
    const toggle = chat.sidebar.getByRole("button", { name: "Chats (25)" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    const links = chat.sidebar.getByRole("link", { includeHidden: true });
    await expect(links).toHaveCount(25);
    await expect(links.first()).toBeHidden();
    const input = await box(chat.input);
    expect(input.y + input.height).toBeLessThanOrEqual(viewport.height);
    expect(input.width).toBeGreaterThanOrEqual(BOX_MIN_WIDTH);
    await expect(chat.title).toBeInViewport();

    // The list's button unfolds the list it controls, and a chat picked from it folds it again.
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const list = page.locator(`[id="${await toggle.getAttribute("aria-controls")}"]`);
    await expect(list.getByRole("link").first()).toBeVisible();
    await list.getByRole("link").nth(3).click();
    await expect(page).toHaveURL(/\/chat\/[^/]+$/);
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(links.first()).toBeHidden();

    // The menu shows the links and the account; Escape folds it and gives focus back.
    await shell.openMenu();
    await expect(shell.link("Inbox")).toBeVisible();
    await expect(shell.signOutButton).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(shell.menu).toHaveAttribute("aria-expanded", "false");
    await expect(shell.menu).toBeFocused();
    await expect(shell.link("Inbox")).toBeHidden();
    await shell.openMenu();
    await shell.link("Settings").focus();
    await page.keyboard.press("Escape");
    await expect(shell.menu).toHaveAttribute("aria-expanded", "false");
    await expect(shell.menu).toBeFocused();
    await shell.openMenu();
    await shell.link("Inbox").click();
    await expect(page).toHaveURL(/\/inbox$/);
    await expect(shell.menu).toHaveAttribute("aria-expanded", "false");
  });

  test("a request card that arrives below the screen is scrolled into view, and the waiting box keeps the width", async ({
    signInAs,
  }) => {
    const { page } = await signInAs("user");
    const chat = new ChatPage(page);
    await chat.startNewChat();
    // Two long replies push the next card below the first screen.
    for (let n = 0; n < 2; n += 1) {
      await chat.say("help");
      await expect(chat.assistantMessages().nth(n)).toContainText("what's my balance");
      await expect(chat.input).toHaveAttribute("placeholder", "Ask the agent for something");
    }
    await chat.say("deploy v1.4 to production");
    const card = chat.requestCard("approval", "Approve deploying web v1.4 to production?");
    await expect(card).toBeVisible();
    const cardTop = await card.evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
    expect(cardTop).toBeGreaterThan(page.viewportSize()!.height);
    await expect(card).toBeInViewport();

    await expect(chat.input).toHaveAttribute("placeholder", /^Waiting for the request above/);
    await expect(chat.stop).toBeVisible();
    expect((await box(chat.input)).width).toBeGreaterThanOrEqual(BOX_MIN_WIDTH);
    expect(await placeholderLines(chat.input)).toBeLessThanOrEqual(2);
  });
});

test("on a phone the header says how many requests wait, live, outside the closed menu @phone-only", async ({
  signInAs,
}) => {
  const { page } = await signInAs("user");
  const shell = new AppShell(page);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  const waiting = shell.nav.getByTestId("header-inbox-count");
  await expect(waiting).toHaveCount(0);
  await chat.say("book a flight from BER to LIS");
  await expect(chat.requestCard("input")).toBeVisible();
  // The menu stays closed: the header itself carries the number the folded link would show.
  await expect(shell.menu).toHaveAttribute("aria-expanded", "false");
  await expect(shell.menu).toHaveAccessibleName("Menu");
  await expect(waiting).toBeVisible();
  await expect(waiting).toHaveAccessibleName("1 waiting in your inbox");
  await shell.openMenu();
  await expect(shell.link("Inbox")).toHaveAccessibleName("Inbox 1 waiting");
  await page.keyboard.press("Escape");
  await waiting.click();
  await expect(page).toHaveURL(/\/inbox$/);
});

test("a desktop keeps the chat list, the links and the account in view, with no menu buttons", async ({
  signInAs,
}) => {
  const { page } = await signInAs("user");
  const chat = new ChatPage(page);
  const shell = new AppShell(page);
  await chat.startNewChat();
  await expect(chat.sidebar.getByRole("link").first()).toBeVisible();
  await expect(chat.sidebar.getByRole("button", { name: /^Chats/ })).toBeHidden();
  await expect(shell.menu).toBeHidden();
  await expect(shell.nav.getByTestId("header-inbox-count")).toBeHidden();
  for (const name of ["Chat", "Inbox", "Settings"] as const) await expect(shell.link(name)).toBeVisible();
  await expect(shell.signOutButton).toBeVisible();
  const header = await box(page.locator(".app-header"));
  expect(header.height).toBeLessThanOrEqual(HEADER_MAX_HEIGHT);
});
