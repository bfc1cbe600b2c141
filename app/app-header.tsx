import { AppNav } from "@/components/app-nav";
import type { ModelLabel } from "@/components/model-badge";
import { describeModel, readModelConfig } from "@/lib/agent/model-config";
import { getPageUser } from "@/lib/auth/guards";
import { signOutAction } from "./login/actions";

// The page shell reads the session and the model configuration here, so the header component
// itself only renders what it is given.
export async function AppHeader() {
  const user = await getPageUser();
  return <AppNav user={user} model={readModelLabel()} signOutAction={signOutAction} />;
}

function readModelLabel(): ModelLabel {
  try {
    return describeModel(readModelConfig());
  } catch {
    return null;
  }
}
