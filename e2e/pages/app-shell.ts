import { expect, type Locator, type Page } from "@playwright/test";

/** The top navigation every signed-in page shows. */
export class AppShell {
  readonly nav: Locator;
  readonly user: Locator;
  readonly role: Locator;
  readonly signOutButton: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole("navigation", { name: "Main" });
    this.user = this.nav.getByTestId("signed-in-user");
    this.role = this.nav.getByTestId("role-badge");
    this.signOutButton = this.nav.getByRole("button", { name: "Sign out" });
  }

  link(name: "Chat" | "Inbox" | "Settings" | "Admin"): Locator {
    return this.nav.getByRole("link", { name, exact: true });
  }

  async expectSignedIn(name: string, role: string): Promise<void> {
    await expect(this.user).toHaveText(`Signed in as ${name}`);
    await expect(this.role).toHaveText(role);
  }

  async signOut(): Promise<void> {
    await this.signOutButton.click();
    await expect(this.page).toHaveURL(/\/login/);
  }
}
