import { handlers } from "@/lib/auth/next-auth";

// next-auth's own endpoints (sign-in, callback, session, CSRF): they authenticate by design.
export const { GET, POST } = handlers;
