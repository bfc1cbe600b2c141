import { AppNav } from "@/components/app-nav";
import type { ModelLabel } from "@/components/model-badge";
import { describeModel, readModelConfig } from "@/lib/agent/model-config";
import { getPageUser } from "@/lib/auth/guards";
import { countWaitingRequestsByViewer } from "@/lib/db/waiting-requests";
import type { Role } from "@/lib/domain/roles";
import { getAppServices } from "./_lib/app-services";
import { signOutAction } from "./login/actions";

// The page shell reads the session and the model configuration here, so the header component
// itself only renders what it is given.
export async function AppHeader() {
  const user = await getPageUser();
  const inboxCount = user ? await readInboxCount(user) : undefined;
  return (
    <AppNav
      user={user}
      model={readModelLabel()}
      signOutAction={signOutAction}
      {...(inboxCount === undefined ? {} : { inboxCount })}
    />
  );
}

// The header must render even when the count cannot be read: it then starts at none, and the
// live count brings the number.
async function readInboxCount(user: { id: string; role: Role }): Promise<number | undefined> {
  try {
    const { db } = await getAppServices();
    return await countWaitingRequestsByViewer({ db, viewer: { id: user.id, role: user.role } });
  } catch {
    return undefined;
  }
}

function readModelLabel(): ModelLabel {
  try {
    return describeModel(readModelConfig());
  } catch {
    return null;
  }
}
