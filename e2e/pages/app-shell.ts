import { expect, type Locator, type Page } from "@playwright/test";

/** The top navigation every signed-in page shows; on a phone its links and account sit in a menu. */
export class AppShell {
  readonly nav: Locator;
  readonly user: Locator;
  readonly role: Locator;
  readonly signOutButton: Locator;
  /** The phone's menu button; wide screens show the menu's contents inline and no button. */
  readonly menu: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole("navigation", { name: "Main" });
    this.user = this.nav.getByTestId("signed-in-user");
    this.role = this.nav.getByTestId("role-badge");
    this.signOutButton = this.nav.getByRole("button", { name: "Sign out" });
    this.menu = this.nav.getByRole("button", { name: "Menu" });
  }

  /** Opens the phone's menu so its links can be used; does nothing where there is no menu button. */
  async openMenu(): Promise<void> {
    if (!(await this.menu.isVisible())) return;
    if ((await this.menu.getAttribute("aria-expanded")) !== "true") await this.menu.click();
    await expect(this.menu).toHaveAttribute("aria-expanded", "true");
  }

  link(name: "Chat" | "Inbox" | "Settings" | "Admin"): Locator {
    // The Inbox entry also says how many requests wait ("Inbox 3 waiting").
    return this.nav.getByRole("link", {
      name: name === "Inbox" ? /^Inbox( \d+ waiting)?$/ : name,
      exact: true,
    });
  }

  /** The number beside "Inbox": requests waiting for the signed-in person; absent at zero. */
  get inboxCount(): Locator {
    return this.nav.getByTestId("inbox-count");
  }

  async expectSignedIn(name: string, role: string): Promise<void> {
    await expect(this.user).toHaveText(`Signed in as ${name}`);
    await expect(this.role).toHaveText(role);
  }

  async signOut(): Promise<void> {
    await this.openMenu();
    await this.signOutButton.click();
    await expect(this.page).toHaveURL(/\/login/);
  }
}
