import { expect, type Locator } from "@playwright/test";

/** The answer form inside a request card or on a request page; scoped to its container. */
export class RequestForm {
  readonly approve: Locator;
  readonly decline: Locator;
  readonly declineReason: Locator;
  readonly submit: Locator;
  readonly sendAnswer: Locator;
  readonly alert: Locator;
  readonly sent: Locator;

  constructor(readonly root: Locator) {
    this.approve = root.getByRole("button", { name: "Approve", exact: true });
    this.decline = root.getByRole("button", { name: "Decline", exact: true });
    // One note box: the approval's note, or the reason the agent reads when it is declined.
    this.declineReason = root.getByLabel("Note (optional)");
    this.submit = root.getByRole("button", { name: "Submit", exact: true });
    this.sendAnswer = root.getByRole("button", { name: "Send answer", exact: true });
    this.alert = root.getByRole("alert");
    this.sent = root.getByText("Answer sent.");
  }

  field(label: string | RegExp): Locator {
    return this.root.getByLabel(label);
  }

  async declineWith(reason: string): Promise<void> {
    await this.declineReason.fill(reason);
    await this.decline.click();
  }

  async expectReadOnly(
    headline: "Approved" | "Answered" | "Declined" | "Expired" | "Cancelled",
  ): Promise<void> {
    const answer = this.root.getByRole("region", { name: "Answer" });
    await expect(answer).toBeVisible();
    await expect(answer).toContainText(headline);
    await expect(this.approve).toHaveCount(0);
  }
}
