import { z } from "zod";

export const providerParamsSchema = z.object({
  provider: z.string().regex(/^[a-z][a-z0-9-]{0,30}$/),
});
