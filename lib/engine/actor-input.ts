import { z } from "zod";
import { ROLES } from "@/lib/domain/roles";

/** Who is acting, as every engine entry point takes it from the app's session. */
export const actorInput = z.object({
  id: z.string().min(1).max(200),
  role: z.enum(ROLES),
});

export const requestActionInput = z.object({ requestId: z.string().min(1).max(200), actor: actorInput });
