import { expect, type Locator, type Page } from "@playwright/test";

/** The sign-in page, driven the way a person uses it. */
export class LoginPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;
  readonly demoAccounts: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel("Email");
    this.password = page.getByLabel("Password");
    this.submit = page.getByRole("button", { name: "Sign in" });
    this.error = page.getByRole("main").getByRole("alert");
    this.demoAccounts = page.getByRole("region", { name: /Demo accounts/ });
  }

  async goto(callbackUrl?: string): Promise<void> {
    await this.page.goto(callbackUrl ? `/login?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/login");
    await expect(this.submit).toBeVisible();
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }

  fieldError(field: "email" | "password"): Locator {
    return this.page.locator(`#${field}-error`);
  }
}
