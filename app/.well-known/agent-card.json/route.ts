import { AgentCard } from "@a2a-js/sdk";
import { getAppServices } from "@/app/_lib/app-services";
import { buildAgentCard } from "@/app/api/a2a/_lib/agent-card";

// The A2A agent card (ADR 0084): public, as the protocol has clients read it before they sign in.
export async function GET(): Promise<Response> {
  const { db } = await getAppServices();
  const card = await buildAgentCard({ db });
  return Response.json(AgentCard.toJSON(card), { headers: { "Cache-Control": "public, max-age=300" } });
}

export const dynamic = "force-dynamic";
