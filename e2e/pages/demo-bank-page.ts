import { expect, type Locator, type Page } from "@playwright/test";

/** The demo OAuth provider's sign-in and consent pages ("Demo Bank"). */
export class DemoBankPage {
  readonly username: Locator;
  readonly password: Locator;
  readonly signIn: Locator;
  readonly allow: Locator;
  readonly deny: Locator;

  constructor(readonly page: Page) {
    this.username = page.getByLabel("Username");
    this.password = page.getByLabel("Password");
    this.signIn = page.getByRole("button", { name: "Sign in" });
    this.allow = page.getByRole("button", { name: "Allow" });
    this.deny = page.getByRole("button", { name: "Deny" });
  }

  /** The demo provider has two customers: `demo` (Dana Demo) and `alex` (Alex Example). */
  async signInAsDemo(username: "demo" | "alex" = "demo"): Promise<void> {
    await expect(this.page.getByRole("heading", { name: "Sign in to Demo Bank" })).toBeVisible();
    await this.username.fill(username);
    await this.password.fill(username);
    await this.signIn.click();
    await expect(this.page.getByRole("heading", { name: "Allow access?" })).toBeVisible();
  }
}
