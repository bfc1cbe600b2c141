import { expect, type Locator, type Page } from "@playwright/test";
import { RequestForm } from "./request-form";

/** A chat thread: the message list, the composer, and the cards runs leave in it. */
export class ChatPage {
  readonly messages: Locator;
  readonly input: Locator;
  readonly send: Locator;
  /** Shown next to Send while the thread's last run is running or parked. */
  readonly stop: Locator;
  /** The chat's error line (the app's route announcer is an alert too, outside main). */
  readonly alert: Locator;
  readonly newChat: Locator;
  readonly title: Locator;
  /** The quiet line shown while the chat reattaches to a run whose stream was lost. */
  readonly reconnecting: Locator;
  /** Shown with the alert once reattaching has failed for a while, or the browser is offline. */
  readonly retry: Locator;
  /** The list of the user's chats beside the thread. */
  readonly sidebar: Locator;

  constructor(readonly page: Page) {
    this.messages = page.getByRole("list", { name: "Messages" });
    this.input = page.getByLabel("Message", { exact: true });
    this.send = page.getByRole("button", { name: "Send", exact: true });
    this.stop = page.getByRole("button", { name: "Stop the run", exact: true });
    this.alert = page.getByRole("main").getByRole("alert");
    this.newChat = page.getByRole("button", { name: "New chat" });
    this.title = page.getByRole("heading", { level: 1 });
    this.reconnecting = page.getByRole("main").getByRole("status").filter({ hasText: "Reconnecting…" });
    this.retry = page.getByRole("button", { name: "Retry", exact: true });
    this.sidebar = page.getByRole("navigation", { name: "Chats" });
  }

  /** `origin` reaches the app another way than the base URL (through a relay, say). */
  async startNewChat(origin = ""): Promise<void> {
    await this.page.goto(`${origin}/chat`);
    await this.newChat.click();
    await expect(this.page).toHaveURL(/\/chat\/[^/]+$/);
    await expect(this.input).toBeEditable();
  }

  threadId(): string {
    const id = new URL(this.page.url()).pathname.split("/").at(-1);
    if (!id) throw new Error(`not on a chat page: ${this.page.url()}`);
    return id;
  }

  async say(text: string): Promise<void> {
    await this.input.fill(text);
    await expect(this.send).toBeEnabled();
    await this.send.click();
    await expect(this.userMessages().filter({ hasText: text }).last()).toBeVisible();
  }

  userMessages(): Locator {
    return this.messages.getByRole("listitem").filter({ has: this.page.getByText("You said:") });
  }

  assistantMessages(): Locator {
    return this.messages.getByRole("listitem").filter({ has: this.page.getByText("Assistant:") });
  }

  /** The card of a parked request, by kind and (part of) its prompt. */
  requestCard(kind: string, prompt?: string | RegExp): Locator {
    const cards = this.messages.getByRole("article", { name: `Request: ${kind}` });
    return prompt === undefined ? cards : cards.filter({ hasText: prompt });
  }

  /** The prompt of a request card: quoted under the tool's sentence, else the card's heading. */
  async requestPrompt(card: Locator): Promise<string> {
    await expect(card.getByRole("heading", { level: 3 })).toBeVisible();
    const quoted = card.locator(".decision-prompt q");
    const text = (await quoted.count()) > 0 ? quoted : card.getByRole("heading", { level: 3 });
    return (await text.textContent()) ?? "";
  }

  toolCard(name: string): Locator {
    return this.messages.getByRole("article", { name: `Tool call ${name}` });
  }

  /**
   * A chat's link in the sidebar, by (the start of) its title; its accessible name is the title
   * followed by the chat's status while its latest run has not ended ("Needs you", say).
   */
  sidebarItem(title: string): Locator {
    return this.sidebar.getByRole("link", { name: title });
  }

  runStatus(): Locator {
    return this.messages.getByRole("status");
  }

  /** As the chat's owner, approves the open approval a tool's policy asks for in this chat. */
  async approveOpenApproval(): Promise<void> {
    const card = this.requestCard("approval").and(this.page.locator(".pending-card-open"));
    await expect(card).toContainText("You must act", { timeout: 30_000 });
    await new RequestForm(card).approve.click();
    await expect(card).toHaveCount(0);
  }
}
