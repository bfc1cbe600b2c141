import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { InboxPage } from "./pages/inbox-page";

test("an empty inbox with its default filters says all caught up; a filtered one says nothing matches", async ({
  signInAs,
}) => {
  // A fresh user has asked nothing, so nothing waits for them.
  const user = await signInAs("user");
  const inbox = new InboxPage(user.page);
  await inbox.goto();
  await expect(user.page.getByText("All caught up")).toBeVisible();
  await expect(user.page.getByText("No requests match these filters.")).toHaveCount(0);
  await expectAccessible(user.page);

  await inbox.goto("?status=expired");
  await expect(user.page.getByText("No requests match these filters.")).toBeVisible();
  await expect(user.page.getByText("All caught up")).toHaveCount(0);
});
