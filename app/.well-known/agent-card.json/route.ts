import { A2A_VERSION_HEADER } from "@a2a-js/sdk";
import { getAppServices } from "@/app/_lib/app-services";
import { agentCardJson, buildAgentCard } from "@/app/api/a2a/_lib/agent-card";

// The A2A agent card (ADR 0084): public, as the protocol has clients read it before they sign in;
// v1.0 to a client that asks for it, v0.3 to one that names no version.
export async function GET(request: Request): Promise<Response> {
  const { db } = await getAppServices();
  const card = await buildAgentCard({ db });
  return Response.json(agentCardJson(card, request.headers.get(A2A_VERSION_HEADER)), {
    headers: { "Cache-Control": "public, max-age=300", Vary: A2A_VERSION_HEADER },
  });
}

export const dynamic = "force-dynamic";
