import { redirect } from "next/navigation";
import { getPageUser } from "@/lib/auth/guards";
import { countWaitingRequestsByViewer } from "@/lib/db/waiting-requests";
import { hasRole, type Role } from "@/lib/domain/roles";
import { getAppServices } from "./_lib/app-services";

// Decided on the server from the same count the header shows: a reviewer with something waiting
// lands where it can be decided, everyone else (and a reviewer at inbox zero) on the chat.
export const dynamic = "force-dynamic";

export default async function Home() {
  const user = await getPageUser();
  if (user && hasRole(user.role, "reviewer") && (await waitingFor(user)) > 0) redirect("/inbox");
  redirect("/chat");
}

// A count that cannot be read sends the reviewer to the chat, as before there was a choice.
async function waitingFor(user: { id: string; role: Role }): Promise<number> {
  try {
    const { db } = await getAppServices();
    return await countWaitingRequestsByViewer({ db, viewer: { id: user.id, role: user.role } });
  } catch {
    return 0;
  }
}
