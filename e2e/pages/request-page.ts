import { expect, type Page } from "@playwright/test";
import { RequestForm } from "./request-form";

/** `/requests/[id]`: one request, rendered by kind. */
export class RequestPage {
  readonly form: RequestForm;

  constructor(readonly page: Page) {
    this.form = new RequestForm(page.getByRole("main"));
  }

  async goto(id: string): Promise<void> {
    await this.page.goto(`/requests/${id}`);
  }

  async expectPrompt(prompt: string): Promise<void> {
    await expect(this.page.getByRole("heading", { level: 1, name: prompt })).toBeVisible();
  }

  requestId(): string {
    const id = new URL(this.page.url()).pathname.split("/").at(-1);
    if (!id) throw new Error(`not on a request page: ${this.page.url()}`);
    return id;
  }
}
